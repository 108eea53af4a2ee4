//! Both provider modules against real HTTP servers on 127.0.0.1 that speak
//! each API's wire format: valid output, schema-invalid output (fed back,
//! then valid or failed), truncation, refusal, 429, 500, a hang past the
//! timeout, a missing key, and a key that must never show. Then two
//! providers through `ExtractorSet`: concurrency and failing closed. Then
//! the request shape of each model family (issue 17). The servers refuse
//! what the real services refuse (reasoning model with `temperature` or
//! `max_tokens`, `temperature` on Claude Opus 4.7 and later, a strict
//! schema outside the provider's subset, a `tool_use` left without its
//! `tool_result`, an unknown path), so a request-shape regression fails.
//! No test reaches the internet.

use std::collections::VecDeque;
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use asasked::extract::schema::{empty_facts_value, wire_schema};
use asasked::extract::set::{COULD_NOT_CHECK, ExtractorSet};
use asasked::extract::strict_subset::{StrictMode, check};
use asasked::extract::{ExtractError, ExtractInput, Extractor};
use asasked::providers::Provider;
use asasked::providers::ProviderSettings;
use asasked::providers::anthropic::{API_VERSION, AnthropicExtractor, TOOL_NAME};
use asasked::providers::config::ExtractorsConfig;
use asasked::providers::family::RequestOptions;
use asasked::providers::http::{ApiKey, HttpSettings};
use asasked::providers::openai::{OpenAiExtractor, ResponseFormat, SCHEMA_NAME};
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use chrono::NaiveDate;
use serde_json::{Value, json};

const KEY: &str = "sk-test-do-not-leak-7f3a";

// ---------------------------------------------------------------------------
// A scripted server

#[derive(Clone)]
struct Reply {
    status: u16,
    body: Value,
    headers: Vec<(&'static str, String)>,
    delay: Duration,
}

impl Reply {
    fn ok(body: Value) -> Reply {
        Reply { status: 200, body, headers: vec![], delay: Duration::ZERO }
    }
    fn status(status: u16, body: Value) -> Reply {
        Reply { status, ..Reply::ok(body) }
    }
    fn after(self, delay: Duration) -> Reply {
        Reply { delay, ..self }
    }
    fn header(mut self, name: &'static str, value: &str) -> Reply {
        self.headers.push((name, value.to_owned()));
        self
    }
}

#[derive(Debug, Clone)]
struct Seen {
    path: String,
    headers: HeaderMap,
    body: Value,
}

/// Replies in order; the last reply repeats forever.
struct Script {
    replies: Mutex<VecDeque<Reply>>,
    seen: Mutex<Vec<Seen>>,
}

impl Script {
    fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

async fn answer(State(script): State<Arc<Script>>, uri: Uri, headers: HeaderMap, body: Bytes) -> Response {
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let path = uri.path().to_owned();
    script.seen.lock().unwrap().push(Seen { path: path.clone(), headers, body: body.clone() });
    // What the real service refuses is refused before any scripted reply.
    if let Some((status, message)) = refusal(&path, &body) {
        let error = json!({ "type": "error", "error": { "type": "invalid_request_error", "message": message } });
        return (StatusCode::from_u16(status).unwrap(), axum::Json(error)).into_response();
    }
    let mut reply = {
        let mut replies = script.replies.lock().unwrap();
        if replies.len() > 1 { replies.pop_front().unwrap() } else { replies[0].clone() }
    };
    // Without `disable_parallel_tool_use`, a model may call the tool twice in
    // one turn; the fake always does, so the repair turn must answer both.
    if path == "/v1/messages"
        && body["tool_choice"]["disable_parallel_tool_use"] != true
        && let Some(blocks) = reply.body["content"].as_array_mut()
    {
        let copies: Vec<Value> = blocks
            .iter()
            .filter(|block| block["type"] == "tool_use")
            .map(|block| {
                let mut copy = block.clone();
                copy["id"] = json!(format!("{}_parallel", block["id"].as_str().unwrap_or("")));
                copy
            })
            .collect();
        blocks.extend(copies);
    }
    tokio::time::sleep(reply.delay).await;
    let mut response = (StatusCode::from_u16(reply.status).unwrap(), axum::Json(reply.body)).into_response();
    for (name, value) in reply.headers {
        response.headers_mut().insert(name, value.parse().unwrap());
    }
    response
}

/// Whether the real service would refuse this request, and with which
/// status and message (the messages are the services' own, as quoted in
/// `src/providers/family.rs`). The model lists are the fake's own, not
/// asasked's family table, so a wrong table fails here.
fn refusal(path: &str, body: &Value) -> Option<(u16, String)> {
    let model = body["model"].as_str().unwrap_or("");
    match path {
        "/v1/messages" => anthropic_refusal(model, body),
        "/v1/chat/completions" => openai_refusal(model, body),
        _ => Some((404, format!("no route {path}"))),
    }
}

const CLAUDE_WITHOUT_SAMPLING: [&str; 4] = ["claude-opus-4-7", "claude-opus-4-8", "claude-opus-5", "claude-sonnet-5"];
const CLAUDE_WITHOUT_STRICT: [&str; 4] = ["claude-3-", "claude-sonnet-4-2025", "claude-opus-4-2025", "claude-opus-4-1"];
const OPENAI_REASONING: [&str; 5] = ["o1", "o3", "o4-mini", "gpt-5-mini", "gpt-5"];

fn anthropic_refusal(model: &str, body: &Value) -> Option<(u16, String)> {
    if body.get("temperature").is_some() && CLAUDE_WITHOUT_SAMPLING.iter().any(|prefix| model.starts_with(prefix)) {
        return Some((400, "`temperature` is deprecated for this model.".into()));
    }
    if body.get("max_completion_tokens").is_some() || body.get("max_tokens").is_none() {
        return Some((400, "max_tokens: Field required".into()));
    }
    for tool in body["tools"].as_array().into_iter().flatten() {
        if tool["strict"] == true {
            if CLAUDE_WITHOUT_STRICT.iter().any(|prefix| model.starts_with(prefix)) {
                return Some((400, format!("tools.0.strict: not supported by {model}")));
            }
            let violations = check(&tool["input_schema"], StrictMode::Anthropic);
            if let Some(first) = violations.first() {
                return Some((400, format!("tools.0.input_schema: {first}")));
            }
        }
    }
    // Every tool_use of an assistant turn needs its tool_result, first in
    // the next user message.
    let messages = body["messages"].as_array().cloned().unwrap_or_default();
    for (index, message) in messages.iter().enumerate() {
        let calls: Vec<&Value> = message["content"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|block| block["type"] == "tool_use")
            .map(|block| &block["id"])
            .collect();
        if message["role"] != "assistant" || calls.is_empty() {
            continue;
        }
        let next = messages.get(index + 1).map(|next| next["content"].clone()).unwrap_or(Value::Null);
        let answered: Vec<&Value> = next
            .as_array()
            .into_iter()
            .flatten()
            .take_while(|block| block["type"] == "tool_result")
            .map(|block| &block["tool_use_id"])
            .collect();
        let missing: Vec<String> = calls.iter().filter(|id| !answered.contains(id)).map(|id| id.to_string()).collect();
        if !missing.is_empty() {
            return Some((
                400,
                format!(
                    "messages.{}: `tool_use` ids were found without `tool_result` blocks immediately after: {}",
                    index + 1,
                    missing.join(", ")
                ),
            ));
        }
    }
    None
}

fn openai_refusal(model: &str, body: &Value) -> Option<(u16, String)> {
    let reasoning = OPENAI_REASONING.iter().any(|name| model == *name || model.starts_with(&format!("{name}-")))
        && !model.contains("-chat");
    if reasoning && body.get("max_tokens").is_some() {
        return Some((
            400,
            "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."
                .into(),
        ));
    }
    if reasoning && body.get("temperature").is_some_and(|temperature| temperature != 1) {
        return Some((
            400,
            "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported."
                .into(),
        ));
    }
    // Only OpenAI's own models: the same fake stands in for llama.cpp,
    // whose grammar takes the length bounds OpenAI refuses.
    let hosted = reasoning || model.starts_with("gpt-");
    let format = &body["response_format"];
    if hosted && format["type"] == "json_schema" && format["json_schema"]["strict"] == true {
        let violations = check(&format["json_schema"]["schema"], StrictMode::OpenAi);
        if let Some(first) = violations.first() {
            return Some((
                400,
                format!("Invalid schema for response_format '{}': {first}", format["json_schema"]["name"]),
            ));
        }
    }
    None
}

/// Starts a server on 127.0.0.1, port 0; returns its root URL.
async fn serve(replies: Vec<Reply>) -> (String, Arc<Script>) {
    let script = Arc::new(Script { replies: Mutex::new(replies.into()), seen: Mutex::new(vec![]) });
    let router = axum::Router::new().fallback(answer).with_state(Arc::clone(&script));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    (format!("http://{address}"), script)
}

// ---------------------------------------------------------------------------
// The two wire formats

#[derive(Debug, Clone, Copy, PartialEq)]
enum Api {
    Anthropic,
    OpenAi,
}

const BOTH: [Api; 2] = [Api::Anthropic, Api::OpenAi];

fn black_shoes() -> Value {
    let mut facts = empty_facts_value();
    facts["color"] = json!("black");
    facts["size_label"] = json!("42");
    facts["deadline_weekday"] = json!("friday");
    facts
}

/// Wrong in two ways: a misspelt field and a quantity in words.
fn schema_invalid() -> Value {
    let mut facts = empty_facts_value();
    facts["quantity"] = json!("two");
    facts["colour"] = json!("black");
    facts
}

impl Api {
    fn output(self, facts: &Value) -> Value {
        match self {
            Api::Anthropic => json!({
                "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                "content": [{ "type": "tool_use", "id": "toolu_01", "name": TOOL_NAME, "input": facts }],
                "stop_reason": "tool_use",
                "usage": { "input_tokens": 100, "output_tokens": 50 },
            }),
            Api::OpenAi => self.content(&facts.to_string(), "stop"),
        }
    }

    fn content(self, content: &str, finish_reason: &str) -> Value {
        json!({
            "id": "chatcmpl-1", "object": "chat.completion", "model": "gpt-4.1-mini",
            "choices": [{
                "index": 0,
                "message": { "role": "assistant", "content": content, "refusal": null },
                "finish_reason": finish_reason,
            }],
            "usage": { "prompt_tokens": 100, "completion_tokens": 50, "total_tokens": 150 },
        })
    }

    fn truncated(self) -> Value {
        match self {
            Api::Anthropic => json!({
                "id": "msg_01", "type": "message", "role": "assistant",
                "content": [{ "type": "tool_use", "id": "toolu_01", "name": TOOL_NAME, "input": { "brand": "Nik" } }],
                "stop_reason": "max_tokens",
                "usage": { "input_tokens": 100, "output_tokens": 1024 },
            }),
            Api::OpenAi => self.content(r#"{"brand": "Nik"#, "length"),
        }
    }

    fn refusal(self) -> Value {
        match self {
            Api::Anthropic => json!({
                "id": "msg_01", "type": "message", "role": "assistant",
                "content": [{ "type": "text", "text": "I can't help with that." }],
                "stop_reason": "refusal",
                "usage": { "input_tokens": 100, "output_tokens": 8 },
            }),
            Api::OpenAi => json!({
                "id": "chatcmpl-1", "object": "chat.completion",
                "choices": [{
                    "index": 0,
                    "message": { "role": "assistant", "content": null, "refusal": "I can't help with that." },
                    "finish_reason": "stop",
                }],
                "usage": { "prompt_tokens": 100, "completion_tokens": 8 },
            }),
        }
    }

    fn path(self) -> &'static str {
        match self {
            Api::Anthropic => "/v1/messages",
            Api::OpenAi => "/v1/chat/completions",
        }
    }

    /// The text of every message after the first exchange, where fed-back
    /// errors go.
    fn feedback_text(self, body: &Value) -> String {
        let messages = body["messages"].as_array().unwrap();
        match self {
            // user, assistant (the tool call), user (the tool_result)
            Api::Anthropic => {
                assert_eq!(messages.len(), 3, "{body}");
                assert_eq!(messages[1]["content"][0]["type"], "tool_use");
                let result = &messages[2]["content"][0];
                assert_eq!(
                    (result["type"].as_str(), result["tool_use_id"].as_str()),
                    (Some("tool_result"), Some("toolu_01"))
                );
                assert_eq!(result["is_error"], true);
                result["content"].as_str().unwrap().to_owned()
            }
            // system, user, assistant (the bad JSON), user (the errors)
            Api::OpenAi => {
                assert_eq!(messages.len(), 4, "{body}");
                assert_eq!(messages[2]["role"], "assistant");
                messages[3]["content"].as_str().unwrap().to_owned()
            }
        }
    }

    /// The provider and the configured default model of each API.
    fn provider_and_model(self) -> (Provider, &'static str) {
        match self {
            Api::Anthropic => (Provider::Anthropic, "claude-sonnet-4-6"),
            Api::OpenAi => (Provider::Openai, "gpt-4.1-mini"),
        }
    }

    fn extractor(self, name: &str, base_url: &str, key: Option<&str>, http: HttpSettings) -> Arc<dyn Extractor> {
        let (provider, model) = self.provider_and_model();
        let settings = ProviderSettings {
            name: name.to_owned(),
            model: model.into(),
            base_url: match self {
                Api::Anthropic => base_url.to_owned(),
                Api::OpenAi => format!("{base_url}/v1"),
            },
            key_env: Some("TEST_PROVIDER_KEY".into()),
            key: key.map(ApiKey::new),
            options: RequestOptions::for_model(provider, model),
            http,
        };
        match self {
            Api::Anthropic => Arc::new(AnthropicExtractor::new(settings).unwrap()),
            Api::OpenAi => Arc::new(OpenAiExtractor::new(settings, ResponseFormat::JsonSchema).unwrap()),
        }
    }
}

/// Fast retries, so the retry tests take milliseconds.
fn quick() -> HttpSettings {
    HttpSettings {
        connect_timeout: Duration::from_secs(2),
        timeout: Duration::from_secs(5),
        max_retries: 2,
        backoff: Duration::from_millis(5),
        max_retry_after: Duration::from_secs(1),
    }
}

fn input() -> ExtractInput {
    ExtractInput {
        request: "black running shoes, size 42, by Friday".into(),
        // A Monday: "by Friday" is 4 days.
        today: NaiveDate::from_ymd_opt(2026, 11, 2).unwrap(),
        answers: vec![],
    }
}

async fn run(
    api: Api,
    replies: Vec<Reply>,
    http: HttpSettings,
) -> (Result<asasked::extract::Extraction, ExtractError>, Vec<Seen>) {
    let (url, script) = serve(replies).await;
    let extractor = api.extractor("under-test", &url, Some(KEY), http);
    let result = extractor.extract(&input()).await;
    (result, script.seen())
}

// ---------------------------------------------------------------------------
// One provider at a time

#[tokio::test]
async fn valid_output_is_validated_and_read() {
    for api in BOTH {
        let (result, seen) = run(api, vec![Reply::ok(api.output(&black_shoes()))], quick()).await;
        let extraction = result.unwrap_or_else(|error| panic!("{api:?}: {error}"));
        assert_eq!(extraction.extracted.color.as_deref(), Some("black"));
        assert_eq!(extraction.extracted.clone().into_facts(input().today).deadline_days, Some(4));
        assert_eq!(extraction.raw, black_shoes(), "raw is the model's output");
        assert_eq!((extraction.cost.input_tokens, extraction.cost.output_tokens), (Some(100), Some(50)));

        assert_eq!(seen.len(), 1);
        let request = &seen[0];
        assert_eq!(request.path, api.path());
        let body = &request.body;
        let system = match api {
            Api::Anthropic => {
                assert_eq!(request.headers["x-api-key"], KEY);
                assert_eq!(request.headers["anthropic-version"], API_VERSION);
                assert_eq!(
                    body["tool_choice"],
                    json!({ "type": "tool", "name": TOOL_NAME, "disable_parallel_tool_use": true })
                );
                assert_eq!(body["tools"][0]["input_schema"], wire_schema());
                assert_eq!(body["system"][0]["cache_control"], json!({ "type": "ephemeral" }), "a cache breakpoint");
                body["system"][0]["text"].as_str().unwrap().to_owned()
            }
            Api::OpenAi => {
                assert_eq!(request.headers["authorization"], format!("Bearer {KEY}").as_str());
                let format = &body["response_format"];
                assert_eq!(format["type"], "json_schema");
                assert_eq!(format["json_schema"]["name"], SCHEMA_NAME);
                assert_eq!(format["json_schema"]["strict"], true);
                assert_eq!(format["json_schema"]["schema"], wire_schema());
                assert_eq!(body["messages"][0]["role"], "system");
                body["messages"][0]["content"].as_str().unwrap().to_owned()
            }
        };
        assert_eq!(system, asasked::extract::prompt::PROMPT_TEMPLATE, "the instructions never vary, so they cache");
        // The whole request, not its words: the instructions' own examples
        // name running shoes too.
        assert!(!system.contains(&input().request), "the request is never in the instructions");
        let user = body["messages"].as_array().unwrap().iter().find(|message| message["role"] == "user").unwrap();
        assert!(user["content"].as_str().unwrap().starts_with("Today is Monday, 2026-11-02.\n"), "{user}");
        assert!(user["content"].as_str().unwrap().contains("<<<REQUEST "), "{user}");
        assert!(user["content"].as_str().unwrap().contains("black running shoes, size 42, by Friday"));
    }
}

#[tokio::test]
async fn json_object_mode_puts_the_schema_in_the_instructions() {
    let (url, script) = serve(vec![Reply::ok(Api::OpenAi.output(&black_shoes()))]).await;
    let settings = ProviderSettings {
        name: "llama-cpp-python".into(),
        model: "m".into(),
        base_url: format!("{url}/v1"),
        key_env: None,
        key: None,
        options: RequestOptions { max_tokens: 512, ..RequestOptions::for_model(Provider::Openai, "m") },
        http: quick(),
    };
    let extractor = OpenAiExtractor::new(settings, ResponseFormat::JsonObject).unwrap();
    extractor.extract(&input()).await.unwrap();
    let body = &script.seen()[0].body;
    assert_eq!(body["response_format"], json!({ "type": "json_object" }));
    assert!(body["messages"][0]["content"].as_str().unwrap().contains("\"additionalProperties\":false"));
    assert!(!script.seen()[0].headers.contains_key("authorization"), "no key configured, none sent");
}

#[tokio::test]
async fn length_bounds_reach_the_server_but_not_validation() {
    let mut long_list = black_shoes();
    long_list["other"] = json!(["a", "b", "c", "d", "e", "f"]);
    let (url, script) = serve(vec![Reply::ok(Api::OpenAi.output(&long_list))]).await;
    let settings = ProviderSettings {
        name: "local".into(),
        model: "m".into(),
        base_url: format!("{url}/v1"),
        key_env: None,
        key: None,
        options: RequestOptions { max_tokens: 512, ..RequestOptions::for_model(Provider::Openai, "m") },
        http: quick(),
    };
    let extractor =
        OpenAiExtractor::new(settings, ResponseFormat::JsonSchema).unwrap().with_length_bounds(Some(4), Some(64));
    let extraction = extractor.extract(&input()).await.unwrap();
    assert_eq!(extraction.extracted.other.len(), 6, "the contract is the unbounded schema");
    let schema = &script.seen()[0].body["response_format"]["json_schema"]["schema"];
    assert_eq!(schema["properties"]["other"]["maxItems"], 4);
    assert_eq!(schema["properties"]["brand"]["maxLength"], 64);
}

#[tokio::test]
async fn schema_invalid_output_is_fed_back_once() {
    for api in BOTH {
        let replies = vec![Reply::ok(api.output(&schema_invalid())), Reply::ok(api.output(&black_shoes()))];
        let (result, seen) = run(api, replies, quick()).await;
        let extraction = result.unwrap_or_else(|error| panic!("{api:?}: {error}"));
        assert_eq!(extraction.extracted.color.as_deref(), Some("black"));
        assert_eq!(extraction.cost.input_tokens, Some(200), "tokens of both turns");
        assert_eq!(seen.len(), 2);
        let feedback = api.feedback_text(&seen[1].body);
        assert!(feedback.contains("$.quantity") && feedback.contains("colour"), "{api:?}: {feedback}");
    }
}

#[tokio::test]
async fn schema_invalid_twice_fails() {
    for api in BOTH {
        let (result, seen) = run(api, vec![Reply::ok(api.output(&schema_invalid()))], quick()).await;
        let error = result.unwrap_err();
        assert!(
            matches!(&error, ExtractError::SchemaInvalid(message) if message.contains("$.quantity")),
            "{api:?}: {error}"
        );
        assert_eq!(seen.len(), 2, "one retry with the errors, then fail");
    }
}

#[tokio::test]
async fn unparsable_json_is_fed_back_then_fails_as_malformed() {
    let api = Api::OpenAi;
    let (result, seen) = run(api, vec![Reply::ok(api.content("{\"brand\": nope", "stop"))], quick()).await;
    assert!(matches!(result, Err(ExtractError::Malformed(_))), "{result:?}");
    assert_eq!(seen.len(), 2);
    assert!(api.feedback_text(&seen[1].body).contains("not json"));
}

#[tokio::test]
async fn truncated_output_fails_without_retry() {
    for api in BOTH {
        let (result, seen) = run(api, vec![Reply::ok(api.truncated())], quick()).await;
        assert!(matches!(result, Err(ExtractError::Truncated)), "{api:?}: {result:?}");
        assert_eq!(seen.len(), 1, "the same limit would cut a retry too");
    }
}

#[tokio::test]
async fn refusal_fails() {
    for api in BOTH {
        let (result, seen) = run(api, vec![Reply::ok(api.refusal())], quick()).await;
        assert!(
            matches!(&result, Err(ExtractError::Refused(reason)) if reason.contains("can't help")),
            "{api:?}: {result:?}"
        );
        assert_eq!(seen.len(), 1);
    }
}

#[tokio::test]
async fn rate_limit_then_success_is_retried() {
    for api in BOTH {
        let limited = Reply::status(429, json!({ "error": { "type": "rate_limit_error" } })).header("retry-after", "0");
        let (result, seen) = run(api, vec![limited.clone(), Reply::ok(api.output(&black_shoes()))], quick()).await;
        assert!(result.is_ok(), "{api:?}: {result:?}");
        assert_eq!(seen.len(), 2);

        // A server asking for a long wait is not waited for: fail closed now.
        let long = limited.header("retry-after", "3600");
        let started = Instant::now();
        let (result, seen) = run(api, vec![long, Reply::ok(api.output(&black_shoes()))], quick()).await;
        assert!(matches!(result, Err(ExtractError::Status { status: 429, .. })), "{api:?}: {result:?}");
        assert_eq!(seen.len(), 1);
        assert!(started.elapsed() < Duration::from_secs(1));
    }
}

#[tokio::test]
async fn server_errors_are_retried_a_bounded_number_of_times() {
    for api in BOTH {
        let (result, seen) = run(api, vec![Reply::status(500, json!({ "error": "overloaded" }))], quick()).await;
        assert!(matches!(result, Err(ExtractError::Status { status: 500, .. })), "{api:?}: {result:?}");
        assert_eq!(seen.len(), 3, "the first attempt and max_retries = 2");

        let (result, seen) = run(api, vec![Reply::status(400, json!({ "error": "bad request" }))], quick()).await;
        assert!(matches!(result, Err(ExtractError::Status { status: 400, .. })), "{api:?}: {result:?}");
        assert_eq!(seen.len(), 1, "a 4xx is not retried");
    }
}

#[tokio::test]
async fn a_hang_past_the_timeout_fails() {
    for api in BOTH {
        let hang = Reply::ok(api.output(&black_shoes())).after(Duration::from_secs(10));
        let http = HttpSettings { timeout: Duration::from_millis(300), max_retries: 1, ..quick() };
        let started = Instant::now();
        let (result, seen) = run(api, vec![hang], http).await;
        let elapsed = started.elapsed();
        assert!(
            matches!(result, Err(ExtractError::Timeout(limit)) if limit == Duration::from_millis(300)),
            "{result:?}"
        );
        assert_eq!(seen.len(), 2, "a timeout is retried, a bounded number of times");
        assert!(elapsed >= Duration::from_millis(600) && elapsed < Duration::from_secs(2), "{elapsed:?}");
    }
}

#[tokio::test]
async fn a_missing_key_sends_nothing() {
    for api in BOTH {
        let (url, script) = serve(vec![Reply::ok(api.output(&black_shoes()))]).await;
        let extractor = api.extractor("keyless", &url, None, quick());
        let error = extractor.extract(&input()).await.unwrap_err();
        assert!(matches!(&error, ExtractError::MissingKey(env) if env == "TEST_PROVIDER_KEY"), "{error}");
        assert!(error.to_string().contains("TEST_PROVIDER_KEY"));
        assert!(script.seen().is_empty(), "no request without a key");
    }
}

#[tokio::test]
async fn the_key_never_shows() {
    for api in BOTH {
        // A server that echoes the key it was sent into its error body.
        let echo = Reply::status(401, json!({ "error": format!("invalid x-api-key {KEY}") }));
        let (url, _script) = serve(vec![echo]).await;
        let extractor = api.extractor("leaky", &url, Some(KEY), quick());
        let error = extractor.extract(&input()).await.unwrap_err();
        assert!(matches!(error, ExtractError::Status { status: 401, .. }), "{error}");
        for text in [error.to_string(), format!("{error:?}")] {
            assert!(!text.contains(KEY), "{api:?}: {text}");
        }
        let settings = ProviderSettings {
            name: "x".into(),
            model: "m".into(),
            base_url: url.clone(),
            key_env: Some("K".into()),
            key: Some(ApiKey::new(KEY)),
            options: RequestOptions::for_model(Provider::Anthropic, "m"),
            http: quick(),
        };
        assert!(!format!("{settings:?}").contains(KEY));
        assert!(!format!("{:?}", AnthropicExtractor::new(settings.clone()).unwrap()).contains(KEY));
        assert!(!format!("{:?}", OpenAiExtractor::new(settings, ResponseFormat::JsonSchema).unwrap()).contains(KEY));
    }
}

// ---------------------------------------------------------------------------
// Through the extractor set

fn set(extractors: Vec<Arc<dyn Extractor>>) -> ExtractorSet {
    ExtractorSet::new(extractors, None, Duration::from_secs(5), NonZeroUsize::new(8).unwrap()).unwrap()
}

#[tokio::test]
async fn a_slow_and_a_fast_provider_run_concurrently() {
    let mut white = black_shoes();
    white["color"] = json!("white");
    let (slow_url, _slow) =
        serve(vec![Reply::ok(Api::Anthropic.output(&black_shoes())).after(Duration::from_millis(500))]).await;
    let (fast_url, _fast) = serve(vec![Reply::ok(Api::OpenAi.output(&white)).after(Duration::from_millis(300))]).await;
    let extractors = vec![
        Api::Anthropic.extractor("claude", &slow_url, Some(KEY), quick()),
        Api::OpenAi.extractor("openai", &fast_url, Some(KEY), quick()),
    ];
    let started = Instant::now();
    let outcome = set(extractors).extract(&input()).await;
    let elapsed = started.elapsed();
    assert!(elapsed >= Duration::from_millis(500) && elapsed < Duration::from_millis(750), "{elapsed:?}, not 800 ms");
    let merged = outcome.merged.as_ref().unwrap();
    assert_eq!(merged.color.as_deref(), Some("black"), "the first extractor's value");
    assert!(merged.disputed.contains(&asasked::facts::FieldName::Color.into()));
    assert_eq!(merged.deadline_days, Some(4));
}

#[tokio::test]
async fn a_failing_provider_fails_the_set_closed() {
    let (good_url, _good) = serve(vec![Reply::ok(Api::Anthropic.output(&black_shoes()))]).await;
    let (bad_url, _bad) = serve(vec![Reply::ok(Api::OpenAi.output(&schema_invalid()))]).await;
    let extractors = vec![
        Api::Anthropic.extractor("claude", &good_url, Some(KEY), quick()),
        Api::OpenAi.extractor("openai", &bad_url, Some(KEY), quick()),
    ];
    let outcome = set(extractors).extract(&input()).await;
    let error = outcome.merged.as_ref().unwrap_err();
    assert!(error.to_string().starts_with(COULD_NOT_CHECK), "{error}");
    assert!(error.detail.contains("openai: output does not match the facts schema"), "{error}");
    let report = outcome.reports.iter().find(|report| report.name == "openai").unwrap();
    assert!(report.facts.is_none() && report.error.is_some());
}

#[tokio::test]
async fn a_recorded_provider_replays_offline() {
    use asasked::extract::name::ExtractorName;
    use asasked::extract::replay::record_all;
    use asasked::extractors::{BuildContext, build_list};
    use asasked::providers::config::ExtractorsConfig;

    let (url, script) = serve(vec![Reply::ok(Api::OpenAi.output(&black_shoes()))]).await;
    let config = ExtractorsConfig::parse(&format!(
        "[extractors.mock]\nprovider = \"openai\"\nmodel = \"m\"\nbase_url = \"{url}/v1\"\nkey_env = \"MOCK_KEY\"\n"
    ))
    .unwrap();
    let env = |name: &str| (name == "MOCK_KEY").then(|| KEY.to_owned());
    let context = BuildContext { config: &config, env: &env, catalog: None, gold: None };
    let dir = tempfile::tempdir().unwrap();
    let live = record_all(build_list(&[ExtractorName::Configured("mock".into())], &context).unwrap(), dir.path());
    let recorded = live[0].extract(&input()).await.unwrap();
    assert_eq!(script.seen()[0].headers["authorization"], format!("Bearer {KEY}").as_str());

    let replay_name = ExtractorName::parse(&format!("replay:{}", dir.path().join("mock").display())).unwrap();
    let replay = build_list(&[replay_name], &BuildContext { env: &|_: &str| None, ..context }).unwrap();
    let replayed = replay[0].extract(&input()).await.unwrap();
    assert_eq!((replayed.extracted, replayed.raw), (recorded.extracted, recorded.raw));
    assert_eq!(script.seen().len(), 1, "the replay sent nothing");
    let files = std::fs::read_dir(dir.path().join("mock")).unwrap().count();
    assert_eq!(files, 1);
    assert!(
        !std::fs::read_to_string(std::fs::read_dir(dir.path().join("mock")).unwrap().next().unwrap().unwrap().path())
            .unwrap()
            .contains(KEY)
    );
}

#[tokio::test]
async fn facts_rules_beyond_the_schema_are_fed_back_too() {
    for api in BOTH {
        let mut unknown_soft = black_shoes();
        unknown_soft["soft"] = json!(["in"]);
        let replies = vec![Reply::ok(api.output(&unknown_soft)), Reply::ok(api.output(&black_shoes()))];
        let (result, seen) = run(api, replies, quick()).await;
        assert!(result.is_ok(), "{api:?}: {result:?}");
        assert!(api.feedback_text(&seen[1].body).contains("$.soft[0]: unknown field name"), "{api:?}");
    }
}

// ---------------------------------------------------------------------------
// Request shapes per model family (issue 17)

/// One configured extractor, built from an extractors.toml table as the
/// binary builds it, against the fake at `base_url`.
fn configured(provider: &str, model: &str, base_url: &str, extra: &str) -> Arc<dyn Extractor> {
    let config = ExtractorsConfig::parse(&format!(
        "[extractors.under-test]\nprovider = \"{provider}\"\nmodel = \"{model}\"\nbase_url = \"{base_url}\"\nkey_env = \"TEST_KEY\"\nmax_retries = 0\n{extra}\n"
    ))
    .unwrap_or_else(|error| panic!("{model}: {error}"));
    let env = |name: &str| (name == "TEST_KEY").then(|| KEY.to_owned());
    config.build("under-test", &env).unwrap().unwrap()
}

/// Runs one extraction of `model` against a fresh fake and returns the
/// request body it sent (the fake has already refused anything the service
/// would refuse, which fails the extraction).
async fn request_of(api: Api, model: &str) -> Value {
    let (url, script) = serve(vec![Reply::ok(api.output(&black_shoes()))]).await;
    let (provider, base_url) = match api {
        Api::Anthropic => ("anthropic", url.clone()),
        Api::OpenAi => ("openai", format!("{url}/v1")),
    };
    let extractor = configured(provider, model, &base_url, "");
    extractor.extract(&input()).await.unwrap_or_else(|error| panic!("{model}: {error}"));
    let seen = script.seen();
    assert_eq!(seen.len(), 1, "{model}");
    assert_eq!(seen[0].path, api.path(), "{model}");
    seen[0].body.clone()
}

#[tokio::test]
async fn openai_chat_models_send_max_tokens_and_temperature() {
    for model in ["gpt-4.1-mini", "gpt-4o", "gpt-5-chat-latest"] {
        let body = request_of(Api::OpenAi, model).await;
        assert_eq!((body["max_tokens"].as_u64(), body["temperature"].as_u64()), (Some(1024), Some(0)), "{model}");
        assert!(body.get("max_completion_tokens").is_none(), "{model}");
        assert_eq!(body["response_format"]["json_schema"]["strict"], true);
    }
}

#[tokio::test]
async fn openai_reasoning_models_send_max_completion_tokens_and_no_temperature() {
    for model in ["gpt-5", "gpt-5-mini", "o3", "o4-mini", "o1"] {
        let body = request_of(Api::OpenAi, model).await;
        assert_eq!(body["max_completion_tokens"].as_u64(), Some(16384), "{model}");
        assert!(body.get("max_tokens").is_none() && body.get("temperature").is_none(), "{model}: {body}");
        assert_eq!(body["response_format"]["json_schema"]["strict"], true);
    }
}

#[tokio::test]
async fn claude_4_5_and_4_6_send_temperature_and_a_strict_single_tool() {
    for model in ["claude-sonnet-4-6", "claude-sonnet-4-5", "claude-haiku-4-5-20251001", "claude-opus-4-6"] {
        let body = request_of(Api::Anthropic, model).await;
        assert_eq!((body["max_tokens"].as_u64(), body["temperature"].as_u64()), (Some(1024), Some(0)), "{model}");
        assert_eq!(body["tools"][0]["strict"], true, "{model}");
        assert_eq!(body["tool_choice"]["disable_parallel_tool_use"], true, "{model}");
    }
}

#[tokio::test]
async fn claude_from_opus_4_7_on_sends_no_temperature() {
    for model in ["claude-opus-4-7", "claude-sonnet-5", "claude-opus-5"] {
        let body = request_of(Api::Anthropic, model).await;
        assert!(body.get("temperature").is_none(), "{model}: {body}");
        assert_eq!(body["tools"][0]["strict"], true, "{model}");
        assert_eq!(body["tool_choice"]["disable_parallel_tool_use"], true, "{model}");
    }
}

#[tokio::test]
async fn claude_before_4_5_sends_no_strict_tool() {
    for model in ["claude-3-5-haiku-20241022", "claude-sonnet-4-20250514", "claude-opus-4-1"] {
        let body = request_of(Api::Anthropic, model).await;
        assert_eq!(body["temperature"].as_u64(), Some(0), "{model}");
        assert!(body["tools"][0].get("strict").is_none(), "{model}: {body}");
        assert_eq!(body["tool_choice"]["disable_parallel_tool_use"], true, "{model}");
    }
}

#[tokio::test]
async fn a_local_server_gets_the_chat_shape() {
    let body = request_of(Api::OpenAi, "gemma3-270m").await;
    assert_eq!((body["max_tokens"].as_u64(), body["temperature"].as_u64()), (Some(1024), Some(0)));
}

#[tokio::test]
async fn issue_17_base_urls_with_or_without_v1_reach_the_endpoint() {
    for (api, provider, suffixes) in
        [(Api::Anthropic, "anthropic", ["", "/", "/v1", "/v1/"]), (Api::OpenAi, "openai", ["", "/", "/v1", "/v1/"])]
    {
        for suffix in suffixes {
            let (url, script) = serve(vec![Reply::ok(api.output(&black_shoes()))]).await;
            let model = api.provider_and_model().1;
            let extractor = configured(provider, model, &format!("{url}{suffix}"), "");
            let result = extractor.extract(&input()).await;
            assert!(result.is_ok(), "{provider} {suffix:?}: {result:?}");
            assert_eq!(script.seen()[0].path, api.path(), "{provider} base_url ending {suffix:?}");
        }
    }
}

#[tokio::test]
async fn every_tool_call_of_a_turn_is_answered_in_the_repair_turn() {
    // A model that calls the tool twice in one turn (as if parallel use
    // were allowed): the first call is schema-invalid, so the repair turn
    // must carry a tool_result for both, or the service refuses it.
    let mut twice = Api::Anthropic.output(&schema_invalid());
    let mut second = twice["content"][0].clone();
    second["id"] = json!("toolu_02");
    twice["content"].as_array_mut().unwrap().push(second);
    let (result, seen) =
        run(Api::Anthropic, vec![Reply::ok(twice), Reply::ok(Api::Anthropic.output(&black_shoes()))], quick()).await;
    assert!(result.is_ok(), "{result:?}");
    assert_eq!(seen.len(), 2);
    let results = seen[1].body["messages"][2]["content"].as_array().unwrap().clone();
    let ids: Vec<&str> = results.iter().map(|block| block["tool_use_id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["toolu_01", "toolu_02"]);
    assert!(results[0]["content"].as_str().unwrap().contains("$.quantity"));
}

/// Posts `body` to the fake as a client that ignores asasked's own rules.
async fn post(url: &str, path: &str, body: Value) -> (u16, String) {
    let response = reqwest::Client::new().post(format!("{url}{path}")).json(&body).send().await.unwrap();
    (response.status().as_u16(), response.text().await.unwrap())
}

#[tokio::test]
async fn the_fakes_refuse_what_the_services_refuse() {
    let (url, _script) = serve(vec![Reply::ok(Api::OpenAi.output(&black_shoes()))]).await;
    let chat = |model: &str, extra: Value| {
        let mut body = json!({ "model": model, "messages": [], "response_format": {
            "type": "json_schema", "json_schema": { "name": SCHEMA_NAME, "strict": true, "schema": wire_schema() } } });
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        body
    };
    let refused = [
        (chat("o3-mini", json!({ "max_completion_tokens": 10, "temperature": 0 })), "temperature"),
        (chat("gpt-5-mini", json!({ "max_tokens": 10 })), "max_completion_tokens"),
        (
            chat(
                "gpt-4.1-mini",
                json!({ "max_tokens": 10, "response_format": { "type": "json_schema",
            "json_schema": { "name": "x", "strict": true, "schema": { "type": "object", "properties": {} } } } }),
            ),
            "additionalProperties",
        ),
    ];
    for (body, expected) in refused {
        let (status, text) = post(&url, "/v1/chat/completions", body).await;
        assert_eq!(status, 400, "{text}");
        assert!(text.contains(expected), "{text}");
    }
    let (status, _) =
        post(&url, "/v1/chat/completions", chat("gpt-4.1-mini", json!({ "max_tokens": 10, "temperature": 0 }))).await;
    assert_eq!(status, 200);

    let tool = |strict: bool| json!([{ "name": TOOL_NAME, "input_schema": wire_schema(), "strict": strict }]);
    let call = json!({ "role": "assistant", "content": [
        { "type": "tool_use", "id": "toolu_01", "name": TOOL_NAME, "input": {} },
        { "type": "tool_use", "id": "toolu_02", "name": TOOL_NAME, "input": {} } ] });
    let one_result = json!({ "role": "user", "content": [
        { "type": "tool_result", "tool_use_id": "toolu_01", "content": "again" } ] });
    let mut bounded = wire_schema();
    bounded["properties"]["quantity"]["minimum"] = json!(1);
    let refused = [
        (
            json!({ "model": "claude-opus-4-7", "max_tokens": 10, "temperature": 0, "tools": tool(true), "messages": [] }),
            "temperature",
        ),
        (
            json!({ "model": "claude-sonnet-4-6", "max_tokens": 10, "tools": tool(true),
            "messages": [{ "role": "user", "content": "x" }, call, one_result] }),
            "toolu_02",
        ),
        (
            json!({ "model": "claude-sonnet-4-6", "max_tokens": 10, "messages": [],
            "tools": [{ "name": TOOL_NAME, "input_schema": bounded, "strict": true }] }),
            "minimum",
        ),
        (
            json!({ "model": "claude-3-5-haiku-20241022", "max_tokens": 10, "tools": tool(true), "messages": [] }),
            "strict",
        ),
        (json!({ "model": "claude-sonnet-4-6", "max_completion_tokens": 10, "messages": [] }), "max_tokens"),
    ];
    for (body, expected) in refused {
        let (status, text) = post(&url, "/v1/messages", body).await;
        assert_eq!(status, 400, "{text}");
        assert!(text.contains(expected), "{expected}: {text}");
    }
    let (status, _) = post(&url, "/v1/v1/messages", json!({ "model": "claude-sonnet-4-6" })).await;
    assert_eq!(status, 404, "a doubled /v1 is no endpoint");
}

#[tokio::test]
async fn options_the_service_refuses_fail_the_extraction() {
    // What the config refuses at startup, forced through the settings: the
    // fake answers 400 and the extraction fails closed (a regression in the
    // family table fails the request-shape tests above the same way).
    let (url, script) = serve(vec![Reply::ok(Api::OpenAi.output(&black_shoes()))]).await;
    let defaults = RequestOptions::for_model(Provider::Openai, "o3-mini");
    let settings = ProviderSettings {
        name: "forced".into(),
        model: "o3-mini".into(),
        base_url: format!("{url}/v1"),
        key_env: None,
        key: None,
        options: RequestOptions { send_temperature: true, ..defaults },
        http: quick(),
    };
    let error =
        OpenAiExtractor::new(settings, ResponseFormat::JsonSchema).unwrap().extract(&input()).await.unwrap_err();
    assert!(matches!(&error, ExtractError::Status { status: 400, body } if body.contains("temperature")), "{error}");
    assert_eq!(script.seen().len(), 1, "a 400 is not retried");
}

#[test]
fn issue_17_the_binary_refuses_a_documented_invalid_config_at_startup() {
    let directory = tempfile::tempdir().unwrap();
    for (table, key) in [
        ("provider = \"openai\"\nmodel = \"o3-mini\"\nsend_temperature = true", "send_temperature"),
        ("provider = \"openai\"\nmodel = \"gpt-5\"\ntoken_limit_field = \"max_tokens\"", "token_limit_field"),
        ("provider = \"anthropic\"\nmodel = \"claude-opus-4-7\"\nsend_temperature = true", "send_temperature"),
    ] {
        let path = directory.path().join("extractors.toml");
        std::fs::write(&path, format!("[extractors.hosted]\n{table}\nkey_env = \"K\"\n")).unwrap();
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_asasked"))
            .args(["extract", "--request", "black shoes", "--extractors", "rules", "--extractors-config"])
            .arg(&path)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(&format!("extractor \"hosted\": {key}: not valid for model")), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

// ---------------------------------------------------------------------------
// Prompt caching (issue 14): a server that reports cache use as each provider
// does, so the layout of the prompt (fixed part first, nothing varying in it)
// is measured, not assumed.

/// Tokens of a text, as the fake counts them: one per four bytes, rounded up.
fn tokens_of(text: &str) -> u64 {
    text.len().div_ceil(4) as u64
}

/// The prompts seen so far, in the order the provider reads them.
#[derive(Default)]
struct PromptCache {
    prefixes: Mutex<Vec<String>>,
}

/// Anthropic: the prefix up to and including the block marked
/// `cache_control` (tools, then system) is cached when it is at least 1024
/// tokens; a later request with the same prefix reads it
/// (`cache_read_input_tokens`), the first writes it
/// (`cache_creation_input_tokens`); `input_tokens` counts the rest.
fn anthropic_usage(cache: &PromptCache, body: &Value) -> Value {
    let system = body["system"].as_array().cloned().unwrap_or_default();
    let marked = system.iter().position(|block| block.get("cache_control").is_some());
    let messages = body["messages"].to_string();
    let Some(last) = marked else {
        let all = format!("{}{}{}", body["tools"], body["system"], messages);
        return json!({ "input_tokens": tokens_of(&all), "output_tokens": 50 });
    };
    let prefix = format!("{}{}", body["tools"], Value::Array(system[..=last].to_vec()));
    let rest = format!("{}{}", Value::Array(system[last + 1..].to_vec()), messages);
    let mut seen = cache.prefixes.lock().unwrap();
    let (read, written) = if tokens_of(&prefix) < 1024 {
        (0, 0)
    } else if seen.contains(&prefix) {
        (tokens_of(&prefix), 0)
    } else {
        seen.push(prefix.clone());
        (0, tokens_of(&prefix))
    };
    json!({
        "input_tokens": tokens_of(&rest),
        "cache_read_input_tokens": read,
        "cache_creation_input_tokens": written,
        "output_tokens": 50,
    })
}

/// OpenAI: automatic caching of the longest prefix seen before, from 1024
/// tokens in steps of 128; the structured-output schema comes first, then
/// the messages in order. `prompt_tokens` counts everything,
/// `prompt_tokens_details.cached_tokens` the cached part.
fn openai_usage(cache: &PromptCache, body: &Value) -> Value {
    let mut prompt = body["response_format"].to_string();
    for message in body["messages"].as_array().into_iter().flatten() {
        prompt.push_str(message["content"].as_str().unwrap_or(""));
    }
    let mut seen = cache.prefixes.lock().unwrap();
    let common = seen
        .iter()
        .map(|earlier| earlier.bytes().zip(prompt.bytes()).take_while(|(a, b)| a == b).count())
        .max()
        .unwrap_or(0);
    let common_tokens = (common / 4) as u64;
    let cached = if common_tokens < 1024 { 0 } else { 1024 + (common_tokens - 1024) / 128 * 128 };
    let total = tokens_of(&prompt);
    seen.push(prompt);
    json!({
        "prompt_tokens": total,
        "completion_tokens": 50,
        "total_tokens": total + 50,
        "prompt_tokens_details": { "cached_tokens": cached },
    })
}

async fn serve_caching(api: Api) -> String {
    let cache = Arc::new(PromptCache::default());
    let router = axum::Router::new().fallback(move |body: Bytes| {
        let cache = Arc::clone(&cache);
        async move {
            let body: Value = serde_json::from_slice(&body).unwrap();
            let mut reply = api.output(&black_shoes());
            reply["usage"] = match api {
                Api::Anthropic => anthropic_usage(&cache, &body),
                Api::OpenAi => openai_usage(&cache, &body),
            };
            axum::Json(reply)
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    format!("http://{address}")
}

#[tokio::test]
async fn a_second_request_reads_the_fixed_prompt_from_the_cache() {
    for api in BOTH {
        let url = serve_caching(api).await;
        let extractor = api.extractor("cached", &url, Some(KEY), quick());
        let first = extractor.extract(&input()).await.unwrap_or_else(|error| panic!("{api:?}: {error}"));
        // Another request on another day: neither may break the cached prefix.
        let other = ExtractInput {
            request: "две пары белых кроссовок до 5000 рублей, не Nike".into(),
            today: NaiveDate::from_ymd_opt(2026, 11, 3).unwrap(),
            answers: vec!["размер 42".into()],
        };
        let second = extractor.extract(&other).await.unwrap_or_else(|error| panic!("{api:?}: {error}"));
        let share = |cost: &asasked::extract::Cost| {
            cost.cached_input_tokens.unwrap_or(0) as f64 / cost.input_tokens.expect("input tokens reported") as f64
        };
        assert_eq!(share(&first.cost), 0.0, "{api:?}: nothing is cached on the first request: {:?}", first.cost);
        let cached = share(&second.cost);
        println!("{api:?}: second request {:?}, cached share {:.1}%", second.cost, cached * 100.0);
        assert!(cached >= 0.8, "{api:?}: cached share {cached:.3} on the second request: {:?}", second.cost);
    }
}
