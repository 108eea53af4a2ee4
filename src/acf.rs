//! Rendering findings in the Agent Correction Format: the ACF v0.2 projection
//! (`messages[]` entries plus one `com.provecart.conformity` object and the
//! UCP checkout status it maps to) and the ACF v0.1 verdict object.
//!
//! Pure: the digests, the record id and the clock reading are inputs. The
//! code table (guard code → ACF code, severity, action) lives here and only
//! here; docs/acf.md documents it.

use chrono::{DateTime, SubsecRound, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::decision::{Basis, Decision, Verdict};
use crate::facts::{FieldName, FieldRef};
use crate::finding::{Code, Compared, Finding, Severity};

/// The namespace of the conformity object and of ACF codes.
pub const CONFORMITY_KEY: &str = "com.provecart.conformity";
/// The namespace of the guard's own codes where ACF has none.
pub const OWN_NAMESPACE: &str = "asasked";
/// The `mandate_ref.scheme`: the instruction is the person's request text.
pub const MANDATE_SCHEME: &str = "asasked.request";
/// The retry budget (ACF §7 reference value).
pub const MAX_ATTEMPTS: u32 = 3;
/// The `guard_code` of a check that could not run (fail closed).
pub const ENGINE_ERROR: &str = "engine_error";
/// The `guard_code` of a resubmission past the retry budget.
pub const RETRY_BUDGET: &str = "retry-budget";

/// The checker's summary (ACF v0.2 §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum AcfVerdict {
    Match,
    Block,
    Review,
}

/// The UCP checkout status a verdict maps to (ACF v0.2 §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum UcpStatus {
    ReadyForComplete,
    Incomplete,
    RequiresEscalation,
}

impl AcfVerdict {
    pub fn ucp_status(self) -> UcpStatus {
        match self {
            AcfVerdict::Match => UcpStatus::ReadyForComplete,
            AcfVerdict::Block => UcpStatus::Incomplete,
            AcfVerdict::Review => UcpStatus::RequiresEscalation,
        }
    }
}

/// `type` of a message: `error` for a block finding, `warning` for a note.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum MessageType {
    Error,
    Warning,
}

/// Host severity of a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MessageSeverity {
    /// A repair inside what the person said exists.
    Recoverable,
    /// Only the person can decide.
    RequiresBuyerReview,
}

/// The closed cart action vocabulary (ACF v0.2 §5.4) this guard uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    ReplaceItem,
    ChangeVariant,
    ReduceQuantity,
    ReduceTotal,
    RemoveItem,
}

/// One entry of the checkout's `messages[]` (ACF v0.2 §5.1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Message {
    #[serde(rename = "type")]
    pub message_type: MessageType,
    /// `com.provecart.conformity.<code>` or `asasked.<guard code>`.
    pub code: String,
    /// The guard's own code (guard.md §5).
    pub guard_code: String,
    /// The finding id, for `answers`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finding_id: Option<String>,
    pub severity: MessageSeverity,
    /// JSONPath into the cart.
    pub path: String,
    /// The reason, for people.
    pub content: String,
    #[schemars(with = "Value")]
    pub expected: Compared,
    #[schemars(with = "Value")]
    pub actual: Compared,
    /// The fix, where one of the closed vocabulary fits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<Action>,
    /// True when conformity could not be positively determined.
    pub uncertain: bool,
    /// True when no repair within what the person said exists.
    pub requires_buyer_approval: bool,
}

/// `mandate_ref`: the instruction checked, by digest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct MandateRef {
    pub scheme: String,
    /// SHA-256 of the canonical {request, answers, today}.
    pub digest: String,
}

/// The one conformity object (ACF v0.2 §4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Conformity {
    pub verdict: AcfVerdict,
    pub record_id: String,
    pub mandate_ref: MandateRef,
    /// SHA-256 of the canonical cart as checked.
    pub subject_digest: String,
    /// RFC 3339, UTC, on the wire ([`wire_time`]).
    #[serde(with = "wire_time")]
    #[schemars(with = "String")]
    pub issued_at: DateTime<Utc>,
    /// The verdict must not be acted on after this. RFC 3339, UTC, on the
    /// wire ([`wire_time`]).
    #[serde(with = "wire_time")]
    #[schemars(with = "String")]
    pub expires_at: DateTime<Utc>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous_record_id: Option<String>,
    pub max_attempts: u32,
    /// ACF v0.2 §4: on a `proceed` of a server that signs receipts, the
    /// receipt (the same token as the result's `receipt`), which a merchant
    /// redeems once (`POST /v1/redemptions`). Never sealed: each answer gets
    /// a fresh one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict_token: Option<String>,
}

/// The ACF v0.2 projection of one check.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AcfProjection {
    pub messages: Vec<Message>,
    #[serde(rename = "com.provecart.conformity")]
    pub conformity: Conformity,
    /// The UCP checkout status this verdict maps to.
    pub ucp_status: UcpStatus,
}

/// What identifies and dates one check, read at the edge and passed in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    pub record_id: String,
    pub mandate_digest: String,
    pub subject_digest: String,
    pub issued_at: chrono::DateTime<chrono::Utc>,
    pub validity: chrono::Duration,
    pub previous_record_id: Option<String>,
}

/// How one guard code is rendered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeRule {
    /// The ACF code without namespace, or `None` for the guard's namespace.
    pub acf: Option<&'static str>,
    pub recoverable: bool,
    pub action: Option<Action>,
    /// The v0.1 dimension.
    pub dimension: &'static str,
}

/// The code table (documented in docs/acf.md). Quantity depends on the
/// direction: above the stated number is reducible, below is not.
pub fn rule(code: Code, quantity_below: bool) -> CodeRule {
    let of = |acf, recoverable, action, dimension| CodeRule { acf, recoverable, action, dimension };
    match code {
        Code::Product => of(Some("item_mismatch"), true, Some(Action::ReplaceItem), "item_match"),
        Code::Brand => of(Some("item_mismatch"), true, Some(Action::ReplaceItem), "item_match"),
        Code::Model => of(Some("item_mismatch"), true, Some(Action::ReplaceItem), "item_match"),
        Code::Level => of(Some("item_mismatch"), true, Some(Action::ReplaceItem), "item_match"),
        Code::BrandExcluded => of(Some("item_excluded"), true, Some(Action::ReplaceItem), "item_match"),
        Code::Color => of(Some("variant_mismatch"), true, Some(Action::ChangeVariant), "variant"),
        Code::Size => of(Some("variant_mismatch"), true, Some(Action::ChangeVariant), "variant"),
        // An excluded colour is a variant the person ruled out: change it.
        Code::ColorExcluded => of(Some("variant_mismatch"), true, Some(Action::ChangeVariant), "variant"),
        Code::ExplicitMax => of(Some("price_over_ceiling"), true, Some(Action::ReduceTotal), "price"),
        Code::Quantity if quantity_below => of(Some("quantity_below_min"), false, None, "quantity"),
        Code::Quantity => of(Some("quantity_over_max"), true, Some(Action::ReduceQuantity), "quantity"),
        Code::Deadline => of(Some("date_outside_window"), true, Some(Action::ReplaceItem), "delivery"),
        Code::Other => of(Some("item_indeterminate"), false, None, "requirements"),
        // The item says another value than the one the person required: the
        // closest code of ACF v0.2 §5.2 is `item_mismatch`, and another item
        // is the fix, as for a wrong brand or model.
        Code::OtherContradicted => of(Some("item_mismatch"), true, Some(Action::ReplaceItem), "requirements"),
        Code::Unchecked => of(Some("item_indeterminate"), false, None, "attributes"),
        Code::Refund => of(None, false, Some(Action::ReplaceItem), "returnability"),
        Code::Price => of(None, false, Some(Action::ReplaceItem), "price_preference"),
        Code::Missing => of(None, false, None, "lines"),
        Code::Extra => of(None, false, Some(Action::RemoveItem), "lines"),
        Code::Lines => of(None, false, None, "lines"),
        Code::EngineError => of(Some(ENGINE_ERROR), false, None, ENGINE_ERROR),
        // A mandate's constraint: the agent can repair the cart within it,
        // except an expired mandate, which only the person can renew.
        Code::MandateMerchant => of(None, true, Some(Action::ReplaceItem), "mandate"),
        Code::MandateSku => of(None, true, Some(Action::ReplaceItem), "mandate"),
        Code::MandateAmount => of(None, true, Some(Action::ReduceTotal), "mandate"),
        Code::MandateExpired => of(None, false, None, "mandate"),
        // ACF v0.2's own code: another item, priced within what was asked,
        // repairs it (raising a price is no repair).
        Code::PriceBelowFloor => of(Some("price_below_floor"), true, Some(Action::ReplaceItem), "price"),
        // No ACF code or action fits a shipping charge: the project's own
        // code, and the person decides (an agent may still pick a free
        // option and check again).
        Code::FreeShipping => of(None, false, None, "shipping"),
        // Issue 29. A limit in another currency with no rate: the person
        // compares the two amounts (no code of ACF v0.2 §5.2 fits).
        Code::LimitCurrency => of(None, false, None, "price"),
        // A stated total not the sum of its parts: ACF's ceiling code, with
        // `reduce_total`, as the issue asks (the total must come down to
        // its parts).
        Code::TotalMismatch => of(Some("price_over_ceiling"), true, Some(Action::ReduceTotal), "price"),
        // A fee is the merchant's: no action of the agent's removes it.
        Code::Fee => of(None, false, None, "price"),
        // A subscription item: another item (a one-time purchase) fixes it.
        Code::Recurring => of(None, true, Some(Action::ReplaceItem), "item_match"),
        // An add-on line nobody asked for: take it out of the cart.
        Code::Addon => of(None, true, Some(Action::RemoveItem), "lines"),
    }
}

/// True when a quantity finding says the cart holds fewer than asked: fewer
/// than every candidate count when there are several (`{"any_of": [...]}`);
/// a count above the smallest can be reduced to it within what was said.
fn quantity_below(finding: &Finding) -> bool {
    let smallest = match &finding.expected {
        Compared::AnyCount { any_of } => any_of.iter().min().copied(),
        Compared::Count(count) => Some(*count),
        _ => None,
    };
    match (smallest, &finding.actual) {
        (Some(expected), Compared::Count(actual)) => *actual < expected,
        _ => false,
    }
}

fn full_code(rule: &CodeRule, guard_code: &str) -> String {
    match rule.acf {
        Some(code) => format!("{CONFORMITY_KEY}.{code}"),
        None => format!("{OWN_NAMESPACE}.{guard_code}"),
    }
}

/// Renders one finding. `disputed` are the fact fields the extractors
/// disagreed on: a finding on one of them is uncertain.
pub fn message(finding: &Finding, disputed: &std::collections::BTreeSet<FieldRef>) -> Message {
    let rule = rule(finding.code, quantity_below(finding));
    let field_disputed = disputed.iter().any(|reference| match *reference {
        FieldRef::Shared(FieldName::Lines) => true,
        FieldRef::Shared(field) | FieldRef::Line { field, .. } => field == finding.field,
    });
    // Free shipping asked of a cart that does not say what shipping costs
    // is undetermined, not a charge.
    let undetermined = finding.code == Code::FreeShipping && finding.actual == Compared::Nothing;
    let uncertain =
        matches!(finding.code, Code::Other | Code::Unchecked | Code::Lines) || field_disputed || undetermined;
    Message {
        message_type: match finding.severity {
            Severity::Block => MessageType::Error,
            Severity::Warn => MessageType::Warning,
        },
        code: full_code(&rule, finding.code.as_str()),
        guard_code: finding.code.as_str().to_owned(),
        finding_id: Some(finding.id.clone()),
        severity: if rule.recoverable { MessageSeverity::Recoverable } else { MessageSeverity::RequiresBuyerReview },
        path: finding.path.clone(),
        content: finding.reason.clone(),
        expected: finding.expected.clone(),
        actual: finding.actual.clone(),
        action: rule.action,
        uncertain,
        requires_buyer_approval: !rule.recoverable,
    }
}

/// The engine-error message of a check that failed closed: its content is
/// the finding's reason for the person (the technical `detail` without one;
/// the sealed record keeps the detail either way). An error until the
/// person accepts buying unchecked; then a warning, and the MATCH is theirs.
pub fn engine_error_message(detail: &str, finding: Option<&Finding>) -> Message {
    let accepted = finding.is_some_and(|finding| finding.severity == Severity::Warn);
    Message {
        message_type: if accepted { MessageType::Warning } else { MessageType::Error },
        code: format!("{CONFORMITY_KEY}.{ENGINE_ERROR}"),
        guard_code: ENGINE_ERROR.to_owned(),
        finding_id: finding.map(|finding| finding.id.clone()),
        severity: MessageSeverity::RequiresBuyerReview,
        path: "$".to_owned(),
        content: finding.map_or_else(|| detail.to_owned(), |finding| finding.reason.clone()),
        expected: Compared::Nothing,
        actual: Compared::Nothing,
        action: None,
        uncertain: true,
        requires_buyer_approval: !accepted,
    }
}

/// The message of a resubmission past the retry budget.
pub fn retry_budget_message(content: &str) -> Message {
    Message {
        message_type: MessageType::Error,
        code: format!("{OWN_NAMESPACE}.{RETRY_BUDGET}"),
        guard_code: RETRY_BUDGET.to_owned(),
        finding_id: None,
        severity: MessageSeverity::RequiresBuyerReview,
        path: "$".to_owned(),
        content: content.to_owned(),
        expected: Compared::Count(u64::from(MAX_ATTEMPTS)),
        actual: Compared::Count(u64::from(MAX_ATTEMPTS) + 1),
        action: None,
        uncertain: false,
        requires_buyer_approval: true,
    }
}

/// MATCH on proceed; on ask BLOCK when every error message is recoverable,
/// else REVIEW.
pub fn verdict(decision: Decision, messages: &[Message]) -> AcfVerdict {
    if decision == Decision::Proceed {
        return AcfVerdict::Match;
    }
    let all_recoverable = messages
        .iter()
        .filter(|message| message.message_type == MessageType::Error)
        .all(|message| message.severity == MessageSeverity::Recoverable);
    if all_recoverable { AcfVerdict::Block } else { AcfVerdict::Review }
}

pub fn rfc3339(time: DateTime<Utc>) -> String {
    time.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// A time as the wire carries it: whole seconds, which is all that
/// [`rfc3339`] renders. Times are cut to this when they are made, so a
/// time read back from a sealed record equals the one that was sealed.
pub fn whole_seconds(time: DateTime<Utc>) -> DateTime<Utc> {
    time.trunc_subsecs(0)
}

/// The serde form of a time: [`rfc3339`] text, read back with any offset
/// and kept in UTC. Times stay `DateTime` until they are written.
pub mod wire_time {
    use chrono::{DateTime, Utc};
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(time: &DateTime<Utc>, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&super::rfc3339(*time))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<DateTime<Utc>, D::Error> {
        let text = String::deserialize(deserializer)?;
        DateTime::parse_from_rfc3339(&text)
            .map(|time| time.with_timezone(&Utc))
            .map_err(|error| serde::de::Error::custom(format!("{text:?}: {error}")))
    }
}

/// Renders a verdict as the ACF v0.2 projection bound to `binding`: one
/// message per finding (uncertain where its field was disputed), or the one
/// engine-error or retry-budget message of a verdict without findings.
pub fn render(verdict: &Verdict, binding: &Binding) -> AcfProjection {
    let messages = match &verdict.basis {
        Basis::Checked { disputed } => verdict.findings.iter().map(|finding| message(finding, disputed)).collect(),
        Basis::CouldNotCheck { detail } if verdict.findings.is_empty() => vec![engine_error_message(detail, None)],
        Basis::CouldNotCheck { detail } => {
            verdict.findings.iter().map(|finding| engine_error_message(detail, Some(finding))).collect()
        }
        Basis::RetryBudgetExhausted => verdict.reasons.iter().map(|reason| retry_budget_message(reason)).collect(),
    };
    project(verdict.decision, messages, binding)
}

/// Builds the projection from rendered messages.
pub fn project(decision: Decision, messages: Vec<Message>, binding: &Binding) -> AcfProjection {
    let verdict = verdict(decision, &messages);
    AcfProjection {
        conformity: Conformity {
            verdict,
            record_id: binding.record_id.clone(),
            mandate_ref: MandateRef { scheme: MANDATE_SCHEME.to_owned(), digest: binding.mandate_digest.clone() },
            subject_digest: binding.subject_digest.clone(),
            issued_at: whole_seconds(binding.issued_at),
            expires_at: whole_seconds(binding.issued_at + binding.validity),
            previous_record_id: binding.previous_record_id.clone(),
            max_attempts: MAX_ATTEMPTS,
            verdict_token: None,
        },
        ucp_status: verdict.ucp_status(),
        messages,
    }
}

/// The ACP CheckoutSession status a verdict maps to (ACP 2026-04-17), as
/// UCP's does: MATCH is payable, BLOCK is a session the agent can still
/// repair, REVIEW needs the person.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AcpStatus {
    ReadyForPayment,
    NotReadyForPayment,
    RequiresEscalation,
}

impl AcfVerdict {
    pub fn acp_status(self) -> AcpStatus {
        match self {
            AcfVerdict::Match => AcpStatus::ReadyForPayment,
            AcfVerdict::Block => AcpStatus::NotReadyForPayment,
            AcfVerdict::Review => AcpStatus::RequiresEscalation,
        }
    }
}

/// ACP `type`: a blocking finding is an `error`, a note `info` (ACP's
/// warning codes are all about stock and discounts; none fits a note).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum AcpMessageType {
    Error,
    Info,
}

/// ACP `severity`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum AcpSeverity {
    Low,
    Medium,
    High,
}

/// ACP `resolution`: who resolves the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AcpResolution {
    /// The agent can repair the cart within what the person said.
    Recoverable,
    /// Only the person can say (the guard could not tell).
    RequiresBuyerInput,
    /// The person must decide or authorise.
    RequiresBuyerReview,
}

/// One ACP message (`MessageError` or `MessageInfo` of ACP 2026-04-17),
/// with no field those schemas do not have.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AcpMessage {
    #[serde(rename = "type")]
    pub message_type: AcpMessageType,
    /// ACP's error code (`invalid`, `missing`, `maximum_exceeded`,
    /// `minimum_not_met`, `quantity_exceeded`, `expired`,
    /// `approval_required`); absent on `info`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    pub severity: AcpSeverity,
    pub resolution: AcpResolution,
    /// RFC 9535 JSONPath into the cart as the caller sent it
    /// (`$.line_items[1]` in a checkout, `$.cart[1]` in a list).
    pub param: String,
    /// Always `plain`.
    pub content_type: String,
    pub content: String,
}

/// The ACP rendering of one check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AcpProjection {
    pub status: AcpStatus,
    pub messages: Vec<AcpMessage>,
}

/// The ACP error code of an ACF message.
fn acp_code(message: &Message) -> &'static str {
    let code = message.code.as_str();
    match message.guard_code.as_str() {
        "explicit-max" => "maximum_exceeded",
        "mandate-amount" if matches!(message.expected, Compared::AmountAtLeast { .. }) => "minimum_not_met",
        "mandate-amount" => "maximum_exceeded",
        "quantity" if code.ends_with("quantity_over_max") => "quantity_exceeded",
        "mandate-expired" => "expired",
        "missing" => "missing",
        ENGINE_ERROR | RETRY_BUDGET => "approval_required",
        _ => "invalid",
    }
}

/// The caller's own JSONPath for an ACF message's cart path: entry `i` of
/// `$.cart[i]` is `params[i]`, the whole cart `$.cart` is `whole`; any
/// other path (`$`, `$.request`) is kept.
fn param(path: &str, params: &[String], whole: &str) -> String {
    if path == "$.cart" {
        return whole.to_owned();
    }
    path.strip_prefix("$.cart[")
        .and_then(|rest| rest.strip_suffix(']'))
        .and_then(|index| index.parse::<usize>().ok())
        .and_then(|index| params.get(index))
        .cloned()
        .unwrap_or_else(|| path.to_owned())
}

/// Renders the ACF projection as ACP messages and status; `params` maps
/// cart entries to the caller's document, `whole` is the path of the whole
/// cart in it (`$` for a checkout document, `$.cart` for a list).
pub fn acp(projection: &AcfProjection, params: &[String], whole: &str) -> AcpProjection {
    let messages = projection
        .messages
        .iter()
        .map(|message| {
            let error = message.message_type == MessageType::Error;
            let resolution = if message.severity == MessageSeverity::Recoverable {
                AcpResolution::Recoverable
            } else if message.uncertain {
                AcpResolution::RequiresBuyerInput
            } else {
                AcpResolution::RequiresBuyerReview
            };
            AcpMessage {
                message_type: if error { AcpMessageType::Error } else { AcpMessageType::Info },
                code: error.then(|| acp_code(message).to_owned()),
                severity: match (error, resolution) {
                    (false, _) => AcpSeverity::Low,
                    (true, AcpResolution::Recoverable) => AcpSeverity::Medium,
                    (true, _) => AcpSeverity::High,
                },
                resolution,
                param: param(&message.path, params, whole),
                content_type: "plain".to_owned(),
                content: message.content.clone(),
            }
        })
        .collect();
    AcpProjection { status: projection.conformity.verdict.acp_status(), messages }
}

/// `pass`, `soft_fail` or `hard_fail` (ACF v0.1 §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DimensionStatus {
    Pass,
    SoftFail,
    HardFail,
}

/// One per-dimension result of the v0.1 object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DimensionResult {
    pub dimension: String,
    pub status: DimensionStatus,
    pub reasons: Vec<String>,
    /// False when no edit of the cart repairs this dimension.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub correctable: Option<bool>,
}

/// One correction of the v0.1 object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Correction {
    pub dimension: String,
    pub action: Action,
    pub path: String,
    pub reason: String,
    #[schemars(with = "Value")]
    pub expected: Compared,
    #[schemars(with = "Value")]
    pub actual: Compared,
}

/// The ACF v0.1 verdict object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AcfV01 {
    /// Always `acf-v0.1`.
    pub format: String,
    pub verdict: AcfVerdict,
    pub record_id: String,
    pub max_attempts: u32,
    pub results: Vec<DimensionResult>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub corrections: Vec<Correction>,
}

/// The v0.1 dimensions, in the order they are reported.
pub const DIMENSIONS: [&str; 10] = [
    "item_match",
    "variant",
    "price",
    "price_preference",
    "quantity",
    "delivery",
    "returnability",
    "requirements",
    "attributes",
    "lines",
];

fn dimension_of(message: &Message) -> &'static str {
    if message.guard_code == ENGINE_ERROR {
        return ENGINE_ERROR;
    }
    if message.guard_code == RETRY_BUDGET {
        return "retry_budget";
    }
    let below = message.code.ends_with("quantity_below_min");
    Code::parse(&message.guard_code).map(|code| rule(code, below).dimension).unwrap_or("attributes")
}

/// Builds the v0.1 object from the v0.2 projection: a recoverable error is a
/// hard_fail, an error that needs the person a soft_fail, a warning a pass
/// with its note as reason (so MATCH stays MATCH).
pub fn v01(projection: &AcfProjection) -> AcfV01 {
    let mut dimensions: Vec<&str> = DIMENSIONS.to_vec();
    for message in &projection.messages {
        let dimension = dimension_of(message);
        if !dimensions.contains(&dimension) {
            dimensions.push(dimension);
        }
    }
    let results = dimensions
        .into_iter()
        .map(|dimension| {
            let of_dimension: Vec<&Message> =
                projection.messages.iter().filter(|message| dimension_of(message) == dimension).collect();
            let errors: Vec<&&Message> =
                of_dimension.iter().filter(|message| message.message_type == MessageType::Error).collect();
            let status = if errors.is_empty() {
                DimensionStatus::Pass
            } else if errors.iter().all(|message| message.severity == MessageSeverity::Recoverable) {
                DimensionStatus::HardFail
            } else {
                DimensionStatus::SoftFail
            };
            let correctable = (!errors.is_empty()).then(|| errors.iter().all(|message| message.action.is_some()));
            DimensionResult {
                dimension: dimension.to_owned(),
                status,
                reasons: of_dimension.iter().map(|message| message.content.clone()).collect(),
                correctable: correctable.filter(|correctable| !correctable),
            }
        })
        .collect();
    let corrections = if projection.conformity.verdict == AcfVerdict::Match {
        Vec::new()
    } else {
        projection
            .messages
            .iter()
            .filter(|message| message.message_type == MessageType::Error)
            .filter_map(|message| {
                message.action.map(|action| Correction {
                    dimension: dimension_of(message).to_owned(),
                    action,
                    path: message.path.clone(),
                    reason: message.content.clone(),
                    expected: message.expected.clone(),
                    actual: message.actual.clone(),
                })
            })
            .collect()
    };
    AcfV01 {
        format: "acf-v0.1".to_owned(),
        verdict: projection.conformity.verdict,
        record_id: projection.conformity.record_id.clone(),
        max_attempts: projection.conformity.max_attempts,
        results,
        corrections,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::FieldName;
    use serde_json::json;

    fn finding(code: Code, severity: Severity, expected: Compared, actual: Compared) -> Finding {
        let field = match code {
            Code::Quantity => FieldName::Quantity,
            Code::Refund => FieldName::NeedsRefundable,
            _ => FieldName::Color,
        };
        Finding {
            id: format!("{code}@$.cart[0]"),
            code,
            severity,
            field,
            line: None,
            path: "$.cart[0]".into(),
            entry: Some(0),
            expected,
            actual,
            reason: "reason".into(),
            message: None,
        }
    }

    fn binding() -> Binding {
        Binding {
            record_id: "rec".into(),
            mandate_digest: "sha256:m".into(),
            subject_digest: "sha256:s".into(),
            issued_at: chrono::DateTime::from_timestamp(1_700_000_000, 0).unwrap(),
            validity: chrono::Duration::minutes(15),
            previous_record_id: None,
        }
    }

    #[test]
    fn codes_severities_and_actions_follow_the_table() {
        let none = Default::default();
        let colour = message(
            &finding(Code::Color, Severity::Block, Compared::Text("black".into()), Compared::Text("white".into())),
            &none,
        );
        assert_eq!(colour.code, "com.provecart.conformity.variant_mismatch");
        assert_eq!((colour.severity, colour.action), (MessageSeverity::Recoverable, Some(Action::ChangeVariant)));
        assert_eq!(colour.guard_code, "color");
        let over = message(&finding(Code::Quantity, Severity::Block, Compared::Count(2), Compared::Count(3)), &none);
        assert_eq!(over.code, "com.provecart.conformity.quantity_over_max");
        let below = message(&finding(Code::Quantity, Severity::Block, Compared::Count(3), Compared::Count(2)), &none);
        assert_eq!(below.code, "com.provecart.conformity.quantity_below_min");
        assert_eq!((below.severity, below.action), (MessageSeverity::RequiresBuyerReview, None));
        let candidates = Compared::AnyCount { any_of: vec![2, 6] };
        let between = message(&finding(Code::Quantity, Severity::Block, candidates.clone(), Compared::Count(4)), &none);
        assert_eq!(between.code, "com.provecart.conformity.quantity_over_max", "4 reduces to 2");
        let under = message(&finding(Code::Quantity, Severity::Block, candidates, Compared::Count(1)), &none);
        assert_eq!(under.code, "com.provecart.conformity.quantity_below_min", "1 is fewer than every candidate");
        let refund = message(
            &finding(
                Code::Refund,
                Severity::Block,
                Compared::FinalSale { final_sale: Some(false) },
                Compared::FinalSale { final_sale: Some(true) },
            ),
            &none,
        );
        assert_eq!(refund.code, "asasked.refund");
        assert!(refund.requires_buyer_approval);
    }

    #[test]
    fn acp_messages_point_into_the_callers_document_and_carry_acp_fields_only() {
        let none = Default::default();
        let colour = message(
            &finding(Code::Color, Severity::Block, Compared::Text("black".into()), Compared::Text("white".into())),
            &none,
        );
        let mut note =
            message(&finding(Code::Unchecked, Severity::Warn, Compared::Text("x".into()), Compared::Nothing), &none);
        note.path = "$.cart".into();
        let mut late = colour.clone();
        late.guard_code = "mandate-expired".into();
        late.severity = MessageSeverity::RequiresBuyerReview;
        late.uncertain = false;
        late.path = "$.request".into();
        let projection = project(Decision::Ask, vec![colour, note, late], &binding());
        let acp = acp(&projection, &["$.line_items[0]".to_owned()], "$");
        assert_eq!(acp.status, AcpStatus::RequiresEscalation);
        let value = serde_json::to_value(&acp.messages).unwrap();
        assert_eq!(
            value[0],
            json!({"type": "error", "code": "invalid", "severity": "medium", "resolution": "recoverable",
                "param": "$.line_items[0]", "content_type": "plain", "content": "reason"})
        );
        assert_eq!(
            value[1],
            json!({"type": "info", "severity": "low", "resolution": "requires_buyer_input", "param": "$",
                "content_type": "plain", "content": "reason"})
        );
        assert_eq!(
            (value[2]["code"].as_str(), value[2]["resolution"].as_str()),
            (Some("expired"), Some("requires_buyer_review"))
        );
        assert_eq!(value[2]["param"], "$.request");
        assert_eq!(AcfVerdict::Block.acp_status(), AcpStatus::NotReadyForPayment);
        assert_eq!(AcfVerdict::Match.acp_status(), AcpStatus::ReadyForPayment);
    }

    #[test]
    fn verdicts_and_status() {
        let none = Default::default();
        let colour = message(
            &finding(Code::Color, Severity::Block, Compared::Text("black".into()), Compared::Text("white".into())),
            &none,
        );
        let projection = project(Decision::Ask, vec![colour.clone()], &binding());
        assert_eq!(projection.conformity.verdict, AcfVerdict::Block);
        assert_eq!(projection.ucp_status, UcpStatus::Incomplete);
        assert_eq!(rfc3339(projection.conformity.expires_at), "2023-11-14T22:28:20Z");
        let refund = message(
            &finding(
                Code::Refund,
                Severity::Block,
                Compared::FinalSale { final_sale: Some(false) },
                Compared::FinalSale { final_sale: Some(true) },
            ),
            &none,
        );
        assert_eq!(verdict(Decision::Ask, &[colour, refund]), AcfVerdict::Review);
        let engine = project(Decision::Ask, vec![engine_error_message("x", None)], &binding());
        assert_eq!(engine.conformity.verdict, AcfVerdict::Review);
        let object = v01(&engine);
        assert_eq!(object.format, "acf-v0.1");
        let engine_result = object.results.iter().find(|result| result.dimension == ENGINE_ERROR).unwrap();
        assert_eq!((engine_result.status, engine_result.correctable), (DimensionStatus::SoftFail, Some(false)));
        let value = serde_json::to_value(project(Decision::Proceed, vec![], &binding())).unwrap();
        assert_eq!(value["com.provecart.conformity"]["verdict"], "MATCH");
        assert_eq!(value["ucp_status"], "ready_for_complete");
    }
}
