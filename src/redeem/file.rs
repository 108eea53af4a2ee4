//! The embedded redemption ledger: `redemptions.jsonl` in the data folder,
//! one JSON line per recorded outcome, append-only.
//!
//! Every commit holds an exclusive `flock` on the file from reading the
//! lines other processes appended since this one last looked to the fsync
//! of its own line, so any number of processes sharing a data folder decide
//! "first redemption or `already_redeemed`" one at a time, each seeing all
//! the others' outcomes. Reads take the lock shared, so they never see a
//! line whose fsync has not finished. A line without its final newline can
//! only be a write that never completed (its writer died before its fsync,
//! so no caller was answered): the next writer, holding the lock, cuts it off.
//! The kernel drops the lock of a process that dies, even by SIGKILL.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use super::{Committed, Ledger, LedgerError, LedgerFuture, Reason, Redemption, Status};

/// The ledger file inside the data folder.
pub const LEDGER_FILE: &str = "redemptions.jsonl";

/// The embedded ledger. Cheap to clone; clones share one in-memory index.
#[derive(Debug, Clone)]
pub struct FileLedger {
    path: PathBuf,
    index: Arc<Mutex<Index>>,
}

/// What this process has read of the file.
#[derive(Debug, Default)]
struct Index {
    /// How many bytes of the file are in the maps.
    offset: u64,
    /// Lines read, for error messages.
    lines: u64,
    /// By (principal, request id).
    requests: HashMap<(Option<String>, String), Redemption>,
    /// The successful redemption of each record.
    redeemed: HashMap<String, Redemption>,
}

impl FileLedger {
    /// Opens (creating if needed) the ledger in `data_dir` and reads it.
    pub fn open(data_dir: &Path) -> Result<FileLedger, LedgerError> {
        std::fs::create_dir_all(data_dir).map_err(|source| LedgerError::Io { path: data_dir.to_owned(), source })?;
        let ledger = FileLedger { path: data_dir.join(LEDGER_FILE), index: Arc::default() };
        ledger.locked(false, |_, _| Ok(()))?;
        Ok(ledger)
    }

    pub fn path(&self) -> &Path {
        &self.path
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
                let redemption: Redemption = serde_json::from_slice(line).map_err(|error| LedgerError::Broken {
                    path: self.path.clone(),
                    line: index.lines,
                    reason: error.to_string(),
                })?;
                index.insert(redemption);
            }
            index.offset += complete as u64;
            if complete < fresh.len() && exclusive {
                // A torn line: its writer died before its fsync.
                tracing::warn!(path = %self.path.display(), bytes = fresh.len() - complete, "redemption ledger: a torn last line cut off");
                file.set_len(index.offset).map_err(io)?;
                file.sync_data().map_err(io)?;
            }
        }
        let result = work(&mut index, &mut file);
        drop(file);
        result
    }

    fn commit_blocking(&self, proposed: Redemption) -> Result<Committed, LedgerError> {
        self.locked(true, |index, file| {
            let key = (proposed.principal.clone(), proposed.request_id.clone());
            if let Some(existing) = index.requests.get(&key) {
                return Ok(Committed::Existing(existing.clone()));
            }
            let mut recorded = proposed;
            if recorded.status == Status::Succeeded
                && let Some(record_id) = &recorded.record_id
                && index.redeemed.contains_key(record_id)
            {
                recorded.status = Status::Failed;
                recorded.reason = Some(Reason::AlreadyRedeemed);
                recorded.receipt = None;
            }
            let mut line = serde_json::to_vec(&recorded).map_err(|error| LedgerError::Broken {
                path: self.path.clone(),
                line: index.lines + 1,
                reason: error.to_string(),
            })?;
            line.push(b'\n');
            let io = |source| LedgerError::Io { path: self.path.clone(), source };
            file.write_all(&line).map_err(io)?;
            // Durable before anyone is told.
            file.sync_data().map_err(io)?;
            index.offset += line.len() as u64;
            index.lines += 1;
            index.insert(recorded.clone());
            Ok(Committed::New(recorded))
        })
    }

    /// Runs a blocking ledger call off the async workers.
    fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(FileLedger) -> Result<T, LedgerError> + Send + 'static,
    ) -> LedgerFuture<'_, T> {
        let ledger = self.clone();
        Box::pin(async move {
            tokio::task::spawn_blocking(move || work(ledger)).await.map_err(|_| LedgerError::Interrupted)?
        })
    }
}

impl Index {
    fn insert(&mut self, redemption: Redemption) {
        if redemption.status == Status::Succeeded
            && let Some(record_id) = &redemption.record_id
        {
            self.redeemed.entry(record_id.clone()).or_insert_with(|| redemption.clone());
        }
        self.requests.entry((redemption.principal.clone(), redemption.request_id.clone())).or_insert(redemption);
    }
}

impl Ledger for FileLedger {
    fn commit(&self, proposed: Redemption) -> LedgerFuture<'_, Committed> {
        self.blocking(move |ledger| ledger.commit_blocking(proposed))
    }

    fn request<'a>(&'a self, principal: Option<&'a str>, request_id: &'a str) -> LedgerFuture<'a, Option<Redemption>> {
        let key = (principal.map(str::to_owned), request_id.to_owned());
        self.blocking(move |ledger| ledger.locked(false, |index, _| Ok(index.requests.get(&key).cloned())))
    }

    fn redeemed<'a>(&'a self, record_id: &'a str) -> LedgerFuture<'a, Option<Redemption>> {
        let record_id = record_id.to_owned();
        self.blocking(move |ledger| ledger.locked(false, |index, _| Ok(index.redeemed.get(&record_id).cloned())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proposal(key: &str, principal: Option<&str>, record: &str) -> Redemption {
        Redemption {
            request_id: key.into(),
            principal: principal.map(str::to_owned),
            input_digest: format!("sha256:{key}"),
            status: Status::Succeeded,
            reason: None,
            record_id: Some(record.into()),
            record_principal: None,
            receipt: Some("token".into()),
            recorded_at: "2026-12-03T00:00:00Z".into(),
        }
    }

    #[tokio::test]
    async fn one_verdict_is_redeemed_once_across_ledgers_on_one_file_and_survives_a_reopen() {
        let folder = tempfile::tempdir().unwrap();
        // Two handles with their own index, as two processes have.
        let first = FileLedger::open(folder.path()).unwrap();
        let second = FileLedger::open(folder.path()).unwrap();
        let won = first.commit(proposal("a", None, "rec_1")).await.unwrap();
        assert!(matches!(&won, Committed::New(entry) if entry.status == Status::Succeeded));
        let lost = second.commit(proposal("b", Some("shop"), "rec_1")).await.unwrap();
        let Committed::New(lost) = lost else { panic!("{lost:?}") };
        assert_eq!((lost.status, lost.reason, lost.receipt), (Status::Failed, Some(Reason::AlreadyRedeemed), None));
        let again = second.commit(proposal("a", None, "rec_1")).await.unwrap();
        assert!(matches!(again, Committed::Existing(entry) if entry.status == Status::Succeeded));
        // The same key under another principal is another request.
        let other = first.commit(proposal("a", Some("shop"), "rec_2")).await.unwrap();
        assert!(matches!(other, Committed::New(entry) if entry.status == Status::Succeeded));

        let reopened = FileLedger::open(folder.path()).unwrap();
        assert_eq!(reopened.redeemed("rec_1").await.unwrap().unwrap().request_id, "a");
        assert_eq!(reopened.request(Some("shop"), "b").await.unwrap().unwrap().reason, Some(Reason::AlreadyRedeemed));
        assert_eq!(reopened.request(None, "b").await.unwrap(), None, "another principal's request is not found");
    }

    #[tokio::test]
    async fn a_torn_last_line_is_cut_off_by_the_next_writer() {
        let folder = tempfile::tempdir().unwrap();
        let ledger = FileLedger::open(folder.path()).unwrap();
        ledger.commit(proposal("a", None, "rec_1")).await.unwrap();
        let path = folder.path().join(LEDGER_FILE);
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(br#"{"request_id":"torn","#).unwrap();
        let fresh = FileLedger::open(folder.path()).unwrap();
        assert!(fresh.request(None, "a").await.unwrap().is_some());
        fresh.commit(proposal("c", None, "rec_3")).await.unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 2, "{text}");
        assert!(!text.contains("torn"));
    }

    #[test]
    fn fifty_threads_on_one_verdict_redeem_it_once() {
        let folder = tempfile::tempdir().unwrap();
        let outcomes: Vec<Committed> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..50)
                .map(|index| {
                    // Each thread its own ledger handle, like its own process.
                    let ledger = FileLedger::open(folder.path()).unwrap();
                    scope.spawn(move || ledger.commit_blocking(proposal(&format!("k{index}"), None, "rec_1")).unwrap())
                })
                .collect();
            handles.into_iter().map(|handle| handle.join().unwrap()).collect()
        });
        let succeeded = outcomes
            .iter()
            .filter(|outcome| matches!(outcome, Committed::New(entry) if entry.status == Status::Succeeded))
            .count();
        assert_eq!(succeeded, 1);
        assert_eq!(outcomes.len(), 50);
    }
}
