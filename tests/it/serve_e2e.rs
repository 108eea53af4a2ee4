//! End to end: the built binary serves MCP over stdio to rmcp's client, its
//! evidence verifies with `asasked evidence verify` (and a tampered copy does
//! not), and the HTTP transport refuses a missing or wrong bearer token.

use std::path::Path;
use std::process::Command;

use asasked::mcp::HttpOptions;
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const BIN: &str = env!("CARGO_BIN_EXE_asasked");
const FACTS: &str = r#"{"brand":"Nike","model":"Pegasus 41","color":"white","size_label":"42"}"#;

fn arguments(value: Value) -> serde_json::Map<String, Value> {
    value.as_object().unwrap().clone()
}

fn evidence(data: &Path, arguments: &[&str]) -> std::process::Output {
    Command::new(BIN).arg("evidence").args(arguments).arg("--data-dir").arg(data).output().unwrap()
}

#[tokio::test]
async fn the_binary_serves_stdio_and_seals_verifiable_evidence() {
    let directory = tempfile::tempdir().unwrap();
    let facts = directory.path().join("facts.json");
    std::fs::write(&facts, FACTS).unwrap();
    let data = directory.path().join("data");
    let transport = TokioChildProcess::new(tokio::process::Command::new(BIN).configure(|command| {
        command.arg("serve").arg("--data-dir").arg(&data).arg("--extractors").arg(format!("fixed:{}", facts.display()));
    }))
    .unwrap();
    let client = ().serve(transport).await.unwrap();
    let tools = client.list_all_tools().await.unwrap();
    let mut names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    names.sort();
    assert_eq!(names, ["brief_order", "check_order", "verify_verdict"]);
    let request = "Nike Pegasus 41, white, size 42 please";
    let call = |cart: &str| {
        CallToolRequestParams::new("check_order").with_arguments(arguments(
            json!({"request": request, "cart": [{"id": cart, "quantity": 1}], "today": "2026-11-02"}),
        ))
    };
    let proceed = client.call_tool(call("shoe-003")).await.unwrap();
    assert_eq!(proceed.structured_content.unwrap()["decision"], "proceed");
    let ask = client.call_tool(call("shoe-002")).await.unwrap().structured_content.unwrap();
    assert_eq!(ask["decision"], "ask");
    client.cancel().await.unwrap();

    let verify = evidence(&data, &["verify"]);
    assert!(verify.status.success(), "{}", String::from_utf8_lossy(&verify.stdout));
    assert!(String::from_utf8_lossy(&verify.stdout).starts_with("ok: 2 records"));

    let record_id = ask["record_id"].as_str().unwrap();
    let show = evidence(&data, &["show", record_id]);
    let record: Value = serde_json::from_slice(&show.stdout).unwrap();
    assert_eq!(record["request"], request);
    assert!(record["body"]["extractors"][0]["raw"].is_object(), "raw extractor output is sealed");
    let export = evidence(&data, &["export", record_id, "--redact"]);
    let bundle = String::from_utf8_lossy(&export.stdout);
    assert!(export.status.success() && !bundle.contains("Pegasus 41, white"), "{bundle}");
    assert!(bundle.contains("variant_mismatch"), "{bundle}");

    let tampered = directory.path().join("tampered");
    std::fs::create_dir(&tampered).unwrap();
    let log = std::fs::read_to_string(data.join("evidence.jsonl")).unwrap();
    std::fs::write(tampered.join("evidence.jsonl"), log.replacen("EU 41", "EU 42", 1)).unwrap();
    let broken = evidence(&tampered, &["verify"]);
    assert_eq!(broken.status.code(), Some(1));
    let text = String::from_utf8_lossy(&broken.stdout);
    assert!(text.contains("BROKEN at line 2") && text.contains(record_id), "{text}");

    let torn = directory.path().join("torn");
    std::fs::create_dir(&torn).unwrap();
    std::fs::write(torn.join("evidence.jsonl"), &log[..log.len() - 10]).unwrap();
    let report = evidence(&torn, &["verify"]);
    assert_eq!(report.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&report.stdout).contains("torn last line"));
}

/// An in-process server whose extractor returns `FACTS` for any request,
/// sealing evidence under `directory`.
fn fixed_facts_server(directory: &std::path::Path) -> asasked::mcp::CheckServer {
    let facts = directory.join("facts.json");
    std::fs::write(&facts, FACTS).unwrap();
    let names = [asasked::extract::name::ExtractorName::Fixed(facts.clone())];
    let extractors = std::sync::Arc::new(asasked::extractors::build(&names, &|_| None).unwrap());
    let store = asasked::evidence::EvidenceStore::open(&directory.join("data")).unwrap();
    let service =
        asasked::service::Service::new(extractors, None, store, std::sync::Arc::new(asasked::service::SystemClock));
    asasked::mcp::CheckServer::new(service, false)
}

#[tokio::test]
async fn http_requires_the_bearer_token_when_one_is_set() {
    let directory = tempfile::tempdir().unwrap();
    let server = fixed_facts_server(directory.path());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(asasked::mcp::serve_http(
        server,
        listener,
        HttpOptions { token: Some("s3cret".into()), ..HttpOptions::default() },
        async {
            let _ = stopped.await;
        },
    ));
    let send = |authorization: &'static str| async move {
        let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;
        let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
        let request = format!(
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n{authorization}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut response = vec![0u8; 4096];
        let read = tokio::time::timeout(std::time::Duration::from_secs(5), stream.read(&mut response)).await;
        String::from_utf8_lossy(&response[..read.unwrap().unwrap()]).into_owned()
    };
    // Missing, wrong, of another scheme, or with the right token as a prefix.
    for authorization in [
        "",
        "Authorization: Bearer wrong\r\n",
        "Authorization: Basic czNjcmV0\r\n",
        "Authorization: Bearer s3cret2\r\n",
    ] {
        let response = send(authorization).await;
        assert!(response.starts_with("HTTP/1.1 401"), "{authorization:?}: {response}");
        assert!(response.to_lowercase().contains("www-authenticate: bearer"), "{response}");
    }
    let response = send("Authorization: Bearer s3cret\r\n").await;
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    stop.send(()).unwrap();
    serving.await.unwrap().unwrap();

    let public: std::net::SocketAddr = "0.0.0.0:8750".parse().unwrap();
    assert!(asasked::mcp::check_bind(public, None).is_err());
    assert!(asasked::mcp::check_bind(public, Some("token")).is_ok());
}

#[test]
fn check_with_a_request_seals_evidence_and_maps_the_decision_to_the_exit_status() {
    let directory = tempfile::tempdir().unwrap();
    let facts = directory.path().join("facts.json");
    std::fs::write(&facts, FACTS).unwrap();
    let cart = directory.path().join("cart.json");
    let data = directory.path().join("data");
    let check = |item: &str, format: bool| {
        std::fs::write(&cart, format!(r#"[{{"id": "{item}", "quantity": 1}}]"#)).unwrap();
        let mut command = Command::new(BIN);
        command
            .args(["check", "--request", "Nike Pegasus 41, white, size 42 please", "--today", "2 Nov 2026"])
            .arg("--cart")
            .arg(&cart)
            .arg("--data-dir")
            .arg(&data)
            .arg("--extractors")
            .arg(format!("fixed:{}", facts.display()));
        if format {
            command.args(["--format", "acf-v0.1"]);
        }
        command.output().unwrap()
    };
    let proceed = check("shoe-003", false);
    assert_eq!(proceed.status.code(), Some(0), "{}", String::from_utf8_lossy(&proceed.stderr));
    assert!(String::from_utf8_lossy(&proceed.stdout).contains("record: rec_"));
    // Issue 31: where the record went, on stderr (stdout stays the result).
    let log = data.join("evidence.jsonl");
    let stderr = String::from_utf8_lossy(&proceed.stderr);
    let record_id = String::from_utf8_lossy(&proceed.stdout)
        .lines()
        .find_map(|line| line.strip_prefix("record: ")?.split_whitespace().next().map(str::to_owned))
        .unwrap();
    assert!(stderr.contains(&format!("asasked: record {record_id} sealed in {}", log.display())), "{stderr}");
    let ask = check("shoe-002", true);
    assert_eq!(ask.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&ask.stderr).contains(&format!("sealed in {}", log.display())));
    let result: Value = serde_json::from_slice(&ask.stdout).unwrap();
    assert_eq!(result["acf_v01"]["format"], "acf-v0.1");
    assert_eq!(result["acf_v01"]["verdict"], "BLOCK");
    assert_eq!(result["acf_v01"]["corrections"][0]["action"], "change_variant");
    let unknown = check("shoe-999", false);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("cart: unknown catalog ids: shoe-999"));
    let verify = evidence(&data, &["verify"]);
    assert!(String::from_utf8_lossy(&verify.stdout).starts_with("ok: 2 records"));
}

#[tokio::test]
async fn http_refuses_a_body_above_the_limit() {
    let directory = tempfile::tempdir().unwrap();
    let server = fixed_facts_server(directory.path());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(asasked::mcp::serve_http(server, listener, HttpOptions::default(), async {
        let _ = stopped.await;
    }));
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{"pad":"{}"}}}}"#,
        "x".repeat(asasked::mcp::MAX_BODY_BYTES)
    );
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let _ = stream.write_all(body.as_bytes()).await;
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response).await;
    assert!(response.starts_with("HTTP/1.1 413"), "{}", &response[..response.len().min(300)]);
    stop.send(()).unwrap();
    serving.await.unwrap().unwrap();
}
