//! Redemption latency (issue 30 §2): `POST /v1/redemptions` over HTTP/1.1
//! on loopback against an in-process `serve_http` with the embedded ledger,
//! one request at a time (the latency, not the throughput), keep-alive.
//!
//! Scenarios, each `REDEMPTIONS` requests, each printed as one line with its
//! p50, p99 and max:
//! - `redeem/first/<disk|tmpfs>`: a fresh verdict each time: the receipt
//!   verified, the record and its successor looked up, the outcome appended
//!   and fsynced (`succeeded`).
//! - `redeem/second-key/<…>`: another key for a redeemed verdict: the same
//!   work, recorded as `already_redeemed`.
//! - `redeem/replay/<…>`: the first key and body again: answered from the
//!   ledger, nothing written.
//!
//! The verdicts are made beforehand through the service (not timed). Run:
//! `cargo bench --bench redeem`.

#[path = "common/allocator.rs"]
mod allocator;

mod common;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use asasked::mcp::HttpOptions;
use asasked::redeem::file::FileLedger;
use serde_json::{Value, json};

const REDEMPTIONS: usize = 300;

async fn post(http: &reqwest::Client, url: &str, key: &str, body: &Value) -> (Duration, Value) {
    let started = Instant::now();
    let response = http.post(url).header("Idempotency-Key", key).json(body).send().await.expect("post");
    let outcome: Value = response.json().await.expect("json");
    (started.elapsed(), outcome)
}

async fn scenario(label: &str, root: &Path) {
    let directory = tempfile::Builder::new().prefix("asasked-redeem-").tempdir_in(root).expect("temp dir");
    let data = directory.path().join("data");
    let service = common::service(directory.path(), &data);
    let mut bodies = Vec::with_capacity(REDEMPTIONS);
    for index in 0..REDEMPTIONS {
        let result = service.check_order(common::check(index)).await.expect("check");
        let receipt = result.receipt.expect("a proceed is signed");
        bodies.push(json!({"receipt": receipt, "cart": [{"id": "shoe-003", "quantity": 1}]}));
    }
    let server = asasked::mcp::CheckServer::new(service, false);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("http://{}/v1/redemptions", listener.local_addr().expect("address"));
    let options =
        HttpOptions { ledger: Some(Arc::new(FileLedger::open(&data).expect("ledger"))), ..HttpOptions::default() };
    tokio::spawn(asasked::mcp::serve_http(server, listener, options, std::future::pending()));
    let http = reqwest::Client::new();
    // Warm the connection and the first paths.
    let _ = post(&http, &url, "warm", &json!({"receipt": "x", "cart": []})).await;

    let mut first = Vec::with_capacity(REDEMPTIONS);
    for (index, body) in bodies.iter().enumerate() {
        let (elapsed, outcome) = post(&http, &url, &format!("first-{index}"), body).await;
        assert_eq!(outcome["status"], "succeeded", "{outcome}");
        first.push(elapsed);
    }
    let mut second = Vec::with_capacity(REDEMPTIONS);
    for (index, body) in bodies.iter().enumerate() {
        let (elapsed, outcome) = post(&http, &url, &format!("second-{index}"), body).await;
        assert_eq!(outcome["reason"], "already_redeemed", "{outcome}");
        second.push(elapsed);
    }
    let mut replay = Vec::with_capacity(REDEMPTIONS);
    for (index, body) in bodies.iter().enumerate() {
        let (elapsed, outcome) = post(&http, &url, &format!("first-{index}"), body).await;
        assert_eq!(outcome["status"], "succeeded", "{outcome}");
        replay.push(elapsed);
    }
    println!("redeem/first/{label}: {}", common::summary(first));
    println!("redeem/second-key/{label}: {}", common::summary(second));
    println!("redeem/replay/{label}: {}", common::summary(replay));
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime");
    runtime.block_on(async {
        for (medium, root) in &common::roots() {
            scenario(medium, root).await;
        }
    });
}
