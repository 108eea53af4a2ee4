//! The guarded payment (issue 30 §1; guard.md §7, "wrapped around the
//! payment"): check the cart, and on `proceed` pay at most once through a
//! publisher's Agentic Action Profile, as the profile's client (§6).
//!
//! [`Payer::pay`] runs the check first; an `ask` pays nothing, contacts no
//! payment service and returns the question. On `proceed` it requires the
//! payment input's amount to be the checked cart's total, fetches and
//! validates the profile and its OpenAPI document ([`profile`]), and then,
//! in this order, each step durable before the next ([`ledger`]): creates
//! the request id, bound to principal, origin, action, snapshot digest,
//! exact input and the check's record; marks the submission attempted;
//! submits once with `Idempotency-Key`; reconciles through the status
//! operation within the profile's `maxChecks`, `checkDelayMs` and
//! `timeoutMs`; verifies the resource (its id, its request id, a success
//! state and every input binding); persists the receipt and returns it.
//!
//! The request id is derived from what it is bound to (principal, origin,
//! action, the check's record id and the input's digest): calling again
//! with the same arguments (after a timeout, a crash, a SIGKILL) finds the
//! same request in the ledger and never submits it again; it only
//! reconciles, read-only. [`Payer::reconcile`] does the same from the id
//! alone. An uncertain outcome stays `unknown` (or `pending`) until a
//! status read settles it; a timeout is never taken for a failure.
//!
//! This module knows no transport of its own caller: the CLI and the MCP
//! tool call it. It reads no environment; the clock is the service's.

pub mod ledger;
pub mod profile;
pub mod transport;

use std::time::Duration;

use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::decision::Decision;
use crate::digest;
use crate::messages::Money;
use crate::service::{CheckError, CheckRequest, CheckResult, Service};
use ledger::{Created, Creation, PayLedger, Request};
use profile::{Action, InputBinding, ProfileError, Snapshot, VERSION};
use transport::{MAX_ANSWER_BYTES, Transport, TransportError};

/// The longest payment input accepted (§4: the reference client's bound).
pub const MAX_INPUT_BYTES: usize = 16 * 1024;
/// Where the amount is read in the input unless the caller says otherwise.
pub const DEFAULT_AMOUNT_POINTER: &str = "/amount";
/// Where the currency is read, when present, unless the caller says otherwise.
pub const DEFAULT_CURRENCY_POINTER: &str = "/currency";

/// The arguments of a guarded payment (the `pay_order` tool's input).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PayRequest {
    /// The check, exactly as check_order takes it: `request` (the person's
    /// own words, verbatim), `cart`, and `today`, `answers`,
    /// `previous_record_id`, `language`, `fx` as needed.
    pub check: CheckRequest,
    /// What to pay with, once the check says `proceed`.
    pub payment: Payment,
}

/// The payment action: a publisher's profile, its action and the input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Payment {
    /// The URL of the payment service's Agentic Action Profile
    /// (`https://shop.example/agentic.json`; `http` only on localhost).
    pub profile: String,
    /// The id of the profile's action to run (`actions[].id`).
    pub action: String,
    /// The exact JSON object to submit as the action's body. Its amount must
    /// be the checked cart's total; the profile's input bindings must be in it.
    pub input: Map<String, Value>,
    /// Where the amount and currency are in `input`, and how the amount is
    /// written. Default: `/amount`, a decimal, and `/currency` when present.
    #[serde(default)]
    pub amount: AmountField,
}

/// Where the amount (and currency) are in the payment input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AmountField {
    /// JSON Pointer to the amount in `input`. Default `/amount`.
    #[serde(default = "default_amount_pointer")]
    pub pointer: String,
    /// `decimal` (`"139.99"` or `139.99`, the default) or `minor` (`13999`).
    #[serde(default)]
    pub unit: AmountUnit,
    /// JSON Pointer to the ISO 4217 currency in `input`: it must then be
    /// there and be the cart's. Default: `/currency`, checked when present.
    #[serde(default)]
    pub currency_pointer: Option<String>,
}

impl Default for AmountField {
    fn default() -> AmountField {
        AmountField { pointer: default_amount_pointer(), unit: AmountUnit::default(), currency_pointer: None }
    }
}

fn default_amount_pointer() -> String {
    DEFAULT_AMOUNT_POINTER.to_owned()
}

/// How an amount is written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AmountUnit {
    #[default]
    Decimal,
    Minor,
}

/// An outcome of the Agentic Action Profile (§4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Verified: the resource is the request's, in a success state, with the input.
    Succeeded,
    /// The service determined that the action did not complete.
    Failed,
    /// Unresolved: ask again later (same arguments, or reconcile).
    Pending,
    /// Not known: never pay again on your own; reconcile, or hand over to a person.
    Unknown,
}

impl Outcome {
    /// Settled for good.
    pub fn is_final(self) -> bool {
        matches!(self, Outcome::Succeeded | Outcome::Failed)
    }
}

/// A receipt of the Agentic Action Profile (`receipt-0.1.schema.json`): an
/// observation record, not a signature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AgenticReceipt {
    /// `0.1.0-draft`.
    pub agentic: String,
    pub request_id: String,
    pub action_id: String,
    pub origin: String,
    pub outcome: Outcome,
    /// When the outcome was observed (RFC 3339, UTC): a saved receipt is an
    /// earlier observation, not a fresh one.
    pub observed_at: String,
    pub resource_id: Option<String>,
    /// How the outcome was established.
    pub reason: String,
    /// On `succeeded`: what was checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<ReceiptEvidence>,
}

/// What a `succeeded` receipt verified.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReceiptEvidence {
    /// The resource read.
    pub url: String,
    pub resource_id: String,
    pub request_id: String,
    pub state: String,
    /// Every input binding, each found equal.
    pub matched: Vec<InputBinding>,
}

/// Where a guarded payment stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PaymentState {
    /// The check said `ask`: nothing was created or sent.
    NotSubmitted,
    Succeeded,
    Failed,
    Pending,
    Unknown,
}

impl From<Outcome> for PaymentState {
    fn from(outcome: Outcome) -> PaymentState {
        match outcome {
            Outcome::Succeeded => PaymentState::Succeeded,
            Outcome::Failed => PaymentState::Failed,
            Outcome::Pending => PaymentState::Pending,
            Outcome::Unknown => PaymentState::Unknown,
        }
    }
}

/// The result of a guarded payment (the `pay_order` tool's output).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PayResult {
    /// The check's decision. `ask`: nothing was paid; show `question`.
    pub decision: Decision,
    /// `not_submitted` (ask), or the payment's outcome: `succeeded`,
    /// `failed`, `pending` or `unknown`. Never pay again yourself on
    /// `pending` or `unknown`: call again with the same arguments (it only
    /// reads the status), or hand over to the person.
    pub payment: PaymentState,
    /// The check's sealed evidence record (the payment is linked to it).
    pub record_id: String,
    /// On `ask`: the question to show the person, verbatim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    /// The payment request's id (the `Idempotency-Key` sent), once created.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
    /// Whether this call sent the submission (false when it only read the
    /// status of an earlier one, or found its receipt).
    pub submitted: bool,
    /// The payment's receipt (Agentic Action Profile 0.1), persisted before
    /// it is returned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub receipt: Option<AgenticReceipt>,
    /// The check's whole result (findings, notes, the verdict's receipt);
    /// absent when only reconciling by request id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<CheckResult>,
}

/// Why a guarded payment could not be run or continued. Nothing was
/// submitted by a call that got one, unless it says so.
#[derive(Debug, thiserror::Error)]
pub enum PayError {
    /// The caller's arguments are wrong: `field` names the argument.
    #[error("{field}: {message}")]
    InvalidArgument { field: String, message: String },
    #[error(transparent)]
    Check(CheckError),
    #[error(transparent)]
    Profile(#[from] ProfileError),
    /// The origin is not one this server may pay (`serve --pay-origin`).
    #[error("$.payment.profile: {0} is not an approved payment origin (serve --pay-origin)")]
    OriginNotApproved(String),
    /// The profile or OpenAPI document changed since the request was created.
    #[error(
        "the profile of {origin} changed since payment request {request_id} was created: it is not reused; its outcome stays as recorded until reconciled by hand"
    )]
    ProfileChanged { request_id: String, origin: String },
    #[error("no payment request {0} for this principal")]
    NotFound(String),
    /// Created but never marked attempted: nothing was sent.
    #[error("payment request {0} was never submitted: pay with the same arguments to submit it")]
    NeverSubmitted(String),
    #[error(transparent)]
    Ledger(#[from] ledger::LedgerError),
    #[error("the payment client: {0}")]
    Transport(TransportError),
}

fn invalid(field: impl Into<String>, message: impl Into<String>) -> PayError {
    PayError::InvalidArgument { field: field.into(), message: message.into() }
}

/// Which payment origins a caller may pay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Approval {
    /// Whatever profile the caller names: the CLI, whose user names it.
    Any,
    /// Only these origins (`https://shop.example`): the MCP tool, whose
    /// caller is an agent; the host approves destinations (§2).
    Origins(Vec<String>),
}

/// Pays through profiles for a service's checks. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Payer {
    ledger: PayLedger,
    transport: Transport,
    approval: Approval,
}

impl Payer {
    pub fn new(ledger: PayLedger, approval: Approval) -> Result<Payer, PayError> {
        Ok(Payer { ledger, transport: Transport::new().map_err(PayError::Transport)?, approval })
    }

    pub fn ledger(&self) -> &PayLedger {
        &self.ledger
    }

    /// Checks, then pays at most once (see the module's comment).
    pub async fn pay(&self, service: &Service, request: PayRequest) -> Result<PayResult, PayError> {
        let PayRequest { check: check_request, payment } = request;
        let origin = profile::origin_of(&payment.profile)?;
        if let Approval::Origins(approved) = &self.approval
            && !approved.contains(&origin)
        {
            return Err(PayError::OriginNotApproved(origin));
        }
        let input_bytes =
            serde_json::to_vec(&payment.input).map_err(|error| invalid("$.payment.input", error.to_string()))?;
        if input_bytes.len() > MAX_INPUT_BYTES {
            return Err(invalid(
                "$.payment.input",
                format!("{} bytes, above the bound of {MAX_INPUT_BYTES}", input_bytes.len()),
            ));
        }
        let cart = check_request.cart.clone();
        let check = service.check_order(check_request).await.map_err(PayError::Check)?;
        if check.decision == Decision::Ask {
            return Ok(PayResult {
                decision: Decision::Ask,
                payment: PaymentState::NotSubmitted,
                record_id: check.record_id.clone(),
                question: check.question.clone(),
                request_id: None,
                submitted: false,
                receipt: None,
                check: Some(check),
            });
        }
        let total = service.payable(&cart, Some(&check.today)).map_err(PayError::Check)?;
        let Some(total) = total else {
            return Err(invalid(
                "$.check.cart",
                "the cart's total cannot be had (an item without a price, or two currencies): nothing is paid against it",
            ));
        };
        amount_is_total(&payment, total.paid, total.currency.as_deref())?;

        let snapshot = Snapshot::fetch(&self.transport, &payment.profile, &payment.action).await?;
        let action = snapshot.action(&payment.action)?;
        for (index, binding) in action.evidence.input_bindings.iter().enumerate() {
            if Value::Object(payment.input.clone()).pointer(&binding.input_pointer).is_none() {
                return Err(invalid(
                    format!("$.payment.input{}", binding.input_pointer),
                    format!("missing: the profile's evidence.inputBindings[{index}] binds it to the resource"),
                ));
            }
        }
        let principal = service.principal().stored().map(str::to_owned);
        let input_digest = digest::of_value(&Value::Object(payment.input.clone()));
        let request_id = request_id(principal.as_deref(), &action.origin, &action.id, &check.record_id, &input_digest);
        let snapshot_digest = snapshot.digest();
        let created = Created {
            request_id: request_id.clone(),
            principal: principal.clone(),
            origin: action.origin.clone(),
            action: action.id.clone(),
            snapshot,
            snapshot_digest: snapshot_digest.clone(),
            input: payment.input,
            input_digest,
            record_id: check.record_id.clone(),
            amount_minor: total.paid,
            currency: total.currency,
            created_at: crate::acf::rfc3339(service.now()),
        };
        let stored = match self.ledger.create(created).await? {
            Creation::New(stored) => stored,
            Creation::Existing(stored) => {
                // A settled request's saved receipt is returned whatever the
                // profile says now (§6.10); an unsettled one is not continued
                // under another profile (§2).
                if !stored.is_final() && stored.created.snapshot_digest != snapshot_digest {
                    return Err(PayError::ProfileChanged { request_id, origin: action.origin });
                }
                stored
            }
        };
        let (receipt, submitted) = self.settle(service, &stored, &action).await?;
        Ok(PayResult {
            decision: Decision::Proceed,
            payment: receipt.outcome.into(),
            record_id: check.record_id.clone(),
            question: None,
            request_id: Some(request_id),
            submitted,
            receipt: Some(receipt),
            check: Some(check),
        })
    }

    /// Reconciles the request `request_id` of the service's principal,
    /// read-only: the saved receipt if its outcome is final; else, after
    /// checking that its profile is unchanged, the status and the resource.
    /// Never submits.
    pub async fn reconcile(&self, service: &Service, request_id: &str) -> Result<PayResult, PayError> {
        let principal = service.principal().stored();
        let stored = self
            .ledger
            .request(principal, request_id)
            .await?
            .ok_or_else(|| PayError::NotFound(request_id.to_owned()))?;
        let created = &stored.created;
        if !stored.is_final() {
            if stored.attempted_at.is_none() {
                return Err(PayError::NeverSubmitted(request_id.to_owned()));
            }
            let published = Snapshot::fetch(&self.transport, &created.snapshot.profile_url, &created.action).await?;
            if published.digest() != created.snapshot_digest {
                return Err(PayError::ProfileChanged {
                    request_id: request_id.to_owned(),
                    origin: created.origin.clone(),
                });
            }
        }
        let action = created.snapshot.action(&created.action)?;
        let (receipt, submitted) = self.settle(service, &stored, &action).await?;
        Ok(PayResult {
            decision: Decision::Proceed,
            payment: receipt.outcome.into(),
            record_id: created.record_id.clone(),
            question: None,
            request_id: Some(request_id.to_owned()),
            submitted,
            receipt: Some(receipt),
            check: None,
        })
    }

    /// Takes a stored request to an outcome: its saved final receipt; or a
    /// reconciliation if it was attempted; or its one submission, then a
    /// reconciliation. Returns the receipt (persisted) and whether this call
    /// submitted.
    async fn settle(
        &self,
        service: &Service,
        stored: &Request,
        action: &Action,
    ) -> Result<(AgenticReceipt, bool), PayError> {
        if let Some(last) = &stored.last
            && last.outcome.is_final()
        {
            return Ok((last.clone(), false));
        }
        let created = &stored.created;
        let principal = created.principal.as_deref();
        let mut submitted = false;
        if stored.attempted_at.is_none()
            && self.ledger.mark_attempted(principal, &created.request_id, crate::acf::rfc3339(service.now())).await?
        {
            submitted = true;
            let body = Value::Object(created.input.clone());
            // The answer establishes nothing (§4): status and resource do.
            match self.transport.post(&action.submit_url, &created.request_id, &body, action.recovery.timeout()).await {
                Ok(answer) => {
                    tracing::debug!(status = answer.status, request_id = %created.request_id, "payment submitted")
                }
                Err(error) => {
                    tracing::warn!(%error, request_id = %created.request_id, "payment submission uncertain: reconciling")
                }
            }
        }
        let observed = self.observe(service, created, action).await;
        Ok((self.ledger.observe(principal, observed).await?, submitted))
    }

    /// The outcome the status operation and the resource establish now,
    /// within the profile's bounds.
    async fn observe(&self, service: &Service, created: &Created, action: &Action) -> AgenticReceipt {
        let receipt = |outcome: Outcome, reason: String| AgenticReceipt {
            agentic: VERSION.to_owned(),
            request_id: created.request_id.clone(),
            action_id: action.id.clone(),
            origin: action.origin.clone(),
            outcome,
            observed_at: crate::acf::rfc3339(service.now()),
            resource_id: None,
            reason,
            evidence: None,
        };
        if let Some(reason) = outside_window(&created.created_at, action.retention_seconds, service.now()) {
            return receipt(Outcome::Unknown, reason);
        }
        let timeout = action.recovery.timeout();
        let status_url = action.status.url(&created.request_id);
        let mut outcome = Outcome::Unknown;
        let mut reason = String::from("the status operation was not asked");
        for check in 0..action.recovery.max_checks {
            if check > 0 {
                tokio::time::sleep(Duration::from_millis(action.recovery.check_delay_ms)).await;
            }
            let answer = match self.transport.get(&status_url, timeout, MAX_ANSWER_BYTES).await {
                Ok(answer) if answer.status == 200 => answer,
                Ok(answer) => {
                    (outcome, reason) = (Outcome::Unknown, format!("status answered HTTP {}", answer.status));
                    continue;
                }
                Err(error) => {
                    (outcome, reason) = (Outcome::Unknown, format!("status {error}"));
                    continue;
                }
            };
            match read_status(&answer.body, &created.request_id) {
                Err(problem) => (outcome, reason) = (Outcome::Unknown, format!("status answer refused: {problem}")),
                Ok(Status::Succeeded(resource_id)) => {
                    let mut verified = receipt(Outcome::Unknown, String::new());
                    match self.verify(created, action, &resource_id).await {
                        Ok(evidence) => {
                            verified.outcome = Outcome::Succeeded;
                            verified.resource_id = Some(resource_id);
                            verified.reason = "status succeeded; the resource is this request's, in a success state, with every input binding equal".into();
                            verified.evidence = Some(evidence);
                        }
                        Err(problem) => {
                            verified.reason = format!("status succeeded but verification failed: {problem}");
                        }
                    }
                    return verified;
                }
                Ok(Status::Failed) => {
                    return receipt(Outcome::Failed, "the status operation says the action did not complete".into());
                }
                Ok(Status::Pending) => {
                    (outcome, reason) = (Outcome::Pending, "the status operation says pending".into())
                }
                Ok(Status::Unknown) => {
                    (outcome, reason) = (Outcome::Unknown, "the status operation says unknown".into())
                }
            }
        }
        receipt(outcome, format!("{reason} after {} status checks", action.recovery.max_checks))
    }

    /// Reads the resource and checks it against the request (§6.6).
    async fn verify(&self, created: &Created, action: &Action, resource_id: &str) -> Result<ReceiptEvidence, String> {
        let url = action.verify.url(resource_id);
        let answer = self
            .transport
            .get(&url, action.recovery.timeout(), MAX_ANSWER_BYTES)
            .await
            .map_err(|error| format!("the resource {error}"))?;
        if answer.status != 200 {
            return Err(format!("the resource answered HTTP {}", answer.status));
        }
        let resource = &answer.body;
        let evidence = &action.evidence;
        let text_at = |pointer: &str| resource.pointer(pointer).and_then(Value::as_str).map(str::to_owned);
        if text_at(&evidence.resource_id_pointer).as_deref() != Some(resource_id) {
            return Err(format!("its {} is not {resource_id:?}", evidence.resource_id_pointer));
        }
        if text_at(&evidence.request_id_pointer).as_deref() != Some(created.request_id.as_str()) {
            return Err(format!("its {} is not this request's id", evidence.request_id_pointer));
        }
        let Some(state) = text_at(&evidence.state_pointer).filter(|state| evidence.success_values.contains(state))
        else {
            return Err(format!("its {} is not one of {}", evidence.state_pointer, evidence.success_values.join(", ")));
        };
        let input = Value::Object(created.input.clone());
        for binding in &evidence.input_bindings {
            // A missing value never counts as a match (§3).
            match (input.pointer(&binding.input_pointer), resource.pointer(&binding.resource_pointer)) {
                (Some(sent), Some(found)) if sent == found => {}
                _ => {
                    return Err(format!(
                        "its {} does not equal the input's {}",
                        binding.resource_pointer, binding.input_pointer
                    ));
                }
            }
        }
        Ok(ReceiptEvidence {
            url,
            resource_id: resource_id.to_owned(),
            request_id: created.request_id.clone(),
            state,
            matched: evidence.input_bindings.clone(),
        })
    }
}

/// A status answer (§4).
enum Status {
    Succeeded(String),
    Failed,
    Pending,
    Unknown,
}

fn read_status(body: &Value, request_id: &str) -> Result<Status, String> {
    if body.get("request_id").and_then(Value::as_str) != Some(request_id) {
        return Err("its request_id is not this request's".into());
    }
    match body.get("status").and_then(Value::as_str) {
        Some("succeeded") => match body.get("resource_id").and_then(Value::as_str) {
            Some(resource_id) if !resource_id.is_empty() => Ok(Status::Succeeded(resource_id.to_owned())),
            _ => Err("succeeded without a resource_id".into()),
        },
        Some("failed") => Ok(Status::Failed),
        Some("pending") => Ok(Status::Pending),
        Some("unknown") => Ok(Status::Unknown),
        other => Err(format!("status {other:?} is not succeeded, failed, pending or unknown")),
    }
}

/// Why the request's tracking window no longer holds, if it does not (§6.9):
/// past `retentionSeconds`, or a clock that moved back before its creation.
fn outside_window(created_at: &str, retention_seconds: u64, now: DateTime<Utc>) -> Option<String> {
    let created = match DateTime::parse_from_rfc3339(created_at) {
        Ok(created) => created.with_timezone(&Utc),
        Err(_) => return Some("the request's creation time cannot be read".into()),
    };
    if now < created {
        return Some("the clock is before the request's creation: the outcome is not read".into());
    }
    let window = chrono::Duration::seconds(i64::try_from(retention_seconds).unwrap_or(i64::MAX));
    (now - created > window).then(|| format!("the service's tracking window ({retention_seconds} s) has passed"))
}

/// The request id of a payment: derived from everything it is bound to, so
/// that the same payment asked again is the same request, never a second one.
pub fn request_id(principal: Option<&str>, origin: &str, action: &str, record_id: &str, input_digest: &str) -> String {
    let bound = format!("{}\n{origin}\n{action}\n{record_id}\n{input_digest}", principal.unwrap_or(""));
    let combined = digest::sha256(bound.as_bytes());
    format!("pay_{}", &combined["sha256:".len().."sha256:".len() + 32])
}

/// Refuses an input whose amount (or currency) is not the checked cart's
/// total, naming both.
fn amount_is_total(payment: &Payment, total: u64, currency: Option<&str>) -> Result<(), PayError> {
    let field = &payment.amount;
    let input = Value::Object(payment.input.clone());
    let path = |pointer: &str| format!("$.payment.input{pointer}");
    let currency_pointer = field.currency_pointer.as_deref().unwrap_or(DEFAULT_CURRENCY_POINTER);
    let stated_currency = match input.pointer(currency_pointer) {
        Some(Value::String(code)) => Some(code.trim().to_ascii_uppercase()),
        Some(_) => return Err(invalid(path(currency_pointer), "expected an ISO 4217 code as a string")),
        None if field.currency_pointer.is_some() => return Err(invalid(path(currency_pointer), "missing")),
        None => None,
    };
    if let (Some(stated), Some(cart)) = (&stated_currency, currency)
        && stated != cart
    {
        return Err(invalid(path(currency_pointer), format!("{stated} is not the checked cart's currency, {cart}")));
    }
    let Some(amount) = input.pointer(&field.pointer) else {
        return Err(invalid(path(&field.pointer), "missing: the amount must be the checked cart's total"));
    };
    let amount_currency = currency.or(stated_currency.as_deref());
    let minor = match field.unit {
        AmountUnit::Decimal => crate::cart::price_to_minor(amount, amount_currency, &path(&field.pointer))
            .map_err(|error| invalid(error.path, error.message))?,
        AmountUnit::Minor => {
            amount.as_u64().ok_or_else(|| invalid(path(&field.pointer), "expected a whole number of minor units"))?
        }
    };
    if minor != total {
        return Err(invalid(
            path(&field.pointer),
            format!(
                "the amount {} is not the checked cart's total {}: nothing is paid",
                Money::new(minor, amount_currency),
                Money::new(total, currency)
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn payment(input: Value, amount: AmountField) -> Payment {
        Payment {
            profile: "https://shop.example/agentic.json".into(),
            action: "pay".into(),
            input: input.as_object().unwrap().clone(),
            amount,
        }
    }

    #[test]
    fn the_amount_must_be_the_carts_total_naming_both() {
        let decimal = payment(json!({"amount": "139.99", "currency": "usd"}), AmountField::default());
        assert!(amount_is_total(&decimal, 13999, Some("USD")).is_ok());
        let message = amount_is_total(&decimal, 13899, Some("USD")).unwrap_err().to_string();
        assert_eq!(
            message,
            "$.payment.input/amount: the amount 139.99 USD is not the checked cart's total 138.99 USD: nothing is paid"
        );
        let other_currency = payment(json!({"amount": "139.99", "currency": "EUR"}), AmountField::default());
        assert!(amount_is_total(&other_currency, 13999, Some("USD")).unwrap_err().to_string().contains("EUR is not"));
        let minor = AmountField {
            pointer: "/total/value".into(),
            unit: AmountUnit::Minor,
            currency_pointer: Some("/total/currency".into()),
        };
        let nested = payment(json!({"total": {"value": 13999, "currency": "USD"}}), minor.clone());
        assert!(amount_is_total(&nested, 13999, Some("USD")).is_ok());
        let no_currency = payment(json!({"total": {"value": 13999}}), minor);
        assert!(amount_is_total(&no_currency, 13999, Some("USD")).unwrap_err().to_string().contains("/total/currency"));
        let missing = payment(json!({"sum": 1}), AmountField::default());
        assert!(
            amount_is_total(&missing, 1, None).unwrap_err().to_string().starts_with("$.payment.input/amount: missing")
        );
    }

    #[test]
    fn a_request_id_is_bound_to_principal_origin_action_record_and_input() {
        let base = request_id(None, "https://a.example", "pay", "rec_1", "sha256:x");
        assert!(base.starts_with("pay_") && base.len() == 36);
        assert_eq!(base, request_id(None, "https://a.example", "pay", "rec_1", "sha256:x"));
        for other in [
            request_id(Some("shop"), "https://a.example", "pay", "rec_1", "sha256:x"),
            request_id(None, "https://b.example", "pay", "rec_1", "sha256:x"),
            request_id(None, "https://a.example", "refund", "rec_1", "sha256:x"),
            request_id(None, "https://a.example", "pay", "rec_2", "sha256:x"),
            request_id(None, "https://a.example", "pay", "rec_1", "sha256:y"),
        ] {
            assert_ne!(base, other);
        }
    }

    #[test]
    fn the_window_holds_between_creation_and_retention() {
        let created = "2026-12-03T10:00:00Z";
        let at = |text: &str| DateTime::parse_from_rfc3339(text).unwrap().with_timezone(&Utc);
        assert_eq!(outside_window(created, 60, at("2026-12-03T10:00:30Z")), None);
        assert!(outside_window(created, 60, at("2026-12-03T10:01:01Z")).unwrap().contains("tracking window"));
        assert!(outside_window(created, 60, at("2026-12-03T09:59:59Z")).unwrap().contains("before"));
    }

    #[test]
    fn receipts_validate_against_the_pinned_receipt_schema() {
        let schema: Value = serde_json::from_str(profile::RECEIPT_SCHEMA).unwrap();
        let validator = jsonschema::draft202012::new(&schema).unwrap();
        let mut receipt = AgenticReceipt {
            agentic: VERSION.into(),
            request_id: "pay_1".into(),
            action_id: "pay".into(),
            origin: "https://shop.example".into(),
            outcome: Outcome::Unknown,
            observed_at: "2026-12-03T10:00:00Z".into(),
            resource_id: None,
            reason: "status unknown".into(),
            evidence: None,
        };
        assert!(validator.is_valid(&serde_json::to_value(&receipt).unwrap()));
        receipt.outcome = Outcome::Succeeded;
        assert!(!validator.is_valid(&serde_json::to_value(&receipt).unwrap()), "succeeded needs evidence");
        receipt.resource_id = Some("P-1".into());
        receipt.evidence = Some(ReceiptEvidence {
            url: "https://shop.example/payments/P-1".into(),
            resource_id: "P-1".into(),
            request_id: "pay_1".into(),
            state: "captured".into(),
            matched: vec![InputBinding { input_pointer: "/amount".into(), resource_pointer: "/amount".into() }],
        });
        assert!(validator.is_valid(&serde_json::to_value(&receipt).unwrap()));
    }
}
