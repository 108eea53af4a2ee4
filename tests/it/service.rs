//! The service without a transport: replays across the validity window and
//! concurrent identical checks.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use asasked::catalog::Catalog;
use asasked::evidence::{self, EvidenceStore};
use asasked::service::{CheckRequest, Clock, Service};
use chrono::{DateTime, Utc};
use serde_json::json;

struct MovableClock(AtomicI64);

impl Clock for MovableClock {
    fn now(&self) -> DateTime<Utc> {
        DateTime::from_timestamp(self.0.load(Ordering::SeqCst), 0).unwrap()
    }
}

/// The service with the offline extractor alone, no catalog, its evidence
/// in `directory`, at a fixed time.
fn rules_service(directory: &tempfile::TempDir) -> Service {
    let clock = Arc::new(MovableClock(AtomicI64::new(1_793_613_600)));
    let extractors =
        Arc::new(asasked::extractors::build(&[asasked::extract::name::ExtractorName::Rules], &|_| None).unwrap());
    let store = EvidenceStore::open(directory.path()).unwrap();
    Service::new(extractors, None, store, clock)
}

fn request(item: &str) -> CheckRequest {
    serde_json::from_value(json!({
        "request": "Nike Pegasus 41 in white, size 42",
        "cart": [{"id": item, "quantity": 1}],
        "today": "2026-11-02",
    }))
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replays_keep_the_record_and_renew_an_expired_window_and_races_seal_once() {
    let directory = tempfile::tempdir().unwrap();
    let clock = Arc::new(MovableClock(AtomicI64::new(1_793_613_600)));
    let extractors =
        Arc::new(asasked::extractors::build(&[asasked::extract::name::ExtractorName::Rules], &|_| None).unwrap());
    let store = EvidenceStore::open(directory.path()).unwrap();
    let catalog = Some(Arc::new(Catalog::embedded().unwrap()));
    let service = Service::new(extractors, catalog, store, clock.clone());

    let first = service.check_order(request("shoe-002")).await.unwrap();
    clock.0.fetch_add(20 * 60, Ordering::SeqCst);
    let replay = service.check_order(request("shoe-002")).await.unwrap();
    assert_eq!(replay.record_id, first.record_id);
    assert_eq!(replay.decision, first.decision);
    assert!(replay.acf.conformity.expires_at > first.acf.conformity.expires_at, "an expired window is renewed");

    let racing: Vec<_> = (0..8)
        .map(|_| {
            let service = service.clone();
            tokio::spawn(async move { service.check_order(request("shoe-003")).await.unwrap().record_id })
        })
        .collect();
    let mut ids = Vec::new();
    for handle in racing {
        ids.push(handle.await.unwrap());
    }
    ids.dedup();
    assert_eq!(ids.len(), 1, "identical concurrent checks share one record");
    service.shutdown().await;
    let report = evidence::verify_file(&directory.path().join(evidence::LOG_FILE)).unwrap();
    assert!(report.ok());
    assert_eq!(report.records, 2, "one record per distinct check");
}

struct Slow;

impl asasked::extract::Extractor for Slow {
    fn name(&self) -> &str {
        "slow"
    }

    fn extract<'a>(&'a self, _input: &'a asasked::extract::ExtractInput) -> asasked::extract::ExtractFuture<'a> {
        Box::pin(async move {
            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
            let extracted = asasked::extract::ExtractedFacts { size_label: Some("42".into()), ..Default::default() };
            Ok(asasked::extract::Extraction {
                raw: serde_json::to_value(&extracted).unwrap(),
                extracted,
                cost: Default::default(),
            })
        })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_waits_for_checks_in_flight_even_when_their_caller_is_gone() {
    let directory = tempfile::tempdir().unwrap();
    let extractors = Arc::new(
        asasked::extract::set::ExtractorSet::new(
            vec![Arc::new(Slow)],
            None,
            std::time::Duration::from_secs(10),
            std::num::NonZeroUsize::new(4).unwrap(),
        )
        .unwrap(),
    );
    let store = EvidenceStore::open(directory.path()).unwrap();
    let catalog = Some(Arc::new(Catalog::embedded().unwrap()));
    let service = Service::new(extractors, catalog, store, Arc::new(asasked::service::SystemClock));
    let caller = tokio::spawn({
        let service = service.clone();
        async move { service.check_order(request("shoe-002")).await }
    });
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    caller.abort(); // the connection went away mid-check
    service.shutdown().await;
    let report = evidence::verify_file(&directory.path().join(evidence::LOG_FILE)).unwrap();
    assert_eq!((report.ok(), report.records), (true, 1), "the check finished and was sealed");
}

/// Issue 10: the service read "Accept" as an acceptance, but the redacted
/// export compared the raw reply case-sensitively and showed the person's
/// decision as "[clarification withheld]". Both now read replies one way.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_10_an_answer_in_capitals_is_an_acceptance_in_the_redacted_bundle_too() {
    let directory = tempfile::tempdir().unwrap();
    let extractors =
        Arc::new(asasked::extractors::build(&[asasked::extract::name::ExtractorName::Rules], &|_| None).unwrap());
    let store = EvidenceStore::open(directory.path()).unwrap();
    let catalog = Some(Arc::new(Catalog::embedded().unwrap()));
    let service = Service::new(extractors, catalog, store, Arc::new(asasked::service::SystemClock));

    let first = service.check_order(request("shoe-002")).await.unwrap();
    assert_eq!(first.decision, asasked::Decision::Ask);
    let blocking: Vec<_> =
        first.findings.iter().filter(|finding| finding.severity == asasked::Severity::Block).cloned().collect();
    assert!(!blocking.is_empty());
    let mut again = request("shoe-002");
    again.previous_record_id = Some(first.record_id.clone());
    again.answers = blocking
        .iter()
        .map(|finding| asasked::service::Answer { finding_id: finding.id.clone(), reply: "Accept".into() })
        .collect();
    let second = service.check_order(again).await.unwrap();
    assert_eq!(second.decision, asasked::Decision::Proceed, "every block was accepted: {:?}", second.reasons);
    service.shutdown().await;

    let log = directory.path().join(evidence::LOG_FILE);
    let bundle = asasked::service::record::dispute_bundle(&log, &second.record_id, true).unwrap().unwrap();
    let text = bundle.to_string();
    assert!(!text.contains("in white, size 42"), "the request text is withheld: {text}");
    let records = bundle["records"].as_array().unwrap();
    assert_eq!(records.len(), 2);
    let answers = records[1]["answers"].as_array().unwrap();
    assert_eq!(answers.len(), blocking.len());
    assert!(answers.iter().all(|answer| answer["reply"] == "accept"), "{answers:?}");
    // What a person needs to judge the dispute is still there: the item, its
    // price, what was asked and what the cart had, and the person's decision.
    let findings = records[1]["findings"].as_array().unwrap();
    for finding in &blocking {
        let redacted = findings.iter().find(|redacted| redacted["id"] == finding.id.as_str()).unwrap();
        assert_eq!(redacted["expected"], serde_json::to_value(&finding.expected).unwrap());
        assert_eq!(redacted["actual"], serde_json::to_value(&finding.actual).unwrap());
        assert_eq!(redacted["person"], "accepted");
        assert!(redacted["item"].as_str().unwrap().contains("Pegasus"), "{redacted}");
    }
    assert!(records[1]["cart"][0]["price_cents"].is_u64(), "{}", records[1]["cart"]);
}

/// Issue 28: the item's own words. Socks for "running shoes" are asked
/// about for what they are (a signed `proceed` before), the shoes proceed,
/// and a requirement the item's words say is a note, not a question; one
/// they contradict ("45W" for "65W") is asked about as contradicted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_28_socks_for_running_shoes_are_asked_about_and_a_said_requirement_is_a_note() {
    let directory = tempfile::tempdir().unwrap();
    let service = rules_service(&directory);
    let check = |request: &str, name: &str| {
        serde_json::from_value::<CheckRequest>(json!({
            "request": request,
            "cart": [{"name": name, "brand": "Nike", "color": "black", "size": "42", "price": "19.99", "currency": "USD", "quantity": 1}],
            "today": "2026-12-02",
        }))
        .unwrap()
    };
    let shoes = "black Nike running shoes size 42 under 100 dollars";
    let socks = service.check_order(check(shoes, "Nike Everyday Cushioned Crew Socks")).await.unwrap();
    assert_eq!(socks.decision.as_str(), "ask");
    let text = serde_json::to_string(&socks).unwrap();
    assert!(
        text.contains("You asked for running shoes; the cart has \u{201c}Nike Everyday Cushioned Crew Socks\u{201d}."),
        "{text}"
    );
    assert!(text.contains("com.provecart.conformity.item_mismatch"), "{text}");
    let right = service.check_order(check(shoes, "Nike Pegasus 41 Road Running Shoes")).await.unwrap();
    assert_eq!(right.decision.as_str(), "proceed");
    let charger = service
        .check_order(check("a black Nike charger, 65W, under 40 dollars", "Nike USB-C Charger 65W"))
        .await
        .unwrap();
    assert_eq!(charger.decision.as_str(), "proceed", "{}", serde_json::to_string(&charger).unwrap());
    assert!(serde_json::to_string(&charger).unwrap().contains("the item says"));
    // The same unit with another number: the item's words contradict it.
    let weaker = service
        .check_order(check("a black Nike charger, 65W, under 40 dollars", "Nike USB-C Charger 45W"))
        .await
        .unwrap();
    assert_eq!(weaker.decision.as_str(), "ask");
    let text = serde_json::to_string(&weaker).unwrap();
    assert!(text.contains("You asked for \u{201c}65W\u{201d}; the item says \u{201c}45W\u{201d}"), "{text}");
    assert!(text.contains("\"other-contradicted\""), "{text}");
}

/// Issue 28: a model number inside the product's name. "iphone 13 case"
/// was read as the phone: the phone proceeded with a signed receipt and the
/// case was asked about. Now the case proceeds and the phone is asked about
/// for what it is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_28_a_phone_for_an_iphone_13_case_is_asked_about_and_the_case_proceeds() {
    let directory = tempfile::tempdir().unwrap();
    let service = rules_service(&directory);
    let check = |name: &str, price: &str| {
        serde_json::from_value::<CheckRequest>(json!({
            "request": "an iphone 13 case under 500 dollars",
            "cart": [{"name": name, "price": price, "currency": "USD", "quantity": 1}],
            "today": "2026-12-02",
        }))
        .unwrap()
    };
    let case = service.check_order(check("Spigen Ultra Hybrid Case for iPhone 13, Clear", "15.99")).await.unwrap();
    assert_eq!(case.decision.as_str(), "proceed", "{}", serde_json::to_string(&case).unwrap());
    let phone =
        service.check_order(check("Apple iPhone 13, 128GB, Blue - Unlocked (Renewed)", "399.00")).await.unwrap();
    assert_eq!(phone.decision.as_str(), "ask");
    let text = serde_json::to_string(&phone).unwrap();
    assert!(text.contains("com.provecart.conformity.item_mismatch"), "{text}");
    assert!(text.contains("You asked for iphone 13 case"), "{text}");
    // The other way round: the phone asked for, a case in the cart. What the
    // case is made of stood between the phone's name and the case, and it
    // proceeded with a signed receipt.
    let phone_asked = serde_json::from_value::<CheckRequest>(json!({
        "request": "an iphone 15 in black under 1000 dollars",
        "cart": [{"name": "iPhone 15 Silicone Case, Black", "price": "19.99", "currency": "USD", "quantity": 1}],
        "today": "2026-12-02",
    }))
    .unwrap();
    let case = service.check_order(phone_asked).await.unwrap();
    assert_eq!(case.decision.as_str(), "ask");
    assert!(serde_json::to_string(&case).unwrap().contains("com.provecart.conformity.item_mismatch"));
}

/// Issue 28 §5: a price floor and free shipping are facts and are checked,
/// end to end through the service with the offline extractor.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_28_a_price_floor_and_free_shipping_are_checked() {
    let directory = tempfile::tempdir().unwrap();
    let service = rules_service(&directory);
    let check = |request: &str, cart: serde_json::Value| {
        serde_json::from_value::<CheckRequest>(json!({"request": request, "cart": cart, "today": "2026-12-02"}))
            .unwrap()
    };
    let fan = |price: &str, shipping: Option<&str>| {
        let mut entry = json!({"name": "Desk Fan", "price": price, "currency": "PHP", "quantity": 1});
        if let Some(shipping) = shipping {
            entry["shipping"] = json!(shipping);
        }
        json!([entry])
    };
    let floor = "a desk fan that costs over 98 pesos";
    let cheap = service.check_order(check(floor, fan("45.50", None))).await.unwrap();
    assert_eq!(cheap.decision.as_str(), "ask");
    let text = serde_json::to_string(&cheap).unwrap();
    assert!(text.contains("com.provecart.conformity.price_below_floor"), "{text}");
    assert!(text.contains("Asked for something costing at least 98.00 PHP, it costs 45.50 PHP: Desk Fan."), "{text}");
    let right = service.check_order(check(floor, fan("120", None))).await.unwrap();
    assert_eq!(right.decision.as_str(), "proceed", "{}", serde_json::to_string(&right).unwrap());

    let free = "a desk fan with free shipping";
    let charged = service.check_order(check(free, fan("120", Some("49")))).await.unwrap();
    assert_eq!(charged.decision.as_str(), "ask");
    assert!(serde_json::to_string(&charged).unwrap().contains("the cart charges 49.00 PHP for shipping"));
    let unknown = service.check_order(check(free, fan("120", None))).await.unwrap();
    assert_eq!(unknown.decision.as_str(), "ask");
    let zero = service.check_order(check(free, fan("120", Some("0")))).await.unwrap();
    assert_eq!(zero.decision.as_str(), "proceed", "{}", serde_json::to_string(&zero).unwrap());
}
