//! The store handle and the lock: appends go to the writer thread, `get`
//! answers from the shared index when it can.

use std::fs::{self, File, OpenOptions};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use tokio::sync::{mpsc, oneshot};

use crate::digest;

use super::index::{Index, Recent};
use super::writer::{Command, writer};
use super::{Appended, Draft, LOG_FILE, LinkError, SealedRecord, StoreError, set_aside_torn_tail};

/// A handle to the writer thread. Cheap to clone; the thread ends when the
/// last handle is dropped, after every queued append has been fsynced.
#[derive(Clone)]
pub struct EvidenceStore {
    // Declared before `_writer`: each handle drops its sender first, so when
    // the last `_writer` goes, no sender is left and the thread can end.
    sender: mpsc::Sender<Command>,
    path: PathBuf,
    /// The writer's index, shared so that `get` can answer without waking
    /// the writer (see [`EvidenceStore::get_durable`]). The writer holds the
    /// lock while it stages a batch, never across a write or an fsync.
    index: Arc<Mutex<Index>>,
    _writer: Arc<Writer>,
}

/// The writer thread and the lock that makes it the log's only writer.
#[derive(Debug)]
struct Writer {
    thread: Option<std::thread::JoinHandle<()>>,
    /// The log, open with an exclusive advisory lock (`flock`) for as long as
    /// the store lives. Two writers would each extend the chain from the
    /// head they last saw, and the second record to land would break it.
    _lock: File,
}

impl Drop for Writer {
    fn drop(&mut self) {
        // Every sender is gone (see `EvidenceStore`): the thread seals what is
        // queued and ends. Waiting for it before the lock is released means
        // a store opened after this one is dropped never overlaps its writes.
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl std::fmt::Debug for EvidenceStore {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("EvidenceStore").field("path", &self.path).finish_non_exhaustive()
    }
}

impl EvidenceStore {
    /// Opens (creating if needed) the log in `data_dir`, locks it and starts
    /// the writer thread. Fails if the existing log does not verify, or with
    /// [`StoreError::Locked`] if another store (in this process or another)
    /// holds it.
    pub fn open(data_dir: &Path) -> Result<EvidenceStore, StoreError> {
        fs::create_dir_all(data_dir).map_err(|source| StoreError::Io { path: data_dir.to_owned(), source })?;
        let path = data_dir.join(LOG_FILE);
        // Locked before anything reads or cuts the log: setting a torn tail
        // aside while another writer is halfway through a line would cut
        // off a record that writer is about to acknowledge.
        let lock = lock_log(data_dir, &path)?;
        if let Some(set_aside) = set_aside_torn_tail(&path)? {
            tracing::warn!(
                log = %path.display(),
                side_file = %set_aside.side_file.display(),
                line = set_aside.line,
                bytes = set_aside.bytes,
                "evidence log ended in a torn line (a write cut off by a crash, never acknowledged): \
                 its bytes were set aside in the side file and the log continues after the last complete record"
            );
        }
        let index = Arc::new(Mutex::new(Index::load(&path)?));
        // The bound only applies back-pressure: each check waits for its own
        // fsync anyway.
        let (sender, receiver) = mpsc::channel(64);
        let (thread_path, thread_index) = (path.clone(), Arc::clone(&index));
        let thread = std::thread::Builder::new()
            .name("asasked-evidence".into())
            .spawn(move || writer(thread_path, thread_index, receiver))
            .map_err(|source| StoreError::Io { path: path.clone(), source })?;
        Ok(EvidenceStore { sender, path, index, _writer: Arc::new(Writer { thread: Some(thread), _lock: lock }) })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Seals `draft` unless a record with its id exists. Link rules are checked
    /// against the log as it is when the writer gets to this append.
    pub async fn append(&self, draft: Draft) -> Result<Result<Appended, LinkError>, StoreError> {
        let (reply, answer) = oneshot::channel();
        let mut body = Vec::with_capacity(4096);
        digest::write_canonical(&draft.body, &mut body);
        self.sender.send(Command::Append { draft, body, reply }).await.map_err(|_| StoreError::WriterStopped)?;
        answer.await.map_err(|_| StoreError::WriterStopped)?
    }

    pub async fn get(&self, record_id: &str) -> Result<Option<Arc<SealedRecord>>, StoreError> {
        if let Some(answer) = self.get_durable(record_id) {
            return Ok(answer);
        }
        let (reply, answer) = oneshot::channel();
        let command = Command::Get { record_id: record_id.to_owned(), reply };
        self.sender.send(command).await.map_err(|_| StoreError::WriterStopped)?;
        answer.await.map_err(|_| StoreError::WriterStopped)?
    }

    /// `get` answered from the shared index, without a round trip to the
    /// writer thread (every check asks whether its record exists; under load
    /// that round trip woke the writer once more per check and, on disk,
    /// waited behind the batch being fsynced). Answers only what the writer
    /// would answer now: a record absent from the index, or one that is on
    /// disk and in the in-memory window. `None` (ask the writer) when the
    /// record is not yet fsynced (its reply must wait for the fsync), older
    /// than the window (read back from the file by the writer), after a
    /// failed write, or when the file's length shows another process
    /// appended (the writer reloads the index first).
    fn get_durable(&self, record_id: &str) -> Option<Option<Arc<SealedRecord>>> {
        let file_length = match fs::metadata(&self.path) {
            Ok(metadata) => metadata.len(),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => 0,
            Err(_) => return None,
        };
        let line = {
            let mut index = self.index.lock().ok()?;
            // Between the durable length and the staged one, the file holds
            // only this writer's bytes (a batch being written).
            if index.length == u64::MAX || file_length < index.durable_length || file_length > index.length {
                return None;
            }
            let Some(entry) = index.records.get(record_id) else {
                return Some(None);
            };
            if entry.seq > index.durable_seq {
                return None;
            }
            match index.recent.get(record_id)? {
                Recent::Record(record) => return Some(Some(Arc::clone(record))),
                Recent::Line(line) => Arc::clone(line),
            }
        };
        // Parsed outside the lock, then kept parsed for the next replay.
        let record = Arc::new(serde_json::from_slice::<SealedRecord>(line.trim_ascii_end()).ok()?);
        if let Ok(mut index) = self.index.lock()
            && let Some(recent) = index.recent.peek_mut(record_id)
            && matches!(recent, Recent::Line(_))
        {
            *recent = Recent::Record(Arc::clone(&record));
        }
        Some(Some(record))
    }

    /// The record that superseded `record_id`, if any.
    pub async fn successor(&self, record_id: &str) -> Result<Option<String>, StoreError> {
        let (reply, answer) = oneshot::channel();
        let command = Command::Successor { record_id: record_id.to_owned(), reply };
        self.sender.send(command).await.map_err(|_| StoreError::WriterStopped)?;
        answer.await.map_err(|_| StoreError::WriterStopped)?
    }
}

/// Opens the log (creating it empty) and takes an exclusive advisory lock on
/// it without waiting. The lock belongs to the open file description
/// (`flock`), so a second open in the same process is refused too, and the
/// kernel releases it when the process ends, even by SIGKILL. Readers
/// ([`verify_file`], [`show`], [`read_all`]) take no lock.
fn lock_log(data_dir: &Path, path: &Path) -> Result<File, StoreError> {
    let io = |source| StoreError::Io { path: path.to_owned(), source };
    let file = OpenOptions::new().create(true).append(true).open(path).map_err(io)?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => {
            Err(StoreError::Locked { data_dir: data_dir.to_owned(), log: path.to_owned() })
        }
        Err(std::fs::TryLockError::Error(source)) => Err(io(source)),
    }
}

impl super::RecordStore for EvidenceStore {
    fn append(&self, draft: Draft) -> super::StoreFuture<'_, Result<Appended, LinkError>> {
        Box::pin(EvidenceStore::append(self, draft))
    }

    fn get<'a>(&'a self, record_id: &'a str) -> super::StoreFuture<'a, Option<Arc<SealedRecord>>> {
        Box::pin(EvidenceStore::get(self, record_id))
    }

    fn successor<'a>(&'a self, record_id: &'a str) -> super::StoreFuture<'a, Option<String>> {
        Box::pin(EvidenceStore::successor(self, record_id))
    }

    fn location(&self) -> String {
        self.path.display().to_string()
    }
}
