//! Issue 29: what the person pays, end to end through `check_order` and the
//! CLI: the examples of the issue (a subscription item, a limit in euros
//! against a cart in dollars, a protection plan slipped in, fees), an
//! exchange rate given on the call (`fx`) and on the command line (`--fx`),
//! and a bad rate refused naming its JSONPath.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use asasked::evidence::EvidenceStore;
use asasked::service::{CheckError, CheckRequest, CheckResult, Service, SystemClock};
use serde_json::{Value, json};

fn service(folder: &Path) -> Service {
    let names = [asasked::extract::name::ExtractorName::Rules];
    let extractors = Arc::new(asasked::extractors::build(&names, &|_| None).unwrap());
    let store = EvidenceStore::open(&folder.join("data")).unwrap();
    Service::new(extractors, None, store, Arc::new(SystemClock))
}

async fn check(service: &Service, arguments: Value) -> Result<CheckResult, CheckError> {
    let mut arguments = arguments;
    arguments["today"] = json!("2026-11-02");
    service.check_order(serde_json::from_value::<CheckRequest>(arguments).unwrap()).await
}

fn blocks(result: &CheckResult) -> Vec<String> {
    let mut codes: Vec<String> = result
        .findings
        .iter()
        .filter(|finding| finding.severity == asasked::finding::Severity::Block)
        .map(|finding| finding.code.as_str().to_owned())
        .collect();
    codes.sort();
    codes
}

const PEGASUS: &str = "Nike Pegasus 41 in black, size 42, under 200 dollars";

fn shoe(name: &str) -> Value {
    json!({"name": name, "brand": "Nike", "color": "Black", "size": "EU 42", "price": 129.99, "currency": "USD", "quantity": 1})
}

#[tokio::test]
async fn the_issue_s_examples_ask_and_their_look_alikes_proceed() {
    let folder = tempfile::tempdir().unwrap();
    let service = service(folder.path());
    let subscription = check(
        &service,
        json!({"request": PEGASUS, "cart": [shoe("Nike Pegasus 41 - Subscribe & Save: auto-renews monthly")]}),
    )
    .await
    .unwrap();
    assert_eq!(blocks(&subscription), ["recurring"], "{:?}", subscription.reasons);

    let plan = json!({"name": "2-Year Protection Plan for Footwear", "price": 19.99, "currency": "USD", "quantity": 1});
    let with_plan =
        check(&service, json!({"request": PEGASUS, "cart": [shoe("Nike Pegasus 41"), plan]})).await.unwrap();
    assert_eq!(blocks(&with_plan), ["addon"], "{:?}", with_plan.reasons);
    let addon = with_plan.findings.iter().find(|finding| finding.code.as_str() == "addon").unwrap();
    assert_eq!(addon.id, "addon@$.cart[1]");
    assert_eq!(with_plan.acf.messages.iter().filter(|message| message.path == "$.cart[1]").count(), 1);

    let mut fee = shoe("Nike Pegasus 41");
    fee["fees"] = json!([{"name": "Service fee", "amount": 80}]);
    let fee_past = check(&service, json!({"request": PEGASUS, "cart": [fee.clone()]})).await.unwrap();
    assert_eq!(blocks(&fee_past), ["explicit-max", "fee"], "{:?}", fee_past.reasons);
    fee["fees"] = json!([{"name": "Service fee", "amount": 2.5}]);
    let fee_note = check(&service, json!({"request": PEGASUS, "cart": [fee]})).await.unwrap();
    assert_eq!(fee_note.decision.as_str(), "proceed", "{:?}", fee_note.reasons);
    assert!(fee_note.notes.iter().any(|note| note.contains("Service fee")), "{:?}", fee_note.notes);

    for name in ["Nike Pegasus 41", "Nike Pegasus 41 Weekly Running Planner Edition"] {
        let clean = check(&service, json!({"request": PEGASUS, "cart": [shoe(name)]})).await.unwrap();
        assert_eq!(clean.decision.as_str(), "proceed", "{name}: {:?}", clean.reasons);
    }
    service.shutdown().await;
}

#[tokio::test]
async fn a_limit_in_another_currency_asks_naming_both_unless_the_call_gives_a_rate() {
    let folder = tempfile::tempdir().unwrap();
    let service = service(folder.path());
    let request = "red KitchenAid mixer under €400";
    let mixer = |price: f64| {
        json!([{"name": "KitchenAid Artisan Stand Mixer", "brand": "KitchenAid", "color": "Empire Red",
        "price": price, "currency": "USD", "quantity": 1}])
    };
    let asked = check(&service, json!({"request": request, "cart": mixer(900.0)})).await.unwrap();
    assert_eq!(blocks(&asked), ["limit-currency"]);
    assert!(asked.reasons[0].contains("400.00 EUR") && asked.reasons[0].contains("900.00 USD"), "{:?}", asked.reasons);

    let rate = json!([{"from": "USD", "to": "EUR", "rate": "0.92", "date": "2026-11-01"}]);
    let over = check(&service, json!({"request": request, "cart": mixer(900.0), "fx": rate})).await.unwrap();
    assert_eq!(blocks(&over), ["explicit-max"]);
    assert!(over.reasons[0].contains("828.00 EUR"), "{:?}", over.reasons);
    let within = check(&service, json!({"request": request, "cart": mixer(400.0), "fx": rate})).await.unwrap();
    assert_eq!(within.decision.as_str(), "proceed", "{:?}", within.reasons);
    // The rate is part of what was asked: the same check without it is
    // another record, not a replay of the one with it.
    let without = check(&service, json!({"request": request, "cart": mixer(400.0)})).await.unwrap();
    assert_ne!(without.record_id, within.record_id);
    assert_eq!(blocks(&without), ["limit-currency"]);

    let bad = json!([{"from": "USD", "to": "EUR", "rate": "about one", "date": "2026-11-01"}]);
    match check(&service, json!({"request": request, "cart": mixer(400.0), "fx": bad})).await {
        Err(CheckError::InvalidArgument { field, .. }) => assert_eq!(field, "$.fx[0].rate"),
        other => panic!("expected an invalid argument, got {other:?}"),
    }
    service.shutdown().await;
}

#[test]
fn the_command_line_takes_a_rate_with_its_date() {
    let folder = tempfile::tempdir().unwrap();
    let cart = folder.path().join("cart.json");
    std::fs::write(
        &cart,
        r#"[{"name": "KitchenAid Artisan Stand Mixer", "brand": "KitchenAid", "color": "Red", "price": 400, "currency": "USD", "quantity": 1}]"#,
    )
    .unwrap();
    let run = |fx: &[&str]| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_asasked"));
        command.args([
            "check",
            "--request",
            "red KitchenAid mixer under €400",
            "--today",
            "2026-11-02",
            "--extractors",
            "rules",
        ]);
        command.arg("--cart").arg(&cart).arg("--data-dir").arg(folder.path().join("data")).args(fx);
        command.output().unwrap()
    };
    assert_eq!(run(&[]).status.code(), Some(1), "no rate: ask");
    let with_rate = run(&["--fx", "USD:EUR=0.92@2026-11-01"]);
    assert_eq!(with_rate.status.code(), Some(0), "{}", String::from_utf8_lossy(&with_rate.stdout));
    let bad = run(&["--fx", "USD:EUR=0.92"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("FROM:TO=RATE@DATE"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
}
