//! An append-only JSON Lines file that every process of one machine shares,
//! folded into an in-memory [`Index`]: the storage under the embedded
//! payment ledger (`pay::ledger`) and redemption ledger (`redeem::file`).
//! The evidence log has its own writer (`evidence`): it chains hashes and
//! batches fsyncs, which a ledger needs neither of.
//!
//! The guarantees, each a reason for the code below:
//! - **One writer at a time, from any process.** [`Journal::append`] holds
//!   an exclusive `flock` on the file from catching up with what other
//!   processes appended to the fsync of its own line, so its decision
//!   ("first redemption or `already_redeemed`", "mark attempted or not") is
//!   taken on the whole file and cannot interleave with another's. The
//!   kernel drops the lock of a process that dies, even by SIGKILL.
//! - **Durable before it is acted on.** A line is fsynced before `append`
//!   returns, so nobody is answered, and nothing is sent, on a line a crash
//!   could take back.
//! - **No half-written line is ever read.** [`Journal::read`] takes the
//!   lock shared, so it never sees a line whose writer still holds the lock;
//!   a line without its final newline can only be a write that never
//!   completed (its writer died before its fsync, so nobody relied on it),
//!   and the next writer, holding the lock, cuts it off.
//! - **Others' entries are caught up, once each.** Each handle remembers how
//!   many bytes of the file its index holds and reads only what came after;
//!   a file shorter than that was changed behind the ledger's back, which is
//!   refused rather than guessed at.
//!
//! This module knows no entry type: the ledger above it owns the entries,
//! the index they fold into and every rule about them.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use serde::Serialize;
use serde::de::DeserializeOwned;

/// What a journal's lines fold into: the state its ledger decides on.
pub trait Index: Default + Send + 'static {
    /// One line of the file.
    type Entry: Serialize + DeserializeOwned;
    /// What the warnings about this journal call it (`payment ledger`).
    const NAME: &'static str;
    /// Folds one entry in, in file order: every entry read back from the
    /// file and every entry appended through this handle passes here once.
    fn apply(&mut self, entry: Self::Entry);
}

/// A journal's failures: the call that got one recorded nothing.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path} is broken at line {line}: {reason}")]
    Broken { path: PathBuf, line: u64, reason: String },
    /// The blocking task running the call was cancelled or panicked.
    #[error("{0}: its task stopped")]
    Interrupted(PathBuf),
}

/// One journal file and this handle's index of it. Cheap to clone; clones
/// share one index (another handle on the same file, in this process or
/// another, has its own and catches up through the file).
#[derive(Debug)]
pub struct Journal<I: Index> {
    path: PathBuf,
    state: Arc<Mutex<State<I>>>,
}

impl<I: Index> Clone for Journal<I> {
    fn clone(&self) -> Journal<I> {
        Journal { path: self.path.clone(), state: Arc::clone(&self.state) }
    }
}

/// What this handle has read of the file.
#[derive(Debug, Default)]
struct State<I> {
    /// How many bytes of the file are folded into `index`.
    offset: u64,
    /// Lines read, for error messages.
    lines: u64,
    index: I,
}

impl<I: Index> Journal<I> {
    /// Opens (creating the folder and the file if needed) the journal at
    /// `path` and reads it.
    pub fn open(path: PathBuf) -> Result<Journal<I>, JournalError> {
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder).map_err(|source| JournalError::Io { path: folder.to_owned(), source })?;
        }
        let journal = Journal { path, state: Arc::default() };
        journal.locked(false, |_, _| Ok(()))?;
        Ok(journal)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `look` on the index, caught up with every complete line of the
    /// file, under a shared lock.
    pub fn read<T>(&self, look: impl FnOnce(&I) -> T) -> Result<T, JournalError> {
        self.locked(false, |state, _| Ok(look(&state.index)))
    }

    /// Under the exclusive lock, with the index caught up, asks `decide`
    /// what to write: `(Some(entry), answer)` appends `entry`, fsyncs it and
    /// folds it in before returning `answer`; `(None, answer)` writes
    /// nothing. An error from `decide` writes nothing either.
    pub fn append<T, E: From<JournalError>>(
        &self,
        decide: impl FnOnce(&I) -> Result<(Option<I::Entry>, T), E>,
    ) -> Result<T, E> {
        let mut decided = None;
        self.locked(true, |state, file| {
            let (entry, answer) = match decide(&state.index) {
                Ok(decision) => decision,
                Err(error) => {
                    decided = Some(Err(error));
                    return Ok(());
                }
            };
            if let Some(entry) = entry {
                self.write(state, file, entry)?;
            }
            decided = Some(Ok(answer));
            Ok(())
        })?;
        // `locked` returned Ok, so it ran the closure, which always decided.
        decided.unwrap_or_else(|| unreachable!("the closure ran"))
    }

    /// Runs a blocking journal call off the async workers.
    pub async fn blocking<T: Send + 'static, E: From<JournalError> + Send + 'static>(
        &self,
        work: impl FnOnce(Journal<I>) -> Result<T, E> + Send + 'static,
    ) -> Result<T, E> {
        let journal = self.clone();
        tokio::task::spawn_blocking(move || work(journal))
            .await
            .unwrap_or_else(|_| Err(JournalError::Interrupted(self.path.clone()).into()))
    }

    fn write(&self, state: &mut State<I>, file: &mut File, entry: I::Entry) -> Result<(), JournalError> {
        let mut line = serde_json::to_vec(&entry).map_err(|error| JournalError::Broken {
            path: self.path.clone(),
            line: state.lines + 1,
            reason: error.to_string(),
        })?;
        line.push(b'\n');
        let io = |source| JournalError::Io { path: self.path.clone(), source };
        file.write_all(&line).map_err(io)?;
        // Durable before anyone acts on it: the caller answers or sends next.
        file.sync_data().map_err(io)?;
        state.offset += line.len() as u64;
        state.lines += 1;
        state.index.apply(entry);
        Ok(())
    }

    /// Runs `work` with the file locked (exclusively when `exclusive`) and
    /// every complete line of it folded into the index.
    fn locked<T>(
        &self,
        exclusive: bool,
        work: impl FnOnce(&mut State<I>, &mut File) -> Result<T, JournalError>,
    ) -> Result<T, JournalError> {
        let io = |source| JournalError::Io { path: self.path.clone(), source };
        // The mutex first, then the file lock: this process's handles queue
        // on the mutex, and only one of them at a time waits on the flock.
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let mut file = OpenOptions::new().create(true).read(true).append(true).open(&self.path).map_err(io)?;
        if exclusive { file.lock() } else { file.lock_shared() }.map_err(io)?;
        let length = file.metadata().map_err(io)?.len();
        if length < state.offset {
            return Err(JournalError::Broken {
                path: self.path.clone(),
                line: state.lines,
                reason: "the file is shorter than what was read of it".into(),
            });
        }
        if length > state.offset {
            file.seek(SeekFrom::Start(state.offset)).map_err(io)?;
            let mut fresh = Vec::new();
            file.read_to_end(&mut fresh).map_err(io)?;
            let complete = fresh.iter().rposition(|&byte| byte == b'\n').map_or(0, |end| end + 1);
            for line in fresh[..complete].split(|&byte| byte == b'\n').filter(|line| !line.is_empty()) {
                state.lines += 1;
                let entry: I::Entry = serde_json::from_slice(line).map_err(|error| JournalError::Broken {
                    path: self.path.clone(),
                    line: state.lines,
                    reason: error.to_string(),
                })?;
                state.index.apply(entry);
            }
            state.offset += complete as u64;
            // Only a writer cuts: a reader never changes the file (and
            // other readers may hold the lock beside it).
            if complete < fresh.len() && exclusive {
                tracing::warn!(
                    path = %self.path.display(),
                    bytes = fresh.len() - complete,
                    "{}: a torn last line cut off",
                    I::NAME
                );
                file.set_len(state.offset).map_err(io)?;
                file.sync_data().map_err(io)?;
            }
        }
        // The file (and its lock) is closed when `work` returns.
        work(&mut state, &mut file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// A toy index: the first value written under each key wins.
    #[derive(Debug, Default)]
    struct FirstWins(BTreeMap<String, u32>);

    #[derive(Debug, Serialize, serde::Deserialize)]
    struct Put {
        key: String,
        value: u32,
    }

    impl Index for FirstWins {
        type Entry = Put;
        const NAME: &'static str = "test journal";
        fn apply(&mut self, entry: Put) {
            self.0.entry(entry.key).or_insert(entry.value);
        }
    }

    /// Puts `key` unless it is there; returns the standing value.
    fn put(journal: &Journal<FirstWins>, key: &str, value: u32) -> u32 {
        journal
            .append(|index| {
                Ok::<_, JournalError>(match index.0.get(key) {
                    Some(&standing) => (None, standing),
                    None => (Some(Put { key: key.into(), value }), value),
                })
            })
            .unwrap()
    }

    #[test]
    fn another_handles_entries_are_caught_up_before_a_decision_and_on_reopen() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("nested").join("j.jsonl");
        let first = Journal::<FirstWins>::open(path.clone()).unwrap();
        let second = Journal::<FirstWins>::open(path.clone()).unwrap();
        assert_eq!(put(&first, "a", 1), 1);
        assert_eq!(put(&second, "a", 2), 1, "decided on the first handle's line");
        assert_eq!(second.read(|index| index.0.get("a").copied()).unwrap(), Some(1));
        let reopened = Journal::<FirstWins>::open(path.clone()).unwrap();
        assert_eq!(reopened.read(|index| index.0.clone()).unwrap(), BTreeMap::from([("a".into(), 1)]));
        assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 1, "nothing written for the loser");
    }

    #[test]
    fn a_torn_tail_is_skipped_by_readers_and_cut_by_the_next_writer() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("j.jsonl");
        let journal = Journal::<FirstWins>::open(path.clone()).unwrap();
        put(&journal, "a", 1);
        OpenOptions::new().append(true).open(&path).unwrap().write_all(br#"{"key":"torn","#).unwrap();
        let fresh = Journal::<FirstWins>::open(path.clone()).unwrap();
        assert_eq!(fresh.read(|index| index.0.len()).unwrap(), 1, "the torn line is not read");
        assert!(std::fs::read_to_string(&path).unwrap().contains("torn"), "a reader cuts nothing");
        put(&fresh, "b", 2);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, "{\"key\":\"a\",\"value\":1}\n{\"key\":\"b\",\"value\":2}\n");
    }

    #[test]
    fn a_refused_decision_writes_nothing_and_a_shortened_file_is_refused() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("j.jsonl");
        let journal = Journal::<FirstWins>::open(path.clone()).unwrap();
        let refused: Result<(), String> = journal
            .append(|_| Err::<(Option<Put>, ()), _>(JournalError::Interrupted("x".into())))
            .map_err(|error| error.to_string());
        assert!(refused.is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "");
        put(&journal, "a", 1);
        std::fs::write(&path, "").unwrap();
        let error = journal.read(|_| ()).unwrap_err();
        assert!(error.to_string().contains("shorter than what was read"), "{error}");
        std::fs::write(&path, "not json\n").unwrap();
        let error = Journal::<FirstWins>::open(path).unwrap_err();
        assert!(error.to_string().contains("is broken at line 1"), "{error}");
    }

    #[test]
    fn fifty_threads_each_with_its_own_handle_put_one_key_once() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("j.jsonl");
        let standing: Vec<u32> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..50)
                .map(|value| {
                    // Each thread its own handle, like its own process.
                    let journal = Journal::<FirstWins>::open(path.clone()).unwrap();
                    scope.spawn(move || put(&journal, "k", value))
                })
                .collect();
            handles.into_iter().map(|handle| handle.join().unwrap()).collect()
        });
        assert!(standing.windows(2).all(|pair| pair[0] == pair[1]), "{standing:?}");
        assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 1);
    }
}
