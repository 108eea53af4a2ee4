//! The embedded redemption ledger: `redemptions.jsonl` in the data folder,
//! one JSON line per recorded outcome, append-only, on a
//! [`crate::journal::Journal`].
//!
//! Every commit decides "first redemption or `already_redeemed`" under the
//! journal's exclusive `flock`, after catching up with the lines other
//! processes appended, and fsyncs its line before it is answered; so any
//! number of processes sharing a data folder redeem a verdict at most once,
//! each seeing all the others' outcomes. Reads take the lock shared, and a
//! torn last line (its writer died before its fsync, so no caller was
//! answered) is cut off by the next writer (see the journal for why each
//! holds).

use std::collections::HashMap;
use std::path::Path;

use super::{Committed, Ledger, LedgerError, LedgerFuture, Reason, Redemption, Status};
use crate::journal::{Index, Journal};

/// The ledger file inside the data folder.
pub const LEDGER_FILE: &str = "redemptions.jsonl";

/// The embedded ledger. Cheap to clone; clones share one in-memory index.
#[derive(Debug, Clone)]
pub struct FileLedger {
    journal: Journal<Redemptions>,
}

/// What this process has read of the file.
#[derive(Debug, Default)]
struct Redemptions {
    /// By (principal, request id).
    requests: HashMap<(Option<String>, String), Redemption>,
    /// The successful redemption of each record.
    redeemed: HashMap<String, Redemption>,
}

impl FileLedger {
    /// Opens (creating if needed) the ledger in `data_dir` and reads it.
    pub fn open(data_dir: &Path) -> Result<FileLedger, LedgerError> {
        Ok(FileLedger { journal: Journal::open(data_dir.join(LEDGER_FILE))? })
    }

    pub fn path(&self) -> &Path {
        self.journal.path()
    }

    fn commit_blocking(&self, proposed: Redemption) -> Result<Committed, LedgerError> {
        self.journal.append(|index: &Redemptions| {
            let key = (proposed.principal.clone(), proposed.request_id.clone());
            if let Some(existing) = index.requests.get(&key) {
                return Ok((None, Committed::Existing(existing.clone())));
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
            Ok((Some(recorded.clone()), Committed::New(recorded)))
        })
    }
}

impl Index for Redemptions {
    type Entry = Redemption;
    const NAME: &'static str = "redemption ledger";

    fn apply(&mut self, redemption: Redemption) {
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
        Box::pin(self.journal.blocking(move |journal| FileLedger { journal }.commit_blocking(proposed)))
    }

    fn request<'a>(&'a self, principal: Option<&'a str>, request_id: &'a str) -> LedgerFuture<'a, Option<Redemption>> {
        let key = (principal.map(str::to_owned), request_id.to_owned());
        Box::pin(self.journal.blocking(move |journal| {
            Ok::<_, LedgerError>(journal.read(|index: &Redemptions| index.requests.get(&key).cloned())?)
        }))
    }

    fn redeemed<'a>(&'a self, record_id: &'a str) -> LedgerFuture<'a, Option<Redemption>> {
        let record_id = record_id.to_owned();
        Box::pin(self.journal.blocking(move |journal| {
            Ok::<_, LedgerError>(journal.read(|index: &Redemptions| index.redeemed.get(&record_id).cloned())?)
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::OpenOptions;
    use std::io::Write;

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
