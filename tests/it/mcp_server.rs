//! The MCP server in process: rmcp's own client over a duplex pipe drives
//! `check_order` through the proceed, ask, answers, replay, retry-budget,
//! invalid-argument and fail-closed paths, then the evidence is verified.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use asasked::catalog::Catalog;
use asasked::evidence::{self, EvidenceStore};
use asasked::mcp::{self, CheckServer};
use asasked::service::{Clock, Service};
use chrono::{DateTime, Utc};
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use serde_json::{Value, json};

struct FixedClock;

impl Clock for FixedClock {
    fn now(&self) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-11-02T10:00:00Z").unwrap().with_timezone(&Utc)
    }
}

const REQUEST: &str = "Nike Pegasus 41, white, size 42 please";
const FACTS: &str = r#"{"brand":"Nike","model":"Pegasus 41","color":"white","size_label":"42"}"#;

struct Harness {
    _directory: tempfile::TempDir,
    facts: PathBuf,
    data: PathBuf,
    client: RunningService<rmcp::RoleClient, ()>,
}

async fn start() -> Harness {
    let directory = tempfile::tempdir().unwrap();
    let facts = directory.path().join("facts.json");
    std::fs::write(&facts, FACTS).unwrap();
    let data = directory.path().join("data");
    let names = [asasked::extract::name::ExtractorName::Fixed(facts.clone())];
    let extractors = Arc::new(asasked::extractors::build(&names, &|_| None).unwrap());
    let store = EvidenceStore::open(&data).unwrap();
    let service = Service::new(extractors, Some(Arc::new(Catalog::embedded().unwrap())), store, Arc::new(FixedClock));
    let server = CheckServer::new(service, false);
    let (server_side, client_side) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        let (read, write) = tokio::io::split(server_side);
        mcp::serve_stdio(server, (read, write), std::future::pending()).await
    });
    let client = ().serve(client_side).await.unwrap();
    Harness { _directory: directory, facts, data, client }
}

async fn call(harness: &Harness, arguments: Value) -> CallToolResult {
    let arguments = arguments.as_object().unwrap().clone();
    harness.client.call_tool(CallToolRequestParams::new(mcp::TOOL_NAME).with_arguments(arguments)).await.unwrap()
}

fn structured(result: &CallToolResult) -> Value {
    assert_ne!(result.is_error, Some(true), "{result:?}");
    let value = result.structured_content.clone().expect("structured content");
    let text = result.content.first().and_then(|content| content.as_text()).expect("text mirror");
    assert_eq!(serde_json::from_str::<Value>(&text.text).unwrap(), value, "the text mirrors the structure");
    value
}

fn error_text(result: &CallToolResult) -> String {
    assert_eq!(result.is_error, Some(true), "{result:?}");
    result.content.first().and_then(|content| content.as_text()).unwrap().text.clone()
}

fn log_lines(data: &Path) -> usize {
    std::fs::read_to_string(data.join(evidence::LOG_FILE)).map(|text| text.lines().count()).unwrap_or(0)
}

fn cart(id: &str) -> Value {
    json!([{"id": id, "quantity": 1}])
}

#[tokio::test]
async fn the_tool_is_described_for_the_calling_model() {
    let harness = start().await;
    let info = harness.client.peer_info().unwrap();
    let implementation = info.server_info.as_ref().unwrap();
    assert_eq!(implementation.name, "asasked");
    assert_eq!(implementation.version, env!("CARGO_PKG_VERSION"));
    let tools = harness.client.list_all_tools().await.unwrap();
    let mut names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    names.sort();
    assert_eq!(names, ["brief_order", "check_order", "verify_verdict"]);
    let tool = tools.iter().find(|tool| tool.name == "check_order").unwrap();
    assert!(tool.title.is_some());
    assert!(
        tool.description.as_deref().unwrap().contains("never pay")
            || tool.description.as_deref().unwrap().contains("do NOT pay")
    );
    // Issue 13: every optional attribute that changes a check is named, in
    // the description and in the input schema.
    let description = tool.description.as_deref().unwrap();
    for attribute in ["units", "delivery_days", "currency", "returnable", "engine_error@$"] {
        assert!(description.contains(attribute), "{attribute} not in the description");
    }
    let cart_doc = tool.input_schema["properties"]["cart"]["description"].as_str().unwrap_or_default();
    for attribute in ["units", "delivery_days", "currency", "returnable"] {
        assert!(cart_doc.contains(attribute), "{attribute} not in the cart's schema: {cart_doc}");
    }
    // Issue 28 §7: the item's words, and what becomes of what they do not say.
    for text in [description, cart_doc] {
        for words in ["`description`", "`attributes`", "`category`", "put to the person"] {
            assert!(text.contains(words), "{words} not in: {text}");
        }
    }
    let annotations = tool.annotations.as_ref().unwrap();
    assert_eq!(
        (annotations.read_only_hint, annotations.idempotent_hint, annotations.open_world_hint),
        (Some(true), Some(true), Some(false))
    );
    let input = Value::Object((*tool.input_schema).clone());
    let required: Vec<&str> = input["required"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert!(required.contains(&"request") && required.contains(&"cart"), "{input}");
    let output = Value::Object((**tool.output_schema.as_ref().unwrap()).clone());
    assert!(output["properties"]["decision"].is_object() && output["properties"]["acf"].is_object(), "{output}");
    // Issue 13 item 1: the language of the words, optional.
    let language = input["properties"]["language"].to_string();
    assert!(language.contains("`ru`") && language.contains("Cyrillic"), "{language}");
    assert!(input["$defs"]["Language"].to_string().contains("\"ru\""), "{input}");
    assert!(!required.contains(&"language"), "{input}");
}

#[tokio::test]
async fn issue_13_the_language_argument_chooses_the_words() {
    let harness = start().await;
    let arguments = |language: &str| json!({"request": REQUEST, "cart": cart("shoe-001"), "today": "2026-11-02", "language": language});
    let russian = structured(&call(&harness, arguments("ru")).await);
    assert_eq!(russian["decision"], "ask");
    assert!(russian["question"].as_str().unwrap().starts_with("Прежде чем покупать"), "{russian}");
    assert!(russian["acf"]["messages"][0]["content"].as_str().unwrap().starts_with("Вы просили"), "{russian}");
    let english = structured(&call(&harness, arguments("en")).await);
    assert!(english["question"].as_str().unwrap().starts_with("Before I buy this"), "{english}");
    assert_ne!(english["record_id"], russian["record_id"], "another language is another answer, not a replay");
}

#[tokio::test]
async fn proceed_ask_accept_and_replay() {
    let harness = start().await;
    let proceed =
        structured(&call(&harness, json!({"request": REQUEST, "cart": cart("shoe-003"), "today": "2026-11-02"})).await);
    assert_eq!(proceed["decision"], "proceed");
    assert_eq!(proceed["acf"]["com.provecart.conformity"]["verdict"], "MATCH");
    assert_eq!(proceed["acf"]["ucp_status"], "ready_for_complete");

    let ask_arguments = json!({"request": REQUEST, "cart": cart("shoe-002"), "today": "Monday, 2 November 2026"});
    let ask = structured(&call(&harness, ask_arguments.clone()).await);
    assert_eq!(ask["decision"], "ask");
    assert!(ask["question"].as_str().unwrap().contains("size 42"));
    assert_eq!(ask["acf"]["com.provecart.conformity"]["verdict"], "BLOCK");
    assert_eq!(ask["acf"]["messages"][0]["code"], "com.provecart.conformity.variant_mismatch");
    let record_id = ask["record_id"].as_str().unwrap().to_owned();
    let finding_id = ask["findings"][0]["id"].as_str().unwrap().to_owned();

    // The very same check again: the same record, nothing appended.
    let lines = log_lines(&harness.data);
    let replay = structured(&call(&harness, ask_arguments).await);
    assert_eq!(replay["record_id"], json!(record_id));
    assert_eq!(log_lines(&harness.data), lines);

    let accepted = structured(
        &call(
            &harness,
            json!({"request": REQUEST, "cart": cart("shoe-002"), "today": "2026-11-02",
                   "previous_record_id": record_id, "answers": [{"finding_id": finding_id, "reply": "accept"}]}),
        )
        .await,
    );
    assert_eq!(accepted["decision"], "proceed");
    assert!(accepted["notes"][0].as_str().unwrap().contains("accepted by the person"), "{accepted}");
    assert_eq!(accepted["previous_record_id"], json!(record_id));
    assert_eq!(accepted["attempt"], 2);
    assert_eq!(accepted["acf"]["com.provecart.conformity"]["previous_record_id"], json!(record_id));

    // The superseded record can no longer be extended.
    let stale = call(
        &harness,
        json!({"request": REQUEST, "cart": cart("shoe-001"), "today": "2026-11-02", "previous_record_id": record_id}),
    )
    .await;
    assert!(error_text(&stale).contains("previous_record_id"), "{stale:?}");

    let path = harness.data.join(evidence::LOG_FILE);
    assert!(evidence::verify_file(&path).unwrap().ok());
    let tampered = std::fs::read_to_string(&path).unwrap().replacen("\"ask\"", "\"proceed\"", 1);
    let report = evidence::verify_bytes(tampered.as_bytes());
    assert!(!report.ok(), "a tampered copy must fail");
}

#[tokio::test]
async fn free_text_answers_are_re_extracted_and_decline_keeps_blocking() {
    let harness = start().await;
    let ask =
        structured(&call(&harness, json!({"request": REQUEST, "cart": cart("shoe-002"), "today": "2026-11-02"})).await);
    let record_id = ask["record_id"].as_str().unwrap().to_owned();
    let finding_id = ask["findings"][0]["id"].as_str().unwrap().to_owned();

    let declined = structured(
        &call(
            &harness,
            json!({"request": REQUEST, "cart": cart("shoe-002"), "today": "2026-11-02",
                   "previous_record_id": record_id, "answers": [{"finding_id": finding_id, "reply": "decline"}]}),
        )
        .await,
    );
    assert_eq!(declined["decision"], "ask");
    assert!(declined["reasons"][0].as_str().unwrap().contains("declined"), "{declined}");
    let declined_id = declined["record_id"].as_str().unwrap().to_owned();

    // The person's own words go back to the extractors with the request.
    std::fs::write(&harness.facts, FACTS.replace("\"42\"", "\"41\"")).unwrap();
    let clarified = structured(
        &call(
            &harness,
            json!({"request": REQUEST, "cart": cart("shoe-002"), "today": "2026-11-02",
                   "previous_record_id": declined_id, "answers": [{"finding_id": finding_id, "reply": "41 is fine too"}]}),
        )
        .await,
    );
    assert_eq!(clarified["decision"], "proceed", "{clarified}");
    assert_eq!(clarified["attempt"], 3);

    // A fourth attempt is past the retry budget: the person decides.
    let over = structured(
        &call(
            &harness,
            json!({"request": REQUEST, "cart": cart("shoe-001"), "today": "2026-11-02",
                   "previous_record_id": clarified["record_id"]}),
        )
        .await,
    );
    assert_eq!(over["decision"], "ask");
    assert!(over["reasons"][0].as_str().unwrap().contains("whether to buy it is up to you"), "{over}");
    assert_eq!(over["acf"]["com.provecart.conformity"]["verdict"], "REVIEW");
}

#[tokio::test]
async fn invalid_arguments_are_errors_naming_the_field() {
    let harness = start().await;
    let missing_cart = call(&harness, json!({"request": REQUEST})).await;
    assert!(error_text(&missing_cart).contains("cart"));
    // Issue 13: a cart serialised twice (a string holding the list) is refused naming `$.cart`.
    let string_cart = call(&harness, json!({"request": REQUEST, "cart": cart("shoe-003").to_string()})).await;
    assert_eq!(
        error_text(&string_cart),
        "invalid argument $.cart: a string holding JSON: send the list itself, not a string"
    );
    let not_an_object = call(&harness, json!({"request": REQUEST, "cart": ["shoe-003"]})).await;
    assert!(error_text(&not_an_object).contains("$.cart[0]: a string: each cart entry is an object"));
    let unknown = call(&harness, json!({"request": REQUEST, "cart": cart("shoe-999")})).await;
    assert!(error_text(&unknown).contains("unknown catalog ids: shoe-999"));
    let bad_today =
        call(&harness, json!({"request": REQUEST, "cart": cart("shoe-003"), "today": "Tuesday, 2 November 2026"}))
            .await;
    assert!(error_text(&bad_today).contains("today"));
    let foreign =
        call(&harness, json!({"request": REQUEST, "cart": cart("shoe-003"), "previous_record_id": "rec_0000"})).await;
    assert!(error_text(&foreign).contains("previous_record_id"));

    let ask =
        structured(&call(&harness, json!({"request": REQUEST, "cart": cart("shoe-002"), "today": "2026-11-02"})).await);
    let other_request = call(
        &harness,
        json!({"request": "a red hat", "cart": cart("shoe-002"), "previous_record_id": ask["record_id"]}),
    )
    .await;
    assert!(error_text(&other_request).contains("another request"));
    let never_raised = call(
        &harness,
        json!({"request": REQUEST, "cart": cart("shoe-002"), "today": "2026-11-02", "previous_record_id": ask["record_id"],
               "answers": [{"finding_id": "color@$.cart[0]", "reply": "accept"}]}),
    )
    .await;
    assert!(error_text(&never_raised).contains("answers[0].finding_id"));
}

#[tokio::test]
async fn an_extraction_failure_fails_closed_and_is_sealed() {
    let harness = start().await;
    std::fs::write(&harness.facts, "{not json").unwrap();
    let result = structured(
        &call(
            &harness,
            json!({"request": REQUEST, "cart": cart("shoe-003"), "today": "2026-11-02", "format": "acf-v0.1"}),
        )
        .await,
    );
    assert_eq!(result["decision"], "ask");
    assert_eq!(result["reasons"][0], "The request could not be checked.");
    assert_eq!(result["acf"]["messages"][0]["code"], "com.provecart.conformity.engine_error");
    assert_eq!(result["acf"]["com.provecart.conformity"]["verdict"], "REVIEW");
    assert_eq!(result["acf_v01"]["format"], "acf-v0.1");
    let record =
        evidence::show(&harness.data.join(evidence::LOG_FILE), result["record_id"].as_str().unwrap()).unwrap().unwrap();
    assert!(record.body["fail_closed"].as_str().unwrap().contains("malformed"), "{}", record.body);

    // Issue 13, no dead ends: the question says why and what is about to be
    // bought, and the person's "yes" has a finding id to go back with.
    assert_eq!(result["findings"][0]["id"], "engine_error@$");
    assert_eq!(result["acf"]["messages"][0]["finding_id"], "engine_error@$");
    assert_eq!(
        result["question"],
        "I could not check this order against your words because the part of me that reads your request failed (a \
         model did not answer, or answered in a form I cannot use).\nHere is what I'm about to buy:\n\u{2013} 1 \u{d7} \
         Nike Pegasus 41 (White/Black, EU 42), 139.99 USD\nShall I buy it?"
    );
    let accepted = structured(
        &call(
            &harness,
            json!({"request": REQUEST, "cart": cart("shoe-003"), "today": "2026-11-02",
                   "previous_record_id": result["record_id"],
                   "answers": [{"finding_id": "engine_error@$", "reply": "accept"}]}),
        )
        .await,
    );
    assert_eq!(accepted["decision"], "proceed", "{accepted}");
    assert_eq!(accepted["notes"][0], "The request could not be checked (accepted by the person)");
    assert_eq!(accepted["acf"]["com.provecart.conformity"]["verdict"], "MATCH");
    assert_eq!(accepted["acf"]["messages"][0]["type"], "warning");
    let sealed = evidence::show(&harness.data.join(evidence::LOG_FILE), accepted["record_id"].as_str().unwrap())
        .unwrap()
        .unwrap();
    assert_eq!(sealed.body["answer_state"]["accepted"][0]["finding_id"], "engine_error@$", "the person's approval");
    assert!(sealed.body["fail_closed"].is_string(), "and still the technical cause");

    // The acceptance holds for the cart the person saw: another cart asks again.
    let other_cart = structured(
        &call(
            &harness,
            json!({"request": REQUEST, "cart": cart("shoe-002"), "today": "2026-11-02",
                   "previous_record_id": accepted["record_id"]}),
        )
        .await,
    );
    assert_eq!(other_cart["decision"], "ask", "{other_cart}");
}

#[tokio::test]
async fn with_the_offline_rules_extractor_a_clarification_changes_the_decision() {
    let directory = tempfile::tempdir().unwrap();
    let extractors =
        Arc::new(asasked::extractors::build(&[asasked::extract::name::ExtractorName::Rules], &|_| None).unwrap());
    let store = EvidenceStore::open(&directory.path().join("data")).unwrap();
    let service = Service::new(extractors, Some(Arc::new(Catalog::embedded().unwrap())), store, Arc::new(FixedClock));
    let server = CheckServer::new(service, false);
    let (server_side, client_side) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        let (read, write) = tokio::io::split(server_side);
        mcp::serve_stdio(server, (read, write), std::future::pending()).await
    });
    let client = ().serve(client_side).await.unwrap();
    let call = |arguments: Value| {
        let client = &client;
        async move {
            let arguments = arguments.as_object().unwrap().clone();
            client.call_tool(CallToolRequestParams::new(mcp::TOOL_NAME).with_arguments(arguments)).await.unwrap()
        }
    };
    let request = "Nike Pegasus 41 in white, size 42";
    let ask = structured(&call(json!({"request": request, "cart": cart("shoe-002"), "today": "2026-11-02"})).await);
    assert_eq!(ask["decision"], "ask", "{ask}");
    let finding_id =
        ask["findings"].as_array().unwrap().iter().find(|finding| finding["code"] == "size").unwrap()["id"].clone();
    let clarified = structured(
        &call(json!({"request": request, "cart": cart("shoe-002"), "today": "2026-11-02",
                     "previous_record_id": ask["record_id"], "answers": [{"finding_id": finding_id, "reply": "41 is fine too"}]}))
        .await,
    );
    assert_eq!(clarified["decision"], "proceed", "{clarified}");
    // "41 is fine too" is an accepted alternative size (issue 11), no longer only a soft size.
    assert_eq!(clarified["facts"]["size_any"], json!(["41"]), "{clarified}");
}
