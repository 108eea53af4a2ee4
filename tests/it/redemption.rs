//! Redemption over real HTTP on 127.0.0.1 (issue 30 §2): a merchant redeems
//! a `proceed` once, replays get the first answer, a reused key with another
//! body is refused, a superseded verdict is refused, another principal sees
//! nothing, a revoked token nothing at all; the published profile validates
//! against the Agentic Action Profile's schema; and 50 concurrent
//! redemptions of one verdict through two server processes on one data
//! folder redeem it exactly once.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use asasked::mcp::HttpOptions;
use asasked::principal::tokens::TokenFile;
use asasked::redeem::file::FileLedger;
use serde_json::{Value, json};

use super::principals::{Client, check_arguments, service, tokens_command};

const BIN: &str = env!("CARGO_BIN_EXE_asasked");

/// `serve_http` on 127.0.0.1:0 with tokens and the embedded ledger of `data`.
async fn serve(directory: &Path, data: &Path) -> String {
    let server = asasked::mcp::CheckServer::new(service(directory, data), false);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let options = HttpOptions {
        tokens: Some(TokenFile::in_folder(data)),
        ledger: Some(Arc::new(FileLedger::open(data).unwrap())),
        ..HttpOptions::default()
    };
    tokio::spawn(asasked::mcp::serve_http(server, listener, options, std::future::pending()));
    format!("http://{address}")
}

/// A merchant's calls.
pub struct Merchant {
    pub http: reqwest::Client,
    pub base: String,
    pub token: String,
}

impl Merchant {
    pub fn new(base: &str, token: &str) -> Merchant {
        let http = reqwest::Client::builder().timeout(Duration::from_secs(30)).build().unwrap();
        Merchant { http, base: base.to_owned(), token: token.to_owned() }
    }

    /// `POST /v1/redemptions`: the status and the body.
    pub async fn redeem(&self, key: Option<&str>, body: &Value) -> (u16, Value) {
        self.try_redeem(key, body).await.expect("an answer")
    }

    /// `POST /v1/redemptions`, or `None` when no answer came (the server died).
    pub async fn try_redeem(&self, key: Option<&str>, body: &Value) -> Option<(u16, Value)> {
        let mut request = self.http.post(format!("{}/v1/redemptions", self.base)).bearer_auth(&self.token).json(body);
        if let Some(key) = key {
            request = request.header("Idempotency-Key", key);
        }
        let response = request.send().await.ok()?;
        let status = response.status().as_u16();
        // A refusal before the handler (401) is plain text.
        Some((status, response.json().await.unwrap_or(Value::Null)))
    }

    pub async fn get(&self, path: &str) -> (u16, Value) {
        let response = self.http.get(format!("{}{path}", self.base)).bearer_auth(&self.token).send().await.unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }
}

/// A `proceed` of `request` for `shoe-003`: its record id and receipt.
async fn proceed(agent: &mut Client, request: &str) -> (String, String) {
    let mut arguments = check_arguments("shoe-003");
    arguments["request"] = json!(request);
    let result = agent.check(arguments).await.unwrap()["structuredContent"].clone();
    assert_eq!(result["decision"], "proceed", "{result}");
    let receipt = result["receipt"].as_str().unwrap().to_owned();
    assert_eq!(result["acf"]["com.provecart.conformity"]["verdict_token"], json!(receipt), "ACF v0.2 §4");
    (result["record_id"].as_str().unwrap().to_owned(), receipt)
}

fn cart(id: &str) -> Value {
    json!([{"id": id, "quantity": 1}])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_verdict_is_redeemed_once_and_every_replay_gets_the_first_answer() {
    let directory = tempfile::tempdir().unwrap();
    let data = directory.path().join("data");
    let agent_token = tokens_command(&data, &["add", "agent"]).trim().to_owned();
    let merchant_token = tokens_command(&data, &["add", "merchant"]).trim().to_owned();
    let other_token = tokens_command(&data, &["add", "other"]).trim().to_owned();
    let base = serve(directory.path(), &data).await;
    let mut agent = Client::connect(&base, &agent_token).await.unwrap();
    let merchant = Merchant::new(&base, &merchant_token);
    let other = Merchant::new(&base, &other_token);

    let (record_id, receipt) = proceed(&mut agent, "Nike Pegasus 41, white, size 42 please").await;
    let body = json!({"receipt": receipt, "cart": cart("shoe-003")});
    let (status, first) = merchant.redeem(Some("order-1"), &body).await;
    assert_eq!(status, 200, "{first}");
    assert_eq!(first["status"], "succeeded");
    assert_eq!(first["resource_id"], json!(record_id));
    assert_eq!(first["request_id"], "order-1");

    // The same key and body: the very same answer.
    let (status, replay) = merchant.redeem(Some("order-1"), &body).await;
    assert_eq!((status, &replay), (200, &first));
    // The same key, another body: refused, and the first outcome stands.
    let (status, conflict) =
        merchant.redeem(Some("order-1"), &json!({"receipt": receipt, "cart": cart("shoe-002")})).await;
    assert_eq!(status, 422, "{conflict}");
    assert_eq!(conflict["error"], "idempotency_key_reused");
    // Another key for the redeemed verdict: already redeemed, and recorded.
    let (status, second) = merchant.redeem(Some("order-2"), &body).await;
    assert_eq!((status, &second["status"], &second["reason"]), (200, &json!("failed"), &json!("already_redeemed")));
    assert_eq!(second["resource_id"], Value::Null);
    assert_eq!(merchant.redeem(Some("order-2"), &body).await.1, second);
    // Another principal with a fresh key: already redeemed too.
    assert_eq!(other.redeem(Some("order-1"), &body).await.1["reason"], "already_redeemed");
    // No key; a receipt for another cart.
    assert_eq!(merchant.redeem(None, &body).await.0, 400);
    let (_, changed) = merchant.redeem(Some("order-3"), &json!({"receipt": receipt, "cart": cart("shoe-002")})).await;
    assert_eq!(changed["reason"], "cart_changed");
    let (status, malformed) = merchant.redeem(Some("order-4"), &json!({"receipt": receipt})).await;
    assert_eq!(status, 400);
    assert!(malformed["message"].as_str().unwrap().contains("cart"), "{malformed}");

    // Status and verdict reads, scoped to their principals.
    let (status, read) = merchant.get("/v1/redemptions/order-1").await;
    assert_eq!((status, &read["status"], &read["resource_id"]), (200, &json!("succeeded"), &json!(record_id)));
    let (status, unknown) = agent.http_get(&base, "/v1/redemptions/order-1").await;
    assert_eq!((status, &unknown["status"]), (404, &json!("unknown")), "another principal's request");
    let (status, verdict) = merchant.get(&format!("/v1/verdicts/{record_id}")).await;
    assert_eq!(status, 200, "{verdict}");
    assert_eq!(
        (&verdict["state"], &verdict["request_id"], &verdict["receipt"]),
        (&json!("redeemed"), &json!("order-1"), &json!(receipt))
    );
    assert_eq!(agent.http_get(&base, &format!("/v1/verdicts/{record_id}")).await.0, 200, "the checker sees it");
    assert_eq!(other.get(&format!("/v1/verdicts/{record_id}")).await.0, 404, "another principal's record id");

    // A superseded verdict: a later check of the same request replaced it.
    let request = "Nike Pegasus 41 in white, 42";
    let (superseded, old_receipt) = proceed(&mut agent, request).await;
    let mut recheck = check_arguments("shoe-002");
    recheck["request"] = json!(request);
    recheck["previous_record_id"] = json!(superseded);
    agent.check(recheck).await.unwrap();
    let (_, refused) =
        merchant.redeem(Some("order-5"), &json!({"receipt": old_receipt, "cart": cart("shoe-003")})).await;
    assert_eq!((&refused["status"], &refused["reason"]), (&json!("failed"), &json!("superseded")));
    assert_eq!(merchant.get(&format!("/v1/verdicts/{superseded}")).await.0, 404, "not redeemed by the merchant");
    assert_eq!(agent.http_get(&base, &format!("/v1/verdicts/{superseded}")).await.1["state"], "superseded");

    // A revoked token: refused before anything is read.
    let listed = tokens_command(&data, &["list"]);
    let id = listed.lines().find(|line| line.contains("\tmerchant\t")).unwrap().split('\t').next().unwrap().to_owned();
    tokens_command(&data, &["revoke", &id]);
    assert_eq!(merchant.redeem(Some("order-1"), &body).await.0, 401);
    assert_eq!(merchant.get("/v1/redemptions/order-1").await.0, 401);

    // Across a restart (a new server on the same data folder), the outcome is kept.
    let restarted = serve(directory.path(), &data).await;
    let other_again = Merchant::new(&restarted, &other_token);
    assert_eq!(other_again.redeem(Some("order-1"), &body).await.1["reason"], "already_redeemed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_published_profile_validates_against_the_agentic_schema_and_binds_the_openapi_document() {
    let directory = tempfile::tempdir().unwrap();
    let data = directory.path().join("data");
    let base = serve(directory.path(), &data).await;
    let http = reqwest::Client::new();
    // Public, like the JWKS: no token is needed, even with tokens set.
    tokens_command(&data, &["add", "merchant"]);
    let profile: Value = http.get(format!("{base}/agentic.json")).send().await.unwrap().json().await.unwrap();
    let openapi: Value = http.get(format!("{base}/openapi.json")).send().await.unwrap().json().await.unwrap();
    let schema: Value = serde_json::from_str(include_str!("../fixtures/agentic/agentic-0.1.schema.json")).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator.iter_errors(&profile).map(|error| error.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}\n{profile}");
    assert_eq!(profile["origin"], json!(base), "loopback: http");
    // A broken profile is refused by the same schema (the test can fail).
    let mut broken = profile.clone();
    broken["actions"][0]["request"]["scope"] = json!("global");
    assert!(!validator.is_valid(&broken));

    // The profile's binding rules (§4): each operation id resolves exactly
    // once, the submission is a POST with a required Idempotency-Key header,
    // each read a GET with its one required path parameter.
    assert_eq!(openapi["openapi"], "3.1.0");
    let action = &profile["actions"][0];
    let operations: Vec<(String, String, Value)> = openapi["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, methods)| {
            methods
                .as_object()
                .unwrap()
                .iter()
                .map(move |(method, operation)| (path.clone(), method.clone(), operation.clone()))
        })
        .collect();
    let find = |id: &Value| {
        let found: Vec<&(String, String, Value)> =
            operations.iter().filter(|(_, _, op)| &op["operationId"] == id).collect();
        assert_eq!(found.len(), 1, "{id} resolves exactly once");
        found[0].clone()
    };
    let (submit_path, method, submit) = find(&action["submit"]);
    assert_eq!((submit_path.as_str(), method.as_str()), ("/v1/redemptions", "post"));
    assert!(
        submit["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == "Idempotency-Key" && p["in"] == "header" && p["required"] == true)
    );
    assert!(submit["requestBody"]["content"]["application/json"].is_object());
    for (operation, binding) in [("status", "statusRequestId"), ("verify", "verifyResourceId")] {
        let (path, method, read) = find(&action[operation]);
        let name = action["bindings"][binding].as_str().unwrap();
        assert_eq!(method, "get");
        assert_eq!(path.matches('{').count(), 1, "{path}");
        assert!(path.contains(&format!("{{{name}}}")), "{path} has {name}");
        let parameters = read["parameters"].as_array().unwrap();
        assert!(parameters.iter().any(|p| p["name"] == name && p["in"] == "path" && p["required"] == true));
    }
}

/// `asasked serve --http 127.0.0.1:0` on `data`: the child and its base URL.
fn start_server(data: &Path, facts: &Path) -> (Child, String) {
    let mut child = Command::new(BIN)
        .args(["serve", "--http", "127.0.0.1:0", "--data-dir"])
        .arg(data)
        .arg("--extractors")
        .arg(format!("fixed:{}", facts.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (found, address) = std::sync::mpsc::channel();
    let lines = BufReader::new(child.stderr.take().unwrap()).lines();
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            if let Some(rest) = line.split("serving MCP at ").nth(1) {
                let _ = found.send(rest.trim().trim_end_matches("/mcp").to_owned());
            }
        }
    });
    let base = address.recv_timeout(Duration::from_secs(20)).expect("the server did not start");
    (child, base)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_concurrent_redemptions_through_two_processes_on_one_data_folder_redeem_once() {
    let directory = tempfile::tempdir().unwrap();
    let data = directory.path().join("data");
    let facts = directory.path().join("facts.json");
    std::fs::write(&facts, r#"{"brand":"Nike","model":"Pegasus 41","color":"white","size_label":"42"}"#).unwrap();
    let agent_token = tokens_command(&data, &["add", "agent"]).trim().to_owned();
    let merchant_token = tokens_command(&data, &["add", "merchant"]).trim().to_owned();
    let (mut first, first_base) = start_server(&data, &facts);
    let (mut second, second_base) = start_server(&data, &facts);
    let mut agent = Client::connect(&first_base, &agent_token).await.unwrap();
    let (record_id, receipt) = proceed(&mut agent, "Nike Pegasus 41, white, size 42 please").await;
    let body = json!({"receipt": receipt, "cart": cart("shoe-003")});

    let merchants =
        [Arc::new(Merchant::new(&first_base, &merchant_token)), Arc::new(Merchant::new(&second_base, &merchant_token))];
    let storm: Vec<_> = (0..50)
        .map(|index| {
            let merchant = Arc::clone(&merchants[index % 2]);
            let body = body.clone();
            tokio::spawn(async move { merchant.redeem(Some(&format!("storm-{index}")), &body).await })
        })
        .collect();
    let mut succeeded = Vec::new();
    let mut already = 0;
    for (index, outcome) in storm.into_iter().enumerate() {
        let (status, outcome) = outcome.await.unwrap();
        assert_eq!(status, 200, "{outcome}");
        match (outcome["status"].as_str(), outcome["reason"].as_str()) {
            (Some("succeeded"), None) => succeeded.push(index),
            (Some("failed"), Some("already_redeemed")) => already += 1,
            other => panic!("{other:?}: {outcome}"),
        }
    }
    assert_eq!((succeeded.len(), already), (1, 49), "exactly one of 50 redeems the verdict");
    eprintln!(
        "50 concurrent redemptions through two processes: 1 succeeded (storm-{}), 49 already_redeemed",
        succeeded[0]
    );
    // Both processes agree on who redeemed it.
    for merchant in &merchants {
        let (_, verdict) = merchant.get(&format!("/v1/verdicts/{record_id}")).await;
        assert_eq!(verdict["request_id"], json!(format!("storm-{}", succeeded[0])));
    }
    let ledger = std::fs::read_to_string(data.join("redemptions.jsonl")).unwrap();
    assert_eq!(ledger.lines().count(), 50, "every outcome recorded once");
    for child in [&mut first, &mut second] {
        let _ = child.kill();
        let _ = child.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_sigkilled_mid_storm_loses_and_doubles_nothing() {
    let directory = tempfile::tempdir().unwrap();
    let data = directory.path().join("data");
    let facts = directory.path().join("facts.json");
    std::fs::write(&facts, r#"{"brand":"Nike","model":"Pegasus 41","color":"white","size_label":"42"}"#).unwrap();
    let agent_token = tokens_command(&data, &["add", "agent"]).trim().to_owned();
    let merchant_token = tokens_command(&data, &["add", "merchant"]).trim().to_owned();
    let (mut doomed, doomed_base) = start_server(&data, &facts);
    let (mut survivor, survivor_base) = start_server(&data, &facts);
    let mut agent = Client::connect(&survivor_base, &agent_token).await.unwrap();
    // Several verdicts, so that the killed process is likely mid-commit.
    let mut bodies = Vec::new();
    for index in 0..5 {
        let (_, receipt) = proceed(&mut agent, &format!("Nike Pegasus 41, white, size 42 please ({index})")).await;
        bodies.push(json!({"receipt": receipt, "cart": cart("shoe-003")}));
    }
    let doomed_merchant = Arc::new(Merchant::new(&doomed_base, &merchant_token));
    let survivor_merchant = Arc::new(Merchant::new(&survivor_base, &merchant_token));
    // The doomed process is killed as soon as it has answered one request,
    // with the others of its share in flight.
    let (answered, mut first_answer) = tokio::sync::mpsc::unbounded_channel::<()>();
    let storm: Vec<_> = (0..50)
        .map(|index| {
            let doomed_share = index % 2 == 0;
            let merchant = Arc::clone(if doomed_share { &doomed_merchant } else { &survivor_merchant });
            let body = bodies[index % 5].clone();
            let answered = answered.clone();
            tokio::spawn(async move {
                let answer = merchant.try_redeem(Some(&format!("storm-{index}")), &body).await;
                if doomed_share && answer.is_some() {
                    let _ = answered.send(());
                }
                answer
            })
        })
        .collect();
    let _ = tokio::time::timeout(Duration::from_secs(20), first_answer.recv()).await;
    doomed.kill().unwrap();
    doomed.wait().unwrap();
    // The merchant retries every unanswered key, same body, on the survivor.
    let mut outcomes = Vec::new();
    let mut retried = 0;
    for (index, answer) in storm.into_iter().enumerate() {
        let outcome = match answer.await.unwrap() {
            Some((200, outcome)) => outcome,
            _ => {
                retried += 1;
                let (status, outcome) =
                    survivor_merchant.redeem(Some(&format!("storm-{index}")), &bodies[index % 5]).await;
                assert_eq!(status, 200, "{outcome}");
                outcome
            }
        };
        outcomes.push(outcome);
    }
    for verdict in 0..5 {
        let succeeded = (verdict..50).step_by(5).filter(|&index| outcomes[index]["status"] == "succeeded").count();
        assert_eq!(succeeded, 1, "verdict {verdict}: {outcomes:?}");
    }
    // Every key has one recorded outcome, the one its answer gave.
    let ledger = std::fs::read_to_string(data.join("redemptions.jsonl")).unwrap();
    assert_eq!(ledger.lines().count(), 50, "{ledger}");
    for (index, outcome) in outcomes.iter().enumerate() {
        let (_, read) = survivor_merchant.get(&format!("/v1/redemptions/storm-{index}")).await;
        assert_eq!(read["status"], outcome["status"]);
    }
    eprintln!(
        "SIGKILL mid-storm: {retried} of 50 requests unanswered and retried on the other process; 5 verdicts, each redeemed once; 50 outcomes recorded"
    );
    let _ = survivor.kill();
    let _ = survivor.wait();
}
