//! The writer thread of one process and its group commit: every queued
//! command taken at once, the log locked, the records other processes
//! appended taken in, this batch's appends written in order, one fsync, the
//! lock released, then the replies.

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio::sync::{mpsc, oneshot};

use super::index::{Index, Recent, request_digest};
use super::{Appended, Draft, LinkError, SealedRecord, StoreError};

/// What the store handle asks of the writer thread.
pub(super) enum Command {
    /// The draft's body is canonical JSON already, written by the caller's
    /// task so the one writer thread does not.
    Append {
        draft: Draft,
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

/// The most commands one group commit serves: the channel's bound, so a full
/// queue is one batch.
const MAX_BATCH: usize = 64;

/// Serves commands in batches (group commit): every command queued when the
/// writer wakes is taken, appends are written in order and fsynced once, and
/// only then are the replies that reveal a new record sent. Under load one
/// fsync seals many checks; alone, a check still waits for exactly one.
pub(super) fn writer(path: PathBuf, index: Arc<Mutex<Index>>, mut receiver: mpsc::Receiver<Command>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while let Some(first) = receiver.blocking_recv() {
        batch.push(first);
        while batch.len() < MAX_BATCH {
            match receiver.try_recv() {
                Ok(command) => batch.push(command),
                Err(_) => break,
            }
        }
        serve_batch(&path, &index, &mut batch);
    }
}

/// The log, open and locked exclusively (`flock`) for one batch. Every
/// process that writes the log holds this lock from reading the chain's
/// head to the fsync of what it appended, so records are sealed one batch
/// at a time whichever process seals them, and a batch is on disk before
/// the next writer reads past it. Closing the file (dropping this) releases
/// the lock; so does the kernel when the process dies, even by SIGKILL.
/// Opened by path each time, so a log that was moved away or deleted is
/// followed to the file now at the path, as every other process follows it.
pub(super) struct LockedLog(File);

impl LockedLog {
    /// Waits for the lock: other writers hold it for one batch's write and
    /// fsync at a time.
    pub(super) fn open(path: &Path) -> Result<LockedLog, StoreError> {
        let io = |source| StoreError::Io { path: path.to_owned(), source };
        let file = OpenOptions::new().read(true).append(true).create(true).open(path).map_err(io)?;
        file.lock().map_err(io)?;
        Ok(LockedLog(file))
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

fn serve_batch(path: &Path, shared: &Mutex<Index>, batch: &mut Vec<Command>) {
    if batch.is_empty() {
        return;
    }
    // Appends always lock the log; lookups only when another process has
    // appended since this one last read it (or a write of its own failed).
    let appends = batch.iter().any(|command| matches!(command, Command::Append { .. }));
    let log = if appends || stale(path, &lock(shared)) {
        match LockedLog::open(path) {
            Ok(log) => Some(log),
            Err(error) => return fail_all(path, batch, error),
        }
    } else {
        None
    };
    let mut index = lock(shared);
    if let Some(log) = &log
        && let Err(error) = catch_up(path, log, &mut index)
    {
        drop(index);
        return fail_all(path, batch, error);
    }
    // Everything up to `durable_seq` is on disk; a reply that depends on a
    // later record (of this batch, or another process's just taken in)
    // waits for this batch's fsync.
    let durable_seq = index.durable_seq;
    let foreign = index.last_seq > durable_seq;
    let length_before = index.length;
    let mut pending = Vec::new();
    let mut held = Vec::new();
    let mut hold_or_send = |reply: Reply, needs_seq: u64| {
        if needs_seq > durable_seq { held.push(reply) } else { reply.send() }
    };
    for command in batch.drain(..) {
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
            Command::Append { draft, reply } => match stage(path, &mut index, draft, &mut pending) {
                Ok(Ok(appended)) => {
                    let needs = appended.seq();
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
    // An append always holds the lock (above): without one, nothing is pending.
    // The fdatasync of this batch's lines also makes durable the lines other
    // processes appended before them (the file's dirty pages, whoever wrote
    // them); with nothing to write, records taken in get a sync of their own.
    let written = match &log {
        Some(log) if !pending.is_empty() => write_and_sync(path, &log.0, &pending, length_before),
        Some(log) if foreign => log.0.sync_data(),
        _ => Ok(()),
    };
    if written.is_ok() {
        let mut index = lock(shared);
        index.durable_seq = index.last_seq;
        index.durable_length = index.length;
    }
    // Released before the replies go out: the batch is on disk (or cut
    // off), and the next process may read past it.
    drop(log);
    match written {
        Ok(()) => {
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

/// Fails every command of a batch that could not start: the first caller
/// gets the typed error, the others its message.
fn fail_all(path: &Path, batch: &mut Vec<Command>, error: StoreError) {
    let reason = error.to_string();
    let mut error = Some(error);
    for command in batch.drain(..) {
        let error = error
            .take()
            .unwrap_or_else(|| StoreError::Io { path: path.to_owned(), source: std::io::Error::other(reason.clone()) });
        reply_error(command, error);
    }
}

fn write_and_sync(path: &Path, mut file: &File, bytes: &[u8], length_before: u64) -> Result<(), std::io::Error> {
    let new_file = length_before == 0;
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

/// Whether the file's length shows records this index does not know: appended
/// by another process, or cut back after a failed write of this one.
fn stale(path: &Path, index: &Index) -> bool {
    match fs::metadata(path) {
        Ok(metadata) => metadata.len() != index.length,
        Err(_) => true,
    }
}

/// Brings the index up to the log's end, under the lock. Records other
/// processes appended are read, checked and taken in from where this index
/// ended (its byte length and last hash), each line's hash checked against
/// its body as written (`record::read_line`). They are not yet durable to
/// this index: a writer that died between its write and its fsync never
/// acknowledged them, and this process may reveal them only after its own
/// fdatasync of the batch (`serve_batch`), which covers them too. A torn last line is a write cut off by a process that died holding
/// the lock, set aside as on open. A log shorter than the index (a failed
/// write of this process cut back, or a file moved away) is loaded again.
fn catch_up(path: &Path, log: &LockedLog, index: &mut Index) -> Result<(), StoreError> {
    let io = |source| StoreError::Io { path: path.to_owned(), source };
    let length = log.0.metadata().map_err(io)?.len();
    if length == index.length {
        return Ok(());
    }
    if length < index.length {
        super::set_aside_torn_tail(path)?;
        *index = Index::load(path)?;
        return Ok(());
    }
    let mut file = &log.0;
    file.seek(SeekFrom::Start(index.length)).map_err(io)?;
    let mut appended = Vec::with_capacity((length - index.length) as usize);
    file.read_to_end(&mut appended).map_err(io)?;
    let complete = appended.iter().rposition(|byte| *byte == b'\n').map_or(0, |position| position + 1);
    let (lines, torn) = appended.split_at(complete);
    index.extend(path, lines)?;
    if !torn.is_empty() {
        super::torn::set_aside(path, &log.0, index.length, torn, index.last_seq + 1)?;
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
    let start = pending.len();
    let sealed = super::record::seal_onto(&draft, index.last_seq + 1, attempt, index.last_hash.clone(), pending);
    let line = &pending[start..];
    let offset = index.length;
    index.length += line.len() as u64;
    index.insert(sealed.keys(&draft.request), offset, line.len(), Recent::Line(line.into()));
    // The writer keeps only the line; the caller has the draft.
    Ok(Ok(Appended::New(sealed)))
}
