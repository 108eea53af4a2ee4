//! The one writer thread and its group commit: every queued command taken
//! at once, appends written in order, one fsync, then the replies.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio::sync::{mpsc, oneshot};

use super::index::{Index, Recent, request_digest};
use super::{Appended, Draft, LinkError, SealedRecord, StoreError};

/// What the store handle asks of the writer thread.
pub(super) enum Command {
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
    let start = pending.len();
    let record = super::record::seal_onto(draft, body, index.last_seq + 1, attempt, index.last_hash.clone(), pending);
    let line = &pending[start..];
    let offset = index.length;
    index.length += line.len() as u64;
    index.insert(&record, offset, line.len(), Recent::Line(line.into()));
    // The caller's task drops the record (its body was built there); the
    // writer keeps only the line.
    Ok(Ok(Appended::New(Arc::new(record))))
}
