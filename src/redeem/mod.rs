//! Redemption, at most once (issue 30 §2): the merchant's side of a
//! `proceed`. A merchant about to take a payment presents the receipt and
//! the cart under an `Idempotency-Key`; the verdict is redeemed at most once,
//! whoever asks and however often, and every answer is recorded, durably,
//! before it is given, so that asking again with the same key gives the same
//! answer (the Agentic Action Profile's service side, §5).
//!
//! [`Redeemer::redeem`] verifies the receipt for that cart (signature,
//! expiry, cart digest), that its record exists and still heads its attempt
//! chain (a re-check superseded it otherwise), and then asks the
//! [`Ledger`] to commit the outcome atomically: the ledger, not this module,
//! decides between a first redemption and `already_redeemed`, under its own
//! lock (the embedded [`file::FileLedger`]: `flock` and fsync) or
//! transaction (PostgreSQL, `crate::pg`), so that two processes or two
//! machines never both redeem one verdict.
//!
//! The ledger is separate from the evidence log: the log seals checks, and a
//! redemption is not a check; it refers to one by `record_id`.
//!
//! This module knows no transport: `mcp::redemption` serves it over HTTP.

pub mod file;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::digest;
use crate::principal::Principal;
use crate::receipt::Verification;
use crate::service::{CheckError, Service};

/// How long a request id stays bound to its input and outcome, as
/// `/agentic.json` states it (the profile's `retentionSeconds`, at most a
/// week). The ledger never deletes an entry, so any window is honoured, across
/// restarts too; the figure is what a client may rely on.
pub const RETENTION_SECONDS: u64 = 7 * 24 * 3600;
/// The longest `Idempotency-Key` accepted (the IETF draft sets none; a UUID
/// is 36 characters).
pub const MAX_KEY_BYTES: usize = 255;

/// What a redemption came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The verdict is redeemed by this request: take the payment.
    Succeeded,
    /// Authoritatively not redeemed by this request: do not take the payment.
    Failed,
}

/// Why a redemption failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// Another request (another key) redeemed this verdict first.
    AlreadyRedeemed,
    /// A later check of the same order superseded the verdict's record.
    Superseded,
    /// The receipt's validity window is over.
    Expired,
    /// The receipt is for another cart than the one presented.
    CartChanged,
    /// Not signed by a key of this server.
    UnknownKey,
    BadSignature,
    Malformed,
    /// The receipt's record is not in this server's evidence.
    RecordNotFound,
}

/// One request's entry in the ledger: its id (the `Idempotency-Key`), who
/// asked, what they sent (a digest), and the outcome they were given.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Redemption {
    pub request_id: String,
    /// The named principal that asked; absent for the local one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub principal: Option<String>,
    /// The digest of the request's body (`{receipt, cart, today}`).
    pub input_digest: String,
    pub status: Status,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Reason>,
    /// The verdict's record, when the receipt named one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record_id: Option<String>,
    /// The principal the verdict's record was checked for (absent: local).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record_principal: Option<String>,
    /// The receipt redeemed, on success (the verdict resource shows it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub receipt: Option<String>,
    /// RFC 3339, when the outcome was recorded.
    pub recorded_at: String,
}

impl Redemption {
    /// The status response of the profile: `request_id`, `status` and the
    /// redeemed verdict's record id as `resource_id` (null unless succeeded).
    pub fn status_view(&self) -> Value {
        serde_json::json!({
            "request_id": self.request_id,
            "status": self.status,
            "resource_id": (self.status == Status::Succeeded).then_some(&self.record_id),
            "reason": self.reason,
            "record_id": self.record_id,
            "recorded_at": self.recorded_at,
        })
    }
}

/// What [`Ledger::commit`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Committed {
    /// The proposed entry was recorded, as proposed or, when another request
    /// redeemed the verdict first, as failed `already_redeemed`.
    New(Redemption),
    /// The principal already used this request id: nothing was written.
    Existing(Redemption),
}

/// The ledger's failures: nothing was recorded by the call that got one.
#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    #[error("redemption ledger {0}")]
    Journal(#[from] crate::journal::JournalError),
    #[error("redemption ledger: {0}")]
    Database(String),
}

/// A boxed ledger future, so that the redeemer holds any ledger as a trait
/// object.
pub type LedgerFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, LedgerError>> + Send + 'a>>;

/// Where redemptions are recorded. Every implementation keeps this
/// contract: `commit` is atomic with respect to every other `commit` on the
/// same ledger, from any process or machine, and durable before it returns.
pub trait Ledger: Send + Sync + std::fmt::Debug {
    /// Records `proposed` unless its principal already used its request id
    /// (then returns that entry). A proposed success for a verdict another
    /// request already redeemed is recorded as failed `already_redeemed`.
    fn commit(&self, proposed: Redemption) -> LedgerFuture<'_, Committed>;
    /// The entry of `request_id` made by `principal`.
    fn request<'a>(&'a self, principal: Option<&'a str>, request_id: &'a str) -> LedgerFuture<'a, Option<Redemption>>;
    /// The successful redemption of the verdict `record_id`, if any.
    fn redeemed<'a>(&'a self, record_id: &'a str) -> LedgerFuture<'a, Option<Redemption>>;
}

/// A redemption request's body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RedeemRequest {
    /// The receipt of the `proceed` (the conformity object's `verdict_token`).
    pub receipt: String,
    /// The cart about to be paid, in any shape `check_order` accepts.
    pub cart: Value,
    /// The `today` the check was made with, when one was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub today: Option<String>,
}

/// Why a redemption request got no outcome (nothing was recorded).
#[derive(Debug, thiserror::Error)]
pub enum RedeemError {
    /// The `Idempotency-Key` header is missing or malformed.
    #[error("Idempotency-Key: {0}")]
    Key(String),
    /// The body is not a redemption request; the message names the JSONPath.
    #[error("invalid argument {0}")]
    Invalid(String),
    /// The key was used before by this principal with another input: the
    /// first outcome stands and this request is refused.
    #[error("Idempotency-Key {0:?} was used before with another input")]
    KeyReused(String, Box<Redemption>),
    #[error(transparent)]
    Ledger(#[from] LedgerError),
    /// The evidence could not be read.
    #[error("evidence: {0}")]
    Check(#[from] CheckError),
}

/// The verdict resource (`GET /v1/verdicts/{record_id}`): its state and the
/// request that redeemed it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VerdictView {
    /// The record id (the profile's resource id).
    pub id: String,
    /// `redeemed`, `superseded` or `unredeemed`.
    pub state: &'static str,
    pub decision: crate::decision::Decision,
    /// The request that redeemed it (null until redeemed).
    pub request_id: Option<String>,
    /// The receipt it was redeemed with (null until redeemed).
    pub receipt: Option<String>,
    pub redeemed_at: Option<String>,
    /// The record that superseded it, if one did.
    pub superseded_by: Option<String>,
    pub expires_at: String,
}

/// Redeems verdicts of one service into one ledger. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Redeemer {
    service: Service,
    ledger: Arc<dyn Ledger>,
}

impl Redeemer {
    pub fn new(service: Service, ledger: Arc<dyn Ledger>) -> Redeemer {
        Redeemer { service, ledger }
    }

    /// Redeems `body` for `principal` under `key`: the recorded outcome, or
    /// why there is none. The same key and input give the first outcome
    /// again, whatever has happened since (expiry, supersession).
    pub async fn redeem(&self, principal: &Principal, key: &str, body: &[u8]) -> Result<Redemption, RedeemError> {
        check_key(key)?;
        let request: RedeemRequest = serde_path_to_error::deserialize(&mut serde_json::Deserializer::from_slice(body))
            .map_err(|error| RedeemError::Invalid(format!("$.{}: {}", error.path(), error.inner())))?;
        let input_digest = digest::of_value(
            &serde_json::to_value(&request).map_err(|error| RedeemError::Invalid(format!("$: {error}")))?,
        );
        let stored = principal.stored();
        // A replay needs no verification: its outcome is recorded.
        if let Some(existing) = self.ledger.request(stored, key).await? {
            return same_input(existing, &input_digest, key);
        }
        let proposed = self.judge(&request, key, stored, input_digest.clone()).await?;
        match self.ledger.commit(proposed).await? {
            Committed::New(recorded) => Ok(recorded),
            Committed::Existing(existing) => same_input(existing, &input_digest, key),
        }
    }

    /// The outcome a first request would get, before the ledger's atomic
    /// check of who redeemed first.
    async fn judge(
        &self,
        request: &RedeemRequest,
        key: &str,
        principal: Option<&str>,
        input_digest: String,
    ) -> Result<Redemption, RedeemError> {
        let recorded_at = crate::acf::rfc3339(self.service.now());
        let mut outcome = Redemption {
            request_id: key.to_owned(),
            principal: principal.map(str::to_owned),
            input_digest,
            status: Status::Failed,
            reason: None,
            record_id: None,
            record_principal: None,
            receipt: None,
            recorded_at,
        };
        let verification =
            match self.service.verify_receipt(&request.receipt, Some(&request.cart), request.today.as_deref()) {
                Ok(verification) => verification,
                Err(CheckError::InvalidArgument { field, message }) => {
                    // The service names the receipt `$.token` (verify_verdict's argument).
                    let field = if field == "$.token" { "$.receipt".to_owned() } else { field };
                    return Err(RedeemError::Invalid(format!("{field}: {message}")));
                }
                Err(error) => return Err(error.into()),
            };
        let claims = match verification {
            Verification::Valid { claims } => claims,
            other => {
                outcome.reason = Some(match other {
                    Verification::Expired { .. } => Reason::Expired,
                    Verification::CartChanged { .. } => Reason::CartChanged,
                    Verification::UnknownKey { .. } => Reason::UnknownKey,
                    Verification::BadSignature => Reason::BadSignature,
                    _ => Reason::Malformed,
                });
                return Ok(outcome);
            }
        };
        outcome.record_id = Some(claims.record_id.clone());
        // The receipt is the authority: it names a record of this server,
        // whichever principal checked it.
        let Some(record) = self.service.any_record(&claims.record_id).await? else {
            outcome.reason = Some(Reason::RecordNotFound);
            return Ok(outcome);
        };
        outcome.record_principal = record.principal.clone();
        if self.service.successor_of(&claims.record_id).await?.is_some() {
            outcome.reason = Some(Reason::Superseded);
            return Ok(outcome);
        }
        outcome.status = Status::Succeeded;
        outcome.receipt = Some(request.receipt.trim().to_owned());
        Ok(outcome)
    }

    /// The entry of `request_id` made by `principal` (another principal's is
    /// `None`, as if it did not exist).
    pub async fn request(&self, principal: &Principal, request_id: &str) -> Result<Option<Redemption>, RedeemError> {
        Ok(self.ledger.request(principal.stored(), request_id).await?)
    }

    /// The verdict `record_id` as `principal` may see it: the principal it
    /// was checked for, or the one that redeemed it; to anyone else it is
    /// `None`, as if it did not exist.
    pub async fn verdict(&self, principal: &Principal, record_id: &str) -> Result<Option<VerdictView>, RedeemError> {
        let Some(record) = self.service.any_record(record_id).await? else { return Ok(None) };
        let redeemed = self.ledger.redeemed(record_id).await?;
        let visible = principal.owns(record.principal.as_deref())
            || redeemed.as_ref().is_some_and(|redemption| principal.owns(redemption.principal.as_deref()));
        if !visible {
            return Ok(None);
        }
        let superseded_by = self.service.successor_of(record_id).await?;
        let state = match (&redeemed, &superseded_by) {
            (Some(_), _) => "redeemed",
            (None, Some(_)) => "superseded",
            (None, None) => "unredeemed",
        };
        Ok(Some(VerdictView {
            id: record_id.to_owned(),
            state,
            decision: record.result.decision,
            request_id: redeemed.as_ref().map(|redemption| redemption.request_id.clone()),
            receipt: redeemed.as_ref().and_then(|redemption| redemption.receipt.clone()),
            redeemed_at: redeemed.as_ref().map(|redemption| redemption.recorded_at.clone()),
            superseded_by,
            expires_at: crate::acf::rfc3339(record.result.acf.conformity.expires_at),
        }))
    }
}

/// The recorded outcome if `existing` was asked with the same input; the
/// refusal of a reused key otherwise.
fn same_input(existing: Redemption, input_digest: &str, key: &str) -> Result<Redemption, RedeemError> {
    if existing.input_digest == input_digest {
        Ok(existing)
    } else {
        Err(RedeemError::KeyReused(key.to_owned(), Box::new(existing)))
    }
}

/// An `Idempotency-Key` is 1 to [`MAX_KEY_BYTES`] visible ASCII characters.
pub fn check_key(key: &str) -> Result<(), RedeemError> {
    if key.is_empty() || key.len() > MAX_KEY_BYTES || !key.bytes().all(|byte| byte.is_ascii_graphic()) {
        return Err(RedeemError::Key(format!("1 to {MAX_KEY_BYTES} visible ASCII characters")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_bounded_visible_ascii() {
        assert!(check_key("8e0c3c1e-2b1f-4c1a-9d57-2f0f1f3a9b10").is_ok());
        for bad in ["", "a b", "ключ", &"k".repeat(MAX_KEY_BYTES + 1)] {
            assert!(matches!(check_key(bad), Err(RedeemError::Key(_))), "{bad:?}");
        }
    }

    #[test]
    fn a_replay_with_other_input_is_refused_and_the_same_input_gets_the_first_outcome() {
        let first = Redemption {
            request_id: "k".into(),
            principal: None,
            input_digest: "sha256:a".into(),
            status: Status::Succeeded,
            reason: None,
            record_id: Some("rec_1".into()),
            record_principal: None,
            receipt: Some("r".into()),
            recorded_at: "2026-12-03T00:00:00Z".into(),
        };
        assert_eq!(same_input(first.clone(), "sha256:a", "k").unwrap(), first);
        assert!(matches!(same_input(first, "sha256:b", "k"), Err(RedeemError::KeyReused(..))));
    }
}
