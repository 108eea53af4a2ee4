//! The payment wrapper's own overhead (issue 30 §1): `Payer::pay` against
//! an in-process reference payment service on loopback (HTTP/1.1), one
//! payment at a time, each a new payment request that succeeds.
//!
//! For every payment the service adds up the time spent inside its own
//! handlers (the profile, the OpenAPI document, the submission, the status
//! and the resource: five requests); the wrapper's overhead is the
//! payment's wall time less that. It holds the check (unless replayed),
//! the profile's validation, the three fsynced ledger lines (created,
//! attempted, observed), the HTTP client and loopback.
//!
//! Scenarios, each `PAYMENTS` payments, on disk and on tmpfs:
//! - `pay/<disk|tmpfs>/fresh-check`: each payment's check is a new one
//!   (extracted by a fixed extractor, sealed), then paid.
//! - `pay/<disk|tmpfs>/checked-before`: the check was made beforehand (not
//!   timed), so the wrapper's check is a replay of a sealed record: the
//!   payment's own overhead.
//!
//! Each line prints total, service and overhead p50, p99 and max. Run:
//! `cargo bench --bench pay`.

#[path = "common/allocator.rs"]
mod allocator;

mod common;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use asasked::pay::ledger::PayLedger;
use asasked::pay::{AmountField, Approval, PayRequest, Payer, Payment, PaymentState};
use axum::extract::{Path as UrlPath, State};
use axum::http::HeaderMap;
use serde_json::{Value, json};

const PAYMENTS: usize = 200;
/// The reference service: payments by idempotency key, and the nanoseconds
/// spent in its handlers.
#[derive(Clone, Default)]
struct Reference {
    origin: Arc<String>,
    payments: Arc<std::sync::Mutex<std::collections::HashMap<String, (String, Value)>>>,
    busy_nanos: Arc<AtomicU64>,
}

impl Reference {
    fn timed<T>(&self, started: Instant, value: T) -> T {
        self.busy_nanos.fetch_add(started.elapsed().as_nanos() as u64, Ordering::SeqCst);
        value
    }
}

fn profile(origin: &str) -> Value {
    json!({
        "agentic": "0.1.0-draft", "origin": origin,
        "actions": [{
            "id": "pay-order", "description": "Take a card payment for an order.", "openapi": "/openapi.json",
            "submit": "createPayment", "status": "getPaymentRequest", "verify": "getPayment",
            "request": {"header": "Idempotency-Key", "scope": "principal-action", "retentionSeconds": 86400},
            "bindings": {"statusRequestId": "requestId", "verifyResourceId": "paymentId"},
            "evidence": {
                "resourceIdPointer": "/id", "requestIdPointer": "/request_id", "statePointer": "/status",
                "successValues": ["captured"],
                "inputBindings": [{"inputPointer": "/amount", "resourcePointer": "/amount"},
                                  {"inputPointer": "/order", "resourcePointer": "/order"}]
            },
            "recovery": {"maxChecks": 3, "checkDelayMs": 0, "timeoutMs": 3000, "retry": "never-automatically"}
        }]
    })
}

fn openapi() -> Value {
    let path_parameter =
        |name: &str| json!([{"name": name, "in": "path", "required": true, "schema": {"type": "string"}}]);
    json!({
        "openapi": "3.1.0", "info": {"title": "bench payments", "version": "0"},
        "paths": {
            "/payments": {"post": {
                "operationId": "createPayment",
                "parameters": [{"name": "Idempotency-Key", "in": "header", "required": true, "schema": {"type": "string"}}],
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object"}}}},
                "responses": {}
            }},
            "/payment-requests/{requestId}": {"get": {"operationId": "getPaymentRequest", "parameters": path_parameter("requestId"), "responses": {}}},
            "/payments/{paymentId}": {"get": {"operationId": "getPayment", "parameters": path_parameter("paymentId"), "responses": {}}}
        }
    })
}

async fn start() -> Reference {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let origin = format!("http://{}", listener.local_addr().expect("address"));
    let reference = Reference { origin: Arc::new(origin), ..Reference::default() };
    let router = axum::Router::new()
        .route(
            "/agentic.json",
            axum::routing::get(|State(reference): State<Reference>| async move {
                let started = Instant::now();
                let body = axum::Json(profile(&reference.origin));
                reference.timed(started, body)
            }),
        )
        .route(
            "/openapi.json",
            axum::routing::get(|State(reference): State<Reference>| async move {
                let started = Instant::now();
                reference.timed(started, axum::Json(openapi()))
            }),
        )
        .route(
            "/payments",
            axum::routing::post(
                |State(reference): State<Reference>, headers: HeaderMap, axum::Json(input): axum::Json<Value>| async move {
                    let started = Instant::now();
                    let key = headers.get("idempotency-key").and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
                    let mut payments = reference.payments.lock().expect("lock");
                    let number = payments.len() + 1;
                    let (id, input) = payments.entry(key.clone()).or_insert((format!("P-{number}"), input)).clone();
                    drop(payments);
                    let mut view = input;
                    view["id"] = json!(id);
                    view["request_id"] = json!(key);
                    view["status"] = json!("captured");
                    reference.timed(started, axum::Json(view))
                },
            ),
        )
        .route(
            "/payment-requests/{request_id}",
            axum::routing::get(|State(reference): State<Reference>, UrlPath(request_id): UrlPath<String>| async move {
                let started = Instant::now();
                let found = reference.payments.lock().expect("lock").get(&request_id).map(|(id, _)| id.clone());
                let body = match found {
                    Some(id) => json!({"request_id": request_id, "status": "succeeded", "resource_id": id}),
                    None => json!({"request_id": request_id, "status": "unknown", "resource_id": null}),
                };
                reference.timed(started, axum::Json(body))
            }),
        )
        .route(
            "/payments/{payment_id}",
            axum::routing::get(|State(reference): State<Reference>, UrlPath(payment_id): UrlPath<String>| async move {
                let started = Instant::now();
                let payments = reference.payments.lock().expect("lock");
                let (key, (id, input)) =
                    payments.iter().find(|(_, (id, _))| *id == payment_id).map(|(k, v)| (k.clone(), v.clone())).expect("paid");
                drop(payments);
                let mut view = input;
                view["id"] = json!(id);
                view["request_id"] = json!(key);
                view["status"] = json!("captured");
                reference.timed(started, axum::Json(view))
            }),
        )
        .with_state(reference.clone());
    tokio::spawn(async move { axum::serve(listener, router).await });
    reference
}

async fn scenario(label: &str, root: &Path, checked_before: bool) {
    let directory = tempfile::Builder::new().prefix("asasked-pay-").tempdir_in(root).expect("temp dir");
    let data = directory.path().join("data");
    let service = common::service(directory.path(), &data);
    let reference = start().await;
    let payer = Payer::new(PayLedger::open(&data).expect("ledger"), Approval::Any).expect("payer");
    if checked_before {
        for index in 0..PAYMENTS {
            service.check_order(common::check(index)).await.expect("check");
        }
    }
    let request = |index: usize| PayRequest {
        check: common::check(index),
        payment: Payment {
            profile: format!("{}/agentic.json", reference.origin),
            action: "pay-order".into(),
            input: json!({"amount": "139.99", "currency": "USD", "order": format!("order-{index}")})
                .as_object()
                .expect("object")
                .clone(),
            amount: AmountField::default(),
        },
    };
    // Warm the connection pool and the first paths (another order number).
    payer.pay(&service, request(PAYMENTS + 1)).await.expect("warm");
    let (mut total, mut inside, mut overhead) = (Vec::new(), Vec::new(), Vec::new());
    for index in 0..PAYMENTS {
        let busy_before = reference.busy_nanos.load(Ordering::SeqCst);
        let started = Instant::now();
        let result = payer.pay(&service, request(index)).await.expect("pay");
        let elapsed = started.elapsed();
        assert_eq!(result.payment, PaymentState::Succeeded, "{result:?}");
        let busy = Duration::from_nanos(reference.busy_nanos.load(Ordering::SeqCst) - busy_before);
        total.push(elapsed);
        inside.push(busy);
        overhead.push(elapsed.saturating_sub(busy));
    }
    println!(
        "pay/{label}: total {} | service {} | overhead {}",
        common::summary(total),
        common::summary(inside),
        common::summary(overhead)
    );
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime");
    runtime.block_on(async {
        for (medium, root) in &common::roots() {
            scenario(&format!("{medium}/fresh-check"), root, false).await;
            scenario(&format!("{medium}/checked-before"), root, true).await;
        }
    });
}
