//! Both provider modules against real HTTP servers on 127.0.0.1 that speak
//! each API's wire format: valid output, schema-invalid output (fed back,
//! then valid or failed), truncation, refusal, 429, 500, a hang past the
//! timeout, a missing key, and a key that must never show. Then two
//! providers through `ExtractorSet`: concurrency and failing closed.
//! No test reaches the internet.

use std::collections::VecDeque;
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use asasked::extract::schema::{empty_facts_value, wire_schema};
use asasked::extract::set::{COULD_NOT_CHECK, ExtractorSet};
use asasked::extract::{ExtractError, ExtractInput, Extractor};
use asasked::providers::ProviderSettings;
use asasked::providers::anthropic::{API_VERSION, AnthropicExtractor, TOOL_NAME};
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
    let body = serde_json::from_slice(&body).unwrap_or(Value::Null);
    script.seen.lock().unwrap().push(Seen { path: uri.path().to_owned(), headers, body });
    let reply = {
        let mut replies = script.replies.lock().unwrap();
        if replies.len() > 1 { replies.pop_front().unwrap() } else { replies[0].clone() }
    };
    tokio::time::sleep(reply.delay).await;
    let mut response = (StatusCode::from_u16(reply.status).unwrap(), axum::Json(reply.body)).into_response();
    for (name, value) in reply.headers {
        response.headers_mut().insert(name, value.parse().unwrap());
    }
    response
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

    fn extractor(self, name: &str, base_url: &str, key: Option<&str>, http: HttpSettings) -> Arc<dyn Extractor> {
        let settings = ProviderSettings {
            name: name.to_owned(),
            model: "test-model".into(),
            base_url: match self {
                Api::Anthropic => base_url.to_owned(),
                Api::OpenAi => format!("{base_url}/v1"),
            },
            key_env: Some("TEST_PROVIDER_KEY".into()),
            key: key.map(ApiKey::new),
            max_tokens: 1024,
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
                assert_eq!(body["tool_choice"], json!({ "type": "tool", "name": TOOL_NAME }));
                assert_eq!(body["tools"][0]["input_schema"], wire_schema());
                body["system"].as_str().unwrap().to_owned()
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
        assert!(system.contains("Today is Monday, 2026-11-02."), "{system}");
        assert!(!system.contains("running shoes"), "the request is never in the instructions");
        let user = body["messages"].as_array().unwrap().iter().find(|message| message["role"] == "user").unwrap();
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
        max_tokens: 512,
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
        max_tokens: 512,
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
            max_tokens: 1,
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
