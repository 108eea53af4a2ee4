//! Elicitation (issue 14) with rmcp's own client in process: a client on
//! protocol 2025-11-25 that declared form elicitation gets the `ask` as a
//! form during the `check_order` call; its reply (accept, decline, the
//! person's words, or the form declined or cancelled) is sealed as the next
//! record of the chain and the final result comes back in the same call.
//! Clients without the capability get the plain `ask`. A client on
//! protocol 2026-07-28 (no `initialize`; rmcp's `Discover` lifecycle) gets
//! the same form in `input_required` rounds, its state sealed; rmcp's client
//! drives the rounds in `call_tool`, as a host application would.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use asasked::catalog::Catalog;
use asasked::evidence::{self, EvidenceStore};
use asasked::mcp::{self, CheckServer};
use asasked::service::{Clock, Service};
use chrono::{DateTime, Utc};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult,
    ElicitationAction, Implementation, ProtocolVersion,
};
use rmcp::service::{RequestContext, RoleClient, RunningService};
use rmcp::{ClientHandler, ClientLifecycleMode, ClientServiceExt, ErrorData, ServiceExt};
use serde_json::{Value, json};

const REQUEST: &str = "Nike Pegasus 41 in white, size 42";

struct FixedClock;

impl Clock for FixedClock {
    fn now(&self) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-11-02T10:00:00Z").unwrap().with_timezone(&Utc)
    }
}

/// What a form showed: its message and schema.
type Shown = Vec<(String, Value)>;
/// How the person answers a form, given its schema.
type Answering = fn(&Value) -> ElicitResult;

/// The person behind the client: answers each form with the next scripted
/// reply, built from the form's schema.
#[derive(Clone)]
struct Person {
    protocol: ProtocolVersion,
    declares_elicitation: bool,
    replies: Arc<Mutex<VecDeque<Answering>>>,
    shown: Arc<Mutex<Shown>>,
}

impl ClientHandler for Person {
    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let ElicitRequestParams::FormElicitationParams { message, requested_schema, .. } = request else {
            panic!("a URL elicitation");
        };
        let schema = serde_json::to_value(&requested_schema).unwrap();
        self.shown.lock().unwrap().push((message, schema.clone()));
        // A form the script did not expect is cancelled (and fails the test
        // through `shown`), rather than left unanswered until it times out.
        let reply = self.replies.lock().unwrap().pop_front();
        Ok(reply.map_or_else(|| ElicitResult::new(ElicitationAction::Cancel), |reply| reply(&schema)))
    }

    fn get_info(&self) -> ClientConfig {
        let capabilities = if self.declares_elicitation {
            ClientCapabilities::builder().enable_elicitation().build()
        } else {
            ClientCapabilities::default()
        };
        ClientConfig::new(capabilities, Implementation::new("person", "0")).with_protocol_version(self.protocol.clone())
    }
}

struct Harness {
    _directory: tempfile::TempDir,
    data: PathBuf,
    client: RunningService<RoleClient, Person>,
    shown: Arc<Mutex<Shown>>,
}

async fn start(
    protocol: ProtocolVersion,
    declares_elicitation: bool,
    replies: Vec<fn(&Value) -> ElicitResult>,
) -> Harness {
    start_with(asasked::extract::name::ExtractorName::Rules, protocol, declares_elicitation, replies).await
}

async fn start_with(
    extractor: asasked::extract::name::ExtractorName,
    protocol: ProtocolVersion,
    declares_elicitation: bool,
    replies: Vec<fn(&Value) -> ElicitResult>,
) -> Harness {
    let directory = tempfile::tempdir().unwrap();
    let data = directory.path().join("data");
    let extractors = Arc::new(asasked::extractors::build(&[extractor], &|_| None).unwrap());
    let store = EvidenceStore::open(&data).unwrap();
    let service = Service::new(extractors, Some(Arc::new(Catalog::embedded().unwrap())), store, Arc::new(FixedClock));
    let server = CheckServer::new(service, false).with_rounds(mcp::rounds::Rounds::new(vec![7; 32]).unwrap());
    let (server_side, client_side) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        let (read, write) = tokio::io::split(server_side);
        mcp::serve_stdio(server, (read, write), std::future::pending()).await
    });
    let shown = Arc::new(Mutex::new(Vec::new()));
    let person = Person {
        protocol: protocol.clone(),
        declares_elicitation,
        replies: Arc::new(Mutex::new(replies.into())),
        shown: Arc::clone(&shown),
    };
    let client = if protocol.has_initialize() {
        person.serve(client_side).await.unwrap()
    } else {
        let lifecycle = ClientLifecycleMode::Discover { preferred_versions: vec![protocol.clone()] };
        person.serve_with_lifecycle(client_side, lifecycle).await.unwrap()
    };
    Harness { _directory: directory, data, client, shown }
}

impl Harness {
    async fn brief(&self, arguments: &Value) -> Value {
        let call = CallToolRequestParams::new("brief_order").with_arguments(arguments.as_object().unwrap().clone());
        self.client.call_tool(call).await.unwrap().structured_content.expect("structured content")
    }

    async fn check(&self, item: &str) -> Value {
        let arguments = json!({"request": REQUEST, "cart": [{"id": item, "quantity": 1}], "today": "2026-11-02"});
        let result = self
            .client
            .call_tool(
                CallToolRequestParams::new(mcp::TOOL_NAME).with_arguments(arguments.as_object().unwrap().clone()),
            )
            .await
            .unwrap();
        assert_ne!(result.is_error, Some(true), "{result:?}");
        result.structured_content.expect("structured content")
    }

    fn shown(&self) -> Shown {
        self.shown.lock().unwrap().clone()
    }

    /// The sealed record `id`'s body.
    fn record(&self, id: &Value) -> Value {
        evidence::show(&self.data.join(evidence::LOG_FILE), id.as_str().unwrap()).unwrap().unwrap().body
    }
}

/// The form's finding fields (every property but the free-text one).
fn finding_fields(schema: &Value) -> Vec<String> {
    schema["properties"].as_object().unwrap().keys().filter(|key| *key != "own_words").cloned().collect()
}

fn accept_all(schema: &Value) -> ElicitResult {
    let content: serde_json::Map<String, Value> =
        finding_fields(schema).into_iter().map(|field| (field, json!("accept"))).collect();
    ElicitResult::new(ElicitationAction::Accept).with_content(Value::Object(content))
}

fn decline_all(schema: &Value) -> ElicitResult {
    let content: serde_json::Map<String, Value> =
        finding_fields(schema).into_iter().map(|field| (field, json!("decline"))).collect();
    ElicitResult::new(ElicitationAction::Accept).with_content(Value::Object(content))
}

fn own_words(_schema: &Value) -> ElicitResult {
    ElicitResult::new(ElicitationAction::Accept).with_content(json!({"own_words": "41 is fine too"}))
}

fn decline_form(_schema: &Value) -> ElicitResult {
    ElicitResult::new(ElicitationAction::Decline)
}

fn cancel_form(_schema: &Value) -> ElicitResult {
    ElicitResult::new(ElicitationAction::Cancel)
}

/// Both ways a form reaches the person: sent by the server during the call
/// (2025-11-25), or returned as an `input_required` round (2026-07-28).
const PROTOCOLS: [ProtocolVersion; 2] = [ProtocolVersion::V_2025_11_25, ProtocolVersion::V_2026_07_28];

#[tokio::test]
async fn accepting_in_the_form_seals_the_answer_and_proceeds_in_the_same_call() {
    for protocol in PROTOCOLS {
        let harness = start(protocol.clone(), true, vec![accept_all]).await;
        let result = harness.check("shoe-002").await;
        assert_eq!(result["decision"], "proceed", "{result}");
        assert_eq!(result["attempt"], 2);
        assert!(
            result["notes"]
                .as_array()
                .unwrap()
                .iter()
                .any(|note| note.as_str().unwrap().contains("accepted by the person"))
        );

        // The form: the ask's question as its message, one accept/decline field
        // per blocking finding titled with its reason, one free-text field,
        // nothing else (flat, no payment data).
        let shown = harness.shown();
        assert_eq!(shown.len(), 1);
        let (message, schema) = &shown[0];
        let ask = harness.record(&result["previous_record_id"]);
        assert_eq!(ask["result"]["decision"], "ask");
        assert_eq!(message, ask["result"]["question"].as_str().unwrap(), "the question, verbatim");
        let blocking: Vec<&Value> = ask["result"]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|finding| finding["severity"] == "block")
            .collect();
        let fields = finding_fields(schema);
        assert_eq!(fields.len(), blocking.len());
        for (field, finding) in fields.iter().zip(&blocking) {
            let property = &schema["properties"][field];
            assert_eq!(property["title"], finding["reason"], "{schema}");
            assert_eq!(property["type"], "string");
            let choices: Vec<&Value> =
                property["oneOf"].as_array().unwrap().iter().map(|choice| &choice["const"]).collect();
            assert_eq!(choices, [&json!("accept"), &json!("decline")]);
        }
        assert_eq!(schema["properties"]["own_words"]["type"], "string");
        for property in schema["properties"].as_object().unwrap().values() {
            assert!(property.get("properties").is_none() && property.get("items").is_none(), "flat: {schema}");
        }

        // Sealed like the answers loop: the answers and the link to the ask.
        let sealed = harness.record(&result["record_id"]);
        assert_eq!(sealed["answers"].as_array().unwrap().len(), blocking.len(), "{sealed}");
        assert_eq!(sealed["answers"][0]["reply"], "accept");
        assert_eq!(sealed["result"]["previous_record_id"], result["previous_record_id"]);
        assert!(evidence::verify_file(&harness.data.join(evidence::LOG_FILE)).unwrap().ok());
    }
}

#[tokio::test]
async fn the_persons_own_words_are_re_extracted_and_can_proceed() {
    for protocol in PROTOCOLS {
        let harness = start(protocol, true, vec![own_words]).await;
        let result = harness.check("shoe-002").await;
        assert_eq!(result["decision"], "proceed", "{result}");
        assert_eq!(result["facts"]["size_any"], json!(["41"]), "{result}");
        let sealed = harness.record(&result["record_id"]);
        assert_eq!(sealed["answer_state"]["clarifications"], json!(["41 is fine too"]));
    }
}

#[tokio::test]
async fn declining_a_finding_keeps_blocking_and_is_not_asked_again() {
    for protocol in PROTOCOLS {
        let harness = start(protocol, true, vec![decline_all]).await;
        let result = harness.check("shoe-002").await;
        assert_eq!(result["decision"], "ask", "{result}");
        assert_eq!(result["attempt"], 2, "the decline is sealed as the next attempt");
        assert!(result["reasons"][0].as_str().unwrap().contains("declined"), "{result}");
        assert!(result["question"].is_string(), "the question stays in the result");
        assert_eq!(harness.shown().len(), 1, "a declined mismatch is not put to the person twice");
    }
}

#[tokio::test]
async fn a_declined_or_cancelled_form_returns_the_ask_with_its_question() {
    for (protocol, reply) in PROTOCOLS
        .into_iter()
        .flat_map(|protocol| [(protocol.clone(), decline_form as Answering), (protocol, cancel_form as Answering)])
    {
        let harness = start(protocol, true, vec![reply]).await;
        let result = harness.check("shoe-002").await;
        assert_eq!(result["decision"], "ask", "{result}");
        assert_eq!(result["attempt"], 1, "nothing answered, nothing sealed beyond the ask");
        assert_eq!(result["question"].as_str().unwrap(), harness.shown()[0].0, "the form's question, for the agent");
    }
}

#[tokio::test]
async fn a_proceed_asks_nothing_and_clients_without_the_capability_get_the_plain_ask() {
    for protocol in PROTOCOLS {
        let harness = start(protocol, true, vec![]).await;
        assert_eq!(harness.check("shoe-003").await["decision"], "proceed");
        assert!(harness.shown().is_empty());
    }
    for protocol in PROTOCOLS {
        let declares = false;
        let harness = start(protocol.clone(), declares, vec![]).await;
        let result = harness.check("shoe-002").await;
        assert_eq!(result["decision"], "ask", "{protocol}: {result}");
        assert_eq!(result["attempt"], 1);
        assert!(result["question"].is_string());
        assert!(harness.shown().is_empty(), "{protocol}: no form");
    }
}

/// The state of a 2026-07-28 round is the server's: altered, or sent with
/// other arguments, it is refused naming `requestState`, and nothing is
/// sealed; the untouched state with the same arguments is answered.
#[tokio::test]
async fn a_round_s_state_is_refused_when_altered_or_moved_to_other_arguments() {
    let harness = start(ProtocolVersion::V_2026_07_28, true, vec![]).await;
    let arguments = |item: &str| {
        json!({"request": REQUEST, "cart": [{"id": item, "quantity": 1}], "today": "2026-11-02"})
            .as_object()
            .unwrap()
            .clone()
    };
    let first =
        harness.client.call_tool_once(CallToolRequestParams::new(mcp::TOOL_NAME).with_arguments(arguments("shoe-002")));
    let CallToolResponse::InputRequired(round) = first.await.unwrap() else { panic!("a 2026 client gets a round") };
    let state = round.request_state.clone().expect("a sealed state");
    let requests = round.input_requests.clone().expect("the form");
    assert_eq!(requests.keys().collect::<Vec<_>>(), [mcp::rounds::INPUT_KEY]);
    let form = serde_json::to_value(&requests[mcp::rounds::INPUT_KEY]).unwrap();
    assert_eq!(form["method"], "elicitation/create", "{form}");
    assert_eq!(form["params"]["mode"], "form", "{form}");
    let schema = form["params"]["requestedSchema"].clone();
    let reply = serde_json::to_value(accept_all(&schema)).unwrap();
    let retry = |item: &str, state: String| {
        let mut params = CallToolRequestParams::new(mcp::TOOL_NAME).with_arguments(arguments(item));
        params.request_state = Some(state);
        params.input_responses = Some([(mcp::rounds::INPUT_KEY.to_owned(), reply.clone())].into_iter().collect());
        harness.client.call_tool_once(params)
    };
    let records = || evidence::verify_file(&harness.data.join(evidence::LOG_FILE)).unwrap().records;
    assert_eq!(records(), 1, "the ask");

    let mut altered = state.clone();
    let last = altered.pop().unwrap();
    altered.push(if last == 'A' { 'B' } else { 'A' });
    for (item, state, why) in [("shoe-002", altered, "altered"), ("shoe-003", state.clone(), "other arguments")] {
        let CallToolResponse::Complete(refused) = retry(item, state).await.unwrap() else { panic!("{why}: refused") };
        assert_eq!(refused.is_error, Some(true), "{why}: {refused:?}");
        let text = format!("{:?}", refused.content);
        assert!(text.contains("invalid argument requestState"), "{why}: {text}");
        assert_eq!(records(), 1, "{why}: nothing sealed");
    }
    let CallToolResponse::Complete(answered) = retry("shoe-002", state).await.unwrap() else { panic!("answered") };
    let result = answered.structured_content.expect("structured content");
    assert_eq!((result["decision"].as_str(), result["attempt"].as_u64()), (Some("proceed"), Some(2)), "{result}");
    assert_eq!(records(), 2, "the person's answer, sealed");
}

/// The brief's question as a form: an extractor reads a size the words do
/// not say, the brief asks about it, the person answers in their own words,
/// and the brief returned reads the request with their words added, so the
/// size is now theirs and nothing is unclear.
#[tokio::test]
async fn a_brief_s_question_is_put_to_the_person_and_their_words_join_the_request() {
    let facts = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(facts.path(), r#"{"brand": "Nike", "model": "Pegasus 41", "size_label": "43"}"#).unwrap();
    let fixed = asasked::extract::name::ExtractorName::Fixed(facts.path().to_path_buf());
    for protocol in PROTOCOLS {
        let says_43: Answering =
            |_| ElicitResult::new(ElicitationAction::Accept).with_content(json!({"own_words": "size 43 please"}));
        let harness = start_with(fixed.clone(), protocol.clone(), true, vec![says_43]).await;
        let arguments = json!({"request": "Nike Pegasus 41", "today": "2026-11-02"});
        let brief = harness.brief(&arguments).await;
        let shown = harness.shown();
        assert_eq!(shown.len(), 1, "{protocol}: one form: {shown:?}");
        assert!(shown[0].0.contains("Should the size be “43”?"), "{}", shown[0].0);
        assert_eq!(brief["request"], "Nike Pegasus 41\nsize 43 please", "{protocol}");
        assert_eq!(brief["unclear"], json!([]), "{brief}");
        assert!(brief.get("question").is_none(), "{brief}");
        assert_eq!(brief["facts"]["size_label"], "43");

        // Declined: the brief comes back as it was, question included.
        let declines: Answering = |_| ElicitResult::new(ElicitationAction::Decline);
        let harness = start_with(fixed.clone(), protocol.clone(), true, vec![declines]).await;
        let brief = harness.brief(&arguments).await;
        assert_eq!(brief["request"], "Nike Pegasus 41", "{protocol}");
        assert!(brief["question"].as_str().unwrap().contains("Should the size be “43”?"), "{brief}");
        assert_eq!(harness.shown().len(), 1, "{protocol}: the form was shown");
    }
}
