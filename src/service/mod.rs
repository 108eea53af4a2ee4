//! The one place a check is orchestrated, for the MCP handler and the CLI
//! alike: validate the arguments, resolve the cart against the catalog,
//! follow the attempt chain and the person's answers, extract facts through
//! the [`ExtractorSet`], run the pure guard, render ACF, and seal the record
//! before the result is returned. The shopping brief ([`brief`]) reads the
//! facts of a request ahead of its check, through the same set and cache.
//!
//! I/O comes in: the extractor set, the catalog, the evidence store and the
//! clock are constructor arguments. This module knows no transport and reads
//! no environment.

pub mod answer_state;
pub mod answers;
pub mod brief;
pub mod input;
pub mod quote;
pub mod record;

use std::sync::Arc;

use chrono::{DateTime, NaiveDate, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use tokio_util::task::TaskTracker;

use crate::acf::{self, AcfProjection, AcfV01, AcpProjection, Binding, MAX_ATTEMPTS};
use crate::catalog::Catalog;
use crate::checks::CheckPolicy;
use crate::decision::{self, Decision, Verdict};
use crate::digest;
use crate::evidence::{Appended, Body, Draft, LinkError, RecordStore, StoreError};
use crate::extract::ExtractInput;
use crate::extract::set::ExtractorSet;
use crate::facts::Facts;
use crate::finding::Finding;
use crate::messages::{self, Language};
use crate::principal::Principal;
use crate::protocols::CartShape;
use crate::receipt::{self, Jwks, KeyRing, Verification};
pub use answer_state::{ACCEPT_REPLY, DECLINE_REPLY};
pub use answers::{ACCEPTED, DECLINED};
pub use brief::{BriefRequest, BriefResult, Unclear, UnclearKind};
use input::Input;
pub use record::CheckRecord;
use record::RecordError;

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
    /// with every condition they stated. Do not summarise or rephrase. Or
    /// the AP2 mandate holding them: a v0.1 IntentMandate (its
    /// `natural_language_description` is read as the words; `merchants`,
    /// `skus`, `requires_refundability` and `intent_expiry` are checked as
    /// the mandate's own constraints), or `{"text": words, "mandates": [AP2
    /// v0.2 mandate.checkout.open.1 / mandate.payment.open.1 payloads]}`.
    /// Signatures are not verified: send only mandates you hold.
    #[schemars(with = "RequestArgument")]
    pub request: Value,
    /// The cart you intend to pay for: a JSON list (not a string holding
    /// one), or the checkout as your protocol holds it: a UCP checkout, an
    /// ACP CheckoutSession or an AP2 CartMandate object, sent as it is. Each
    /// entry of a list is `{"id": "<catalog id>", "quantity": n}` (nothing
    /// else beside a catalog id), or `{"item": {id, brand, name, color, size,
    /// level, final_sale, delivery_days, units, price_cents, currency,
    /// description, category, attributes}, "quantity": n}`, or a flat item
    /// `{name, brand, color, size, level, price, currency, returnable,
    /// delivery_days, units, description, category, attributes, quantity}`.
    /// Every attribute is optional, and each one you leave out turns its
    /// check into a note that it could not run: `delivery_days` for a
    /// deadline, `returnable: false` (or `final_sale: true`) for a wish to
    /// return, `currency` (ISO 4217) for a budget, `units` (what the person
    /// counts in one entry unit: a 3-can pack is 3; a flat item without it
    /// is 1) for a quantity. The item's words, `description`, `category` and
    /// `attributes` (`{"Material": "Denim"}`: every name and value the store
    /// shows, as strings), let the guard check what the person required
    /// beyond those attributes; what the item's words do not say is
    /// put to the person. A protocol's checkout carries them as it has them
    /// (an ACP line's `description`, `variant_options`, `custom_attributes`).
    #[schemars(with = "CartArgument")]
    pub cart: Value,
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
    /// The language of the reasons, notes and question: `en` or `ru`.
    /// Default: the request's own (Russian when at least a quarter of its
    /// letters are Cyrillic, else English).
    #[serde(default)]
    pub language: Option<Language>,
    /// Exchange rates you hold, each with the date it was quoted: what lets
    /// a spending limit in one currency be compared with a cart priced in
    /// another (`{"from": "USD", "to": "EUR", "rate": "0.92", "date":
    /// "2026-11-01"}`: one USD is 0.92 EUR). Without one, such a limit is
    /// put to the person, naming both amounts. The guard never fetches or
    /// invents a rate. Default: the server's configured rates (`--fx`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fx: Vec<FxRate>,
}

/// One exchange rate a caller gives (`fx`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FxRate {
    /// ISO 4217 code of the currency converted from.
    pub from: String,
    /// ISO 4217 code of the currency converted into.
    pub to: String,
    /// Units of `to` for one unit of `from`, as a decimal (a string, or a
    /// number).
    #[schemars(with = "String")]
    pub rate: Value,
    /// The day the rate was quoted (ISO, `2026-11-01`).
    pub date: String,
}

/// The schema of `request`: the person's words, or a mandate object.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum RequestArgument {
    Words(String),
    Mandate(Map<String, Value>),
}

/// The schema of `cart`: a list of entries, or a protocol's checkout object.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum CartArgument {
    Entries(Vec<Map<String, Value>>),
    Checkout(Map<String, Value>),
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
    /// Every finding with its id (for `answers`; `engine_error@$` when the
    /// request could not be checked), code, severity, field, line,
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
    /// The findings as ACP messages (`type`, `code`, `severity`,
    /// `resolution`, `param` = JSONPath into the cart as you sent it,
    /// `content_type`, `content`) and the ACP CheckoutSession status this
    /// verdict maps to. Not sealed: rendered for each answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub acp: Option<AcpProjection>,
    /// On `proceed`, when this server signs receipts: a compact JWS (Ed25519)
    /// binding `record_id`, this exact cart and `expires_at`, which a
    /// merchant or payment gateway verifies with the public keys
    /// (`asasked keys`, `/.well-known/jwks.json`) or the `verify_verdict`
    /// tool. Never sealed: each answer gets a fresh nonce.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub receipt: Option<String>,
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
    /// A sealed record this check reads (the previous attempt, or the one a
    /// replay returns) is not a check record this version can read.
    #[error("evidence: {0}")]
    Record(#[from] RecordError),
    /// The check task stopped before finishing.
    #[error("the check was interrupted")]
    Interrupted,
    /// A `proceed` could not be signed (the key is unusable): no receipt
    /// is better than an unsigned one, so the check is an error.
    #[error("receipt: {0}")]
    Receipt(String),
}

fn invalid(field: impl Into<String>, message: impl Into<String>) -> CheckError {
    CheckError::InvalidArgument { field: field.into(), message: message.into() }
}

/// Runs checks. Cheap to clone.
#[derive(Clone)]
pub struct Service {
    inner: Arc<Inner>,
    /// Whom this handle checks for: its records, chains and cache entries
    /// are this principal's alone (see [`crate::principal`]).
    principal: Principal,
}

struct Inner {
    extractors: Arc<ExtractorSet>,
    catalog: Option<Arc<Catalog>>,
    store: Arc<dyn RecordStore>,
    clock: Arc<dyn Clock>,
    validity: chrono::Duration,
    receipts: Option<Arc<KeyRing>>,
    /// Exchange rates configured for calls that give none (`--fx`).
    rates: Vec<crate::cart::ExchangeRate>,
    tracker: TaskTracker,
}

impl std::fmt::Debug for Service {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Service")
            .field("extractors", &self.inner.extractors.names())
            .field("catalog", &self.inner.catalog.as_ref().map(|catalog| catalog.len()))
            .field("evidence", &self.inner.store.location())
            .finish()
    }
}

impl Service {
    pub fn new(
        extractors: Arc<ExtractorSet>,
        catalog: Option<Arc<Catalog>>,
        store: impl Into<Arc<dyn RecordStore>>,
        clock: Arc<dyn Clock>,
    ) -> Service {
        let store = store.into();
        Service {
            inner: Arc::new(Inner {
                extractors,
                catalog,
                store,
                clock,
                validity: chrono::Duration::minutes(DEFAULT_VALIDITY_MINUTES),
                receipts: None,
                rates: Vec::new(),
                tracker: TaskTracker::new(),
            }),
            principal: Principal::Local,
        }
    }

    /// The same service checking for `principal` (cheap: the store, the
    /// extractors and the keys are shared).
    pub fn as_principal(&self, principal: Principal) -> Service {
        Service { inner: Arc::clone(&self.inner), principal }
    }

    /// Whom this handle checks for.
    pub fn principal(&self) -> &Principal {
        &self.principal
    }

    /// Sets how long verdicts stay valid (`expires_at`).
    pub fn with_validity(self, validity: chrono::Duration) -> Service {
        let principal = self.principal.clone();
        let inner = self.unshared();
        Service { inner: Arc::new(Inner { validity, ..inner }), principal }
    }

    /// Signs a receipt for every `proceed` with `keys` (see [`crate::receipt`]).
    pub fn with_receipts(self, keys: Arc<KeyRing>) -> Service {
        let principal = self.principal.clone();
        let inner = self.unshared();
        Service { inner: Arc::new(Inner { receipts: Some(keys), ..inner }), principal }
    }

    /// Exchange rates for checks whose call gives none (configuration:
    /// `--fx`); a call's own `fx` replaces them.
    pub fn with_rates(self, rates: Vec<crate::cart::ExchangeRate>) -> Service {
        let principal = self.principal.clone();
        let inner = self.unshared();
        Service { inner: Arc::new(Inner { rates, ..inner }), principal }
    }

    fn unshared(self) -> Inner {
        Arc::try_unwrap(self.inner).unwrap_or_else(|shared| Inner {
            extractors: Arc::clone(&shared.extractors),
            catalog: shared.catalog.clone(),
            store: Arc::clone(&shared.store),
            clock: Arc::clone(&shared.clock),
            validity: shared.validity,
            receipts: shared.receipts.clone(),
            rates: shared.rates.clone(),
            tracker: shared.tracker.clone(),
        })
    }

    /// The public keys of this server's receipts, if it signs any.
    pub fn jwks(&self) -> Option<Jwks> {
        self.inner.receipts.as_ref().map(|keys| keys.jwks())
    }

    /// Verifies a receipt with this server's keys, now, for `cart` (in any
    /// shape `check_order` accepts, resolved the same way) if given.
    /// `today` is the date the check was made with, when it was given (a
    /// checkout document's delivery days count from it); default the clock's.
    pub fn verify_receipt(
        &self,
        token: &str,
        cart: Option<&Value>,
        today: Option<&str>,
    ) -> Result<Verification, CheckError> {
        let Some(keys) = &self.inner.receipts else {
            return Err(invalid("$.token", "this server signs no receipts"));
        };
        let cart_digest = match cart {
            Some(entries) => {
                let today = input::today_of(today, || self.inner.clock.now().date_naive())?;
                Some(input::cart_digest(entries, self.inner.catalog.as_deref(), today)?)
            }
            None => None,
        };
        Ok(receipt::verify(token, &keys.jwks(), self.inner.clock.now(), cart_digest.as_deref()))
    }

    /// What the person pays for `cart` (in any shape `check_order` accepts,
    /// resolved the same way on `today`): the checkout's stated total, else
    /// the items with what the cart states beside them. `None` when it
    /// cannot be had in one currency. The payment wrapper holds a payment's
    /// amount to it.
    pub fn payable(
        &self,
        cart: &Value,
        today: Option<&str>,
    ) -> Result<Option<crate::checks::explicit_max::Paid>, CheckError> {
        let today = input::today_of(today, || self.inner.clock.now().date_naive())?;
        input::cart_paid(cart, self.inner.catalog.as_deref(), today)
    }

    /// Where this service seals evidence (a log's path, or a database).
    pub fn evidence_location(&self) -> String {
        self.inner.store.location()
    }

    pub fn extractor_names(&self) -> Vec<String> {
        self.inner.extractors.names().into_iter().map(str::to_owned).collect()
    }

    /// Checks one order and seals the record before returning. The work runs
    /// in its own task: a caller that goes away (a closed connection) does not
    /// cut a check off between its decision and its seal.
    pub async fn check_order(&self, request: CheckRequest) -> Result<CheckResult, CheckError> {
        let inner = Arc::clone(&self.inner);
        let principal = self.principal.clone();
        let handle = self.inner.tracker.spawn(async move { inner.check(request, &principal).await });
        let mut result = handle.await.map_err(|_| CheckError::Interrupted)??;
        self.inner.sign(&mut result)?;
        Ok(result)
    }

    /// The result sealed under `record_id`, as it was returned then; `None`
    /// when no such record exists. For a caller that holds only a record id
    /// (the `requestState` of an elicitation round) and must give the sealed
    /// answer back unchanged.
    /// Another principal's record is `None`, as if it did not exist.
    pub async fn sealed_result(&self, record_id: &str) -> Result<Option<CheckResult>, CheckError> {
        Ok(self.sealed_record(record_id).await?.map(|record| record.result))
    }

    /// The check record sealed under `record_id`, whichever principal it is
    /// for: for a caller that holds a receipt naming it (redemption), whose
    /// signature is the authority, not the caller's principal.
    pub async fn any_record(&self, record_id: &str) -> Result<Option<CheckRecord>, CheckError> {
        let Some(sealed) = self.inner.store.get(record_id).await? else { return Ok(None) };
        Ok(Some(CheckRecord::decode(&sealed)?))
    }

    /// The record that superseded `record_id`, if one did.
    pub async fn successor_of(&self, record_id: &str) -> Result<Option<String>, CheckError> {
        Ok(self.inner.store.successor(record_id).await?)
    }

    /// The service's clock.
    pub fn now(&self) -> DateTime<Utc> {
        self.inner.clock.now()
    }

    /// The check record sealed under `record_id` if it is this principal's.
    pub async fn sealed_record(&self, record_id: &str) -> Result<Option<CheckRecord>, CheckError> {
        let Some(sealed) = self.inner.store.get(record_id).await? else { return Ok(None) };
        let record = CheckRecord::decode(&sealed)?;
        Ok(self.principal.owns(record.principal.as_deref()).then_some(record))
    }

    /// The shopping brief of a request (see [`brief`]): extracts its facts
    /// through the same extractor set and cache as a check, so that a later
    /// check of the same request and today calls no model. Seals nothing.
    /// Like a check, the extraction runs in its own task: a caller that goes
    /// away still leaves the facts cached.
    pub async fn brief_order(&self, arguments: BriefRequest) -> Result<BriefResult, CheckError> {
        let request = input::request_text(&arguments.request)?;
        let today = input::today_of(arguments.today.as_deref(), || self.inner.clock.now().date_naive())?;
        let extract_input = ExtractInput { request: request.clone(), today, answers: Vec::new() };
        let inner = Arc::clone(&self.inner);
        let principal = self.principal.clone();
        let handle = self
            .inner
            .tracker
            .spawn(async move { inner.extractors.extract_scoped(&extract_input, principal.stored()).await });
        let outcome = handle.await.map_err(|_| CheckError::Interrupted)?;
        let language = arguments.language.unwrap_or_else(|| Language::detect(&request));
        Ok(brief::brief(request, today, &outcome, language))
    }

    /// Stops accepting checks and waits for the ones in flight (each seals
    /// its record before it finishes).
    pub async fn shutdown(&self) {
        self.inner.tracker.close();
        self.inner.tracker.wait().await;
    }
}

impl Inner {
    /// One check, as a sequence of typed stages, each consumed once:
    /// arguments → [`input::Input`]; the previous record (link rules) and
    /// answers → [`answer_state::AnswerState`]; digests and record id; replay or
    /// retry budget; extraction → facts; the guard → [`Verdict`]; ACF; seal.
    async fn check(&self, arguments: CheckRequest, principal: &Principal) -> Result<CheckResult, CheckError> {
        let mut input = input::validate(arguments, self.catalog.as_deref(), || self.clock.now().date_naive())?;
        if input.cart.charges.rates.is_empty() {
            input.cart.charges.rates = self.rates.clone();
        }
        let link = self.link(&input, principal).await?;
        let previous = link.as_ref().map(|link| &link.record);
        let state = answers::resolve(previous, &input.answers)?;
        let mut mandate = json!({
            "request": input.request,
            "today": input.today.to_string(),
            "answers": state,
        });
        // A chosen language is part of what was asked (the same check in
        // another language must not replay the first one's words); a
        // detected one follows from the request, so ids stay as they were.
        if input.language_chosen {
            mandate["language"] = json!(input.language);
        }
        // A mandate's constraints are part of what was asked (and so of the
        // receipt's mandate digest); words alone digest as they always did.
        if !input.mandate.is_empty() {
            mandate["mandate"] = json!(input.mandate);
        }
        // So are the exchange rates a limit was compared with (issue 29):
        // the same check with another rate is another answer. A check
        // without any digests as it always did.
        if !input.cart.charges.rates.is_empty() {
            mandate["fx"] = json!(input.cart.charges.rates);
        }
        let mandate_digest = digest::of_value(&mandate);
        let subject_digest = input::subject_digest(&input.cart, input.payment.as_ref())?;
        let whole = if input.shape == CartShape::Entries { "$.cart" } else { "$" };
        let presentation = Presentation { format: input.format, params: input.params.clone(), whole };
        let record_id = principal_record_id(&mandate_digest, &subject_digest, principal);

        // Replaying the very same check returns its record; nothing new is
        // sealed. (Record ids differ between principals, so this is always
        // the caller's own record.)
        if let Some(existing) = self.store.get(&record_id).await? {
            let mut result = CheckRecord::decode(&existing)?.result;
            self.renew_if_expired(&mut result);
            return Ok(presentation.finish(result));
        }
        let previous_id = previous.map(|record| record.result.record_id.clone());
        if let Some(link) = &link {
            if link.record.result.attempt >= MAX_ATTEMPTS {
                let result =
                    self.budget_exhausted(&link.record, input.today, &mandate_digest, &subject_digest, input.language);
                return Ok(presentation.finish(result));
            }
            if let Some(successor) = &link.superseded_by {
                let error = LinkError::NotHead(link.record.result.record_id.clone(), successor.clone());
                return Err(invalid("$.previous_record_id", error.to_string()));
            }
        }

        let extract_input =
            ExtractInput { request: input.request.clone(), today: input.today, answers: state.clarifications.clone() };
        let outcome = self.extractors.extract_scoped(&extract_input, principal.stored()).await;
        // What the words ask about charges beyond the items (issue 29), read
        // deterministically from the request and the person's clarifications.
        let asked = crate::words::charges::asked(
            &std::iter::once(input.request.as_str())
                .chain(state.clarifications.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join("\n"),
        );
        let checked = outcome.merged.as_ref().map(|merged| {
            let merged = Facts { asked: asked.clone(), ..merged.clone() };
            decision::run_with_mandate(
                CheckPolicy::Words,
                &merged,
                &input.mandate,
                &input.cart,
                input.payment.as_ref(),
                &input.allowed,
                input.today,
            )
        });
        let (facts, verdict) = match checked {
            Ok((facts, findings)) => {
                let findings = quote::quote_reasons(findings, &input.cart, &outcome.reports, input.today);
                let findings = answers::apply(findings, &state, &input.cart);
                let mut verdict = Verdict::checked(findings, &facts.disputed, input.language);
                verdict.notes.extend(outcome.drop_notes().iter().map(|note| messages::render(input.language, note)));
                (Some(facts), verdict)
            }
            Err(failure) => {
                // The person may accept buying unchecked: `engine_error@$`,
                // pinned to this very cart like any accepted finding.
                let blocking = decision::engine_error_finding(failure.found());
                let finding = answers::apply(vec![blocking.clone()], &state, &input.cart).pop().unwrap_or(blocking);
                let verdict = Verdict::could_not_check(
                    finding,
                    &failure.cause(),
                    &input.cart,
                    failure.to_string(),
                    input.language,
                );
                (None, verdict)
            }
        };
        let binding = self.binding(&record_id, &mandate_digest, &subject_digest, previous_id.clone());
        let result = CheckResult::new(
            verdict,
            facts,
            &binding,
            previous.map_or(1, |record| record.result.attempt + 1),
            input.today,
        );
        let record = CheckRecord {
            schema: record::SchemaVersion,
            today: input.today,
            mandate_digest,
            subject_digest,
            answers: input.answers,
            answer_state: state,
            cart: input.cart,
            mandate: (!input.mandate.is_empty()).then_some(input.mandate),
            payment: input.payment,
            allowed_items: input.allowed.len(),
            extractors: outcome.reports.clone(),
            fail_closed: outcome.merged.as_ref().err().map(|failure| failure.detail.clone()),
            principal: principal.stored().map(str::to_owned),
            result,
        };
        self.seal(record, input.request, previous_id, presentation).await
    }

    /// The link rules of ACF v0.2 §7, checked once before any model is
    /// called (the evidence writer checks them again, atomically, when it
    /// appends): the previous record exists and concerns the same request.
    /// Whether it still heads its chain is returned, not refused, because
    /// a replay of the check that superseded it is still answered. Another
    /// principal's record is "not found", never a link.
    async fn link(&self, input: &Input, principal: &Principal) -> Result<Option<Link>, CheckError> {
        let Some(previous_id) = &input.previous_record_id else {
            return Ok(None);
        };
        let refuse = |error: LinkError| invalid("$.previous_record_id", error.to_string());
        let Some(sealed) = self.store.get(previous_id).await? else {
            return Err(refuse(LinkError::NotFound(previous_id.clone())));
        };
        let record = CheckRecord::decode(&sealed)?;
        if !principal.owns(record.principal.as_deref()) {
            return Err(refuse(LinkError::NotFound(previous_id.clone())));
        }
        if sealed.request != input.request {
            return Err(refuse(LinkError::OtherRequest(previous_id.clone())));
        }
        let superseded_by = self.store.successor(previous_id).await?;
        Ok(Some(Link { record, superseded_by }))
    }

    /// Seals the record before its result is returned.
    async fn seal(
        &self,
        record: CheckRecord,
        request: String,
        previous_record_id: Option<String>,
        presentation: Presentation,
    ) -> Result<CheckResult, CheckError> {
        let draft = Draft {
            record_id: record.result.record_id.clone(),
            previous_record_id,
            request,
            sealed_at: acf::rfc3339(self.clock.now()),
            body: Body::of(&record).map_err(StoreError::from)?,
        };
        match self.store.append(draft).await? {
            Ok(Appended::New(_)) => Ok(presentation.finish(record.result)),
            // The same check raced this one to the log: return what was sealed.
            Ok(Appended::Existing(existing)) => Ok(presentation.finish(CheckRecord::decode(&existing)?.result)),
            Err(error) => Err(invalid("$.previous_record_id", error.to_string())),
        }
    }

    /// The result of a resubmission past the retry budget: not sealed (the
    /// chain is full), the person decides.
    fn budget_exhausted(
        &self,
        previous: &CheckRecord,
        today: NaiveDate,
        mandate_digest: &str,
        subject_digest: &str,
        language: Language,
    ) -> CheckResult {
        let last = &previous.result;
        let binding = self.binding(&last.record_id, mandate_digest, subject_digest, None);
        let verdict = Verdict::retry_budget_exhausted(MAX_ATTEMPTS, language);
        let mut result = CheckResult::new(verdict, None, &binding, last.attempt, today);
        result.previous_record_id = last.previous_record_id.clone();
        result
    }

    /// A replay after `expires_at` gets a fresh validity window: the verdict
    /// is the sealed one (same digests, same record), and a window that has
    /// run out would only make the agent check again to get it back.
    fn renew_if_expired(&self, result: &mut CheckResult) {
        let conformity = &mut result.acf.conformity;
        let now = self.clock.now();
        if conformity.expires_at < now {
            conformity.issued_at = acf::whole_seconds(now);
            conformity.expires_at = acf::whole_seconds(now + self.validity);
        }
    }

    /// Adds a receipt to a `proceed`, after sealing: the receipt is not
    /// evidence (the record is), only a portable proof of it, valid as long
    /// as the verdict (`expires_at`).
    fn sign(&self, result: &mut CheckResult) -> Result<(), CheckError> {
        let Some(keys) = &self.receipts else { return Ok(()) };
        if result.decision != Decision::Proceed {
            return Ok(());
        }
        let conformity = &result.acf.conformity;
        let expires_at = conformity.expires_at;
        let subject = receipt::Subject {
            record_id: &result.record_id,
            subject_digest: &conformity.subject_digest,
            mandate_digest: &conformity.mandate_ref.digest,
        };
        let token = receipt::issue(keys, &subject, self.clock.now(), expires_at)
            .map_err(|error| CheckError::Receipt(error.to_string()))?;
        result.acf.conformity.verdict_token = Some(token.clone());
        result.receipt = Some(token);
        Ok(())
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
}

/// The previous record a check links to, decoded, and the record that
/// already superseded it, if one did.
struct Link {
    record: CheckRecord,
    superseded_by: Option<String>,
}

impl CheckResult {
    /// The result of a verdict bound to its record.
    fn new(verdict: Verdict, facts: Option<Facts>, binding: &Binding, attempt: u32, today: NaiveDate) -> CheckResult {
        let acf = acf::render(&verdict, binding);
        CheckResult {
            decision: verdict.decision,
            reasons: verdict.reasons,
            question: verdict.question,
            notes: verdict.notes,
            findings: verdict.findings,
            facts,
            record_id: binding.record_id.clone(),
            previous_record_id: binding.previous_record_id.clone(),
            attempt,
            today: today.to_string(),
            acf,
            acf_v01: None,
            acp: None,
            receipt: None,
        }
    }
}

/// The record id: a digest of what was checked (mandate and cart), so the
/// very same check always gets the same id.
pub fn record_id(mandate_digest: &str, subject_digest: &str) -> String {
    let combined = digest::sha256(format!("{mandate_digest}\n{subject_digest}").as_bytes());
    format!("rec_{}", &combined["sha256:".len().."sha256:".len() + 32])
}

/// The record id of a check made for `principal`: [`record_id`] for the
/// local principal (ids sealed before principals existed stay the same), and
/// for a named one a digest that also holds its name, so that the same check
/// made by two principals is two records, each in its own chain, and one
/// principal's replay never returns another's record.
pub fn principal_record_id(mandate_digest: &str, subject_digest: &str, principal: &Principal) -> String {
    match principal.stored() {
        None => record_id(mandate_digest, subject_digest),
        Some(name) => {
            let combined = digest::sha256(format!("{mandate_digest}\n{subject_digest}\nprincipal:{name}").as_bytes());
            format!("rec_{}", &combined["sha256:".len().."sha256:".len() + 32])
        }
    }
}

/// What is rendered for the caller beside the sealed result, from how it
/// called: the ACF v0.1 object on request, and the ACP messages with
/// `param` pointing into the cart as the caller sent it.
struct Presentation {
    format: Option<Format>,
    params: Vec<String>,
    /// The whole cart's path in the caller's input.
    whole: &'static str,
}

impl Presentation {
    fn finish(&self, mut result: CheckResult) -> CheckResult {
        result.acf_v01 = (self.format == Some(Format::AcfV01)).then(|| acf::v01(&result.acf));
        result.acp = Some(acf::acp(&result.acf, &self.params, self.whole));
        result
    }
}
