//! Principals over real HTTP on 127.0.0.1 (issue 30 §3): tokens added and
//! revoked with the binary's `tokens` command while a server runs on the
//! same data folder; each token's records, chains and replays are its own.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use asasked::evidence::EvidenceStore;
use asasked::mcp::HttpOptions;
use asasked::principal::tokens::TokenFile;
use asasked::service::{Service, SystemClock};
use serde_json::{Value, json};

use crate::faults::reply_in;

const BIN: &str = env!("CARGO_BIN_EXE_asasked");
const FACTS: &str = r#"{"brand":"Nike","model":"Pegasus 41","color":"white","size_label":"42"}"#;
const REQUEST: &str = "Nike Pegasus 41, white, size 42 please";

/// `asasked tokens ARGS --data-dir DATA`: its stdout, after asserting success.
pub fn tokens_command(data: &Path, arguments: &[&str]) -> String {
    let output = Command::new(BIN).arg("tokens").args(arguments).arg("--data-dir").arg(data).output().unwrap();
    assert!(output.status.success(), "tokens {arguments:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

/// A service sealing under `data`, with the fixed facts of `FACTS`, the
/// embedded catalog and receipts signed with keys under `data/keys`.
pub fn service(directory: &Path, data: &Path) -> Service {
    let facts = directory.join("facts.json");
    std::fs::write(&facts, FACTS).unwrap();
    let names = [asasked::extract::name::ExtractorName::Fixed(facts)];
    let extractors = Arc::new(asasked::extractors::build(&names, &|_| None).unwrap());
    let catalog = Some(Arc::new(asasked::catalog::Catalog::embedded().unwrap()));
    let keys = asasked::receipt::KeyRing::open_or_create(&data.join("keys")).unwrap();
    Service::new(extractors, catalog, EvidenceStore::open(data).unwrap(), Arc::new(SystemClock))
        .with_receipts(Arc::new(keys))
}

/// `serve_http` on 127.0.0.1:0 with the token file of `data`; its base URL.
pub async fn serve(service: Service, data: &Path) -> String {
    let server = asasked::mcp::CheckServer::new(service, false);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let options = HttpOptions { tokens: Some(TokenFile::in_folder(data)), ..HttpOptions::default() };
    tokio::spawn(asasked::mcp::serve_http(server, listener, options, std::future::pending()));
    format!("http://{address}")
}

/// A minimal MCP client over Streamable HTTP with a bearer token.
pub struct Client {
    http: reqwest::Client,
    url: String,
    token: String,
    session: Option<String>,
    next_id: u64,
}

impl Client {
    /// Initializes a session; `Err(status)` when the server refuses it.
    pub async fn connect(base: &str, token: &str) -> Result<Client, reqwest::StatusCode> {
        let http = reqwest::Client::builder().timeout(Duration::from_secs(20)).build().unwrap();
        let mut client =
            Client { http, url: format!("{base}/mcp"), token: token.to_owned(), session: None, next_id: 1 };
        let params =
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}});
        client.request("initialize", params).await?;
        client.post(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await?;
        Ok(client)
    }

    async fn post(&mut self, message: &Value) -> Result<String, reqwest::StatusCode> {
        let mut builder = self
            .http
            .post(&self.url)
            .bearer_auth(&self.token)
            .header("accept", "application/json, text/event-stream")
            .json(message);
        if let Some(session) = &self.session {
            builder = builder.header("mcp-session-id", session).header("mcp-protocol-version", "2025-06-18");
        }
        let response = builder.send().await.unwrap();
        if !response.status().is_success() {
            return Err(response.status());
        }
        if let Some(session) = response.headers().get("mcp-session-id") {
            self.session = Some(session.to_str().unwrap().to_owned());
        }
        let mut response = response;
        let mut body = String::new();
        while let Some(chunk) = response.chunk().await.unwrap() {
            body.push_str(&String::from_utf8_lossy(&chunk));
            if message.get("id").is_some() && reply_in(&body, Some(&message["id"])).is_some() {
                break;
            }
        }
        Ok(body)
    }

    pub async fn request(&mut self, method: &str, params: Value) -> Result<Value, reqwest::StatusCode> {
        let id = self.next_id;
        self.next_id += 1;
        let body = self.post(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})).await?;
        Ok(reply_in(&body, Some(&json!(id))).unwrap_or_else(|| panic!("{method}: no reply in {body}")))
    }

    /// A plain GET with this client's token: the status and the JSON body.
    pub async fn http_get(&self, base: &str, path: &str) -> (u16, Value) {
        let response = self.http.get(format!("{base}{path}")).bearer_auth(&self.token).send().await.unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    /// One `check_order` call: the tool result.
    pub async fn check(&mut self, arguments: Value) -> Result<Value, reqwest::StatusCode> {
        let reply = self.request("tools/call", json!({"name": "check_order", "arguments": arguments})).await?;
        Ok(reply["result"].clone())
    }
}

/// The check arguments of `REQUEST` with the catalog item `id`.
pub fn check_arguments(id: &str) -> Value {
    json!({"request": REQUEST, "cart": [{"id": id, "quantity": 1}], "today": "2026-11-02"})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_principal_sees_only_its_own_records_and_a_revoked_token_is_refused() {
    let directory = tempfile::tempdir().unwrap();
    let data = directory.path().join("data");
    let shop_token = tokens_command(&data, &["add", "shop"]).trim().to_owned();
    let other_token = tokens_command(&data, &["add", "other"]).trim().to_owned();
    let base = serve(service(directory.path(), &data), &data).await;

    // No token, or a token never added: refused.
    assert_eq!(Client::connect(&base, "asasked_unknown").await.err(), Some(reqwest::StatusCode::UNAUTHORIZED));
    let mut shop = Client::connect(&base, &shop_token).await.unwrap();
    let mut other = Client::connect(&base, &other_token).await.unwrap();

    // The same check by two principals is two records.
    let shop_ask = shop.check(check_arguments("shoe-002")).await.unwrap();
    let other_ask = other.check(check_arguments("shoe-002")).await.unwrap();
    let shop_record = shop_ask["structuredContent"]["record_id"].as_str().unwrap().to_owned();
    let other_record = other_ask["structuredContent"]["record_id"].as_str().unwrap().to_owned();
    assert_eq!(shop_ask["structuredContent"]["decision"], "ask");
    assert_ne!(shop_record, other_record, "one principal's replay never returns another's record");

    // Another principal's record is not found, never a link.
    let mut stolen = check_arguments("shoe-003");
    stolen["previous_record_id"] = json!(shop_record);
    let refused = other.check(stolen.clone()).await.unwrap();
    assert_eq!(refused["isError"], true, "{refused}");
    let text = refused["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("$.previous_record_id") && text.contains("does not exist"), "{text}");
    // Its owner links to it.
    let linked = shop.check(stolen).await.unwrap();
    assert_eq!(linked["structuredContent"]["decision"], "proceed", "{linked}");
    assert_eq!(linked["structuredContent"]["attempt"], 2);
    assert_eq!(linked["structuredContent"]["previous_record_id"], json!(shop_record));

    // Revoked from the CLI while the server runs: refused from the next request.
    let listed = tokens_command(&data, &["list"]);
    let shop_id = listed.lines().find(|line| line.contains("\tshop\t")).unwrap().split('\t').next().unwrap().to_owned();
    assert!(!listed.contains(&shop_token), "the list never shows a token");
    let revoked = tokens_command(&data, &["revoke", &shop_id]);
    assert!(revoked.contains("revoked"), "{revoked}");
    assert_eq!(shop.check(check_arguments("shoe-003")).await.err(), Some(reqwest::StatusCode::UNAUTHORIZED));
    assert_eq!(Client::connect(&base, &shop_token).await.err(), Some(reqwest::StatusCode::UNAUTHORIZED));
    let still = other.check(check_arguments("shoe-003")).await.unwrap();
    assert_eq!(still["structuredContent"]["decision"], "proceed");
}

#[test]
fn the_tokens_command_refuses_a_reserved_or_malformed_name() {
    let directory = tempfile::tempdir().unwrap();
    for name in ["local", "Shop Front"] {
        let output =
            Command::new(BIN).args(["tokens", "add", name, "--data-dir"]).arg(directory.path()).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{name}");
        assert!(String::from_utf8_lossy(&output.stderr).contains("principal"), "{name}");
    }
    assert!(!directory.path().join("tokens.json").exists());
}
