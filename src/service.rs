//! The one place a check is orchestrated, for the MCP handler and the CLI
//! alike: validate the arguments, resolve the cart against the catalog,
//! follow the attempt chain and the person's answers, extract facts through
//! the [`ExtractorSet`], run the pure guard, render ACF, and seal the record
//! before the result is returned.
//!
//! I/O comes in: the extractor set, the catalog, the evidence store and the
//! clock are constructor arguments. This module knows no transport and reads
//! no environment.

use std::collections::BTreeSet;
use std::sync::Arc;

use chrono::{DateTime, NaiveDate, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use tokio_util::task::TaskTracker;

use crate::acf::{self, AcfProjection, AcfV01, Binding, MAX_ATTEMPTS};
use crate::cart::{Cart, Item, parse_item};
use crate::catalog::Catalog;
use crate::decision::{self, Decision, Verdict};
use crate::digest;
use crate::evidence::{Appended, Draft, EvidenceStore, LinkError, SealedRecord, StoreError};
use crate::extract::ExtractInput;
use crate::extract::set::ExtractorSet;
use crate::facts::Facts;
use crate::finding::{Finding, Severity};
use crate::today;

/// The longest request accepted. A real request is a few sentences; the bound
/// keeps a hostile caller from feeding megabytes to the extractors.
pub const MAX_REQUEST_BYTES: usize = 16 * 1024;
/// The longest single answer.
pub const MAX_ANSWER_BYTES: usize = 4 * 1024;
/// The most answers one call may carry.
pub const MAX_ANSWERS: usize = 64;
/// The deepest nesting accepted inside a cart entry or an allowed item. An
/// item's attributes are scalars, so a real entry is two containers deep
/// (`{item: {...}}`); the bound refuses a hostile value before anything
/// recurses over it (cloning, digesting, dropping). JSON text is already
/// limited to 128 levels by serde_json; this covers values built in memory.
pub const MAX_JSON_DEPTH: usize = 32;
/// How long a verdict may be acted on, by default (ACF v0.2 §4).
pub const DEFAULT_VALIDITY_MINUTES: i64 = 15;
/// The note appended to an accepted finding (guard.md §6: the person decided).
pub const ACCEPTED: &str = "accepted by the person";
/// The note appended to a declined finding.
pub const DECLINED: &str = "the person declined this";

/// Reads the time; the only clock the service sees.
pub trait Clock: Send + Sync {
    fn now(&self) -> DateTime<Utc>;
}

/// The system clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// One answer of the person to a finding of the previous record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Answer {
    /// The `id` of a finding the previous result raised (e.g. `size@$.cart[0]`).
    pub finding_id: String,
    /// `accept` (the person knowingly accepts this mismatch), `decline` (they
    /// do not), or the person's own words ("43 is fine too"), which are added
    /// to the request as a clarification.
    pub reply: String,
}

/// An allowed item: a catalog id or an item object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum AllowedItem {
    Id(String),
    Item(Map<String, Value>),
}

/// Extra output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Format {
    /// Also return the ACF v0.1 verdict object.
    #[serde(rename = "acf-v0.1")]
    AcfV01,
}

/// The arguments of one check (the `check_order` tool's input).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckRequest {
    /// The person's own words to you, verbatim: what they asked you to buy,
    /// with every condition they stated. Do not summarise or rephrase.
    pub request: String,
    /// The cart you intend to pay for. Each entry is `{"id": "<catalog id>",
    /// "quantity": n}`, or `{"item": {id, brand, name, color, size, level,
    /// final_sale, delivery_days, units, price_cents, currency}, "quantity": n}`,
    /// or a flat item `{name, brand, color, size, price, returnable, quantity, ...}`.
    pub cart: Vec<Map<String, Value>>,
    /// After an `ask`: the person's answers to the findings of the previous
    /// result. Requires `previous_record_id`.
    #[serde(default)]
    pub answers: Vec<Answer>,
    /// Today's date, ISO (`2026-11-02`) or as written ("Monday, 2 November
    /// 2026"); deadlines are counted from it. Default: the server's date.
    #[serde(default)]
    pub today: Option<String>,
    /// Items the person's mandate allows, for the price check: catalog ids or
    /// item objects. Default: the catalog items of the cart items' categories.
    #[serde(default)]
    pub allowed_items: Option<Vec<AllowedItem>>,
    /// The `record_id` of the previous result when you re-check after an
    /// `ask` (with the person's answers or a changed cart).
    #[serde(default)]
    pub previous_record_id: Option<String>,
    /// `acf-v0.1` to also receive the ACF v0.1 verdict object.
    #[serde(default)]
    pub format: Option<Format>,
}

/// The result of one check (the `check_order` tool's output).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CheckResult {
    /// `proceed`: you may pay. `ask`: do not pay; show `question` to the person
    /// and call again with their answers.
    pub decision: Decision,
    /// One sentence per blocking mismatch.
    pub reasons: Vec<String>,
    /// On `ask`: the question to show the person, verbatim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    /// Things the person should see but that do not block.
    pub notes: Vec<String>,
    /// Every finding with its id (for `answers`), code, severity, field, line,
    /// cart path, expected and actual values and reason.
    pub findings: Vec<Finding>,
    /// The facts extracted from the request (with `soft` and `disputed`);
    /// null when the request could not be checked.
    pub facts: Option<Facts>,
    /// The sealed evidence record of this check; pass it as
    /// `previous_record_id` when you check again after an `ask`.
    pub record_id: String,
    /// The record this check supersedes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous_record_id: Option<String>,
    /// 1 for a first check; the retry budget is `max_attempts`.
    pub attempt: u32,
    /// The date deadlines were counted from (ISO).
    pub today: String,
    /// The ACF v0.2 projection: `messages`, the `com.provecart.conformity`
    /// object and the UCP checkout status.
    pub acf: AcfProjection,
    /// The ACF v0.1 verdict object, when `format` is `acf-v0.1`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub acf_v01: Option<AcfV01>,
}

/// Why a check was not run.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// The caller's arguments are wrong: `field` names the argument.
    #[error("{field}: {message}")]
    InvalidArgument { field: String, message: String },
    /// The evidence could not be sealed: no result may be relied on.
    #[error("evidence: {0}")]
    Store(#[from] StoreError),
    /// The check task stopped before finishing.
    #[error("the check was interrupted")]
    Interrupted,
}

fn invalid(field: impl Into<String>, message: impl Into<String>) -> CheckError {
    CheckError::InvalidArgument { field: field.into(), message: message.into() }
}

/// Answers in effect for a check: inherited along the attempt chain plus
/// the ones given now. Part of the mandate digest.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
struct AnswerState {
    accepted: Vec<Decided>,
    declined: Vec<Decided>,
    clarifications: Vec<String>,
}

/// A finding the person decided on, pinned to the item and value they saw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Decided {
    finding_id: String,
    item_digest: String,
    actual: Value,
}

/// Runs checks. Cheap to clone.
#[derive(Clone)]
pub struct Service {
    inner: Arc<Inner>,
}

struct Inner {
    extractors: Arc<ExtractorSet>,
    catalog: Option<Arc<Catalog>>,
    store: EvidenceStore,
    clock: Arc<dyn Clock>,
    validity: chrono::Duration,
    tracker: TaskTracker,
}

impl std::fmt::Debug for Service {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Service")
            .field("extractors", &self.inner.extractors.names())
            .field("catalog", &self.inner.catalog.as_ref().map(|catalog| catalog.len()))
            .field("evidence", &self.inner.store.path())
            .finish()
    }
}

impl Service {
    pub fn new(
        extractors: Arc<ExtractorSet>,
        catalog: Option<Arc<Catalog>>,
        store: EvidenceStore,
        clock: Arc<dyn Clock>,
    ) -> Service {
        Service {
            inner: Arc::new(Inner {
                extractors,
                catalog,
                store,
                clock,
                validity: chrono::Duration::minutes(DEFAULT_VALIDITY_MINUTES),
                tracker: TaskTracker::new(),
            }),
        }
    }

    /// Sets how long verdicts stay valid (`expires_at`).
    pub fn with_validity(self, validity: chrono::Duration) -> Service {
        let inner = Arc::try_unwrap(self.inner).unwrap_or_else(|shared| Inner {
            extractors: Arc::clone(&shared.extractors),
            catalog: shared.catalog.clone(),
            store: shared.store.clone(),
            clock: Arc::clone(&shared.clock),
            validity: shared.validity,
            tracker: shared.tracker.clone(),
        });
        Service { inner: Arc::new(Inner { validity, ..inner }) }
    }

    pub fn extractor_names(&self) -> Vec<String> {
        self.inner.extractors.names().into_iter().map(str::to_owned).collect()
    }

    /// Checks one order and seals the record before returning. The work runs
    /// in its own task: a caller that goes away (a closed connection) does not
    /// cut a check off between its decision and its seal.
    pub async fn check_order(&self, request: CheckRequest) -> Result<CheckResult, CheckError> {
        let inner = Arc::clone(&self.inner);
        let handle = self.inner.tracker.spawn(async move { inner.check(request).await });
        handle.await.map_err(|_| CheckError::Interrupted)?
    }

    /// Stops accepting checks and waits for the ones in flight (each seals
    /// its record before it finishes).
    pub async fn shutdown(&self) {
        self.inner.tracker.close();
        self.inner.tracker.wait().await;
    }
}

impl Inner {
    async fn check(&self, arguments: CheckRequest) -> Result<CheckResult, CheckError> {
        if let Some(field) = too_deep(&arguments) {
            dismantle(arguments);
            return Err(invalid(field, format!("nested deeper than the bound of {MAX_JSON_DEPTH}")));
        }
        let request = arguments.request.trim().to_owned();
        if request.is_empty() {
            return Err(invalid("request", "empty: pass the person's words verbatim"));
        }
        if request.len() > MAX_REQUEST_BYTES {
            return Err(invalid("request", format!("{} bytes, above the bound of {MAX_REQUEST_BYTES}", request.len())));
        }
        let today = match &arguments.today {
            Some(text) => today::parse(text, "today").map_err(|error| invalid(error.field, error.message))?,
            None => self.clock.now().date_naive(),
        };
        let (cart, categories) = self.resolve_cart(&arguments.cart)?;
        let allowed = self.allowed(arguments.allowed_items.as_deref(), &categories)?;
        if arguments.answers.len() > MAX_ANSWERS {
            return Err(invalid("answers", format!("more than {MAX_ANSWERS} answers")));
        }

        let previous = match &arguments.previous_record_id {
            None => {
                if !arguments.answers.is_empty() {
                    return Err(invalid("answers", "answers need the previous_record_id of the check they answer"));
                }
                None
            }
            Some(previous_id) => {
                let record = self.store.get(previous_id).await?.ok_or_else(|| {
                    invalid("previous_record_id", format!("no record {previous_id:?} exists in this server's evidence"))
                })?;
                if record.request != request {
                    return Err(invalid(
                        "previous_record_id",
                        format!("record {previous_id:?} belongs to another request: a new request is a new check"),
                    ));
                }
                Some(record)
            }
        };
        let state = match &previous {
            None => AnswerState::default(),
            Some(record) => answer_state(record, &arguments.answers)?,
        };
        let mandate_digest = digest::of_value(&json!({
            "request": request,
            "today": today.to_string(),
            "answers": state,
        }));
        let cart_value = serde_json::to_value(&cart).map_err(StoreError::from)?;
        let subject_digest = digest::of_value(&cart_value);
        let record_id = record_id(&mandate_digest, &subject_digest);

        // Replaying the very same check returns its record; nothing new is sealed.
        if let Some(existing) = self.store.get(&record_id).await? {
            let mut result = stored_result(&existing, arguments.format)?;
            self.renew_if_expired(&mut result);
            return Ok(result);
        }
        if let Some(record) = &previous {
            if record.attempt >= MAX_ATTEMPTS {
                let binding = self.binding(&record.record_id, &mandate_digest, &subject_digest, None);
                return Ok(with_format(budget_exhausted(record, today, &binding), arguments.format));
            }
            if let Some(successor) = self.store.successor(&record.record_id).await? {
                return Err(invalid(
                    "previous_record_id",
                    format!(
                        "record {:?} was already superseded by {successor:?}: pass the latest record_id",
                        record.record_id
                    ),
                ));
            }
        }

        let input = ExtractInput { request: request.clone(), today, answers: state.clarifications.clone() };
        let outcome = self.extractors.extract(&input).await;
        let previous_id = previous.as_ref().map(|record| record.record_id.clone());
        let binding = self.binding(&record_id, &mandate_digest, &subject_digest, previous_id.clone());
        let (verdict, facts, messages) = match &outcome.merged {
            Ok(facts) => {
                let findings = apply_answers(decision::check(facts, &cart, &allowed).findings, &state, &cart);
                let verdict = Verdict::from_findings(findings);
                let messages = verdict.findings.iter().map(|finding| acf::message(finding, &facts.disputed)).collect();
                (verdict, Some(facts.clone()), messages)
            }
            Err(failure) => {
                let reasons = vec![failure.reason()];
                let verdict = Verdict {
                    decision: Decision::Ask,
                    question: Some(decision::question(&reasons)),
                    reasons,
                    notes: Vec::new(),
                    findings: Vec::new(),
                };
                (verdict, None, vec![acf::engine_error_message(&failure.to_string())])
            }
        };
        let projection = acf::project(verdict.decision, messages, &binding);
        let result = CheckResult {
            decision: verdict.decision,
            reasons: verdict.reasons,
            question: verdict.question,
            notes: verdict.notes,
            findings: verdict.findings,
            facts,
            record_id: record_id.clone(),
            previous_record_id: previous_id.clone(),
            attempt: previous.as_ref().map_or(1, |record| record.attempt + 1),
            today: today.to_string(),
            acf: projection,
            acf_v01: None,
        };
        let body = json!({
            "today": today.to_string(),
            "mandate_digest": mandate_digest,
            "subject_digest": subject_digest,
            "answers": arguments.answers,
            "answer_state": state,
            "cart": cart_value,
            "allowed_items": allowed.len(),
            "extractors": outcome.reports,
            "fail_closed": outcome.merged.as_ref().err().map(|failure| failure.detail.clone()),
            "result": result,
        });
        let draft = Draft {
            record_id,
            previous_record_id: previous_id,
            request,
            sealed_at: acf::rfc3339(self.clock.now()),
            body,
        };
        match self.store.append(draft).await? {
            Ok(Appended::New(_)) => Ok(with_format(result, arguments.format)),
            // The same check raced this one to the log: return what was sealed.
            Ok(Appended::Existing(existing)) => stored_result(&existing, arguments.format),
            Err(error @ (LinkError::NotFound(_) | LinkError::OtherRequest(_) | LinkError::NotHead(..))) => {
                Err(invalid("previous_record_id", error.to_string()))
            }
        }
    }

    /// A replay after `expires_at` gets a fresh validity window: the verdict
    /// is the sealed one (same digests, same record), and a window that has
    /// run out would only make the agent check again to get it back.
    fn renew_if_expired(&self, result: &mut CheckResult) {
        let conformity = &mut result.acf.conformity;
        let now = self.clock.now();
        let expired = DateTime::parse_from_rfc3339(&conformity.expires_at).map_or(true, |expires| expires < now);
        if expired {
            conformity.issued_at = acf::rfc3339(now);
            conformity.expires_at = acf::rfc3339(now + self.validity);
        }
    }

    fn binding(&self, record_id: &str, mandate: &str, subject: &str, previous: Option<String>) -> Binding {
        Binding {
            record_id: record_id.to_owned(),
            mandate_digest: mandate.to_owned(),
            subject_digest: subject.to_owned(),
            issued_at: self.clock.now(),
            validity: self.validity,
            previous_record_id: previous,
        }
    }

    /// Parses the cart, replacing `{id, quantity}` entries by catalog items.
    /// Returns the categories of the catalog items in the cart.
    fn resolve_cart(&self, entries: &[Map<String, Value>]) -> Result<(Cart, BTreeSet<String>), CheckError> {
        let mut resolved = Vec::with_capacity(entries.len());
        let mut unknown = Vec::new();
        let mut categories = BTreeSet::new();
        for (index, entry) in entries.iter().enumerate() {
            let reference = entry.keys().all(|key| key == "id" || key == "quantity");
            let id = entry.get("id").and_then(Value::as_str);
            match (reference, id) {
                (true, Some(id)) => {
                    let Some(catalog) = &self.catalog else {
                        return Err(invalid(
                            format!("cart[{index}]"),
                            format!(
                                "{id:?} is a catalog id but no catalog is configured (--catalog): send the item's attributes"
                            ),
                        ));
                    };
                    match catalog.get(id) {
                        Some(found) => {
                            categories.insert(found.category.clone());
                            let item = serde_json::to_value(&found.item).map_err(StoreError::from)?;
                            let quantity = entry.get("quantity").cloned().unwrap_or(Value::Null);
                            resolved.push(json!({"item": item, "quantity": quantity}));
                        }
                        None => unknown.push(id.to_owned()),
                    }
                }
                _ => {
                    let item_id = entry
                        .get("item")
                        .and_then(|item| item.get("id"))
                        .or_else(|| entry.get("id"))
                        .and_then(Value::as_str);
                    if let (Some(catalog), Some(item_id)) = (&self.catalog, item_id)
                        && let Some(found) = catalog.get(item_id)
                    {
                        categories.insert(found.category.clone());
                    }
                    resolved.push(Value::Object(entry.clone()));
                }
            }
        }
        if !unknown.is_empty() {
            return Err(invalid("cart", format!("unknown catalog ids: {}", unknown.join(", "))));
        }
        let cart = Cart::from_value_at(&Value::Array(resolved), "cart")
            .map_err(|error| invalid(error.path.clone(), error.message))?;
        Ok((cart, categories))
    }

    fn allowed(&self, given: Option<&[AllowedItem]>, categories: &BTreeSet<String>) -> Result<Vec<Item>, CheckError> {
        let Some(given) = given else {
            let Some(catalog) = &self.catalog else {
                return Ok(Vec::new());
            };
            return Ok(categories
                .iter()
                .flat_map(|category| catalog.in_category(category).map(|found| found.item.clone()))
                .collect());
        };
        given
            .iter()
            .enumerate()
            .map(|(index, allowed)| {
                let field = format!("allowed_items[{index}]");
                match allowed {
                    AllowedItem::Id(id) => self
                        .catalog
                        .as_ref()
                        .and_then(|catalog| catalog.get(id))
                        .map(|found| found.item.clone())
                        .ok_or_else(|| invalid(field, format!("unknown catalog id {id:?}"))),
                    AllowedItem::Item(object) => parse_item(&Value::Object(object.clone()), &field)
                        .map_err(|error| invalid(error.path.clone(), error.message)),
                }
            })
            .collect()
    }
}

/// The first cart entry or allowed item nested deeper than [`MAX_JSON_DEPTH`],
/// found without recursion.
fn too_deep(arguments: &CheckRequest) -> Option<String> {
    let exceeds = |map: &Map<String, Value>| {
        let mut stack: Vec<(&Value, usize)> = map.values().map(|value| (value, 2)).collect();
        while let Some((value, depth)) = stack.pop() {
            let children: Box<dyn Iterator<Item = &Value>> = match value {
                Value::Array(items) => Box::new(items.iter()),
                Value::Object(object) => Box::new(object.values()),
                _ => continue,
            };
            if depth > MAX_JSON_DEPTH {
                return true;
            }
            stack.extend(children.map(|child| (child, depth + 1)));
        }
        false
    };
    if let Some(index) = arguments.cart.iter().position(exceeds) {
        return Some(format!("cart[{index}]"));
    }
    let allowed = arguments.allowed_items.as_deref().unwrap_or_default();
    allowed
        .iter()
        .position(|allowed| matches!(allowed, AllowedItem::Item(object) if exceeds(object)))
        .map(|index| format!("allowed_items[{index}]"))
}

/// Drops a refused request without recursion: its values may be nested
/// deeper than a worker thread's stack could drop recursively.
fn dismantle(arguments: CheckRequest) {
    let mut stack: Vec<Value> = arguments.cart.into_iter().map(Value::Object).collect();
    for allowed in arguments.allowed_items.unwrap_or_default() {
        if let AllowedItem::Item(object) = allowed {
            stack.push(Value::Object(object));
        }
    }
    while let Some(value) = stack.pop() {
        match value {
            Value::Array(items) => stack.extend(items),
            Value::Object(object) => stack.extend(object.into_iter().map(|(_, child)| child)),
            _ => {}
        }
    }
}

/// The record id: a digest of what was checked (mandate and cart), so the
/// very same check always gets the same id.
pub fn record_id(mandate_digest: &str, subject_digest: &str) -> String {
    let combined = digest::sha256(format!("{mandate_digest}\n{subject_digest}").as_bytes());
    format!("rec_{}", &combined["sha256:".len().."sha256:".len() + 32])
}

fn stored_result(record: &SealedRecord, format: Option<Format>) -> Result<CheckResult, CheckError> {
    let result: CheckResult =
        serde_json::from_value(record.body.get("result").cloned().unwrap_or(Value::Null)).map_err(StoreError::from)?;
    Ok(with_format(result, format))
}

fn with_format(mut result: CheckResult, format: Option<Format>) -> CheckResult {
    result.acf_v01 = (format == Some(Format::AcfV01)).then(|| acf::v01(&result.acf));
    result
}

/// The digest of the item a finding is about (its cart entry), or of the
/// whole cart for whole-cart findings: an acceptance holds only for it.
fn item_digest(cart: &Cart, path: &str) -> String {
    let index = path
        .strip_prefix("$.cart[")
        .and_then(|rest| rest.strip_suffix(']'))
        .and_then(|number| number.parse::<usize>().ok());
    let value = match index.and_then(|index| cart.entries.get(index)) {
        Some(entry) => serde_json::to_value(&entry.item),
        None => serde_json::to_value(cart),
    };
    digest::of_value(&value.unwrap_or(Value::Null))
}

/// Validates this call's answers against the previous record's findings and
/// adds them to the answers inherited along the chain.
fn answer_state(previous: &SealedRecord, answers: &[Answer]) -> Result<AnswerState, CheckError> {
    let mut state: AnswerState = previous
        .body
        .get("answer_state")
        .cloned()
        .and_then(|value| serde_json::from_value(value).ok())
        .unwrap_or_default();
    let findings: Vec<Finding> = previous
        .body
        .pointer("/result/findings")
        .cloned()
        .and_then(|value| serde_json::from_value(value).ok())
        .unwrap_or_default();
    let cart: Option<Cart> = previous.body.get("cart").cloned().and_then(|value| serde_json::from_value(value).ok());
    for (index, answer) in answers.iter().enumerate() {
        let reply = answer.reply.trim();
        if reply.is_empty() {
            return Err(invalid(format!("answers[{index}].reply"), "empty: accept, decline or the person's words"));
        }
        if reply.len() > MAX_ANSWER_BYTES {
            return Err(invalid(
                format!("answers[{index}].reply"),
                format!("above the bound of {MAX_ANSWER_BYTES} bytes"),
            ));
        }
        let Some(finding) = findings.iter().find(|finding| finding.id == answer.finding_id) else {
            return Err(invalid(
                format!("answers[{index}].finding_id"),
                format!(
                    "record {:?} raised no finding {:?}: answer only what the person was asked",
                    previous.record_id, answer.finding_id
                ),
            ));
        };
        let decided = || Decided {
            finding_id: finding.id.clone(),
            item_digest: cart.as_ref().map(|cart| item_digest(cart, &finding.path)).unwrap_or_default(),
            actual: finding.actual.clone(),
        };
        match reply.to_lowercase().as_str() {
            "accept" => {
                let decided = decided();
                state.declined.retain(|other| other.finding_id != decided.finding_id);
                if !state.accepted.contains(&decided) {
                    state.accepted.push(decided);
                }
            }
            "decline" => {
                let decided = decided();
                state.accepted.retain(|other| other.finding_id != decided.finding_id);
                if !state.declined.contains(&decided) {
                    state.declined.push(decided);
                }
            }
            _ => {
                if !state.clarifications.iter().any(|known| known == reply) {
                    state.clarifications.push(reply.to_owned());
                }
            }
        }
    }
    Ok(state)
}

/// Accepted block findings become notes; declined ones keep blocking with the
/// refusal in their reason. Both only for the same finding on the same item
/// with the same actual value.
fn apply_answers(findings: Vec<Finding>, state: &AnswerState, cart: &Cart) -> Vec<Finding> {
    let matches = |decided: &Decided, finding: &Finding| {
        decided.finding_id == finding.id
            && decided.actual == finding.actual
            && decided.item_digest == item_digest(cart, &finding.path)
    };
    findings
        .into_iter()
        .map(|mut finding| {
            if finding.severity != Severity::Block {
                return finding;
            }
            if state.accepted.iter().any(|decided| matches(decided, &finding)) {
                finding.severity = Severity::Warn;
                finding.reason = format!("{} ({ACCEPTED})", finding.reason.trim_end_matches('.'));
            } else if state.declined.iter().any(|decided| matches(decided, &finding)) {
                finding.reason = format!("{} ({DECLINED})", finding.reason.trim_end_matches('.'));
            }
            finding
        })
        .collect()
}

/// The result of a resubmission past the retry budget: not sealed (the chain
/// is full), the person decides.
fn budget_exhausted(previous: &SealedRecord, today: NaiveDate, binding: &Binding) -> CheckResult {
    let reason = format!(
        "This order was already checked {MAX_ATTEMPTS} times (the retry budget): the person must now decide themselves."
    );
    let reasons = vec![reason.clone()];
    let projection = acf::project(Decision::Ask, vec![acf::retry_budget_message(&reason)], binding);
    CheckResult {
        decision: Decision::Ask,
        question: Some(decision::question(&reasons)),
        reasons,
        notes: Vec::new(),
        findings: Vec::new(),
        facts: None,
        record_id: previous.record_id.clone(),
        previous_record_id: previous.previous_record_id.clone(),
        attempt: previous.attempt,
        today: today.to_string(),
        acf: projection,
        acf_v01: None,
    }
}
