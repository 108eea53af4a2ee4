//! Elicitation in rounds (issue 14, protocol 2026-07-28): a server may no
//! longer send `elicitation/create` during a call, so on an `ask` the tool
//! returns `resultType: "input_required"` with the form in `inputRequests`
//! and a sealed `requestState`; the client shows the form to the person and
//! calls again with the same arguments, `inputResponses` and the state.
//!
//! The form and the answers are those of the 2025-11-25 path
//! ([`super::elicit::Form`]), so the person's reply is sealed as the next
//! record of the chain and re-checked exactly as an agent's `answers` would
//! be. What the rounds add is the state, which the client holds:
//!
//! - it is authenticated (HMAC-SHA-256 through rmcp's `RequestStateCodec`,
//!   with a secret kept in the data dir), bound to a digest of the call's
//!   arguments and good for [`ELICITATION_TIMEOUT`]; a state that was
//!   altered, belongs to other arguments or has run out is refused, naming
//!   `requestState`, and nothing is sealed;
//! - it is readable, not encrypted, so it holds no words of the person:
//!   only the id of the ask the form was built from, that ask's date, the
//!   form's fields (field name → finding id) and the findings already
//!   answered in these rounds. Everything else is read from the sealed
//!   record, which any instance sharing the evidence can read.
//!
//! A declined or cancelled form, or a retry without a reply, gets the ask
//! the form was built from, as it was sealed (its question included).
//!
//! `brief_order` puts its question the same way, in one round: its state
//! holds only which tool it belongs to; the retry reads the brief again
//! (cached) and adds the person's words to the request, as the 2025-11-25
//! path does.

use std::collections::BTreeSet;

use super::elicit::{self, ELICITATION_TIMEOUT, Form};
use crate::acf::MAX_ATTEMPTS;
use crate::digest;
use crate::service::{BriefRequest, BriefResult, CheckError, CheckRequest, CheckResult, Service};
use rmcp::RoleServer;
use rmcp::model::{
    ElicitRequest, ElicitRequestParams, ElicitResult, ElicitationAction, InputRequest, InputRequests,
    InputRequiredResult, InputResponses, RequestStateCodec, RequestStateError, SealOptions,
};
use rmcp::service::RequestContext;
use serde::{Deserialize, Serialize};

/// The key of the one input request of a round.
pub const INPUT_KEY: &str = "ask";

/// What the state of a round says, sealed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "tool", rename_all = "snake_case")]
enum Pending {
    /// A check's ask, put as a form.
    Check(PendingAsk),
    /// A brief's question, put as a form with one free-text field. The
    /// brief itself is read again on the retry (its facts are cached, so no
    /// model is called), so the state holds nothing of it.
    Brief,
}

/// The state of a check's round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct PendingAsk {
    /// The ask the form was built from.
    record_id: String,
    /// That ask's date, so that a reply after midnight answers the same order.
    today: String,
    /// (form field, finding id), in the order of the findings.
    fields: Vec<(String, String)>,
    /// Findings the person already answered in these rounds: a form that
    /// would ask only those again is not sent (a declined mismatch still
    /// blocks, and asking again would loop).
    answered: BTreeSet<String>,
}

/// Why a retry's state was refused.
#[derive(Debug, thiserror::Error)]
pub enum RoundError {
    #[error("requestState: {0} (call check_order again without it)")]
    State(#[from] RequestStateError),
    #[error("requestState: not a state this server wrote")]
    Unreadable,
    #[error("requestState: a state of the other tool")]
    OtherTool,
    #[error("requestState: the ask {0} it answers is not in the evidence")]
    UnknownAsk(String),
    #[error(transparent)]
    Check(#[from] CheckError),
}

/// The next step of a call.
#[derive(Debug)]
pub enum Step {
    /// Another form for the person.
    Ask(InputRequiredResult),
    /// The result to return (boxed: a check's result is large, a round small).
    Done(Box<CheckResult>),
}

/// Seals and opens the state of the rounds.
#[derive(Clone)]
pub struct Rounds {
    codec: RequestStateCodec,
}

impl std::fmt::Debug for Rounds {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("Rounds { .. }")
    }
}

impl Rounds {
    /// Rounds sealed with `secret` (at least 32 bytes; every instance behind
    /// one address needs the same).
    pub fn new(secret: Vec<u8>) -> Result<Rounds, RequestStateError> {
        Ok(Rounds { codec: RequestStateCodec::try_new(secret)? })
    }

    /// Whether this call may put the question to the person in rounds: a
    /// protocol without the `initialize` handshake (2026-07-28 on), and a
    /// client whose request declares form elicitation.
    pub fn apply_to(context: &RequestContext<RoleServer>) -> bool {
        let rounds = context.protocol_version().is_some_and(|protocol| !protocol.has_initialize());
        let form = context
            .client_capabilities()
            .and_then(|capabilities| capabilities.elicitation)
            // No mode named means form, as in the 2025-11-25 handshake.
            .is_some_and(|elicitation| elicitation.form.is_some() || elicitation.url.is_none());
        rounds && form
    }

    /// The round that puts `result` to the person, or `None` when it has
    /// nothing the person can answer (a `proceed`, an ask past the retry
    /// budget, or one whose findings were all answered in these rounds).
    pub fn ask(
        &self,
        arguments: &CheckRequest,
        result: &CheckResult,
        answered: BTreeSet<String>,
    ) -> Option<InputRequiredResult> {
        if result.attempt >= MAX_ATTEMPTS {
            return None;
        }
        let form = Form::of(result, elicit::language_of(arguments))?;
        if form.fields.iter().all(|(_, finding_id)| answered.contains(finding_id)) {
            return None;
        }
        let schema = form.elicitation_schema()?;
        let pending = Pending::Check(PendingAsk {
            record_id: result.record_id.clone(),
            today: result.today.clone(),
            fields: form.fields.clone(),
            answered,
        });
        let request =
            ElicitRequestParams::FormElicitationParams { meta: None, message: form.message, requested_schema: schema };
        self.round(&arguments_digest(arguments), &pending, request)
    }

    /// The round that puts a brief's question to the person, or `None` when
    /// the brief asks nothing.
    pub fn ask_brief(&self, arguments: &BriefRequest, brief: &BriefResult) -> Option<InputRequiredResult> {
        let request = elicit::brief_form(arguments, brief)?;
        self.round(&arguments_digest(arguments), &Pending::Brief, request)
    }

    /// One `input_required` result: the form under [`INPUT_KEY`] and the
    /// state sealed, bound to `binding`.
    fn round(&self, binding: &str, pending: &Pending, request: ElicitRequestParams) -> Option<InputRequiredResult> {
        let options = SealOptions::new().associated_data(binding.as_bytes()).ttl(ELICITATION_TIMEOUT);
        let state = match self.codec.seal_json_with(pending, &options) {
            Ok(state) => state,
            Err(error) => {
                tracing::error!(%error, "an elicitation round's state could not be sealed");
                return None;
            }
        };
        let mut requests = InputRequests::new();
        requests.insert(INPUT_KEY.to_owned(), InputRequest::Elicitation(ElicitRequest::new(request)));
        Some(InputRequiredResult::new(Some(requests), Some(state)))
    }

    /// Opens a retry's state, bound to these arguments.
    fn open(&self, binding: &str, state: &str) -> Result<Pending, RoundError> {
        self.codec.open_json_with(state, binding.as_bytes()).map_err(|error| match error {
            RequestStateError::Serialization(_) => RoundError::Unreadable,
            error => RoundError::State(error),
        })
    }

    /// A retry: opens `state` (refused when altered, expired or bound to
    /// other arguments), reads the person's reply from `responses`, seals it
    /// as answers to the ask and re-checks; the result goes to the person
    /// again while something is left to answer.
    pub async fn resume(
        &self,
        service: &Service,
        arguments: &CheckRequest,
        state: &str,
        responses: Option<&InputResponses>,
    ) -> Result<Step, RoundError> {
        let Pending::Check(pending) = self.open(&arguments_digest(arguments), state)? else {
            return Err(RoundError::OtherTool);
        };
        let reply = reply_of(responses);
        let answers = match reply {
            Some(reply) if reply.action == ElicitationAction::Accept => {
                elicit::answers_of(&pending.fields, reply.content.as_ref())
            }
            _ => Vec::new(),
        };
        if answers.is_empty() {
            let ask = service.sealed_result(&pending.record_id).await?;
            return ask.map(|ask| Step::Done(Box::new(ask))).ok_or(RoundError::UnknownAsk(pending.record_id));
        }
        let mut answered = pending.answered.clone();
        answered.extend(answers.iter().map(|answer| answer.finding_id.clone()));
        let retry = CheckRequest {
            answers,
            previous_record_id: Some(pending.record_id.clone()),
            today: Some(pending.today.clone()),
            ..arguments.clone()
        };
        let next = service.check_order(retry).await?;
        Ok(match self.ask(arguments, &next, answered) {
            Some(round) => Step::Ask(round),
            None => Step::Done(Box::new(next)),
        })
    }
}

impl Rounds {
    /// A retry of `brief_order`: the brief is read again (cached facts, no
    /// model call) and settled with the person's reply, once.
    pub async fn resume_brief(
        &self,
        service: &Service,
        arguments: &BriefRequest,
        state: &str,
        responses: Option<&InputResponses>,
    ) -> Result<BriefResult, RoundError> {
        let Pending::Brief = self.open(&arguments_digest(arguments), state)? else {
            return Err(RoundError::OtherTool);
        };
        let brief = service.brief_order(arguments.clone()).await?;
        Ok(match reply_of(responses) {
            Some(reply) => elicit::settle_with(service, arguments, brief, &reply).await,
            None => brief,
        })
    }
}

/// The person's reply to the round's form. A reply that is not an
/// elicitation result reads as no reply: nothing this server can act on.
fn reply_of(responses: Option<&InputResponses>) -> Option<ElicitResult> {
    responses
        .and_then(|responses| responses.get(INPUT_KEY))
        .and_then(|reply| serde_json::from_value::<ElicitResult>(reply.clone()).ok())
}

/// What a round's state is bound to: the call's arguments as sent (and,
/// through their shape, the tool).
fn arguments_digest(arguments: &impl Serialize) -> String {
    match serde_json::to_value(arguments) {
        Ok(value) => digest::of_value(&value),
        // A CheckRequest is plain data; if it ever failed to serialise, no
        // state would open, which refuses the retry rather than mixing calls.
        Err(_) => String::new(),
    }
}
