//! The index the writer keeps and `get` shares: per record, where its line
//! is and what the link rules compare, plus the latest records in memory.
//! It reads the log to load itself, and extends itself with the records
//! other processes appended; it never writes.

use std::collections::HashMap;
use std::fs::{self, File};
use std::io::{Read, Seek, SeekFrom};
use std::num::NonZeroUsize;
use std::path::Path;
use std::sync::Arc;

use lru::LruCache;
use sha2::{Digest, Sha256};

use super::record::{Keys, ReadLine, read_line};
use super::verify::verify_each;
use super::{GENESIS, SealedRecord, StoreError};

/// Whole records kept in memory: the latest sealed or read ones, so a replay
/// of a recent check or the next attempt of a chain reads no file. It must
/// hold at least one batch of appends ([`MAX_BATCH`]): a record staged in a
/// batch is not yet in the file and can only be found here.
pub(super) const RECENT_RECORDS: NonZeroUsize = match NonZeroUsize::new(1024) {
    Some(capacity) => capacity,
    None => NonZeroUsize::MIN,
};

/// What the writer knows of one record without its body: where its line is
/// and what the link rules compare. The index grows by this much per record,
/// not by the record (a body is kilobytes of JSON).
pub(super) struct Entry {
    pub(super) seq: u64,
    pub(super) offset: u64,
    pub(super) length: usize,
    pub(super) attempt: u32,
    /// SHA-256 of the request: attempts of one chain must share it.
    pub(super) request: [u8; 32],
}

/// A record kept in memory: its line as written (one allocation to free
/// when it leaves the window), parsed into a [`SealedRecord`] the first time
/// it is asked for.
pub(super) enum Recent {
    Line(Arc<[u8]>),
    Record(Arc<SealedRecord>),
}

pub(super) struct Index {
    pub(super) records: HashMap<String, Entry>,
    /// previous_record_id → the record that superseded it.
    pub(super) successors: HashMap<String, String>,
    pub(super) recent: LruCache<String, Recent>,
    pub(super) last_hash: String,
    pub(super) last_seq: u64,
    /// File length after the last record this index knows.
    pub(super) length: u64,
    /// The last record known to be on disk (fsynced by this writer, or read
    /// from the file), and the file length after it.
    pub(super) durable_seq: u64,
    pub(super) durable_length: u64,
}

pub(super) fn request_digest(request: &str) -> [u8; 32] {
    Sha256::digest(request.as_bytes()).into()
}

impl Index {
    pub(super) fn load(path: &Path) -> Result<Index, StoreError> {
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
        // One pass: each record verified is taken in (a log that does not
        // verify is refused whole, whatever was taken in).
        let report = verify_each(&bytes, |record, offset, length| {
            let line = &bytes[offset as usize..offset as usize + length - 1];
            index.insert(record, offset, length, Recent::Line(line.into()));
        });
        if let Some(broken) = report.first_broken {
            return Err(StoreError::Broken { path: path.to_owned(), line: broken.line, reason: broken.reason });
        }
        index.length = bytes.len() as u64;
        index.durable_seq = index.last_seq;
        index.durable_length = index.length;
        Ok(index)
    }

    /// Takes in `lines`, the complete lines other processes appended after
    /// the last record this index knows (read under the log's lock, so
    /// their writers are done with them), checking each as [`verify_bytes`]
    /// would against the chain so far: sequence, link to the previous hash,
    /// its own hash, a new id, and a `previous_record_id` that heads a chain
    /// of the same request. A record that fails is reported, never taken in,
    /// and the log is left as it is.
    pub(super) fn extend(&mut self, path: &Path, lines: &[u8]) -> Result<(), StoreError> {
        for line in lines.split_inclusive(|byte| *byte == b'\n') {
            let seq = self.last_seq + 1;
            let broken = |reason: String| StoreError::Broken { path: path.to_owned(), line: seq, reason };
            let (read, sealed) = match read_line(line.trim_ascii_end()) {
                Ok(ReadLine::Sealed(read)) => (read, true),
                Ok(ReadLine::Altered(read)) => (read, false),
                Err(error) => return Err(broken(format!("not a sealed record: {error}"))),
            };
            let record = read.keys();
            if record.seq != seq {
                return Err(broken(format!("sequence {} where {seq} was expected", record.seq)));
            }
            if record.prev_hash != self.last_hash {
                return Err(broken("prev_hash does not match the previous record's hash".into()));
            }
            if !sealed {
                return Err(broken("hash does not match the record's content: it was altered".into()));
            }
            if self.records.contains_key(record.record_id) {
                return Err(broken("record_id appears twice".into()));
            }
            let attempt = match record.previous_record_id {
                None => 1,
                Some(previous) => match self.records.get(previous) {
                    Some(entry) if entry.request == request_digest(record.request) => {
                        if self.successors.contains_key(previous) {
                            return Err(broken(format!("{previous} is superseded twice")));
                        }
                        entry.attempt + 1
                    }
                    Some(_) => return Err(broken(format!("link to {previous} changes the request"))),
                    None => return Err(broken(format!("previous_record_id {previous} is not an earlier record"))),
                },
            };
            if record.attempt != attempt {
                return Err(broken(format!("attempt {} where {attempt} was expected", record.attempt)));
            }
            let offset = self.length;
            self.length += line.len() as u64;
            // Kept as its line, as this process's own records are: a parsed
            // body is several times its text, and most are never asked for.
            self.insert(record, offset, line.len(), Recent::Line(line.into()));
        }
        Ok(())
    }

    /// `length` includes the line's newline.
    pub(super) fn insert(&mut self, record: Keys, offset: u64, length: usize, recent: Recent) {
        if let Some(previous) = record.previous_record_id {
            self.successors.insert(previous.to_owned(), record.record_id.to_owned());
        }
        record.hash.clone_into(&mut self.last_hash);
        self.last_seq = record.seq;
        let entry =
            Entry { seq: record.seq, offset, length, attempt: record.attempt, request: request_digest(record.request) };
        self.records.insert(record.record_id.to_owned(), entry);
        self.recent.put(record.record_id.to_owned(), recent);
    }

    /// The whole record `record_id`: from memory, or read back from its line
    /// in the log and checked against its own hash.
    pub(super) fn record(&mut self, path: &Path, record_id: &str) -> Result<Option<Arc<SealedRecord>>, StoreError> {
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
