//! The payment wrapper's ledger: `payments.jsonl` in the data folder, one
//! JSON line per event of a payment request, append-only.
//!
//! Why here, and why this way. The profile asks the client to persist a
//! request before sending it and to mark the attempt before the network
//! call (§6.2–6.3), durably, isolated by principal and execution
//! environment; and to serialise concurrent execution of one request. The
//! data folder is that environment's own place (the evidence log and the
//! redemption ledger are there), and a JSON Lines file under an exclusive
//! `flock`, fsynced before the call returns, gives exactly that to every
//! process of the machine: the CLI and a running server that share a data
//! folder see one ledger, and two of them can never both mark one request
//! attempted, so it is submitted at most once. The kernel drops the lock of
//! a process that dies, even by SIGKILL, and a line without its final
//! newline (a write cut short before its fsync, so nobody relied on it) is
//! cut off by the next writer. It is not the evidence log (that seals
//! checks; a payment refers to one by `record_id`) nor the redemption
//! ledger (that is the merchant's side of a verdict, this the agent's).
//!
//! Events: `created` (the request id bound to principal, origin, action,
//! snapshot, exact input and the check's record, before anything is sent),
//! `attempted` (before the submission), `observed` (each outcome a
//! reconciliation reached, with its receipt). A final outcome (`succeeded`,
//! `failed`) is never followed by another.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::AgenticReceipt;
use super::profile::Snapshot;

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
    #[error("payment ledger {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("payment ledger {path} is broken at line {line}: {reason}")]
    Broken { path: PathBuf, line: u64, reason: String },
    #[error("payment ledger: no request {0}")]
    Unknown(String),
    #[error("the payment ledger's task stopped")]
    Interrupted,
}

/// What [`PayLedger::create`] did.
#[derive(Debug, Clone, PartialEq)]
pub enum Creation {
    New(Request),
    /// The principal already created this request id.
    Existing(Request),
}

/// The ledger of one data folder. Cheap to clone; clones share one index.
#[derive(Debug, Clone)]
pub struct PayLedger {
    path: PathBuf,
    index: Arc<Mutex<Index>>,
}

#[derive(Debug, Default)]
struct Index {
    offset: u64,
    lines: u64,
    requests: HashMap<(Option<String>, String), Request>,
}

type Key = (Option<String>, String);

impl PayLedger {
    /// Opens (creating if needed) the ledger in `data_dir` and reads it.
    pub fn open(data_dir: &Path) -> Result<PayLedger, LedgerError> {
        std::fs::create_dir_all(data_dir).map_err(|source| LedgerError::Io { path: data_dir.to_owned(), source })?;
        let ledger = PayLedger { path: data_dir.join(LEDGER_FILE), index: Arc::default() };
        ledger.locked(false, |_, _| Ok(()))?;
        Ok(ledger)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Records `created` unless its principal already created its id.
    pub async fn create(&self, created: Created) -> Result<Creation, LedgerError> {
        self.blocking(move |ledger| {
            ledger.locked(true, |index, file| {
                let key = (created.principal.clone(), created.request_id.clone());
                if let Some(existing) = index.requests.get(&key) {
                    return Ok(Creation::Existing(existing.clone()));
                }
                ledger.append(index, file, Event::Created(Box::new(created)))?;
                Ok(Creation::New(index.requests[&key].clone()))
            })
        })
        .await
    }

    /// Marks the request attempted, durably; `false` when it already was
    /// (another call submitted it, or is submitting it): the caller must not
    /// submit.
    pub async fn mark_attempted(
        &self,
        principal: Option<&str>,
        request_id: &str,
        at: String,
    ) -> Result<bool, LedgerError> {
        let key: Key = (principal.map(str::to_owned), request_id.to_owned());
        self.blocking(move |ledger| {
            ledger.locked(true, |index, file| {
                let request = index.requests.get(&key).ok_or_else(|| LedgerError::Unknown(key.1.clone()))?;
                if request.attempted_at.is_some() {
                    return Ok(false);
                }
                ledger.append(
                    index,
                    file,
                    Event::Attempted { request_id: key.1.clone(), principal: key.0.clone(), at },
                )?;
                Ok(true)
            })
        })
        .await
    }

    /// Records an observed outcome, durably, and returns the request's
    /// standing one: the recorded final outcome if one came first (then
    /// nothing is written), else this one.
    pub async fn observe(
        &self,
        principal: Option<&str>,
        receipt: AgenticReceipt,
    ) -> Result<AgenticReceipt, LedgerError> {
        let key: Key = (principal.map(str::to_owned), receipt.request_id.clone());
        self.blocking(move |ledger| {
            ledger.locked(true, |index, file| {
                let request = index.requests.get(&key).ok_or_else(|| LedgerError::Unknown(key.1.clone()))?;
                if let Some(last) = &request.last
                    && last.outcome.is_final()
                {
                    return Ok(last.clone());
                }
                let event = Event::Observed {
                    request_id: key.1.clone(),
                    principal: key.0.clone(),
                    receipt: Box::new(receipt.clone()),
                };
                ledger.append(index, file, event)?;
                Ok(receipt)
            })
        })
        .await
    }

    /// The request `request_id` of `principal` (another principal's is `None`).
    pub async fn request(&self, principal: Option<&str>, request_id: &str) -> Result<Option<Request>, LedgerError> {
        let key: Key = (principal.map(str::to_owned), request_id.to_owned());
        self.blocking(move |ledger| ledger.locked(false, |index, _| Ok(index.requests.get(&key).cloned()))).await
    }

    fn append(&self, index: &mut Index, file: &mut File, event: Event) -> Result<(), LedgerError> {
        let mut line = serde_json::to_vec(&event).map_err(|error| LedgerError::Broken {
            path: self.path.clone(),
            line: index.lines + 1,
            reason: error.to_string(),
        })?;
        line.push(b'\n');
        let io = |source| LedgerError::Io { path: self.path.clone(), source };
        file.write_all(&line).map_err(io)?;
        // Durable before anyone acts on it (the submission, the answer).
        file.sync_data().map_err(io)?;
        index.offset += line.len() as u64;
        index.lines += 1;
        index.apply(event);
        Ok(())
    }

    /// Runs `work` with the file locked (exclusively when `exclusive`) and
    /// every complete line of it in the index.
    fn locked<T>(
        &self,
        exclusive: bool,
        work: impl FnOnce(&mut Index, &mut File) -> Result<T, LedgerError>,
    ) -> Result<T, LedgerError> {
        let io = |source| LedgerError::Io { path: self.path.clone(), source };
        let mut index = self.index.lock().unwrap_or_else(PoisonError::into_inner);
        let mut file = OpenOptions::new().create(true).read(true).append(true).open(&self.path).map_err(io)?;
        if exclusive { file.lock() } else { file.lock_shared() }.map_err(io)?;
        let length = file.metadata().map_err(io)?.len();
        if length < index.offset {
            return Err(LedgerError::Broken {
                path: self.path.clone(),
                line: index.lines,
                reason: "the file is shorter than what was read of it".into(),
            });
        }
        if length > index.offset {
            file.seek(SeekFrom::Start(index.offset)).map_err(io)?;
            let mut fresh = Vec::new();
            file.read_to_end(&mut fresh).map_err(io)?;
            let complete = fresh.iter().rposition(|&byte| byte == b'\n').map_or(0, |end| end + 1);
            for line in fresh[..complete].split(|&byte| byte == b'\n').filter(|line| !line.is_empty()) {
                index.lines += 1;
                let event: Event = serde_json::from_slice(line).map_err(|error| LedgerError::Broken {
                    path: self.path.clone(),
                    line: index.lines,
                    reason: error.to_string(),
                })?;
                index.apply(event);
            }
            index.offset += complete as u64;
            if complete < fresh.len() && exclusive {
                tracing::warn!(path = %self.path.display(), bytes = fresh.len() - complete, "payment ledger: a torn last line cut off");
                file.set_len(index.offset).map_err(io)?;
                file.sync_data().map_err(io)?;
            }
        }
        work(&mut index, &mut file)
    }

    /// Runs a blocking ledger call off the async workers.
    async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(PayLedger) -> Result<T, LedgerError> + Send + 'static,
    ) -> Result<T, LedgerError> {
        let ledger = self.clone();
        tokio::task::spawn_blocking(move || work(ledger)).await.map_err(|_| LedgerError::Interrupted)?
    }
}

impl Index {
    fn apply(&mut self, event: Event) {
        match event {
            Event::Created(created) => {
                let key = (created.principal.clone(), created.request_id.clone());
                self.requests.entry(key).or_insert(Request { created: *created, attempted_at: None, last: None });
            }
            Event::Attempted { request_id, principal, at } => {
                if let Some(request) = self.requests.get_mut(&(principal, request_id)) {
                    request.attempted_at.get_or_insert(at);
                }
            }
            Event::Observed { request_id, principal, receipt } => {
                if let Some(request) = self.requests.get_mut(&(principal, request_id))
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
