//! What a check seals: the typed body of its evidence record, read back the
//! same way everywhere (the answers of a later attempt, a replay, the dispute
//! bundle), and its redacted form.
//!
//! The evidence log is generic (it knows ids, links and hashes, not checks);
//! this module is the one place that knows what a check's body holds. A body
//! that does not decode is a [`RecordError`], never read as empty.

use std::path::Path;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::answer_state::{AnswerState, Reply};
use super::{Answer, CheckResult};
use crate::acf::{AcfVerdict, Action, MessageSeverity};
use crate::cart::Cart;
use crate::decision::Decision;
use crate::digest;
use crate::evidence::{self, SealedRecord, StoreError};
use crate::extract::set::ExtractorReport;
use crate::facts::{MandateAmount, MandateFacts};
use crate::finding::{Code, Compared, Severity};

/// The version of the body's shape; a reader refuses any other.
pub const RECORD_SCHEMA: u32 = 1;

/// The `schema` field: always [`RECORD_SCHEMA`] on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SchemaVersion;

impl Serialize for SchemaVersion {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u32(RECORD_SCHEMA)
    }
}

impl<'de> Deserialize<'de> for SchemaVersion {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<SchemaVersion, D::Error> {
        let version = u32::deserialize(deserializer)?;
        if version == RECORD_SCHEMA {
            Ok(SchemaVersion)
        } else {
            Err(serde::de::Error::custom(format!("record schema {version}, this asasked reads schema {RECORD_SCHEMA}")))
        }
    }
}

/// The body of one check's evidence record (guard.md §8: the request, the
/// facts with soft and disputed, the cart, the findings and the decision).
/// The request itself is the sealed record's own field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckRecord {
    pub schema: SchemaVersion,
    /// The date deadlines were counted from.
    pub today: NaiveDate,
    pub mandate_digest: String,
    pub subject_digest: String,
    /// This call's answers, as the agent sent them.
    pub answers: Vec<Answer>,
    /// The answers in effect: inherited along the chain plus this call's.
    pub answer_state: AnswerState,
    /// The cart as checked (catalog ids resolved).
    pub cart: Cart,
    /// The constraints of the mandate the request came in, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mandate: Option<MandateFacts>,
    /// The total the checkout document stated, if it stated one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payment: Option<MandateAmount>,
    /// How many allowed items fed the price check.
    pub allowed_items: usize,
    /// What each extractor returned, raw and as facts, and what it cost.
    pub extractors: Vec<ExtractorReport>,
    /// Why the check failed closed, when it did.
    pub fail_closed: Option<String>,
    /// The named principal the check was made for; absent for the local
    /// principal (and in every record sealed before principals existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub principal: Option<String>,
    /// The result as returned to the caller.
    pub result: CheckResult,
}

/// A sealed record whose body is not a check record this version reads.
#[derive(Debug, thiserror::Error)]
#[error("record {record_id}: the body is not a check record: {message}")]
pub struct RecordError {
    pub record_id: String,
    pub message: String,
}

impl CheckRecord {
    /// Decodes the body of a sealed record.
    pub fn decode(record: &SealedRecord) -> Result<CheckRecord, RecordError> {
        serde_path_to_error::deserialize(&record.body).map_err(|error| RecordError {
            record_id: record.record_id.clone(),
            message: format!("$.body.{}: {}", error.path(), error.inner()),
        })
    }

    /// The body as a `Value` (the log seals `evidence::Body::of` it, the
    /// same canonical text without the tree).
    pub fn to_body(&self) -> Result<Value, StoreError> {
        Ok(serde_json::to_value(self)?)
    }

    /// What a dispute needs and nothing more (ACF v0.2 §10): digests, codes,
    /// the decision, each finding's expected and actual values with the item
    /// it is about and whether the person accepted it, and the cart's item
    /// names, prices and quantities. Not the request text, not the person's
    /// own words, not what the extractors returned.
    pub fn redacted(&self, sealed: &SealedRecord) -> RedactedRecord {
        let cart = &self.cart;
        let findings = self
            .result
            .findings
            .iter()
            .map(|finding| RedactedFinding {
                id: finding.id.clone(),
                code: finding.code,
                severity: finding.severity,
                path: finding.path.clone(),
                item: finding.entry.and_then(|index| cart.entries.get(index)).map(|entry| entry.item.display_name()),
                expected: finding.expected.clone(),
                actual: finding.actual.clone(),
                person: match self.answer_state.decision_on(&finding.id) {
                    Some(Severity::Warn) => Some(PersonDecision::Accepted),
                    Some(Severity::Block) => Some(PersonDecision::Declined),
                    None => None,
                },
            })
            .collect();
        let messages = self
            .result
            .acf
            .messages
            .iter()
            // Only the machine-readable parts: the content quotes reasons.
            .map(|message| RedactedMessage {
                code: message.code.clone(),
                guard_code: message.guard_code.clone(),
                severity: message.severity,
                path: message.path.clone(),
                action: message.action,
            })
            .collect();
        let answers = self
            .answers
            .iter()
            .map(|answer| RedactedAnswer {
                finding_id: answer.finding_id.clone(),
                reply: match Reply::parse(&answer.reply) {
                    Reply::Accept => "accept",
                    Reply::Decline => "decline",
                    Reply::Words(_) => "[clarification withheld]",
                },
            })
            .collect();
        RedactedRecord {
            seq: sealed.seq,
            record_id: sealed.record_id.clone(),
            previous_record_id: sealed.previous_record_id.clone(),
            attempt: sealed.attempt,
            sealed_at: sealed.sealed_at.clone(),
            prev_hash: sealed.prev_hash.clone(),
            hash: sealed.hash.clone(),
            request_digest: digest::sha256(sealed.request.as_bytes()),
            mandate_digest: self.mandate_digest.clone(),
            subject_digest: self.subject_digest.clone(),
            today: self.today,
            decision: self.result.decision,
            verdict: self.result.acf.conformity.verdict,
            cart: cart
                .entries
                .iter()
                .map(|entry| RedactedEntry {
                    item: entry.item.display_name(),
                    quantity: entry.quantity,
                    price_cents: entry.item.price_cents,
                    currency: entry.item.currency.clone(),
                })
                .collect(),
            findings,
            messages,
            answers,
        }
    }

    /// A record with only what the answers stage reads, for its tests.
    #[cfg(test)]
    pub fn for_tests(
        record_id: &str,
        findings: Vec<crate::finding::Finding>,
        cart: Cart,
        answer_state: AnswerState,
    ) -> CheckRecord {
        let conformity = serde_json::json!({
            "verdict": "BLOCK", "record_id": record_id,
            "mandate_ref": {"scheme": "s", "digest": "d"}, "subject_digest": "d",
            "issued_at": "2026-11-02T00:00:00Z", "expires_at": "2026-11-02T00:15:00Z", "max_attempts": 3
        });
        let result = serde_json::json!({
            "decision": "ask", "reasons": [], "notes": [], "findings": findings, "facts": null,
            "record_id": record_id, "attempt": 1, "today": "2026-11-02",
            "acf": {"messages": [], "com.provecart.conformity": conformity, "ucp_status": "incomplete"}
        });
        CheckRecord {
            schema: SchemaVersion,
            today: NaiveDate::from_ymd_opt(2026, 11, 2).unwrap_or_default(),
            mandate_digest: "sha256:m".into(),
            subject_digest: "sha256:s".into(),
            answers: Vec::new(),
            answer_state,
            cart,
            mandate: None,
            payment: None,
            allowed_items: 0,
            extractors: Vec::new(),
            fail_closed: None,
            principal: None,
            result: serde_json::from_value(result).expect("a valid test result"),
        }
    }
}

/// Whether the person accepted or declined a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PersonDecision {
    Accepted,
    Declined,
}

/// One record of a redacted dispute bundle.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RedactedRecord {
    pub seq: u64,
    pub record_id: String,
    pub previous_record_id: Option<String>,
    pub attempt: u32,
    pub sealed_at: String,
    pub prev_hash: String,
    pub hash: String,
    /// SHA-256 of the request: it can be matched against the person's words
    /// without the bundle carrying them.
    pub request_digest: String,
    pub mandate_digest: String,
    pub subject_digest: String,
    pub today: NaiveDate,
    pub decision: Decision,
    pub verdict: AcfVerdict,
    pub cart: Vec<RedactedEntry>,
    pub findings: Vec<RedactedFinding>,
    pub messages: Vec<RedactedMessage>,
    pub answers: Vec<RedactedAnswer>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RedactedEntry {
    pub item: String,
    pub quantity: u64,
    pub price_cents: Option<u64>,
    pub currency: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RedactedFinding {
    pub id: String,
    pub code: Code,
    pub severity: Severity,
    pub path: String,
    /// The name of the item the finding is about; none for whole-cart findings.
    pub item: Option<String>,
    pub expected: Compared,
    pub actual: Compared,
    /// Whether the person accepted or declined it in this chain.
    pub person: Option<PersonDecision>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RedactedMessage {
    pub code: String,
    pub guard_code: String,
    pub severity: MessageSeverity,
    pub path: String,
    pub action: Option<Action>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RedactedAnswer {
    pub finding_id: String,
    /// `accept`, `decline`, or `[clarification withheld]` for the person's words.
    pub reply: &'static str,
}

/// Why a dispute bundle could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Record(#[from] RecordError),
}

/// The dispute bundle of the chain `record_id` belongs to, read from the log
/// at `path`: every record of the chain, whole or redacted. `None` if the log
/// has no such record.
pub fn dispute_bundle(path: &Path, record_id: &str, redact: bool) -> Result<Option<Value>, ExportError> {
    let records = evidence::read_all(path)?;
    let log_head = evidence::verify_file(path)?.head;
    bundle_of(&records, &log_head, record_id, redact)
}

/// The dispute bundle of the chain `record_id` belongs to among `records`
/// (a whole, verified chain whose last hash is `log_head`), from whichever
/// store they were read.
pub fn bundle_of(
    records: &[SealedRecord],
    log_head: &str,
    record_id: &str,
    redact: bool,
) -> Result<Option<Value>, ExportError> {
    let chain = evidence::chain(records, record_id);
    if chain.is_empty() {
        return Ok(None);
    }
    let rendered = chain
        .iter()
        .map(|record| {
            let value = if redact {
                serde_json::to_value(CheckRecord::decode(record)?.redacted(record))
            } else {
                serde_json::to_value(record)
            };
            value.map_err(|error| ExportError::Store(StoreError::from(error)))
        })
        .collect::<Result<Vec<Value>, ExportError>>()?;
    let head = chain.last().map(|record| record.record_id.clone());
    Ok(Some(serde_json::json!({
        "format": "asasked.dispute-bundle.v1",
        "redacted": redact,
        "log_head": log_head,
        "chain_head": head,
        "records": rendered,
    })))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::{CartEntry, Item};

    fn sealed(body: Value) -> SealedRecord {
        SealedRecord {
            seq: 1,
            record_id: "rec_x".into(),
            previous_record_id: None,
            attempt: 1,
            sealed_at: "2026-11-02T10:00:00Z".into(),
            request: "shoes".into(),
            body,
            prev_hash: evidence::GENESIS.into(),
            hash: "sha256:x".into(),
        }
    }

    #[test]
    fn a_body_round_trips_and_anything_else_is_a_typed_error() {
        let cart = Cart {
            shipping: None,
            charges: Default::default(),
            entries: vec![CartEntry { item: Item::default(), quantity: 1 }],
        };
        let record = CheckRecord::for_tests("rec_x", Vec::new(), cart, AnswerState::default());
        let body = record.to_body().unwrap();
        assert_eq!(body["schema"], 1);
        assert_eq!(CheckRecord::decode(&sealed(body.clone())).unwrap(), record);

        let mut newer = body.clone();
        newer["schema"] = 2.into();
        let error = CheckRecord::decode(&sealed(newer)).unwrap_err();
        assert!(error.to_string().contains("record schema 2"), "{error}");

        let mut without_cart = body.clone();
        without_cart.as_object_mut().unwrap().remove("cart");
        let error = CheckRecord::decode(&sealed(without_cart)).unwrap_err();
        assert!(error.to_string().contains("missing field `cart`"), "{error}");

        let mut bad_findings = body;
        bad_findings["result"]["findings"] = serde_json::json!([{"id": 3}]);
        let error = CheckRecord::decode(&sealed(bad_findings)).unwrap_err();
        assert_eq!(error.record_id, "rec_x");
        assert!(error.message.starts_with("$.body.result.findings[0]"), "{error}");
    }
}
