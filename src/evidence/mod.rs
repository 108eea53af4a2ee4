//! The sealed evidence log (guard.md §8, ACF v0.2 §7 and §11): append-only
//! JSON Lines in a data directory, each record carrying the SHA-256 of the
//! record before it, so a later edit of any record breaks the chain.
//!
//! Any number of processes (stdio servers, an HTTP server, `check`
//! commands) share one log. Each has one writer thread, and every batch it
//! writes holds an exclusive advisory lock on the log (`flock`) from reading
//! the chain's head to the fsync: under the lock it first takes in the
//! records other processes appended since it last looked (checked as
//! `verify` checks them), then checks the attempt-chain rules (a link must
//! exist and still head its chain) against the whole log, appends, fsyncs,
//! and only then releases the lock and replies. So records are sealed one
//! batch at a time whichever process seals them, and two concurrent
//! resubmissions, in one process or two, cannot both extend one record.
//! The kernel drops the lock of a process that dies, even by SIGKILL. The
//! log is never rewritten: no acknowledged record is ever changed or
//! removed. One case is set aside rather than refused: a torn last line (no
//! final newline) after a chain that verifies. Its write never completed,
//! so its fsync never happened and no caller was told its result; on open,
//! or when a writer holding the lock finds one a dead process left, its
//! bytes are moved, verbatim, to a side file
//! (`evidence.jsonl.torn-<line>-<unix seconds>`), fsynced, logged as a
//! warning and listed by `evidence verify`, and only then is the log cut
//! back to its last complete record. Any other break (an altered, reordered
//! or unparsable record) is reported: the store refuses to open, or a
//! running one fails every call closed.
//!
//! Group commit: the writer takes every command queued when it wakes, writes
//! the batch's records in order with one `fsync`, and only then sends any
//! reply that reveals one of them. In memory it keeps an index entry per
//! record (id, position, attempt, request digest) and only the latest
//! `index::RECENT_RECORDS` records' lines; older ones are read back from the log.
//! The index is shared with `get`, which answers from it, without waking the
//! writer, for a record that is absent or already fsynced, as long as the
//! file's length shows no other process appended since.
//!
//! [`RecordStore`] is the seam the service seals through: this embedded log
//! ([`EvidenceStore`]) is the default, and `crate::pg` (feature `postgres`)
//! implements the same trait on a PostgreSQL database shared by several
//! instances, with the same records, lines and hashes.
//!
//! This module does not know what a check is: a record's `body` is the
//! service's JSON. It knows record ids, request text, attempt links and hashes.

mod index;
mod record;
mod store;
#[cfg(test)]
mod tests;
mod torn;
mod verify;
mod writer;

use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;

/// The log file inside the data directory.
pub const LOG_FILE: &str = "evidence.jsonl";
/// `prev_hash` of the first record.
pub const GENESIS: &str = "sha256:0000000000000000000000000000000000000000000000000000000000000000";

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
    /// The evidence database failed (unreachable, restarted, refused a
    /// statement): nothing was sealed by the call that got this error.
    #[error("evidence database {location}: {source}")]
    Database { location: String, source: Box<dyn std::error::Error + Send + Sync> },
    /// The evidence database's schema is not the one this binary writes.
    #[error(
        "evidence database {location} is at schema version {found}, this binary needs {expected}; \
         run `asasked store migrate --store URL`"
    )]
    Schema { location: String, found: i32, expected: i32 },
}

/// What a [`RecordStore`] call returns: a boxed future, so that the service
/// holds any store behind one `Arc<dyn RecordStore>`.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// Where sealed records go and how they are found again: the embedded log
/// ([`EvidenceStore`]) or a database shared by several instances. Every
/// implementation keeps the contract of this module: an append is durable
/// before it returns `Ok`, the link rules are checked atomically with the
/// append, and a record, once acknowledged, is never changed.
pub trait RecordStore: Send + Sync + std::fmt::Debug {
    /// Seals `draft` unless a record with its id exists (then returns it).
    fn append(&self, draft: Draft) -> StoreFuture<'_, Result<Appended, LinkError>>;
    /// The record `record_id`, if sealed.
    fn get<'a>(&'a self, record_id: &'a str) -> StoreFuture<'a, Option<Arc<SealedRecord>>>;
    /// The record that superseded `record_id`, if any.
    fn successor<'a>(&'a self, record_id: &'a str) -> StoreFuture<'a, Option<String>>;
    /// Where the records are, for people (a path, or a database address
    /// without its password).
    fn location(&self) -> String;
}

impl From<EvidenceStore> for Arc<dyn RecordStore> {
    fn from(store: EvidenceStore) -> Arc<dyn RecordStore> {
        Arc::new(store)
    }
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

/// The outcome of an append, from either store.
#[derive(Debug, Clone, PartialEq)]
pub enum Appended {
    /// Written and fsynced: where the draft now is in the chain.
    New(Sealed),
    /// A record with this id already existed: nothing was written.
    Existing(Arc<SealedRecord>),
}

impl Appended {
    /// The record's position in the log.
    pub fn seq(&self) -> u64 {
        match self {
            Appended::New(sealed) => sealed.seq,
            Appended::Existing(record) => record.seq,
        }
    }

    /// 1 for a first check, n for the n-th attempt of a chain.
    pub fn attempt(&self) -> u32 {
        match self {
            Appended::New(sealed) => sealed.attempt,
            Appended::Existing(record) => record.attempt,
        }
    }

    pub fn record_id(&self) -> &str {
        match self {
            Appended::New(sealed) => &sealed.record_id,
            Appended::Existing(record) => &record.record_id,
        }
    }

    /// The record's hash.
    pub fn hash(&self) -> &str {
        match self {
            Appended::New(sealed) => &sealed.hash,
            Appended::Existing(record) => &record.hash,
        }
    }

    /// The hash of the record before it.
    pub fn prev_hash(&self) -> &str {
        match self {
            Appended::New(sealed) => &sealed.prev_hash,
            Appended::Existing(record) => &record.prev_hash,
        }
    }
}

pub use record::{Body, Draft, Sealed, SealedRecord, seal};
pub use store::EvidenceStore;
pub use torn::{SetAside, TORN_PREFIX, set_aside_files, set_aside_torn_tail};
pub use verify::{Broken, VerifyReport, chain, read_all, show, verify_bytes, verify_file};
