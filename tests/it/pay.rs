//! The guarded payment over real HTTP on 127.0.0.1 (issue 30 §1): a
//! reference payment service, written from the Agentic Action Profile and
//! the shape of its example OpenAPI document (one POST submission, one GET
//! status, one GET resource), which the tests can tell to answer late, hang,
//! answer `pending` or `unknown` (its answer lost), redirect, answer too
//! much, or publish another profile. It counts the submissions it receives:
//! each test asserts how many payments were made.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use asasked::pay::ledger::PayLedger;
use asasked::pay::{AmountField, Approval, PayError, PayRequest, PayResult, Payer, Payment, PaymentState};
use asasked::service::CheckRequest;
use axum::extract::{Path as UrlPath, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};

use super::principals::service;

const BIN: &str = env!("CARGO_BIN_EXE_asasked");
/// The facts `principals::service` extracts, for the CLI's `fixed:` extractor.
const FACTS: &str = r#"{"brand":"Nike","model":"Pegasus 41","color":"white","size_label":"42"}"#;
const REQUEST: &str = "Nike Pegasus 41, white, size 42 please";
const ACTION: &str = "pay-order";

/// What the status operation says of a recorded payment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StatusMode {
    /// The truth: succeeded with the payment's id.
    Truth,
    Pending,
    /// The service lost its answer: `unknown`.
    Lost,
    /// A body past the client's 64 KiB bound.
    Oversized,
}

/// What the tests tell the service to do.
#[derive(Debug, Clone)]
struct Knobs {
    /// Milliseconds to wait after committing a payment before answering.
    submit_delay_ms: u64,
    /// Never answer a submission (after committing it).
    hang_submit: bool,
    status: StatusMode,
    /// `/agentic.json` answers 307 to another path.
    redirect_profile: bool,
    /// A changed profile (another description, so another digest).
    changed_profile: bool,
    /// The profile's `recovery.timeoutMs`.
    timeout_ms: u64,
}

impl Default for Knobs {
    fn default() -> Knobs {
        Knobs {
            submit_delay_ms: 0,
            hang_submit: false,
            status: StatusMode::Truth,
            redirect_profile: false,
            changed_profile: false,
            timeout_ms: 400,
        }
    }
}

/// A recorded payment: the request id it was made for, its input, its id.
#[derive(Debug, Clone)]
struct Recorded {
    input: Value,
    payment_id: String,
}

#[derive(Default)]
struct Ledger {
    by_key: std::collections::BTreeMap<String, Recorded>,
}

/// The reference service's state, shared with the test.
#[derive(Clone)]
struct Reference {
    origin: String,
    knobs: Arc<Mutex<Knobs>>,
    ledger: Arc<Mutex<Ledger>>,
    /// Every POST received, replays included.
    submissions: Arc<AtomicUsize>,
    /// Payments created (a replay creates none).
    created: Arc<AtomicUsize>,
    profile_reads: Arc<AtomicUsize>,
}

impl Reference {
    async fn start() -> Reference {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let origin = format!("http://{}", listener.local_addr().unwrap());
        let reference = Reference {
            origin,
            knobs: Arc::default(),
            ledger: Arc::default(),
            submissions: Arc::default(),
            created: Arc::default(),
            profile_reads: Arc::default(),
        };
        let router = axum::Router::new()
            .route("/agentic.json", axum::routing::get(profile))
            .route("/openapi.json", axum::routing::get(|| async { axum::Json(openapi()) }))
            .route("/payments", axum::routing::post(submit))
            .route("/payment-requests/{request_id}", axum::routing::get(status))
            .route("/payments/{payment_id}", axum::routing::get(resource))
            .with_state(reference.clone());
        tokio::spawn(async move { axum::serve(listener, router).await });
        reference
    }

    fn set(&self, change: impl FnOnce(&mut Knobs)) {
        change(&mut self.knobs.lock().unwrap());
    }

    fn knobs(&self) -> Knobs {
        self.knobs.lock().unwrap().clone()
    }

    fn profile_url(&self) -> String {
        format!("{}/agentic.json", self.origin)
    }

    fn submissions(&self) -> usize {
        self.submissions.load(Ordering::SeqCst)
    }

    fn created(&self) -> usize {
        self.created.load(Ordering::SeqCst)
    }
}

async fn profile(State(reference): State<Reference>) -> Response {
    reference.profile_reads.fetch_add(1, Ordering::SeqCst);
    let knobs = reference.knobs();
    if knobs.redirect_profile {
        return axum::response::Redirect::temporary("/elsewhere/agentic.json").into_response();
    }
    let description = if knobs.changed_profile {
        "Take a card payment for an order (now with new terms)."
    } else {
        "Take a card payment for an order and verify it."
    };
    axum::Json(json!({
        "agentic": "0.1.0-draft",
        "origin": reference.origin,
        "actions": [{
            "id": ACTION,
            "description": description,
            "openapi": "/openapi.json",
            "submit": "createPayment",
            "status": "getPaymentRequest",
            "verify": "getPayment",
            "request": {"header": "Idempotency-Key", "scope": "principal-action", "retentionSeconds": 86400},
            "bindings": {"statusRequestId": "requestId", "verifyResourceId": "paymentId"},
            "evidence": {
                "resourceIdPointer": "/id",
                "requestIdPointer": "/request_id",
                "statePointer": "/status",
                "successValues": ["captured"],
                "inputBindings": [
                    {"inputPointer": "/amount", "resourcePointer": "/amount"},
                    {"inputPointer": "/currency", "resourcePointer": "/currency"},
                    {"inputPointer": "/order", "resourcePointer": "/order"}
                ]
            },
            "recovery": {"maxChecks": 3, "checkDelayMs": 50, "timeoutMs": knobs.timeout_ms, "retry": "never-automatically"}
        }]
    }))
    .into_response()
}

/// The OpenAPI 3.1 document: the example ticket service's three operations,
/// for payments.
fn openapi() -> Value {
    let payment = json!({
        "type": "object",
        "required": ["id", "request_id", "status", "amount", "currency", "order"],
        "properties": {
            "id": {"type": "string"}, "request_id": {"type": "string"},
            "status": {"enum": ["captured"]}, "amount": {"type": "string"},
            "currency": {"type": "string"}, "order": {"type": "string"}
        }
    });
    let path_parameter = |name: &str| json!([{"name": name, "in": "path", "required": true, "schema": {"type": "string", "minLength": 1}}]);
    json!({
        "openapi": "3.1.0",
        "info": {"title": "Reference payment service", "version": "0.1.0"},
        "paths": {
            "/payments": {"post": {
                "operationId": "createPayment",
                "parameters": [{"name": "Idempotency-Key", "in": "header", "required": true, "schema": {"type": "string", "minLength": 1}}],
                "requestBody": {"required": true, "content": {"application/json": {"schema": {
                    "type": "object", "required": ["amount", "currency", "order"],
                    "properties": {"amount": {"type": "string"}, "currency": {"type": "string"}, "order": {"type": "string"}}
                }}}},
                "responses": {
                    "200": {"description": "Same original result", "content": {"application/json": {"schema": payment}}},
                    "201": {"description": "Created and recorded", "content": {"application/json": {"schema": payment}}},
                    "409": {"description": "Key already bound to different input"}
                }
            }},
            "/payment-requests/{requestId}": {"get": {
                "operationId": "getPaymentRequest",
                "parameters": path_parameter("requestId"),
                "responses": {"200": {"description": "Request outcome; unknown is not absence proof"}}
            }},
            "/payments/{paymentId}": {"get": {
                "operationId": "getPayment",
                "parameters": path_parameter("paymentId"),
                "responses": {"200": {"description": "The payment"}, "404": {"description": "Not visible"}}
            }}
        }
    })
}

fn payment_view(key: &str, recorded: &Recorded) -> Value {
    let mut view = recorded.input.clone();
    view["id"] = json!(recorded.payment_id);
    view["request_id"] = json!(key);
    view["status"] = json!("captured");
    view
}

/// `POST /payments`: records the payment and the request atomically, then answers.
async fn submit(
    State(reference): State<Reference>,
    headers: HeaderMap,
    axum::Json(input): axum::Json<Value>,
) -> Response {
    reference.submissions.fetch_add(1, Ordering::SeqCst);
    let Some(key) = headers.get("idempotency-key").and_then(|value| value.to_str().ok()).map(str::to_owned) else {
        return (StatusCode::BAD_REQUEST, axum::Json(json!({"error": "Idempotency-Key required"}))).into_response();
    };
    let (status, recorded) = {
        let mut ledger = reference.ledger.lock().unwrap();
        match ledger.by_key.get(&key) {
            Some(recorded) if recorded.input == input => (StatusCode::OK, recorded.clone()),
            Some(_) => {
                return (StatusCode::CONFLICT, axum::Json(json!({"error": "key bound to other input"})))
                    .into_response();
            }
            None => {
                let number = reference.created.fetch_add(1, Ordering::SeqCst) + 1;
                let recorded = Recorded { input: input.clone(), payment_id: format!("P-{number}") };
                ledger.by_key.insert(key.clone(), recorded.clone());
                (StatusCode::CREATED, recorded)
            }
        }
    };
    let knobs = reference.knobs();
    if knobs.hang_submit {
        std::future::pending::<()>().await;
    }
    tokio::time::sleep(Duration::from_millis(knobs.submit_delay_ms)).await;
    (status, axum::Json(payment_view(&key, &recorded))).into_response()
}

async fn status(State(reference): State<Reference>, UrlPath(request_id): UrlPath<String>) -> Response {
    let recorded = reference.ledger.lock().unwrap().by_key.get(&request_id).cloned();
    let answer = |status: &str, resource: Option<&str>| {
        axum::Json(json!({"request_id": request_id, "status": status, "resource_id": resource})).into_response()
    };
    match (reference.knobs().status, recorded) {
        (StatusMode::Oversized, _) => "x".repeat(100 * 1024).into_response(),
        (StatusMode::Lost, _) | (_, None) => answer("unknown", None),
        (StatusMode::Pending, Some(_)) => answer("pending", None),
        (StatusMode::Truth, Some(recorded)) => answer("succeeded", Some(&recorded.payment_id)),
    }
}

async fn resource(State(reference): State<Reference>, UrlPath(payment_id): UrlPath<String>) -> Response {
    let ledger = reference.ledger.lock().unwrap();
    match ledger.by_key.iter().find(|(_, recorded)| recorded.payment_id == payment_id) {
        Some((key, recorded)) => axum::Json(payment_view(key, recorded)).into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// The check of `REQUEST` with the catalog item `id` (shoe-003 proceeds at
/// 139.99 USD; shoe-002 is a size 41 and asks).
fn check(id: &str) -> CheckRequest {
    serde_json::from_value(json!({"request": REQUEST, "cart": [{"id": id, "quantity": 1}], "today": "2026-11-02"}))
        .unwrap()
}

fn input(amount: &str) -> Map<String, Value> {
    json!({"amount": amount, "currency": "USD", "order": "order-7"}).as_object().unwrap().clone()
}

fn pay_request(reference: &Reference, id: &str, amount: &str) -> PayRequest {
    PayRequest {
        check: check(id),
        payment: Payment {
            profile: reference.profile_url(),
            action: ACTION.into(),
            input: input(amount),
            amount: AmountField::default(),
        },
    }
}

struct Setup {
    _directory: tempfile::TempDir,
    data: PathBuf,
    service: asasked::service::Service,
    payer: Payer,
    reference: Reference,
}

async fn setup() -> Setup {
    let directory = tempfile::tempdir().unwrap();
    let data = directory.path().join("data");
    let service = service(directory.path(), &data);
    let payer = Payer::new(PayLedger::open(&data).unwrap(), Approval::Any).unwrap();
    let reference = Reference::start().await;
    Setup { _directory: directory, data, service, payer, reference }
}

fn receipt_validator() -> jsonschema::Validator {
    let schema: Value = serde_json::from_str(asasked::pay::profile::RECEIPT_SCHEMA).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

fn ledger_lines(data: &Path) -> usize {
    std::fs::read_to_string(data.join(asasked::pay::ledger::LEDGER_FILE)).unwrap_or_default().lines().count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_proceed_pays_once_verified_and_its_receipt_validates() {
    let setup = setup().await;
    let reference = &setup.reference;
    let result = setup.payer.pay(&setup.service, pay_request(reference, "shoe-003", "139.99")).await.unwrap();
    assert_eq!((result.payment, result.submitted), (PaymentState::Succeeded, true), "{result:?}");
    let receipt = result.receipt.clone().unwrap();
    let value = serde_json::to_value(&receipt).unwrap();
    let validator = receipt_validator();
    assert!(
        validator.is_valid(&value),
        "{:?}",
        validator.iter_errors(&value).map(|error| error.to_string()).collect::<Vec<_>>()
    );
    assert_eq!(receipt.resource_id.as_deref(), Some("P-1"));
    assert_eq!(value["evidence"]["matched"].as_array().unwrap().len(), 3);
    assert_eq!(receipt.request_id, result.request_id.clone().unwrap());
    // Linked to the check's evidence record, in the ledger and the result.
    let check = result.check.clone().unwrap();
    assert_eq!(result.record_id, check.record_id);
    let stored = setup.payer.ledger().request(None, &receipt.request_id).await.unwrap().unwrap();
    assert_eq!(stored.created.record_id, check.record_id);
    assert_eq!((stored.created.amount_minor, stored.created.currency.as_deref()), (13999, Some("USD")));
    assert_eq!(stored.last.as_ref(), Some(&receipt));

    // The same arguments again: the recorded receipt, nothing sent.
    let again = setup.payer.pay(&setup.service, pay_request(reference, "shoe-003", "139.99")).await.unwrap();
    assert_eq!((again.submitted, again.receipt.as_ref()), (false, Some(&receipt)));
    assert_eq!((reference.submissions(), reference.created()), (1, 1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ask_submits_nothing_and_contacts_no_payment_service() {
    let setup = setup().await;
    let reference = &setup.reference;
    let result = setup.payer.pay(&setup.service, pay_request(reference, "shoe-002", "139.99")).await.unwrap();
    assert_eq!(result.decision, asasked::Decision::Ask);
    assert_eq!((result.payment, result.submitted, &result.request_id), (PaymentState::NotSubmitted, false, &None));
    assert!(result.question.as_deref().is_some_and(|question| !question.is_empty()));
    assert_eq!((reference.submissions(), reference.profile_reads.load(Ordering::SeqCst)), (0, 0));
    assert_eq!(ledger_lines(&setup.data), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_amount_other_than_the_carts_total_is_refused_naming_both() {
    let setup = setup().await;
    let reference = &setup.reference;
    let error = setup.payer.pay(&setup.service, pay_request(reference, "shoe-003", "129.99")).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "$.payment.input/amount: the amount 129.99 USD is not the checked cart's total 139.99 USD: nothing is paid"
    );
    assert_eq!((reference.submissions(), ledger_lines(&setup.data)), (0, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timeout_after_the_service_committed_is_reconciled_through_status_and_paid_once() {
    let setup = setup().await;
    let reference = &setup.reference;
    // The service commits, then answers long after the profile's 400 ms
    // timeout: the wrapper has given up on the answer by then (it returns
    // before the answer could have come) and reconciled through status.
    reference.set(|knobs| knobs.submit_delay_ms = 8_000);
    let started = std::time::Instant::now();
    let result = setup.payer.pay(&setup.service, pay_request(reference, "shoe-003", "139.99")).await.unwrap();
    assert!(started.elapsed() < Duration::from_millis(8_000), "the wrapper waited for the late answer");
    assert_eq!((result.payment, result.submitted), (PaymentState::Succeeded, true), "{result:?}");
    assert!(result.receipt.as_ref().unwrap().reason.starts_with("status succeeded"));
    let again = setup.payer.pay(&setup.service, pay_request(reference, "shoe-003", "139.99")).await.unwrap();
    assert_eq!((again.payment, again.submitted), (PaymentState::Succeeded, false));
    assert_eq!((reference.submissions(), reference.created()), (1, 1), "paid once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pending_stays_pending_and_a_changed_profile_is_refused() {
    let setup = setup().await;
    let reference = &setup.reference;
    reference.set(|knobs| knobs.status = StatusMode::Pending);
    let first = setup.payer.pay(&setup.service, pay_request(reference, "shoe-003", "139.99")).await.unwrap();
    assert_eq!(first.payment, PaymentState::Pending, "{first:?}");
    let value = serde_json::to_value(first.receipt.as_ref().unwrap()).unwrap();
    assert!(receipt_validator().is_valid(&value), "{value}");
    let request_id = first.request_id.clone().unwrap();

    // The publisher changes its profile: the running request is not reused.
    reference.set(|knobs| {
        knobs.changed_profile = true;
        knobs.status = StatusMode::Truth;
    });
    let changed = setup.payer.pay(&setup.service, pay_request(reference, "shoe-003", "139.99")).await.unwrap_err();
    assert!(matches!(changed, PayError::ProfileChanged { .. }), "{changed}");
    assert!(changed.to_string().contains(&format!("changed since payment request {request_id} was created")));
    let by_id = setup.payer.reconcile(&setup.service, &request_id).await.unwrap_err();
    assert!(matches!(by_id, PayError::ProfileChanged { .. }), "{by_id}");
    let stored = setup.payer.ledger().request(None, &request_id).await.unwrap().unwrap();
    assert_eq!(stored.last.unwrap().outcome, asasked::pay::Outcome::Pending, "the outcome stays as recorded");

    // Back to the profile it was created under: reconciled, still paid once.
    reference.set(|knobs| knobs.changed_profile = false);
    let settled = setup.payer.reconcile(&setup.service, &request_id).await.unwrap();
    assert_eq!((settled.payment, settled.submitted), (PaymentState::Succeeded, false));
    // A settled payment's saved receipt is returned whatever the profile says now.
    reference.set(|knobs| knobs.changed_profile = true);
    let saved = setup.payer.pay(&setup.service, pay_request(reference, "shoe-003", "139.99")).await.unwrap();
    assert_eq!((saved.payment, saved.receipt), (PaymentState::Succeeded, settled.receipt));
    assert_eq!(reference.submissions(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redirect_or_an_oversized_answer_is_refused() {
    let setup = setup().await;
    let reference = &setup.reference;
    reference.set(|knobs| knobs.redirect_profile = true);
    let error = setup.payer.pay(&setup.service, pay_request(reference, "shoe-003", "139.99")).await.unwrap_err();
    assert!(
        error.to_string().contains("answered with a redirect (307 to /elsewhere/agentic.json), which is refused"),
        "{error}"
    );
    assert_eq!((reference.submissions(), ledger_lines(&setup.data)), (0, 0));

    reference.set(|knobs| {
        knobs.redirect_profile = false;
        knobs.status = StatusMode::Oversized;
    });
    let result = setup.payer.pay(&setup.service, pay_request(reference, "shoe-003", "139.99")).await.unwrap();
    assert_eq!(result.payment, PaymentState::Unknown, "{result:?}");
    let reason = &result.receipt.as_ref().unwrap().reason;
    assert!(reason.contains("more than 65536 bytes, which is refused"), "{reason}");
    assert_eq!(reference.submissions(), 1);
}

/// `asasked pay` with `arguments` on `data`: its exit code, stdout as JSON
/// and stderr. Waited for off the async workers, which serve the reference.
async fn pay_command(directory: &Path, data: &Path, arguments: &[&str]) -> (i32, Value, String) {
    let child = pay_process(directory, data, arguments);
    let output = tokio::task::spawn_blocking(move || child.wait_with_output()).await.unwrap().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.code().unwrap_or(-1), serde_json::from_str(&stdout).unwrap_or(Value::Null), stderr)
}

fn pay_process(directory: &Path, data: &Path, arguments: &[&str]) -> std::process::Child {
    let facts = directory.join("facts.json");
    std::fs::write(&facts, FACTS).unwrap();
    Command::new(BIN)
        .arg("pay")
        .args(arguments)
        .arg("--data-dir")
        .arg(data)
        .arg("--extractors")
        .arg(format!("fixed:{}", facts.display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sigkill_between_attempted_and_the_answer_never_resubmits_and_stays_unknown_until_reconciled() {
    let directory = tempfile::tempdir().unwrap();
    let data = directory.path().join("data");
    let reference = Reference::start().await;
    // The service commits the payment and never answers; the wrapper waits
    // (the profile's timeout is 10 s) until it is killed.
    reference.set(|knobs| {
        knobs.hang_submit = true;
        knobs.timeout_ms = 10_000;
        knobs.status = StatusMode::Lost;
    });
    let cart = directory.path().join("cart.json");
    std::fs::write(&cart, r#"[{"id": "shoe-003", "quantity": 1}]"#).unwrap();
    let input_file = directory.path().join("input.json");
    std::fs::write(&input_file, serde_json::to_string(&input("139.99")).unwrap()).unwrap();
    let profile_url = reference.profile_url();
    let (cart_path, input_path) = (cart.display().to_string(), input_file.display().to_string());
    let arguments = [
        "--request",
        REQUEST,
        "--cart",
        &cart_path,
        "--today",
        "2026-11-02",
        "--profile",
        &profile_url,
        "--action",
        ACTION,
        "--input",
        &input_path,
    ];
    let mut child = pay_process(directory.path(), &data, &arguments);
    let mut waited = Duration::ZERO;
    while reference.submissions() == 0 {
        assert!(waited < Duration::from_secs(60), "the wrapper never submitted");
        tokio::time::sleep(Duration::from_millis(20)).await;
        waited += Duration::from_millis(20);
    }
    child.kill().unwrap(); // SIGKILL
    tokio::task::spawn_blocking(move || child.wait()).await.unwrap().unwrap();

    // After the restart: attempted, no outcome (unknown), nothing resubmitted.
    let ledger = PayLedger::open(&data).unwrap();
    let text = std::fs::read_to_string(data.join(asasked::pay::ledger::LEDGER_FILE)).unwrap();
    let request_id =
        serde_json::from_str::<Value>(text.lines().next().unwrap()).unwrap()["request_id"].as_str().unwrap().to_owned();
    let stored = ledger.request(None, &request_id).await.unwrap().unwrap();
    assert!(stored.attempted_at.is_some() && stored.last.is_none(), "{stored:?}");

    // The same command again: it reads the status (the answer is lost:
    // unknown) and never submits a second time.
    reference.set(|knobs| knobs.hang_submit = false);
    let (code, again, stderr) = pay_command(directory.path(), &data, &arguments).await;
    assert_eq!(code, 1, "{stderr}");
    let again: PayResult = serde_json::from_value(again).unwrap();
    assert_eq!((again.payment, again.submitted), (PaymentState::Unknown, false), "{again:?}");
    assert_eq!(again.request_id.as_deref(), Some(request_id.as_str()));
    let (code, reconciled, _) = pay_command(directory.path(), &data, &["--reconcile", &request_id]).await;
    assert_eq!((code, &reconciled["payment"]), (1, &json!("unknown")), "unknown stays unknown");

    // The service finds its answer again: reconciled, paid once.
    reference.set(|knobs| knobs.status = StatusMode::Truth);
    let (code, settled, stderr) = pay_command(directory.path(), &data, &["--reconcile", &request_id]).await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!((&settled["payment"], &settled["submitted"]), (&json!("succeeded"), &json!(false)));
    assert!(receipt_validator().is_valid(&settled["receipt"]), "{settled}");
    assert_eq!((reference.submissions(), reference.created()), (1, 1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pay_order_over_mcp_pays_an_approved_origin_once_for_the_callers_principal() {
    use super::principals::{Client, tokens_command};
    let setup = setup().await;
    let reference = &setup.reference;
    let elsewhere = Reference::start().await;
    let token = tokens_command(&setup.data, &["add", "agent"]).trim().to_owned();
    let payer =
        Payer::new(PayLedger::open(&setup.data).unwrap(), Approval::Origins(vec![reference.origin.clone()])).unwrap();
    let server = asasked::mcp::CheckServer::new(setup.service.clone(), false).with_payer(payer);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let options = asasked::mcp::HttpOptions {
        tokens: Some(asasked::principal::tokens::TokenFile::in_folder(&setup.data)),
        ..asasked::mcp::HttpOptions::default()
    };
    tokio::spawn(asasked::mcp::serve_http(server, listener, options, std::future::pending()));
    let mut agent = Client::connect(&base, &token).await.unwrap();

    let tools = agent.request("tools/list", json!({})).await.unwrap();
    let tool = tools["result"]["tools"].as_array().unwrap().iter().find(|tool| tool["name"] == "pay_order").unwrap();
    assert_eq!(tool["inputSchema"]["required"], json!(["check", "payment"]), "{tool}");
    assert!(tool["description"].as_str().unwrap().contains("NEVER pay again"));

    let arguments = serde_json::to_value(pay_request(reference, "shoe-003", "139.99")).unwrap();
    let call = |arguments: Value| json!({"name": "pay_order", "arguments": arguments});
    let reply = agent.request("tools/call", call(arguments.clone())).await.unwrap();
    let result = &reply["result"]["structuredContent"];
    assert_eq!((&result["payment"], &result["submitted"]), (&json!("succeeded"), &json!(true)), "{reply}");
    let request_id = result["request_id"].as_str().unwrap();
    // The ledger entry is the caller's principal's, not the local one's.
    let ledger = setup.payer.ledger();
    assert!(ledger.request(Some("agent"), request_id).await.unwrap().is_some());
    assert!(ledger.request(None, request_id).await.unwrap().is_none());
    let reply = agent.request("tools/call", call(arguments)).await.unwrap();
    assert_eq!(reply["result"]["structuredContent"]["submitted"], json!(false), "{reply}");

    // An origin this server does not approve: refused before any check.
    let other = serde_json::to_value(pay_request(&elsewhere, "shoe-003", "139.99")).unwrap();
    let reply = agent.request("tools/call", call(other)).await.unwrap();
    assert_eq!(reply["result"]["isError"], json!(true), "{reply}");
    let text = reply["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("is not an approved payment origin"), "{text}");
    assert_eq!(
        (reference.submissions(), elsewhere.submissions(), elsewhere.profile_reads.load(Ordering::SeqCst)),
        (1, 0, 0)
    );
}
