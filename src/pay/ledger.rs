//! The payment wrapper's ledger: where a payment request is recorded before
//! it is sent, marked before it is submitted, and its outcomes after.
//!
//! Why here, and why this way. The profile asks the client to persist a
//! request before sending it and to mark the attempt before the network
//! call (§6.2–6.3), durably, isolated by principal and execution
//! environment; and to serialise concurrent execution of one request. Two
//! ledgers keep that contract ([`PaymentLedger`]): the embedded
//! [`PayLedger`], `payments.jsonl` in the data folder, one JSON line per
//! event, append-only, on a [`crate::journal::Journal`] (an exclusive
//! `flock` from catching up to the fsync, so the CLI and a running server
//! that share a data folder see one ledger and two of them can never both
//! mark one request attempted; a torn last line is cut by the next writer);
//! and PostgreSQL (`crate::pg`, with `--store postgres://…`), one row per
//! request whose attempt is marked by a conditional update, so that
//! instances sharing the database submit a request id at most once. It is
//! not the evidence log (that seals checks; a payment refers to one by
//! `record_id`) nor the redemption ledger (that is the merchant's side of a
//! verdict, this the agent's).
//!
//! Events: `created` (the request id bound to principal, origin, action,
//! snapshot, exact input and the check's record, before anything is sent),
//! `attempted` (before the submission), `observed` (each outcome a
//! reconciliation reached, with its receipt). A final outcome (`succeeded`,
//! `failed`) is never followed by another.

use std::collections::HashMap;
use std::future::Future;
use std::path::Path;
use std::pin::Pin;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::AgenticReceipt;
use super::profile::Snapshot;
use crate::journal::{Index, Journal, JournalError};

/// The ledger file inside the data folder.
pub const LEDGER_FILE: &str = "payments.jsonl";

/// A request as created, before anything was sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Created {
    pub request_id: String,
    /// The named principal it is for; absent for the local one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub principal: Option<String>,
    pub origin: String,
    pub action: String,
    /// The profile and OpenAPI document it is bound to, and their digest.
    pub snapshot: Snapshot,
    pub snapshot_digest: String,
    /// The exact body that is (or was) submitted, and its digest.
    pub input: Map<String, Value>,
    pub input_digest: String,
    /// The check's evidence record that allowed the payment.
    pub record_id: String,
    /// The checked cart's total the input's amount equals, in minor units.
    pub amount_minor: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    /// RFC 3339.
    pub created_at: String,
}

/// One line of the ledger.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
enum Event {
    Created(Box<Created>),
    Attempted {
        request_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        principal: Option<String>,
        at: String,
    },
    Observed {
        request_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        principal: Option<String>,
        receipt: Box<AgenticReceipt>,
    },
}

/// What the ledger knows of one request.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    pub created: Created,
    /// When the submission was marked attempted; `None`: never sent.
    pub attempted_at: Option<String>,
    /// The last outcome observed, with its receipt.
    pub last: Option<AgenticReceipt>,
}

impl Request {
    /// Whether its outcome is settled for good (`succeeded` or `failed`).
    pub fn is_final(&self) -> bool {
        self.last.as_ref().is_some_and(|receipt| receipt.outcome.is_final())
    }
}

/// The ledger's failures: the call that got one recorded nothing.
#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    #[error("payment ledger {0}")]
    Journal(#[from] JournalError),
    #[error("payment ledger: {0}")]
    Database(String),
    #[error("payment ledger: no request {0}")]
    Unknown(String),
}

/// What [`PaymentLedger::create`] did.
#[derive(Debug, Clone, PartialEq)]
pub enum Creation {
    New(Request),
    /// The principal already created this request id.
    Existing(Request),
}

/// A boxed ledger future, so that the payer holds any ledger as a trait
/// object.
pub type LedgerFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, LedgerError>> + Send + 'a>>;

/// Where payment requests are recorded: the data folder's `payments.jsonl`
/// ([`PayLedger`]) or PostgreSQL (`crate::pg`). Every implementation keeps
/// this contract: each call is atomic with respect to every other call on
/// the same ledger, from any process or machine, and durable (fsynced, or
/// committed) before it returns; so of any number of callers, one only is
/// ever told to submit a request.
pub trait PaymentLedger: Send + Sync + std::fmt::Debug {
    /// Records `created` unless its principal already created its id (then
    /// returns that request, unchanged).
    fn create(&self, created: Created) -> LedgerFuture<'_, Creation>;
    /// Marks the request attempted, durably; `false` when it already was
    /// (another call submitted it, or is submitting it): the caller must not
    /// submit. An id the principal never created is [`LedgerError::Unknown`].
    fn mark_attempted<'a>(
        &'a self,
        principal: Option<&'a str>,
        request_id: &'a str,
        at: String,
    ) -> LedgerFuture<'a, bool>;
    /// Records an observed outcome, durably, and returns the request's
    /// standing one: the recorded final outcome if one came first (then
    /// nothing is written), else this one.
    fn observe<'a>(&'a self, principal: Option<&'a str>, receipt: AgenticReceipt) -> LedgerFuture<'a, AgenticReceipt>;
    /// The request `request_id` of `principal` (another principal's is `None`).
    fn request<'a>(&'a self, principal: Option<&'a str>, request_id: &'a str) -> LedgerFuture<'a, Option<Request>>;
    /// Where the ledger is, for messages (a path, or a database without its
    /// password).
    fn location(&self) -> String;
}

/// The embedded ledger of one data folder. Cheap to clone; clones share one
/// index.
#[derive(Debug, Clone)]
pub struct PayLedger {
    journal: Journal<Requests>,
}

type Key = (Option<String>, String);

/// Every request of the file, by (principal, request id).
#[derive(Debug, Default)]
struct Requests(HashMap<Key, Request>);

impl PayLedger {
    /// Opens (creating if needed) the ledger in `data_dir` and reads it.
    pub fn open(data_dir: &Path) -> Result<PayLedger, LedgerError> {
        Ok(PayLedger { journal: Journal::open(data_dir.join(LEDGER_FILE))? })
    }

    pub fn path(&self) -> &Path {
        self.journal.path()
    }
}

impl From<PayLedger> for Arc<dyn PaymentLedger> {
    fn from(ledger: PayLedger) -> Arc<dyn PaymentLedger> {
        Arc::new(ledger)
    }
}

impl PaymentLedger for PayLedger {
    fn create(&self, created: Created) -> LedgerFuture<'_, Creation> {
        Box::pin(self.journal.blocking(move |journal| {
            journal.append(|requests: &Requests| {
                let key = (created.principal.clone(), created.request_id.clone());
                Ok::<_, LedgerError>(match requests.0.get(&key) {
                    Some(existing) => (None, Creation::Existing(existing.clone())),
                    None => {
                        let new = Request { created: created.clone(), attempted_at: None, last: None };
                        (Some(Event::Created(Box::new(created))), Creation::New(new))
                    }
                })
            })
        }))
    }

    fn mark_attempted<'a>(
        &'a self,
        principal: Option<&'a str>,
        request_id: &'a str,
        at: String,
    ) -> LedgerFuture<'a, bool> {
        let key: Key = (principal.map(str::to_owned), request_id.to_owned());
        Box::pin(self.journal.blocking(move |journal| {
            journal.append(|requests: &Requests| {
                let request = requests.0.get(&key).ok_or_else(|| LedgerError::Unknown(key.1.clone()))?;
                if request.attempted_at.is_some() {
                    return Ok((None, false));
                }
                Ok((Some(Event::Attempted { request_id: key.1.clone(), principal: key.0.clone(), at }), true))
            })
        }))
    }

    fn observe<'a>(&'a self, principal: Option<&'a str>, receipt: AgenticReceipt) -> LedgerFuture<'a, AgenticReceipt> {
        let key: Key = (principal.map(str::to_owned), receipt.request_id.clone());
        Box::pin(self.journal.blocking(move |journal| {
            journal.append(|requests: &Requests| {
                let request = requests.0.get(&key).ok_or_else(|| LedgerError::Unknown(key.1.clone()))?;
                if let Some(last) = &request.last
                    && last.outcome.is_final()
                {
                    return Ok((None, last.clone()));
                }
                let event = Event::Observed {
                    request_id: key.1.clone(),
                    principal: key.0.clone(),
                    receipt: Box::new(receipt.clone()),
                };
                Ok((Some(event), receipt))
            })
        }))
    }

    fn request<'a>(&'a self, principal: Option<&'a str>, request_id: &'a str) -> LedgerFuture<'a, Option<Request>> {
        let key: Key = (principal.map(str::to_owned), request_id.to_owned());
        Box::pin(self.journal.blocking(move |journal| {
            Ok::<_, LedgerError>(journal.read(|requests: &Requests| requests.0.get(&key).cloned())?)
        }))
    }

    fn location(&self) -> String {
        self.journal.path().display().to_string()
    }
}

impl Index for Requests {
    type Entry = Event;
    const NAME: &'static str = "payment ledger";

    fn apply(&mut self, event: Event) {
        match event {
            Event::Created(created) => {
                let key = (created.principal.clone(), created.request_id.clone());
                self.0.entry(key).or_insert(Request { created: *created, attempted_at: None, last: None });
            }
            Event::Attempted { request_id, principal, at } => {
                if let Some(request) = self.0.get_mut(&(principal, request_id)) {
                    request.attempted_at.get_or_insert(at);
                }
            }
            Event::Observed { request_id, principal, receipt } => {
                if let Some(request) = self.0.get_mut(&(principal, request_id))
                    && !request.is_final()
                {
                    request.last = Some(*receipt);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Outcome;
    use super::*;
    use serde_json::json;
    use std::fs::OpenOptions;
    use std::io::Write;

    fn created(id: &str, principal: Option<&str>) -> Created {
        Created {
            request_id: id.into(),
            principal: principal.map(str::to_owned),
            origin: "https://shop.example".into(),
            action: "pay".into(),
            snapshot: Snapshot {
                profile_url: "https://shop.example/agentic.json".into(),
                profile: json!({}),
                openapi: json!({}),
            },
            snapshot_digest: "sha256:s".into(),
            input: json!({"amount": "21.00"}).as_object().unwrap().clone(),
            input_digest: "sha256:i".into(),
            record_id: "rec_1".into(),
            amount_minor: 2100,
            currency: Some("USD".into()),
            created_at: "2026-12-03T00:00:00Z".into(),
        }
    }

    fn receipt(id: &str, outcome: Outcome) -> AgenticReceipt {
        AgenticReceipt {
            agentic: super::super::profile::VERSION.into(),
            request_id: id.into(),
            action_id: "pay".into(),
            origin: "https://shop.example".into(),
            outcome,
            observed_at: "2026-12-03T00:00:01Z".into(),
            resource_id: None,
            reason: "test".into(),
            evidence: None,
        }
    }

    #[tokio::test]
    async fn one_request_is_marked_attempted_once_across_handles_and_a_final_outcome_stands() {
        let folder = tempfile::tempdir().unwrap();
        let first = PayLedger::open(folder.path()).unwrap();
        let second = PayLedger::open(folder.path()).unwrap();
        assert!(matches!(first.create(created("pay_1", None)).await.unwrap(), Creation::New(_)));
        assert!(matches!(second.create(created("pay_1", None)).await.unwrap(), Creation::Existing(_)));
        // The same id under another principal is another request.
        assert!(matches!(second.create(created("pay_1", Some("shop"))).await.unwrap(), Creation::New(_)));
        assert!(second.mark_attempted(None, "pay_1", "t".into()).await.unwrap());
        assert!(!first.mark_attempted(None, "pay_1", "t".into()).await.unwrap(), "marked by the other handle");
        assert_eq!(first.observe(None, receipt("pay_1", Outcome::Pending)).await.unwrap().outcome, Outcome::Pending);
        assert_eq!(
            second.observe(None, receipt("pay_1", Outcome::Succeeded)).await.unwrap().outcome,
            Outcome::Succeeded
        );
        assert_eq!(first.observe(None, receipt("pay_1", Outcome::Unknown)).await.unwrap().outcome, Outcome::Succeeded);

        let reopened = PayLedger::open(folder.path()).unwrap();
        let request = reopened.request(None, "pay_1").await.unwrap().unwrap();
        assert!(request.attempted_at.is_some() && request.is_final());
        assert_eq!(request.last.unwrap().outcome, Outcome::Succeeded);
        assert!(reopened.request(Some("other"), "pay_1").await.unwrap().is_none());
    }

    #[tokio::test]
    async fn a_torn_last_line_is_cut_off_by_the_next_writer() {
        let folder = tempfile::tempdir().unwrap();
        let ledger = PayLedger::open(folder.path()).unwrap();
        ledger.create(created("pay_1", None)).await.unwrap();
        let path = folder.path().join(LEDGER_FILE);
        OpenOptions::new().append(true).open(&path).unwrap().write_all(br#"{"event":"attempted","#).unwrap();
        let fresh = PayLedger::open(folder.path()).unwrap();
        assert!(fresh.mark_attempted(None, "pay_1", "t".into()).await.unwrap());
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 2, "{text}");
    }
}
