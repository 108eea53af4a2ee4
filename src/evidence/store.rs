//! The store handle: appends go to this process's writer thread, `get`
//! answers from the shared index when it can.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use tokio::sync::{mpsc, oneshot};

use super::index::{Index, Recent};
use super::writer::{Command, LockedLog, writer};
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

/// This store's writer thread. Other stores on the same log, in this process
/// or another, have their own: each takes the log's lock for every batch it
/// writes (`writer::LockedLog`).
#[derive(Debug)]
struct Writer {
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Writer {
    fn drop(&mut self) {
        // Every sender is gone (see `EvidenceStore`): the thread seals what is
        // queued and ends, so every append a handle made is on disk once
        // the last handle is dropped.
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
    /// Opens (creating if needed) the log in `data_dir`, reads it into the
    /// index and starts the writer thread. Fails if the existing log does
    /// not verify. Any number of stores, in this process or others, may have
    /// one log open: they take turns appending (see `writer::LockedLog`).
    pub fn open(data_dir: &Path) -> Result<EvidenceStore, StoreError> {
        fs::create_dir_all(data_dir).map_err(|source| StoreError::Io { path: data_dir.to_owned(), source })?;
        let path = data_dir.join(LOG_FILE);
        // Locked while the log is read and a torn tail set aside: another
        // writer's batch is complete and fsynced once its lock is released,
        // and a line it is halfway through is not torn.
        let log = LockedLog::open(&path)?;
        set_aside_torn_tail(&path)?;
        let index = Arc::new(Mutex::new(Index::load(&path)?));
        drop(log);
        // The bound only applies back-pressure: each check waits for its own
        // fsync anyway.
        let (sender, receiver) = mpsc::channel(64);
        let (thread_path, thread_index) = (path.clone(), Arc::clone(&index));
        let thread = std::thread::Builder::new()
            .name("asasked-evidence".into())
            .spawn(move || writer(thread_path, thread_index, receiver))
            .map_err(|source| StoreError::Io { path: path.clone(), source })?;
        Ok(EvidenceStore { sender, path, index, _writer: Arc::new(Writer { thread: Some(thread) }) })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Seals `draft` unless a record with its id exists. Link rules are checked
    /// against the log as it is when the writer gets to this append.
    pub async fn append(&self, draft: Draft) -> Result<Result<Appended, LinkError>, StoreError> {
        let (reply, answer) = oneshot::channel();
        self.sender.send(Command::Append { draft, reply }).await.map_err(|_| StoreError::WriterStopped)?;
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
    /// appended (the writer takes their records in first, under the lock).
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
