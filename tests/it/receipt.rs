//! Signed receipts end to end (issue 15, item 3): a `proceed` from
//! `asasked check` carries a receipt; a separate verifier process holding
//! only the public keys (the JWKS `asasked keys` prints) accepts it for the
//! same cart and refuses it for another cart, under another key set, or
//! altered; an `ask` carries none.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

const REQUEST: &str = "please order a red Moleskine Classic Notebook, only if it's returnable";

fn asasked(arguments: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_asasked")).args(arguments).output().unwrap()
}

fn write(folder: &Path, name: &str, text: &str) -> String {
    let path = folder.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_owned()
}

fn check(folder: &Path, data: &str, cart: &str) -> Value {
    let output = asasked(&[
        "check",
        "--request",
        REQUEST,
        "--cart",
        cart,
        "--today",
        "2026-11-19",
        "--data-dir",
        data,
        "--extractors",
        "rules",
        "--json",
    ]);
    assert!(output.status.code().is_some_and(|code| code < 2), "{}", String::from_utf8_lossy(&output.stderr));
    let _ = folder;
    serde_json::from_slice(&output.stdout).unwrap()
}

fn verify(token: &str, cart: &str, jwks: &str) -> (Option<i32>, String) {
    let output = asasked(&["verify", token, "--cart", cart, "--jwks", jwks]);
    let result: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|_| panic!("not JSON: {}", String::from_utf8_lossy(&output.stderr)));
    (output.status.code(), result["result"].as_str().unwrap().to_owned())
}

#[test]
fn a_proceed_carries_a_receipt_that_only_the_public_key_verifies_for_that_cart() {
    let folder = tempfile::tempdir().unwrap();
    let data = folder.path().join("data");
    let data = data.to_str().unwrap();
    let right = write(folder.path(), "right.json", r#"[{"id": "gift-023", "quantity": 1}]"#);
    let other = write(folder.path(), "other.json", r#"[{"id": "gift-023", "quantity": 2}]"#);

    let result = check(folder.path(), data, &right);
    assert_eq!(result["decision"], "proceed", "{result}");
    let token = result["receipt"].as_str().expect("a proceed carries a receipt").to_owned();

    let keys = asasked(&["keys", "--data-dir", data]);
    assert!(keys.status.success());
    // The verifier gets the public keys only: a JWKS holds no private part.
    let jwks_text = String::from_utf8(keys.stdout).unwrap();
    assert!(!jwks_text.contains("\"d\""), "{jwks_text}");
    let jwks = write(folder.path(), "jwks.json", &jwks_text);

    assert_eq!(verify(&token, &right, &jwks), (Some(0), "valid".to_owned()));
    // People see the receipt too.
    let human = asasked(&[
        "check",
        "--request",
        REQUEST,
        "--cart",
        &right,
        "--today",
        "2026-11-19",
        "--data-dir",
        data,
        "--extractors",
        "rules",
    ]);
    let text = String::from_utf8(human.stdout).unwrap();
    let shown = text.lines().find_map(|line| line.rsplit_once(": ").filter(|(label, _)| label.starts_with("receipt")));
    let (_, shown) = shown.unwrap_or_else(|| panic!("{text}"));
    assert_eq!(verify(shown, &right, &jwks), (Some(0), "valid".to_owned()));
    assert_eq!(verify(&token, &other, &jwks), (Some(1), "cart_changed".to_owned()));

    // One character of the signature changed (not the last, whose low bits
    // are padding).
    let at = token.len() - 10;
    let changed = if &token[at..=at] == "A" { "B" } else { "A" };
    let altered = format!("{}{changed}{}", &token[..at], &token[at + 1..]);
    assert_eq!(verify(&altered, &right, &jwks), (Some(1), "bad_signature".to_owned()));

    let stranger = folder.path().join("stranger");
    let stranger_keys = asasked(&["keys", "--data-dir", stranger.to_str().unwrap()]);
    let stranger_jwks = write(folder.path(), "stranger.json", &String::from_utf8(stranger_keys.stdout).unwrap());
    assert_eq!(verify(&token, &right, &stranger_jwks), (Some(1), "unknown_key".to_owned()));

    // After a rotation the old receipt still verifies with the new JWKS.
    let rotated = asasked(&["keys", "--data-dir", data, "--rotate"]);
    let rotated_jwks = write(folder.path(), "rotated.json", &String::from_utf8(rotated.stdout).unwrap());
    assert_eq!(verify(&token, &right, &rotated_jwks), (Some(0), "valid".to_owned()));
}

#[test]
fn an_ask_carries_no_receipt_and_a_verifier_without_keys_is_an_error() {
    let folder = tempfile::tempdir().unwrap();
    let data = folder.path().join("data");
    let wrong = write(folder.path(), "wrong.json", r#"[{"id": "gift-021", "quantity": 1}]"#);
    let result = check(folder.path(), data.to_str().unwrap(), &wrong);
    assert_eq!(result["decision"], "ask", "{result}");
    assert!(result.get("receipt").is_none(), "{result}");

    let empty = folder.path().join("empty");
    std::fs::create_dir_all(empty.join("keys")).unwrap();
    let output = asasked(&["verify", "x.y.z", "--data-dir", empty.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("holds no key"));
}

mod in_process {
    use std::sync::Arc;

    use asasked::catalog::Catalog;
    use asasked::evidence::EvidenceStore;
    use asasked::mcp::{self, CheckServer, HttpOptions};
    use asasked::receipt::KeyRing;
    use asasked::service::{Clock, Service};
    use chrono::{DateTime, Utc};
    use rmcp::ServiceExt;
    use rmcp::model::CallToolRequestParams;
    use serde_json::{Value, json};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::REQUEST;

    struct FixedClock;

    impl Clock for FixedClock {
        fn now(&self) -> DateTime<Utc> {
            DateTime::parse_from_rfc3339("2026-11-19T10:00:00Z").unwrap().with_timezone(&Utc)
        }
    }

    fn server(folder: &std::path::Path) -> CheckServer {
        let names = [asasked::extract::name::ExtractorName::Rules];
        let extractors = Arc::new(asasked::extractors::build(&names, &|_| None).unwrap());
        let store = EvidenceStore::open(&folder.join("data")).unwrap();
        let keys = Arc::new(KeyRing::open_or_create(&folder.join("data/keys")).unwrap());
        let service =
            Service::new(extractors, Some(Arc::new(Catalog::embedded().unwrap())), store, Arc::new(FixedClock))
                .with_receipts(keys);
        CheckServer::new(service, false)
    }

    async fn call(client: &rmcp::service::RunningService<rmcp::RoleClient, ()>, tool: &str, arguments: Value) -> Value {
        let arguments = arguments.as_object().unwrap().clone();
        let result =
            client.call_tool(CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments)).await.unwrap();
        assert_ne!(result.is_error, Some(true), "{result:?}");
        result.structured_content.expect("structured content")
    }

    /// An agent's proceed, then a gateway's `verify_verdict` over MCP: valid
    /// for the same cart (given by catalog id or not), cart_changed for
    /// another; the tool is listed, read-only.
    #[tokio::test]
    async fn verify_verdict_over_mcp() {
        let folder = tempfile::tempdir().unwrap();
        let server = server(folder.path());
        let (server_side, client_side) = tokio::io::duplex(1 << 20);
        tokio::spawn(async move {
            let (read, write) = tokio::io::split(server_side);
            mcp::serve_stdio(server, (read, write), std::future::pending()).await
        });
        let client = ().serve(client_side).await.unwrap();
        let tools = client.list_all_tools().await.unwrap();
        let verify_tool = tools.iter().find(|tool| tool.name == mcp::VERIFY_TOOL_NAME).expect("verify_verdict listed");
        assert_eq!(verify_tool.annotations.as_ref().and_then(|a| a.read_only_hint), Some(true));

        let cart = json!([{"id": "gift-023", "quantity": 1}]);
        let checked =
            call(&client, mcp::TOOL_NAME, json!({"request": REQUEST, "cart": cart, "today": "2026-11-19"})).await;
        assert_eq!(checked["decision"], "proceed", "{checked}");
        let token = checked["receipt"].as_str().unwrap();

        let same = call(&client, mcp::VERIFY_TOOL_NAME, json!({"token": token, "cart": cart})).await;
        assert_eq!(same["result"], "valid", "{same}");
        assert_eq!(same["claims"]["record_id"], checked["record_id"]);
        assert_eq!(
            same["claims"]["exp"],
            json!(
                DateTime::parse_from_rfc3339(
                    checked["acf"]["com.provecart.conformity"]["expires_at"].as_str().unwrap()
                )
                .unwrap()
                .timestamp()
            )
        );
        let other =
            call(&client, mcp::VERIFY_TOOL_NAME, json!({"token": token, "cart": [{"id": "gift-023", "quantity": 3}]}))
                .await;
        assert_eq!(other["result"], "cart_changed", "{other}");
        let garbage = call(&client, mcp::VERIFY_TOOL_NAME, json!({"token": "not a token"})).await;
        assert_eq!(garbage["result"], "malformed", "{garbage}");
        client.cancel().await.unwrap();
    }

    /// The HTTP server publishes the public keys without a bearer token,
    /// while the MCP endpoint still requires it.
    #[tokio::test]
    async fn the_jwks_is_public_over_http() {
        let folder = tempfile::tempdir().unwrap();
        let server = server(folder.path());
        let expected = server.service().jwks().unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let serving = tokio::spawn(mcp::serve_http(
            server,
            listener,
            HttpOptions { token: Some("s3cret".into()), ..HttpOptions::default() },
            async {
                let _ = stopped.await;
            },
        ));
        let get = |path: &'static str| async move {
            let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
            let request = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
            stream.write_all(request.as_bytes()).await.unwrap();
            let mut response = Vec::new();
            tokio::time::timeout(std::time::Duration::from_secs(5), stream.read_to_end(&mut response))
                .await
                .unwrap()
                .unwrap();
            String::from_utf8(response).unwrap()
        };
        let response = get(mcp::JWKS_PATH).await;
        assert!(response.starts_with("HTTP/1.1 200"), "{response}");
        assert!(response.to_ascii_lowercase().contains("content-type: application/jwk-set+json"), "{response}");
        let body = &response[response.find("\r\n\r\n").unwrap() + 4..];
        let served: asasked::receipt::Jwks = serde_json::from_str(body).unwrap();
        assert_eq!(served, expected);
        let mcp_response = get("/mcp").await;
        assert!(mcp_response.starts_with("HTTP/1.1 401"), "{mcp_response}");
        stop.send(()).unwrap();
        serving.await.unwrap().unwrap();
    }
}
