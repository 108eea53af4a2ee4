//! `brief_order` (issue 14): the brief reads the facts when shopping starts,
//! through the same extractor set and cache as `check_order`, so the check
//! before paying calls no model. Two OpenAI-compatible providers on
//! 127.0.0.1 count the extractions they serve; rmcp's own client drives
//! both tools in process.

use std::num::NonZeroUsize;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use asasked::catalog::Catalog;
use asasked::evidence::EvidenceStore;
use asasked::extract::merge::MergePolicy;
use asasked::extract::schema::empty_facts_value;
use asasked::extract::set::ExtractorSet;
use asasked::mcp::{self, CheckServer};
use asasked::providers::config::ExtractorsConfig;
use asasked::service::{Clock, Service};
use chrono::{DateTime, Utc};
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use serde_json::{Value, json};

const REQUEST: &str = "Nike Pegasus 41, white, size 42 please";
const TODAY: &str = "2026-11-02";

struct FixedClock;

impl Clock for FixedClock {
    fn now(&self) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-11-02T10:00:00Z").unwrap().with_timezone(&Utc)
    }
}

/// An OpenAI-compatible provider on 127.0.0.1 that answers every chat
/// completion with `facts` after `delay` and counts what it served.
async fn provider(facts: Value, delay: Duration) -> (String, Arc<AtomicUsize>) {
    let calls = Arc::new(AtomicUsize::new(0));
    let reply = json!({
        "id": "chatcmpl-1", "object": "chat.completion", "model": "fake",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": facts.to_string(), "refusal": null},
            "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 50, "total_tokens": 150,
            "prompt_tokens_details": {"cached_tokens": 80}},
    });
    let counter = Arc::clone(&calls);
    let router = axum::Router::new().fallback(move || {
        let (reply, counter) = (reply.clone(), Arc::clone(&counter));
        async move {
            counter.fetch_add(1, Ordering::SeqCst);
            tokio::time::sleep(delay).await;
            axum::Json(reply)
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });
    (format!("http://{address}/v1"), calls)
}

fn facts(size: &str) -> Value {
    let mut facts = empty_facts_value();
    facts["brand"] = json!("Nike");
    facts["model"] = json!("Pegasus 41");
    facts["color"] = json!("white");
    facts["size_label"] = json!(size);
    facts
}

struct Harness {
    _directory: tempfile::TempDir,
    client: RunningService<rmcp::RoleClient, ()>,
    fast: Arc<AtomicUsize>,
    slow: Arc<AtomicUsize>,
}

impl Harness {
    fn calls(&self) -> (usize, usize) {
        (self.fast.load(Ordering::SeqCst), self.slow.load(Ordering::SeqCst))
    }

    async fn call(&self, tool: &'static str, arguments: Value) -> Value {
        let arguments = arguments.as_object().unwrap().clone();
        let result: CallToolResult =
            self.client.call_tool(CallToolRequestParams::new(tool).with_arguments(arguments)).await.unwrap();
        assert_ne!(result.is_error, Some(true), "{result:?}");
        result.structured_content.expect("structured content")
    }
}

/// Two providers: `fast` reads size 42, `slow` reads 43, which the words do
/// not say: under the `grounded` policy (the command line's default) it is
/// dropped, under `spec` the size is disputed; either way the brief calls
/// it unclear.
async fn start(policy: MergePolicy) -> Harness {
    let (fast_url, fast) = provider(facts("42"), Duration::from_millis(30)).await;
    let (slow_url, slow) = provider(facts("43"), Duration::from_millis(50)).await;
    let config = ExtractorsConfig::parse(&format!(
        "[extractors.fast]\nprovider = \"openai\"\nbase_url = \"{fast_url}\"\nmodel = \"fake\"\nkey_env = \"K\"\nmax_retries = 0\n\n\
         [extractors.slow]\nprovider = \"openai\"\nbase_url = \"{slow_url}\"\nmodel = \"fake\"\nkey_env = \"K\"\nmax_retries = 0\n"
    ))
    .unwrap();
    let env = |name: &str| (name == "K").then(|| "sk-test".to_owned());
    let extractors = vec![config.build("fast", &env).unwrap().unwrap(), config.build("slow", &env).unwrap().unwrap()];
    let set = ExtractorSet::new(extractors, None, Duration::from_secs(10), NonZeroUsize::new(8).unwrap())
        .unwrap()
        .with_policy(policy);
    let directory = tempfile::tempdir().unwrap();
    let store = EvidenceStore::open(&directory.path().join("data")).unwrap();
    let service =
        Service::new(Arc::new(set), Some(Arc::new(Catalog::embedded().unwrap())), store, Arc::new(FixedClock));
    let server = CheckServer::new(service, true);
    let (server_side, client_side) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        let (read, write) = tokio::io::split(server_side);
        mcp::serve_stdio(server, (read, write), std::future::pending()).await
    });
    let client = ().serve(client_side).await.unwrap();
    Harness { _directory: directory, client, fast, slow }
}

#[tokio::test]
async fn a_check_after_the_brief_reuses_its_facts_and_calls_no_model() {
    let harness = start(MergePolicy::Grounded).await;
    let brief = harness.call(mcp::BRIEF_TOOL_NAME, json!({"request": format!("  {REQUEST} "), "today": TODAY})).await;
    assert_eq!(harness.calls(), (1, 1), "the brief extracts once per provider");
    assert_eq!(brief["request"], REQUEST, "trimmed as a check trims it");
    assert_eq!(brief["today"], TODAY);
    assert_eq!(brief["summary"], "You asked for: Nike Pegasus 41, white, size 42.");
    assert_eq!(brief["facts"]["size_label"], "42");
    assert_eq!(brief["unclear"][0]["field"], "size_label");
    assert_eq!(brief["unclear"][0]["kind"], "ungrounded");
    assert!(brief["unclear"][0]["detail"].as_str().unwrap().contains("(slow)"), "{brief}");
    assert!(brief["question"].as_str().unwrap().contains("Should the size be “43”?"), "{brief}");

    // The check before paying: the same request and today, no model call.
    let arguments = json!({"request": REQUEST, "cart": [{"id": "shoe-003", "quantity": 1}], "today": TODAY});
    let proceed = harness.call(mcp::TOOL_NAME, arguments).await;
    assert_eq!(proceed["decision"], "proceed", "{proceed}");
    assert_eq!(proceed["facts"], brief["facts"], "the very facts of the brief");
    let ask = harness
        .call(mcp::TOOL_NAME, json!({"request": REQUEST, "cart": [{"id": "shoe-002", "quantity": 1}], "today": TODAY}))
        .await;
    assert_eq!(ask["decision"], "ask", "{ask}");
    assert_eq!(harness.calls(), (1, 1), "both checks reused the brief's facts");

    // The sealed record keeps what each extraction cost, as the provider
    // reported it (`asasked evidence show` prints it).
    let log = harness._directory.path().join("data").join(asasked::evidence::LOG_FILE);
    let sealed = asasked::evidence::show(&log, proceed["record_id"].as_str().unwrap()).unwrap().unwrap();
    let sealed = serde_json::to_value(&sealed).unwrap();
    let costs: Vec<&Value> = sealed["body"]["extractors"]
        .as_array()
        .expect("extractor reports")
        .iter()
        .map(|report| &report["cost"])
        .collect();
    assert_eq!(costs.len(), 2, "{sealed}");
    for cost in costs {
        assert_eq!(
            (&cost["input_tokens"], &cost["cached_input_tokens"], &cost["output_tokens"]),
            (&json!(100), &json!(80), &json!(50)),
            "{cost}"
        );
    }

    // The cache key holds today: another date is another extraction.
    harness.call(mcp::BRIEF_TOOL_NAME, json!({"request": REQUEST, "today": "2026-11-03"})).await;
    assert_eq!(harness.calls(), (2, 2));
}

#[tokio::test]
async fn under_the_spec_policy_a_disagreement_is_a_disputed_field_with_a_question() {
    let harness = start(MergePolicy::Spec).await;
    let brief = harness.call(mcp::BRIEF_TOOL_NAME, json!({"request": REQUEST, "today": TODAY})).await;
    assert_eq!(brief["facts"]["disputed"], json!(["size_label"]), "{brief}");
    assert_eq!(
        brief["unclear"],
        json!([{"field": "size_label", "kind": "disputed",
                "detail": "fast read the size as “42”; slow read the size as “43”"}])
    );
    assert_eq!(
        brief["question"],
        "Before I start shopping, please tell me:\n\u{2013} Which do you mean for the size: “42” or “43”?"
    );
    let check = harness
        .call(mcp::TOOL_NAME, json!({"request": REQUEST, "cart": [{"id": "shoe-003", "quantity": 1}], "today": TODAY}))
        .await;
    assert_eq!(check["facts"], brief["facts"]);
    assert_eq!(harness.calls(), (1, 1), "the check reused the brief's facts");
}

#[tokio::test]
async fn the_brief_tool_is_described_read_only_and_refuses_bad_arguments_naming_the_field() {
    let harness = start(MergePolicy::Grounded).await;
    let tools = harness.client.list_all_tools().await.unwrap();
    let tool = tools.iter().find(|tool| tool.name == mcp::BRIEF_TOOL_NAME).expect("brief_order is listed");
    assert_eq!(tool.title.as_deref(), Some(mcp::BRIEF_TOOL_TITLE));
    assert!(tool.description.as_deref().unwrap().contains("check_order"));
    let annotations = tool.annotations.as_ref().unwrap();
    assert_eq!(
        (
            annotations.read_only_hint,
            annotations.destructive_hint,
            annotations.idempotent_hint,
            annotations.open_world_hint
        ),
        (Some(true), Some(false), Some(true), Some(true)),
        "read-only; open world because these extractors are hosted"
    );
    let input = Value::Object((*tool.input_schema).clone());
    assert_eq!(input["required"], json!(["request"]), "{input}");
    let output = Value::Object((**tool.output_schema.as_ref().unwrap()).clone());
    for property in ["summary", "facts", "unclear", "question", "request", "today"] {
        assert!(output["properties"][property].is_object(), "{property} not in {output}");
    }

    for (arguments, field) in [
        (json!({"request": "   "}), "$.request"),
        (json!({"request": REQUEST, "today": "Tuesday, 2 November 2026"}), "$.today"),
    ] {
        let arguments = arguments.as_object().unwrap().clone();
        let result = harness
            .client
            .call_tool(CallToolRequestParams::new(mcp::BRIEF_TOOL_NAME).with_arguments(arguments))
            .await
            .unwrap();
        assert_eq!(result.is_error, Some(true), "{result:?}");
        let text = &result.content[0].as_text().unwrap().text;
        assert!(text.starts_with(&format!("invalid argument {field}")), "{text}");
    }
    assert_eq!(harness.calls(), (0, 0), "a refused brief reaches no model");
}
