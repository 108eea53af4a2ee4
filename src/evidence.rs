//! The sealed evidence log (guard.md §8, ACF v0.2 §7 and §11): append-only
//! JSON Lines in a data directory, each record carrying the SHA-256 of the
//! record before it, so a later edit of any record breaks the chain.
//!
//! One writer thread owns the file: appends are serialised, `fsync`ed before
//! the caller hears back, and the attempt-chain rules (a link must exist and
//! still head its chain) are checked under the same serialisation, so two
//! concurrent resubmissions cannot both extend one record. The log is never
//! rewritten: no acknowledged record is ever changed or removed. One case is
//! set aside rather than refused: a torn last line (no final newline) after
//! a chain that verifies. Its write never completed, so its fsync never
//! happened and no caller was told its result; on open its bytes are moved,
//! verbatim, to a side file (`evidence.jsonl.torn-<line>-<unix seconds>`),
//! fsynced, logged as a warning and listed by `evidence verify`, and only
//! then is the log cut back to its last complete record. Any other break
//! (an altered, reordered or unparsable record) is reported and the store
//! refuses to open.
//!
//! Group commit: the writer takes every command queued when it wakes, writes
//! the batch's records in order with one `fsync`, and only then sends any
//! reply that reveals one of them. In memory it keeps an index entry per
//! record (id, position, attempt, request digest) and only the latest
//! [`RECENT_RECORDS`] records' lines; older ones are read back from the log.
//! The index is shared with `get`, which answers from it, without waking the
//! writer, for a record that is absent or already fsynced.
//!
//! This module does not know what a check is: a record's `body` is the
//! service's JSON. It knows record ids, request text, attempt links and hashes.

use std::collections::{HashMap, HashSet};
use std::fs::{self, File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use lru::LruCache;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use tokio::sync::{mpsc, oneshot};

use crate::digest;

/// The log file inside the data directory.
pub const LOG_FILE: &str = "evidence.jsonl";
/// `prev_hash` of the first record.
pub const GENESIS: &str = "sha256:0000000000000000000000000000000000000000000000000000000000000000";

/// One sealed record as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SealedRecord {
    /// 1-based position in the log.
    pub seq: u64,
    pub record_id: String,
    #[serde(default)]
    pub previous_record_id: Option<String>,
    /// 1 for a first check, n for the n-th attempt of a chain.
    pub attempt: u32,
    /// RFC 3339, UTC.
    pub sealed_at: String,
    /// The person's words: attempts of one chain must share them.
    pub request: String,
    pub body: Value,
    /// The `hash` of the record before (or [`GENESIS`]).
    pub prev_hash: String,
    /// SHA-256 of this record's canonical JSON without `hash`.
    pub hash: String,
}

impl SealedRecord {
    fn compute_hash(&self) -> Result<String, serde_json::Error> {
        let mut body = Vec::new();
        digest::write_canonical(&self.body, &mut body);
        Ok(self.fields(&body).hash())
    }

    fn fields<'a>(&'a self, body: &'a [u8]) -> Fields<'a> {
        Fields {
            seq: self.seq,
            record_id: &self.record_id,
            previous_record_id: self.previous_record_id.as_deref(),
            attempt: self.attempt,
            sealed_at: &self.sealed_at,
            request: &self.request,
            body,
            prev_hash: &self.prev_hash,
        }
    }
}

/// A record's fields with its body as canonical JSON text, written once and
/// used for both its hash and its line: the record is never turned into a
/// `Value` (a deep copy of its kilobytes of body) to be hashed.
struct Fields<'a> {
    seq: u64,
    record_id: &'a str,
    previous_record_id: Option<&'a str>,
    attempt: u32,
    sealed_at: &'a str,
    request: &'a str,
    /// Canonical JSON (digest::write_canonical).
    body: &'a [u8],
    prev_hash: &'a str,
}

impl Fields<'_> {
    /// `sha256:` of the record's canonical JSON without `hash`
    /// (digest::canonical of it as a `Value`): its keys in byte order.
    fn hash(&self) -> String {
        let mut out = Vec::with_capacity(self.body.len() + self.request.len() + 384);
        out.extend_from_slice(b"{\"attempt\":");
        digest::write_json(&self.attempt, &mut out);
        out.extend_from_slice(b",\"body\":");
        out.extend_from_slice(self.body);
        out.extend_from_slice(b",\"prev_hash\":");
        digest::write_json(self.prev_hash, &mut out);
        out.extend_from_slice(b",\"previous_record_id\":");
        digest::write_json(&self.previous_record_id, &mut out);
        out.extend_from_slice(b",\"record_id\":");
        digest::write_json(self.record_id, &mut out);
        out.extend_from_slice(b",\"request\":");
        digest::write_json(self.request, &mut out);
        out.extend_from_slice(b",\"sealed_at\":");
        digest::write_json(self.sealed_at, &mut out);
        out.extend_from_slice(b",\"seq\":");
        digest::write_json(&self.seq, &mut out);
        out.push(b'}');
        digest::sha256(&out)
    }

    /// Appends the record's line, newline included: what serde_json writes
    /// for the [`SealedRecord`] (its fields in declaration order). The body's
    /// canonical text is serde_json's own compact text of it, since
    /// serde_json's map keeps its keys sorted (digest's tests check both).
    fn write_line(&self, hash: &str, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"seq\":");
        digest::write_json(&self.seq, out);
        out.extend_from_slice(b",\"record_id\":");
        digest::write_json(self.record_id, out);
        out.extend_from_slice(b",\"previous_record_id\":");
        digest::write_json(&self.previous_record_id, out);
        out.extend_from_slice(b",\"attempt\":");
        digest::write_json(&self.attempt, out);
        out.extend_from_slice(b",\"sealed_at\":");
        digest::write_json(self.sealed_at, out);
        out.extend_from_slice(b",\"request\":");
        digest::write_json(self.request, out);
        out.extend_from_slice(b",\"body\":");
        out.extend_from_slice(self.body);
        out.extend_from_slice(b",\"prev_hash\":");
        digest::write_json(self.prev_hash, out);
        out.extend_from_slice(b",\"hash\":");
        digest::write_json(hash, out);
        out.extend_from_slice(b"}\n");
    }
}

/// What the service asks to seal.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    pub record_id: String,
    pub previous_record_id: Option<String>,
    pub request: String,
    pub sealed_at: String,
    pub body: Value,
}

/// The store's failures.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("evidence log {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("evidence log {path} is broken at line {line}: {reason}; run `asasked evidence verify`")]
    Broken { path: PathBuf, line: u64, reason: String },
    #[error("cannot encode the record: {0}")]
    Encode(#[from] serde_json::Error),
    #[error("the evidence writer has stopped")]
    WriterStopped,
    #[error(
        "data dir {data_dir}: another asasked process holds the evidence log {log} (a server or a check is \
         writing to it); stop that process or pass another --data-dir"
    )]
    Locked { data_dir: PathBuf, log: PathBuf },
}

/// Why a `previous_record_id` is refused (ACF v0.2 §7).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    #[error("previous_record_id {0:?} does not exist")]
    NotFound(String),
    #[error("previous_record_id {0:?} belongs to another request")]
    OtherRequest(String),
    #[error("previous_record_id {0:?} was already superseded by {1:?}: resubmit against the latest record")]
    NotHead(String, String),
}

/// The outcome of an append.
#[derive(Debug, Clone, PartialEq)]
pub enum Appended {
    /// Written and fsynced.
    New(Arc<SealedRecord>),
    /// A record with this id already existed: nothing was written.
    Existing(Arc<SealedRecord>),
}

impl Appended {
    pub fn record(&self) -> &Arc<SealedRecord> {
        match self {
            Appended::New(record) | Appended::Existing(record) => record,
        }
    }
}

enum Command {
    /// `body`: the draft's body as canonical JSON, written by the caller's
    /// task so the one writer thread does not.
    Append {
        draft: Draft,
        body: Vec<u8>,
        reply: oneshot::Sender<Result<Result<Appended, LinkError>, StoreError>>,
    },
    Get {
        record_id: String,
        reply: oneshot::Sender<Result<Option<Arc<SealedRecord>>, StoreError>>,
    },
    Successor {
        record_id: String,
        reply: oneshot::Sender<Result<Option<String>, StoreError>>,
    },
}

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

/// Whole records kept in memory: the latest sealed or read ones, so a replay
/// of a recent check or the next attempt of a chain reads no file. It must
/// hold at least one batch of appends ([`MAX_BATCH`]): a record staged in a
/// batch is not yet in the file and can only be found here.
const RECENT_RECORDS: NonZeroUsize = match NonZeroUsize::new(1024) {
    Some(capacity) => capacity,
    None => NonZeroUsize::MIN,
};

/// What the writer knows of one record without its body: where its line is
/// and what the link rules compare. The index grows by this much per record,
/// not by the record (a body is kilobytes of JSON).
struct Entry {
    seq: u64,
    offset: u64,
    length: usize,
    attempt: u32,
    /// SHA-256 of the request: attempts of one chain must share it.
    request: [u8; 32],
}

/// A record kept in memory: its line as written (one allocation to free
/// when it leaves the window), parsed into a [`SealedRecord`] the first time
/// it is asked for.
enum Recent {
    Line(Arc<[u8]>),
    Record(Arc<SealedRecord>),
}

struct Index {
    records: HashMap<String, Entry>,
    /// previous_record_id → the record that superseded it.
    successors: HashMap<String, String>,
    recent: LruCache<String, Recent>,
    last_hash: String,
    last_seq: u64,
    /// File length after the last record this index knows.
    length: u64,
    /// The last record known to be on disk (fsynced by this writer, or read
    /// from the file), and the file length after it.
    durable_seq: u64,
    durable_length: u64,
}

fn request_digest(request: &str) -> [u8; 32] {
    Sha256::digest(request.as_bytes()).into()
}

impl Index {
    fn load(path: &Path) -> Result<Index, StoreError> {
        let mut index = Index {
            records: HashMap::new(),
            successors: HashMap::new(),
            recent: LruCache::new(RECENT_RECORDS),
            last_hash: GENESIS.to_owned(),
            last_seq: 0,
            length: 0,
            durable_seq: 0,
            durable_length: 0,
        };
        let bytes = match fs::read(path) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(index),
            Err(source) => return Err(StoreError::Io { path: path.to_owned(), source }),
        };
        let report = verify_bytes(&bytes);
        if let Some(broken) = report.first_broken {
            return Err(StoreError::Broken { path: path.to_owned(), line: broken.line, reason: broken.reason });
        }
        let mut offset = 0;
        for line in bytes.split(|byte| *byte == b'\n') {
            if !line.is_empty() {
                let record: SealedRecord = serde_json::from_slice(line)?;
                index.insert(&record, offset as u64, line.len() + 1, Recent::Line(line.into()));
            }
            offset += line.len() + 1;
        }
        index.length = bytes.len() as u64;
        index.durable_seq = index.last_seq;
        index.durable_length = index.length;
        Ok(index)
    }

    /// `length` includes the line's newline.
    fn insert(&mut self, record: &SealedRecord, offset: u64, length: usize, recent: Recent) {
        if let Some(previous) = &record.previous_record_id {
            self.successors.insert(previous.clone(), record.record_id.clone());
        }
        self.last_hash = record.hash.clone();
        self.last_seq = record.seq;
        let entry = Entry {
            seq: record.seq,
            offset,
            length,
            attempt: record.attempt,
            request: request_digest(&record.request),
        };
        self.records.insert(record.record_id.clone(), entry);
        self.recent.put(record.record_id.clone(), recent);
    }

    /// The whole record `record_id`: from memory, or read back from its line
    /// in the log and checked against its own hash.
    fn record(&mut self, path: &Path, record_id: &str) -> Result<Option<Arc<SealedRecord>>, StoreError> {
        let Some(entry) = self.records.get(record_id) else {
            return Ok(None);
        };
        if let Some(recent) = self.recent.get_mut(record_id) {
            let record = match recent {
                Recent::Record(record) => Arc::clone(record),
                Recent::Line(line) => {
                    // Written by this writer (or read from a log that
                    // verified): parsed, not checked again.
                    let record = Arc::new(serde_json::from_slice::<SealedRecord>(line.trim_ascii_end())?);
                    *recent = Recent::Record(Arc::clone(&record));
                    record
                }
            };
            return Ok(Some(record));
        }
        let io = |source| StoreError::Io { path: path.to_owned(), source };
        let mut file = File::open(path).map_err(io)?;
        file.seek(SeekFrom::Start(entry.offset)).map_err(io)?;
        let mut line = vec![0; entry.length];
        file.read_exact(&mut line).map_err(io)?;
        let broken = |reason: String| StoreError::Broken { path: path.to_owned(), line: entry.seq, reason };
        let record: SealedRecord =
            serde_json::from_slice(line.trim_ascii_end()).map_err(|error| broken(format!("unreadable: {error}")))?;
        if record.record_id != record_id || record.seq != entry.seq || record.compute_hash()? != record.hash {
            return Err(broken("the record changed after it was sealed".into()));
        }
        let record = Arc::new(record);
        self.recent.put(record_id.to_owned(), Recent::Record(Arc::clone(&record)));
        Ok(Some(record))
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

/// The most commands one group commit serves: the channel's bound, so a full
/// queue is one batch.
const MAX_BATCH: usize = 64;

/// Serves commands in batches (group commit): every command queued when the
/// writer wakes is taken, appends are written in order and fsynced once, and
/// only then are the replies that reveal a new record sent. Under load one
/// fsync seals many checks; alone, a check still waits for exactly one.
fn writer(path: PathBuf, index: Arc<Mutex<Index>>, mut receiver: mpsc::Receiver<Command>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while let Some(first) = receiver.blocking_recv() {
        batch.push(first);
        while batch.len() < MAX_BATCH {
            match receiver.try_recv() {
                Ok(command) => batch.push(command),
                Err(_) => break,
            }
        }
        serve_batch(&path, &index, batch.drain(..));
    }
}

/// A reply held back until the records it reveals are on disk.
enum Reply {
    Append(oneshot::Sender<Result<Result<Appended, LinkError>, StoreError>>, Result<Appended, LinkError>),
    Get(oneshot::Sender<Result<Option<Arc<SealedRecord>>, StoreError>>, Option<Arc<SealedRecord>>),
    Successor(oneshot::Sender<Result<Option<String>, StoreError>>, Option<String>),
}

impl Reply {
    fn send(self) {
        match self {
            Reply::Append(reply, result) => {
                let _ = reply.send(Ok(result));
            }
            Reply::Get(reply, record) => {
                let _ = reply.send(Ok(record));
            }
            Reply::Successor(reply, successor) => {
                let _ = reply.send(Ok(successor));
            }
        }
    }

    fn fail(self, error: StoreError) {
        match self {
            Reply::Append(reply, _) => {
                let _ = reply.send(Err(error));
            }
            Reply::Get(reply, _) => {
                let _ = reply.send(Err(error));
            }
            Reply::Successor(reply, _) => {
                let _ = reply.send(Err(error));
            }
        }
    }
}

/// The index, even if a reader panicked while holding it: readers only
/// look up and promote entries, which leaves it consistent.
fn lock(index: &Mutex<Index>) -> MutexGuard<'_, Index> {
    index.lock().unwrap_or_else(PoisonError::into_inner)
}

fn serve_batch(path: &Path, shared: &Mutex<Index>, batch: impl Iterator<Item = Command>) {
    let mut batch = batch.peekable();
    if batch.peek().is_none() {
        return;
    }
    let mut index = lock(shared);
    if let Err(error) = refresh(path, &mut index) {
        // The first caller gets the typed error; the others its message.
        let reason = error.to_string();
        let mut error = Some(error);
        for command in batch {
            let error = error.take().unwrap_or_else(|| StoreError::Io {
                path: path.to_owned(),
                source: std::io::Error::other(reason.clone()),
            });
            reply_error(command, error);
        }
        return;
    }
    // Everything up to `durable_seq` is on disk; a reply that depends on a
    // later record waits for this batch's fsync.
    let durable_seq = index.last_seq;
    let length_before = index.length;
    let mut pending = Vec::new();
    let mut held = Vec::new();
    let mut hold_or_send = |reply: Reply, needs_seq: u64| {
        if needs_seq > durable_seq { held.push(reply) } else { reply.send() }
    };
    for command in batch {
        match command {
            Command::Get { record_id, reply } => match index.record(path, &record_id) {
                Ok(record) => {
                    let needs = record.as_ref().map_or(0, |record| record.seq);
                    hold_or_send(Reply::Get(reply, record), needs);
                }
                Err(error) => {
                    let _ = reply.send(Err(error));
                }
            },
            Command::Successor { record_id, reply } => {
                let successor = index.successors.get(&record_id).cloned();
                let needs = successor.as_ref().and_then(|id| index.records.get(id)).map_or(0, |entry| entry.seq);
                hold_or_send(Reply::Successor(reply, successor), needs);
            }
            Command::Append { draft, body, reply } => match stage(path, &mut index, draft, &body, &mut pending) {
                Ok(Ok(appended)) => {
                    let needs = appended.record().seq;
                    hold_or_send(Reply::Append(reply, Ok(appended)), needs);
                }
                // A refused link may name a successor of this batch.
                Ok(Err(link)) => hold_or_send(Reply::Append(reply, Err(link)), index.last_seq),
                Err(error) => {
                    let _ = reply.send(Err(error));
                }
            },
        }
    }
    // Readers may use the index while the batch is written and fsynced:
    // they reveal nothing past `durable_seq`.
    drop(index);
    if pending.is_empty() {
        for reply in held {
            reply.send();
        }
        return;
    }
    match write_and_sync(path, &pending, length_before) {
        Ok(()) => {
            let mut index = lock(shared);
            index.durable_seq = index.last_seq;
            index.durable_length = index.length;
            drop(index);
            for reply in held {
                reply.send();
            }
        }
        Err(source) => {
            // The index already holds this batch's records, which are not
            // known to be on disk: reload from the file on the next command,
            // and tell every caller that waited on them that nothing sealed.
            lock(shared).length = u64::MAX;
            let reason = source.to_string();
            let kind = source.kind();
            for reply in held {
                reply.fail(StoreError::Io { path: path.to_owned(), source: std::io::Error::new(kind, reason.clone()) });
            }
        }
    }
}

fn write_and_sync(path: &Path, bytes: &[u8], length_before: u64) -> Result<(), std::io::Error> {
    let new_file = length_before == 0;
    let mut file = OpenOptions::new().create(true).append(true).open(path)?;
    if let Err(error) = file.write_all(bytes) {
        // A full disk may take part of the batch. Those bytes were never
        // acknowledged: cut them off so the log stays whole and the next
        // append (once there is room) extends a verifying chain. If even
        // that fails, the next command finds a torn line and fails closed.
        let _ = file.set_len(length_before).and_then(|()| file.sync_all());
        return Err(error);
    }
    // The reply is the caller's licence to act on the verdict: the record
    // must be on disk first (ACF §11: sealed before it is relied on).
    // fdatasync, not fsync: it skips only metadata that reading the data
    // back does not need (timestamps). The file's new length is needed to
    // read the appended lines, so Linux's fdatasync makes it durable too
    // (fdatasync(2)); the records are as durable as with fsync.
    file.sync_data()?;
    if new_file
        && let Some(directory) = path.parent()
        && let Ok(directory) = File::open(directory)
    {
        // A new file's directory entry must survive a crash too.
        let _ = directory.sync_all();
    }
    Ok(())
}

/// The lock keeps other asasked processes out, but a program that ignores it
/// may have appended: reload the index when the file grew behind this
/// writer's back, so the chain is verified before it is extended.
fn refresh(path: &Path, index: &mut Index) -> Result<(), StoreError> {
    let length = match fs::metadata(path) {
        Ok(metadata) => metadata.len(),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => 0,
        Err(source) => return Err(StoreError::Io { path: path.to_owned(), source }),
    };
    if length != index.length {
        *index = Index::load(path)?;
    }
    Ok(())
}

fn reply_error(command: Command, error: StoreError) {
    match command {
        Command::Get { reply, .. } => {
            let _ = reply.send(Err(error));
        }
        Command::Successor { reply, .. } => {
            let _ = reply.send(Err(error));
        }
        Command::Append { reply, .. } => {
            let _ = reply.send(Err(error));
        }
    }
}

/// Checks the link rules and, for a new record, seals it in the index and
/// adds its line to `pending` (written and fsynced by the caller before any
/// reply reveals it).
fn stage(
    path: &Path,
    index: &mut Index,
    draft: Draft,
    body: &[u8],
    pending: &mut Vec<u8>,
) -> Result<Result<Appended, LinkError>, StoreError> {
    if let Some(existing) = index.record(path, &draft.record_id)? {
        return Ok(Ok(Appended::Existing(existing)));
    }
    let attempt = match &draft.previous_record_id {
        None => 1,
        Some(previous) => {
            let Some(entry) = index.records.get(previous) else {
                return Ok(Err(LinkError::NotFound(previous.clone())));
            };
            if entry.request != request_digest(&draft.request) {
                return Ok(Err(LinkError::OtherRequest(previous.clone())));
            }
            if let Some(successor) = index.successors.get(previous) {
                return Ok(Err(LinkError::NotHead(previous.clone(), successor.clone())));
            }
            entry.attempt + 1
        }
    };
    let mut record = SealedRecord {
        seq: index.last_seq + 1,
        record_id: draft.record_id,
        previous_record_id: draft.previous_record_id,
        attempt,
        sealed_at: draft.sealed_at,
        request: draft.request,
        body: draft.body,
        prev_hash: index.last_hash.clone(),
        hash: String::new(),
    };
    let fields = record.fields(body);
    let hash = fields.hash();
    let start = pending.len();
    fields.write_line(&hash, pending);
    record.hash = hash;
    let line = &pending[start..];
    let offset = index.length;
    index.length += line.len() as u64;
    index.insert(&record, offset, line.len(), Recent::Line(line.into()));
    // The caller's task drops the record (its body was built there); the
    // writer keeps only the line.
    Ok(Ok(Appended::New(Arc::new(record))))
}

/// The prefix of every side file that holds a torn last line.
pub const TORN_PREFIX: &str = "evidence.jsonl.torn-";

/// A torn last line moved out of the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetAside {
    /// The 1-based line the torn bytes occupied.
    pub line: u64,
    pub bytes: u64,
    pub side_file: PathBuf,
}

/// Moves a torn last line to a side file, if the log ends in one and every
/// complete line before it verifies. The side file is written and fsynced
/// before the log is cut, so a crash in between leaves the bytes in both
/// places, never in neither.
pub fn set_aside_torn_tail(path: &Path) -> Result<Option<SetAside>, StoreError> {
    let io = |path: &Path| {
        let path = path.to_owned();
        move |source| StoreError::Io { path, source }
    };
    let bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(StoreError::Io { path: path.to_owned(), source }),
    };
    if bytes.is_empty() || bytes.ends_with(b"\n") {
        return Ok(None);
    }
    let complete = bytes.iter().rposition(|byte| *byte == b'\n').map_or(0, |position| position + 1);
    let (kept, torn) = bytes.split_at(complete);
    let report = verify_bytes(kept);
    if !report.ok() {
        // Not only a torn tail: leave everything as it is for `verify`.
        return Ok(None);
    }
    let line = report.records + 1;
    let seconds =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |elapsed| elapsed.as_secs());
    let directory = path.parent().unwrap_or_else(|| Path::new("."));
    let side_file = directory.join(format!("{TORN_PREFIX}{line}-{seconds}"));
    let mut side = OpenOptions::new().create_new(true).write(true).open(&side_file).map_err(io(&side_file))?;
    side.write_all(torn).and_then(|()| side.sync_all()).map_err(io(&side_file))?;
    if let Ok(directory) = File::open(directory) {
        let _ = directory.sync_all();
    }
    let log = OpenOptions::new().write(true).open(path).map_err(io(path))?;
    log.set_len(kept.len() as u64).and_then(|()| log.sync_all()).map_err(io(path))?;
    Ok(Some(SetAside { line, bytes: torn.len() as u64, side_file }))
}

/// The side files holding torn lines set aside from the log in `data_dir`,
/// sorted by name.
pub fn set_aside_files(data_dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(data_dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| entry.file_name().to_string_lossy().starts_with(TORN_PREFIX))
        .map(|entry| entry.path())
        .collect();
    files.sort();
    files
}

/// Where a log stops verifying.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Broken {
    /// 1-based line number.
    pub line: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record_id: Option<String>,
    pub reason: String,
}

/// The outcome of verifying a log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VerifyReport {
    /// Records that verified before the first broken one (all, if none).
    pub records: u64,
    /// The hash of the last verified record: the chain head to compare with
    /// a copy kept elsewhere.
    pub head: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_broken: Option<Broken>,
}

impl VerifyReport {
    pub fn ok(&self) -> bool {
        self.first_broken.is_none()
    }
}

/// Verifies the log file at `path` (missing file: an empty, valid log).
pub fn verify_file(path: &Path) -> Result<VerifyReport, StoreError> {
    match fs::read(path) {
        Ok(bytes) => Ok(verify_bytes(&bytes)),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            Ok(VerifyReport { records: 0, head: GENESIS.to_owned(), first_broken: None })
        }
        Err(source) => Err(StoreError::Io { path: path.to_owned(), source }),
    }
}

/// Verifies every record: JSON shape, sequence, the link to the previous
/// hash, its own hash, unique ids, and that every `previous_record_id` points
/// to an earlier record of the same request.
pub fn verify_bytes(bytes: &[u8]) -> VerifyReport {
    let mut report = VerifyReport { records: 0, head: GENESIS.to_owned(), first_broken: None };
    let mut seen: HashMap<String, (String, u32)> = HashMap::new();
    let mut superseded: HashSet<String> = HashSet::new();
    let torn = !bytes.is_empty() && !bytes.ends_with(b"\n");
    let lines: Vec<&[u8]> = bytes.split(|byte| *byte == b'\n').collect();
    // An empty file holds no line at all (not one empty line): a log the
    // store created and never wrote, or whose only write a full disk cut off.
    let count = if bytes.is_empty() || bytes.ends_with(b"\n") { lines.len() - 1 } else { lines.len() };
    for (position, line) in lines.iter().take(count).enumerate() {
        let number = position as u64 + 1;
        let mut fail = |record_id: Option<String>, reason: String| {
            report.first_broken = Some(Broken { line: number, record_id, reason });
        };
        if torn && position + 1 == count {
            let record_id = serde_json::from_slice::<Value>(line)
                .ok()
                .and_then(|value| value.get("record_id").and_then(Value::as_str).map(str::to_owned));
            fail(record_id, "torn last line: the record was not completely written (no final newline)".into());
            break;
        }
        let record: SealedRecord = match serde_json::from_slice(line) {
            Ok(record) => record,
            Err(error) => {
                fail(None, format!("not a sealed record: {error}"));
                break;
            }
        };
        let id = Some(record.record_id.clone());
        if record.seq != number {
            fail(id, format!("sequence {} where {number} was expected", record.seq));
            break;
        }
        if record.prev_hash != report.head {
            fail(id, "prev_hash does not match the previous record's hash".into());
            break;
        }
        match record.compute_hash() {
            Ok(hash) if hash == record.hash => {}
            Ok(_) => {
                fail(id, "hash does not match the record's content: it was altered".into());
                break;
            }
            Err(error) => {
                fail(id, format!("cannot hash: {error}"));
                break;
            }
        }
        if seen.contains_key(&record.record_id) {
            fail(id, "record_id appears twice".into());
            break;
        }
        if let Some(previous) = &record.previous_record_id {
            match seen.get(previous) {
                Some((request, attempt)) if *request == record.request && attempt + 1 == record.attempt => {}
                Some(_) => {
                    fail(id, format!("link to {previous} changes the request or skips an attempt"));
                    break;
                }
                None => {
                    fail(id, format!("previous_record_id {previous} is not an earlier record"));
                    break;
                }
            }
            if !superseded.insert(previous.clone()) {
                fail(id, format!("{previous} is superseded twice"));
                break;
            }
        } else if record.attempt != 1 {
            fail(id, "attempt above 1 without previous_record_id".into());
            break;
        }
        seen.insert(record.record_id.clone(), (record.request.clone(), record.attempt));
        report.head = record.hash.clone();
        report.records = number;
    }
    report
}

/// Reads every record of a log that verifies.
pub fn read_all(path: &Path) -> Result<Vec<SealedRecord>, StoreError> {
    let bytes = fs::read(path).map_err(|source| StoreError::Io { path: path.to_owned(), source })?;
    let report = verify_bytes(&bytes);
    if let Some(broken) = report.first_broken {
        return Err(StoreError::Broken { path: path.to_owned(), line: broken.line, reason: broken.reason });
    }
    bytes
        .split(|byte| *byte == b'\n')
        .filter(|line| !line.is_empty())
        .map(|line| serde_json::from_slice(line).map_err(StoreError::from))
        .collect()
}

/// The record `record_id`, if the log has it.
pub fn show(path: &Path, record_id: &str) -> Result<Option<SealedRecord>, StoreError> {
    Ok(read_all(path)?.into_iter().find(|record| record.record_id == record_id))
}

/// The attempt chain `record_id` belongs to, first attempt first.
pub fn chain(records: &[SealedRecord], record_id: &str) -> Vec<SealedRecord> {
    let by_id: HashMap<&str, &SealedRecord> =
        records.iter().map(|record| (record.record_id.as_str(), record)).collect();
    let Some(start) = by_id.get(record_id) else {
        return Vec::new();
    };
    let mut backwards = vec![(*start).clone()];
    let mut current = *start;
    while let Some(previous) = current.previous_record_id.as_deref().and_then(|id| by_id.get(id)) {
        backwards.push((*previous).clone());
        current = previous;
    }
    backwards.reverse();
    let successor: HashMap<&str, &SealedRecord> = records
        .iter()
        .filter_map(|record| record.previous_record_id.as_deref().map(|previous| (previous, record)))
        .collect();
    let mut current = record_id.to_owned();
    while let Some(next) = successor.get(current.as_str()) {
        backwards.push((*next).clone());
        current = next.record_id.clone();
    }
    backwards
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn draft(id: &str, previous: Option<&str>, request: &str) -> Draft {
        Draft {
            record_id: id.into(),
            previous_record_id: previous.map(str::to_owned),
            request: request.into(),
            sealed_at: "2026-11-02T10:00:00Z".into(),
            body: json!({"decision": "ask", "person": {"name": "Ada Lovelace"}}),
        }
    }

    #[tokio::test]
    async fn appends_chain_links_and_replays() {
        let directory = tempfile::tempdir().unwrap();
        let store = EvidenceStore::open(directory.path()).unwrap();
        let first = store.append(draft("a", None, "shoes")).await.unwrap().unwrap();
        assert!(matches!(first, Appended::New(_)));
        assert!(matches!(store.append(draft("a", None, "shoes")).await.unwrap().unwrap(), Appended::Existing(_)));
        let second = store.append(draft("b", Some("a"), "shoes")).await.unwrap().unwrap();
        assert_eq!(second.record().attempt, 2);
        assert_eq!(second.record().prev_hash, first.record().hash);
        assert_eq!(
            store.append(draft("c", Some("a"), "shoes")).await.unwrap(),
            Err(LinkError::NotHead("a".into(), "b".into()))
        );
        assert_eq!(
            store.append(draft("c", Some("b"), "a hat")).await.unwrap(),
            Err(LinkError::OtherRequest("b".into()))
        );
        assert_eq!(store.append(draft("c", Some("zz"), "shoes")).await.unwrap(), Err(LinkError::NotFound("zz".into())));
        drop(store);
        let path = directory.path().join(LOG_FILE);
        let report = verify_file(&path).unwrap();
        assert!(report.ok() && report.records == 2, "{report:?}");
        // Reopening rebuilds the index from the file.
        let store = EvidenceStore::open(directory.path()).unwrap();
        assert_eq!(store.successor("a").await.unwrap().as_deref(), Some("b"));
        assert_eq!(chain(&read_all(&path).unwrap(), "b").len(), 2);
    }

    #[test]
    fn an_empty_log_verifies_as_no_records() {
        // An empty file read as one unparsable line: a log whose first write
        // a full disk cut back to nothing (`write_and_sync` creates the file,
        // then truncates it to its old length, 0) refused to open again, and
        // `evidence verify` called it broken.
        let report = verify_bytes(b"");
        assert!(report.ok() && report.records == 0 && report.head == GENESIS, "{report:?}");
    }

    #[tokio::test]
    async fn one_store_at_a_time_writes_a_log_and_readers_need_no_lock() {
        let directory = tempfile::tempdir().unwrap();
        let store = EvidenceStore::open(directory.path()).unwrap();
        store.append(draft("a", None, "shoes")).await.unwrap().unwrap();
        // The lock is `flock`, held per open file description: a second open
        // in this process is refused exactly as another process's would be.
        let error = EvidenceStore::open(directory.path()).unwrap_err();
        assert!(matches!(&error, StoreError::Locked { data_dir, .. } if data_dir == directory.path()), "{error}");
        let message = error.to_string();
        assert!(message.contains(&directory.path().display().to_string()), "{message}");
        assert!(message.contains("another asasked process holds the evidence log"), "{message}");
        // Readers take no lock.
        let path = directory.path().join(LOG_FILE);
        assert!(verify_file(&path).unwrap().ok());
        assert!(show(&path, "a").unwrap().is_some());
        assert_eq!(read_all(&path).unwrap().len(), 1);
        // Any handle keeps the lock; dropping the last one waits for the
        // writer and releases it, so reopening right after never races.
        let clone = store.clone();
        drop(store);
        assert!(matches!(EvidenceStore::open(directory.path()), Err(StoreError::Locked { .. })));
        clone.append(draft("b", Some("a"), "shoes")).await.unwrap().unwrap();
        drop(clone);
        let reopened = EvidenceStore::open(directory.path()).unwrap();
        assert_eq!(reopened.successor("a").await.unwrap().as_deref(), Some("b"));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn concurrent_appends_share_fsyncs_and_old_records_are_read_back() {
        let directory = tempfile::tempdir().unwrap();
        let store = EvidenceStore::open(directory.path()).unwrap();
        let count = RECENT_RECORDS.get() + 100;
        let appends: Vec<_> = (0..count)
            .map(|number| {
                let store = store.clone();
                tokio::spawn(async move { store.append(draft(&format!("r{number}"), None, "shoes")).await })
            })
            .collect();
        let mut first = None;
        for (number, append) in appends.into_iter().enumerate() {
            let appended = append.await.unwrap().unwrap().unwrap();
            assert!(matches!(appended, Appended::New(_)));
            if number == 0 {
                first = Some(appended.record().clone());
            }
        }
        let first = first.unwrap();
        // r0 left the in-memory window long ago: it comes back from the file.
        assert_eq!(store.get("r0").await.unwrap().as_deref(), Some(&*first));
        assert!(matches!(store.append(draft("r0", None, "shoes")).await.unwrap().unwrap(), Appended::Existing(_)));
        assert_eq!(
            store.append(draft("next", Some("r0"), "a hat")).await.unwrap(),
            Err(LinkError::OtherRequest("r0".into()))
        );
        let next = store.append(draft("next", Some("r0"), "shoes")).await.unwrap().unwrap();
        assert_eq!(next.record().attempt, 2);
        drop(store);
        let report = verify_file(&directory.path().join(LOG_FILE)).unwrap();
        assert!(report.ok() && report.records == count as u64 + 1, "{report:?}");
    }

    #[tokio::test]
    async fn lines_and_hashes_are_what_serde_json_and_the_canonical_digest_give() {
        let directory = tempfile::tempdir().unwrap();
        let store = EvidenceStore::open(directory.path()).unwrap();
        let mut first = draft("a", None, "Schuhe für Zoë \"größe\" 42\n\u{2028}");
        first.body =
            json!({"z": 1, "a": [1.5, -0.0, null, {"y": "\u{1}", "x": true}], "M": {"é": 12345678901234567890u64}});
        store.append(first.clone()).await.unwrap().unwrap();
        store.append(draft("b", Some("a"), &first.request)).await.unwrap().unwrap();
        drop(store);
        let text = fs::read_to_string(directory.path().join(LOG_FILE)).unwrap();
        for line in text.lines() {
            let record: SealedRecord = serde_json::from_str(line).unwrap();
            assert_eq!(serde_json::to_string(&record).unwrap(), line);
            // The definition: the canonical digest of the record as a value, less `hash`.
            let mut value = serde_json::to_value(&record).unwrap();
            value.as_object_mut().unwrap().remove("hash");
            assert_eq!(record.hash, digest::of_value(&value));
            assert_eq!(record.compute_hash().unwrap(), record.hash);
        }
        assert!(verify_file(&directory.path().join(LOG_FILE)).unwrap().ok());
    }

    #[tokio::test]
    async fn get_sees_what_a_program_ignoring_the_lock_appended() {
        let directory = tempfile::tempdir().unwrap();
        let server = EvidenceStore::open(directory.path()).unwrap();
        server.append(draft("a", None, "shoes")).await.unwrap().unwrap();
        assert!(server.get("a").await.unwrap().is_some());
        assert!(server.get("b").await.unwrap().is_none());
        // The same two records sealed elsewhere: the second line is a valid
        // continuation of the server's log, appended behind its back.
        let elsewhere = tempfile::tempdir().unwrap();
        let other = EvidenceStore::open(elsewhere.path()).unwrap();
        other.append(draft("a", None, "shoes")).await.unwrap().unwrap();
        let appended = other.append(draft("b", Some("a"), "shoes")).await.unwrap().unwrap();
        drop(other);
        let lines = fs::read_to_string(elsewhere.path().join(LOG_FILE)).unwrap();
        let second = lines.lines().nth(1).unwrap();
        let mut log = OpenOptions::new().append(true).open(directory.path().join(LOG_FILE)).unwrap();
        log.write_all(format!("{second}\n").as_bytes()).unwrap();
        drop(log);
        assert_eq!(server.get("b").await.unwrap().as_deref(), Some(&**appended.record()));
        assert_eq!(server.successor("a").await.unwrap().as_deref(), Some("b"));
        let next = server.append(draft("c", Some("b"), "shoes")).await.unwrap().unwrap();
        assert_eq!(next.record().seq, 3);
        drop(server);
        assert!(verify_file(&directory.path().join(LOG_FILE)).unwrap().ok());
    }

    #[tokio::test]
    async fn tampering_and_a_torn_line_are_reported() {
        let directory = tempfile::tempdir().unwrap();
        let store = EvidenceStore::open(directory.path()).unwrap();
        for (id, previous) in [("a", None), ("b", Some("a")), ("c", Some("b"))] {
            store.append(draft(id, previous, "shoes")).await.unwrap().unwrap();
        }
        drop(store);
        let path = directory.path().join(LOG_FILE);
        let original = fs::read_to_string(&path).unwrap();

        let tampered = original.replacen("\"decision\":\"ask\"", "\"decision\":\"proceed\"", 2);
        let report = verify_bytes(tampered.as_bytes());
        let broken = report.first_broken.unwrap();
        assert_eq!((broken.line, broken.record_id.as_deref()), (1, Some("a")));
        assert!(broken.reason.contains("altered"), "{}", broken.reason);

        let torn = &original[..original.len() - 20];
        let report = verify_bytes(torn.as_bytes());
        let broken = report.first_broken.unwrap();
        assert_eq!(broken.line, 3);
        assert!(broken.reason.contains("torn"), "{}", broken.reason);
        assert_eq!(report.records, 2);
        // A torn tail is set aside verbatim, and the log goes on after the
        // last complete record.
        fs::write(&path, torn).unwrap();
        let store = EvidenceStore::open(directory.path()).unwrap();
        let side_files = set_aside_files(directory.path());
        assert_eq!(side_files.len(), 1, "{side_files:?}");
        let kept_length = original.trim_end_matches('\n').rfind('\n').unwrap() + 1;
        assert_eq!(fs::read_to_string(&side_files[0]).unwrap(), &torn[kept_length..]);
        assert_eq!(fs::read_to_string(&path).unwrap(), &original[..kept_length]);
        store.append(draft("d", None, "hats")).await.unwrap().unwrap();
        drop(store);
        assert!(verify_file(&path).unwrap().ok());

        // Anything else is refused, and the log is left as it is.
        fs::write(&path, &tampered).unwrap();
        let error = EvidenceStore::open(directory.path()).unwrap_err();
        assert!(error.to_string().contains("line 1"), "{error}");
        let torn_and_tampered = &tampered[..tampered.len() - 20];
        fs::write(&path, torn_and_tampered).unwrap();
        assert!(EvidenceStore::open(directory.path()).is_err());
        assert_eq!(fs::read_to_string(&path).unwrap(), torn_and_tampered, "never repaired");
        assert_eq!(set_aside_files(directory.path()).len(), 1);
    }
}
