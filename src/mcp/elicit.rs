//! Elicitation (issue 14): on an `ask`, the guard's question goes to the
//! person directly as a form, when the client declared form elicitation,
//! instead of only back through the agent (which may paraphrase or skip it,
//! and would see the person's private answer).
//!
//! The form is flat: one accept/decline field per blocking finding, titled
//! with its reason, and one free-text field for the person's own words. It
//! never asks for payment data. The reply becomes `answers` with the ask's
//! `previous_record_id`, exactly as an agent would send them, so the
//! service seals it as the next record of the chain and re-checks; the
//! final result goes back in the same tool call. A declined or cancelled
//! form, a client that fails or times out, or a reply that answers nothing
//! leaves the ask as it was: its question is always in the tool result too
//! (some clients declare elicitation and never show the form).
//!
//! This is the protocol 2025-11-25 path: the server sends
//! `elicitation/create` itself during the call. Protocol 2026-07-28 forbids
//! server-to-client requests; its clients get the same form in rounds
//! ([`super::rounds`]).

use std::collections::BTreeSet;
use std::time::Duration;

use rmcp::model::{ElicitRequestParams, ElicitResult, ElicitationAction, ElicitationSchema, ProtocolVersion};
use rmcp::service::{ElicitationMode, Peer, RoleServer};
use serde_json::{Map, Value, json};

use crate::acf::MAX_ATTEMPTS;
use crate::decision::Decision;
use crate::finding::Severity;
use crate::messages::{self, Language, Message};
use crate::service::{
    ACCEPT_REPLY, Answer, BriefRequest, BriefResult, CheckRequest, CheckResult, DECLINE_REPLY, MAX_ANSWER_BYTES,
    Service,
};

/// How long the person has to answer a form. A person may step away; an
/// agent waiting longer than this gets the plain `ask` and can call again.
/// Over HTTP the wait is shorter: see [`form_timeout_within`].
pub const ELICITATION_TIMEOUT: Duration = Duration::from_secs(600);

/// The wait for a form inside an HTTP session that closes after `idle`
/// without a message: nine tenths of it, at most [`ELICITATION_TIMEOUT`].
/// While the person reads the form the session carries no message, so a
/// longer wait would let the session close under the call, and the agent
/// would get an error instead of the ask (270 s with the default 300 s).
pub fn form_timeout_within(idle: Duration) -> Duration {
    (idle - idle / 10).min(ELICITATION_TIMEOUT)
}
/// The form's free-text field: the person's own words.
pub const OWN_WORDS_FIELD: &str = "own_words";

/// The form of one `ask`: its message, schema, and which field answers which
/// finding.
#[derive(Debug, Clone, PartialEq)]
pub struct Form {
    pub message: String,
    /// A flat JSON Schema object: string enums and one string.
    pub schema: Map<String, Value>,
    /// (field, finding id), in the order of the findings.
    pub fields: Vec<(String, String)>,
}

impl Form {
    /// The form for `result`, or `None` when there is nothing the person can
    /// answer (a `proceed`, or an ask past the retry budget, which has no
    /// blocking finding left to accept). Its titles are in `language`, the
    /// question's.
    pub fn of(result: &CheckResult, language: Language) -> Option<Form> {
        let words = |message: Message| messages::render(language, &message);
        if result.decision != Decision::Ask {
            return None;
        }
        // A mandate's finding is not the person's to accept in a form
        // (only a changed cart or a new mandate clears it): not asked.
        let blocking: Vec<_> = result
            .findings
            .iter()
            .filter(|finding| finding.severity == Severity::Block && !finding.code.is_mandate())
            .collect();
        if blocking.is_empty() {
            return None;
        }
        let mut properties = Map::new();
        let mut fields = Vec::new();
        for (index, finding) in blocking.iter().enumerate() {
            // Zero-padded, so the fields sort in the order of the findings.
            let field = format!("finding_{:02}", index + 1);
            properties.insert(
                field.clone(),
                json!({
                    "type": "string",
                    "title": finding.reason,
                    "oneOf": [
                        {"const": ACCEPT_REPLY, "title": words(Message::FormAccept)},
                        {"const": DECLINE_REPLY, "title": words(Message::FormDecline)},
                    ],
                }),
            );
            fields.push((field, finding.id.clone()));
        }
        properties.insert(OWN_WORDS_FIELD.to_owned(), own_words_field(language));
        let schema = object_schema(properties);
        let message = result.question.clone().unwrap_or_else(|| result.reasons.join("\n"));
        Some(Form { message, schema, fields })
    }

    /// The person's reply as answers: `accept` or `decline` for each finding
    /// they chose on, and their own words (trimmed, if any) as the reply to
    /// the first finding they did not accept, since words clarify what is
    /// still open. Anything else in `content` is ignored.
    pub fn answers(&self, content: Option<&Value>) -> Vec<Answer> {
        answers_of(&self.fields, content)
    }

    /// The schema as rmcp's type.
    pub(crate) fn elicitation_schema(&self) -> Option<ElicitationSchema> {
        match ElicitationSchema::from_json_schema(self.schema.clone()) {
            Ok(schema) => Some(schema),
            Err(error) => {
                // The schema is built above from fixed shapes; a refusal is a
                // bug, and the ask still reaches the person through the agent.
                tracing::error!(%error, "the elicitation form was refused");
                None
            }
        }
    }
}

/// The reply to a form whose `fields` are (field, finding id), as answers:
/// see [`Form::answers`]. The rounds of protocol 2026-07-28 keep only the
/// fields between calls, so this needs no more of the form.
pub fn answers_of(fields: &[(String, String)], content: Option<&Value>) -> Vec<Answer> {
    let Some(content) = content.and_then(Value::as_object) else { return Vec::new() };
    let mut answers = Vec::new();
    let mut accepted = BTreeSet::new();
    for (field, finding_id) in fields {
        let reply = match content.get(field).and_then(Value::as_str) {
            Some(ACCEPT_REPLY) => ACCEPT_REPLY,
            Some(DECLINE_REPLY) => DECLINE_REPLY,
            _ => continue,
        };
        if reply == ACCEPT_REPLY {
            accepted.insert(finding_id.clone());
        }
        answers.push(Answer { finding_id: finding_id.clone(), reply: reply.to_owned() });
    }
    let words = content.get(OWN_WORDS_FIELD).and_then(Value::as_str).map(str::trim).unwrap_or_default();
    if !words.is_empty() {
        let open = fields.iter().find(|(_, finding_id)| !accepted.contains(finding_id));
        if let Some((_, finding_id)) = open.or(fields.first()) {
            answers.push(Answer { finding_id: finding_id.clone(), reply: words.to_owned() });
        }
    }
    answers
}

/// Whether this call may put the question to the person: the client declared
/// form elicitation, on a protocol that lets the server send requests.
pub fn can_elicit(peer: &Peer<RoleServer>, protocol: Option<&ProtocolVersion>) -> bool {
    let server_requests_allowed = protocol.is_none_or(ProtocolVersion::has_initialize);
    server_requests_allowed && peer.supported_elicitation_modes().contains(&ElicitationMode::Form)
}

/// Puts an `ask` to the person as long as they answer something new, each
/// reply sealed and re-checked through `service`; returns the last result.
pub async fn ask_the_person(
    service: &Service,
    peer: &Peer<RoleServer>,
    arguments: &CheckRequest,
    mut result: CheckResult,
    timeout: Duration,
) -> CheckResult {
    // Findings the person already answered in this call: asking them again
    // (a declined mismatch still blocks) would only loop.
    let mut answered: BTreeSet<String> = BTreeSet::new();
    let language = language_of(arguments);
    while result.attempt < MAX_ATTEMPTS {
        let Some(form) = Form::of(&result, language) else { break };
        if form.fields.iter().all(|(_, finding_id)| answered.contains(finding_id)) {
            break;
        }
        let Some(schema) = form.elicitation_schema() else { break };
        let request = ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: form.message.clone(),
            requested_schema: schema,
        };
        let reply = match peer.create_elicitation_with_timeout(request, Some(timeout)).await {
            Ok(reply) => reply,
            Err(error) => {
                tracing::warn!(%error, "the person could not be asked directly; the ask goes back to the agent");
                break;
            }
        };
        if reply.action != ElicitationAction::Accept {
            break;
        }
        let answers = form.answers(reply.content.as_ref());
        if answers.is_empty() {
            break;
        }
        answered.extend(answers.iter().map(|answer| answer.finding_id.clone()));
        let retry = CheckRequest {
            answers,
            previous_record_id: Some(result.record_id.clone()),
            // The date the ask was checked on, so that a reply after
            // midnight still answers the same order.
            today: Some(result.today.clone()),
            ..arguments.clone()
        };
        match service.check_order(retry).await {
            Ok(next) => result = next,
            Err(error) => {
                tracing::warn!(%error, "the person's reply could not be checked; the ask goes back to the agent");
                break;
            }
        }
    }
    result
}

/// The language of a check's form: the argument, else the request's words,
/// as the service chose it (a request it could not read never reaches a
/// form: the check refused it first).
pub(crate) fn language_of(arguments: &CheckRequest) -> Language {
    let words = crate::service::input::request_input(&arguments.request).map(|(words, _)| words).unwrap_or_default();
    arguments.language.unwrap_or_else(|| Language::detect(&words))
}

/// The free-text field of every form: the person's own words, at most an
/// answer's length, titled in their language.
fn own_words_field(language: Language) -> Value {
    json!({
        "type": "string",
        "title": messages::render(language, &Message::FormOwnWords),
        "description": messages::render(language, &Message::FormOwnWordsHint),
        "maxLength": MAX_ANSWER_BYTES,
    })
}

/// A flat form schema: an object of `properties`.
fn object_schema(properties: Map<String, Value>) -> Map<String, Value> {
    let mut schema = Map::new();
    schema.insert("type".to_owned(), json!("object"));
    schema.insert("properties".to_owned(), Value::Object(properties));
    schema
}

/// Puts a brief's question to the person, once: a form with one free-text
/// field. Their words are added to the request (a new line), which is read
/// again, so the brief returned (and the `request` it tells the agent to
/// check with) holds what they said. No reply, or an empty one, returns the
/// brief unchanged, question included.
pub async fn settle_the_brief(
    service: &Service,
    peer: &Peer<RoleServer>,
    arguments: &BriefRequest,
    brief: BriefResult,
    timeout: Duration,
) -> BriefResult {
    let Some(request) = brief_form(arguments, &brief) else { return brief };
    match peer.create_elicitation_with_timeout(request, Some(timeout)).await {
        Ok(reply) => settle_with(service, arguments, brief, &reply).await,
        Err(error) => {
            tracing::warn!(%error, "the person could not be asked directly; the brief's question goes back to the agent");
            brief
        }
    }
}

/// The form of a brief's question: one free-text field, titled in the
/// person's language; `None` when the brief asks nothing.
pub(crate) fn brief_form(arguments: &BriefRequest, brief: &BriefResult) -> Option<ElicitRequestParams> {
    let question = brief.question.clone()?;
    let language = arguments.language.unwrap_or_else(|| Language::detect(&brief.request));
    let mut properties = Map::new();
    properties.insert(OWN_WORDS_FIELD.to_owned(), own_words_field(language));
    match ElicitationSchema::from_json_schema(object_schema(properties)) {
        Ok(requested_schema) => {
            Some(ElicitRequestParams::FormElicitationParams { meta: None, message: question, requested_schema })
        }
        Err(error) => {
            tracing::error!(%error, "the brief's form was refused");
            None
        }
    }
}

/// The brief after the person's reply to its form: their words (if they
/// accepted and said something) join the request on a new line and it is
/// read again; anything else leaves the brief unchanged.
pub(crate) async fn settle_with(
    service: &Service,
    arguments: &BriefRequest,
    brief: BriefResult,
    reply: &ElicitResult,
) -> BriefResult {
    if reply.action != ElicitationAction::Accept {
        return brief;
    }
    let said = reply
        .content
        .as_ref()
        .and_then(|content| content.get(OWN_WORDS_FIELD))
        .and_then(Value::as_str)
        .map(str::trim)
        .unwrap_or_default();
    if said.is_empty() {
        return brief;
    }
    let again = BriefRequest {
        request: format!("{}\n{said}", brief.request),
        today: Some(brief.today.clone()),
        language: arguments.language,
    };
    match service.brief_order(again).await {
        Ok(settled) => settled,
        Err(error) => {
            tracing::warn!(%error, "the person's words could not be read; the brief goes back unchanged");
            brief
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_form_waits_less_than_the_http_session_may_idle() {
        assert_eq!(form_timeout_within(Duration::from_secs(300)), Duration::from_secs(270));
        assert_eq!(form_timeout_within(Duration::from_secs(3)), Duration::from_millis(2700));
        assert_eq!(form_timeout_within(Duration::from_secs(3600)), ELICITATION_TIMEOUT);
    }

    fn form() -> Form {
        Form {
            message: "?".into(),
            schema: Map::new(),
            fields: vec![
                ("finding_01".into(), "size@$.cart[0]".into()),
                ("finding_02".into(), "color@$.cart[0]".into()),
            ],
        }
    }

    fn replies(answers: Vec<Answer>) -> Vec<(String, String)> {
        answers.into_iter().map(|answer| (answer.finding_id, answer.reply)).collect()
    }

    #[test]
    fn choices_and_words_become_answers() {
        let content = json!({"finding_01": "accept", "finding_02": "decline", "own_words": "  white is fine "});
        assert_eq!(
            replies(form().answers(Some(&content))),
            [
                ("size@$.cart[0]".into(), "accept".into()),
                ("color@$.cart[0]".into(), "decline".into()),
                ("color@$.cart[0]".into(), "white is fine".into()),
            ]
        );
    }

    #[test]
    fn unknown_values_and_fields_are_ignored_and_words_alone_answer_the_first_finding() {
        let content = json!({"finding_01": "maybe", "card_number": "4111", "own_words": "43 is fine too"});
        assert_eq!(replies(form().answers(Some(&content))), [("size@$.cart[0]".into(), "43 is fine too".into())]);
        assert!(form().answers(Some(&json!({"own_words": "   "}))).is_empty());
        assert!(form().answers(None).is_empty());
    }
}
