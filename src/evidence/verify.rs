//! Reading a log back: verifying its chain, reading its records, following
//! an attempt chain. Readers take no lock.

use std::collections::{HashMap, HashSet};
use std::fs::{self};
use std::path::Path;

use super::record::{Keys, ReadLine, read_line};
use super::{GENESIS, SealedRecord, StoreError};
use serde::Serialize;
use serde_json::Value;

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
    verify_each(bytes, |_, _, _| {})
}

/// [`verify_bytes`], calling `each` with every record that verifies, its
/// offset in `bytes` and its line's length with the newline: the index is
/// loaded in the same pass that verifies the log.
pub(super) fn verify_each(bytes: &[u8], mut each: impl FnMut(Keys, u64, usize)) -> VerifyReport {
    let mut report = VerifyReport { records: 0, head: GENESIS.to_owned(), first_broken: None };
    let mut seen: HashMap<String, (String, u32)> = HashMap::new();
    let mut superseded: HashSet<String> = HashSet::new();
    let torn = !bytes.is_empty() && !bytes.ends_with(b"\n");
    let lines: Vec<&[u8]> = bytes.split(|byte| *byte == b'\n').collect();
    // An empty file holds no line at all (not one empty line): a log the
    // store created and never wrote, or whose only write a full disk cut off.
    let count = if bytes.is_empty() || bytes.ends_with(b"\n") { lines.len() - 1 } else { lines.len() };
    let mut offset = 0u64;
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
        let (read, sealed) = match read_line(line) {
            Ok(ReadLine::Sealed(read)) => (read, true),
            Ok(ReadLine::Altered(read)) => (read, false),
            Err(error) => {
                fail(None, format!("not a sealed record: {error}"));
                break;
            }
        };
        let record = read.keys();
        let id = Some(record.record_id.to_owned());
        if record.seq != number {
            fail(id, format!("sequence {} where {number} was expected", record.seq));
            break;
        }
        if record.prev_hash != report.head {
            fail(id, "prev_hash does not match the previous record's hash".into());
            break;
        }
        if !sealed {
            fail(id, "hash does not match the record's content: it was altered".into());
            break;
        }
        if seen.contains_key(record.record_id) {
            fail(id, "record_id appears twice".into());
            break;
        }
        if let Some(previous) = record.previous_record_id {
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
            if !superseded.insert(previous.to_owned()) {
                fail(id, format!("{previous} is superseded twice"));
                break;
            }
        } else if record.attempt != 1 {
            fail(id, "attempt above 1 without previous_record_id".into());
            break;
        }
        seen.insert(record.record_id.to_owned(), (record.request.to_owned(), record.attempt));
        report.head = record.hash.to_owned();
        report.records = number;
        each(record, offset, line.len() + 1);
        offset += line.len() as u64 + 1;
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
