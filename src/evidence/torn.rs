//! Torn last lines: a write a crash or a full disk cut off, never
//! acknowledged, moved verbatim to a side file when the log is opened, or
//! when a writer holding the log's lock finds one another process left
//! (a process killed mid-write releases the lock with its life).

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use super::{StoreError, verify_bytes};

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
/// complete line before it verifies. Only under the log's lock: a torn line
/// is a live writer's batch until that writer has released it.
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
    let log = OpenOptions::new().write(true).open(path).map_err(io(path))?;
    set_aside(path, &log, kept.len() as u64, torn, report.records + 1).map(Some)
}

/// Moves `torn`, the bytes after the first `kept` of the log (whose last
/// complete record is line `line - 1`), to a side file and cuts the log back
/// to `kept`. The caller holds the log's lock, so no writer is halfway
/// through these bytes: they are what a dead one left. `log` is open for
/// writing. The side file is written and fsynced before the log is cut, so a
/// crash in between leaves the bytes in both places, never in neither.
pub(super) fn set_aside(path: &Path, log: &File, kept: u64, torn: &[u8], line: u64) -> Result<SetAside, StoreError> {
    let io = |path: &Path| {
        let path = path.to_owned();
        move |source| StoreError::Io { path, source }
    };
    let seconds =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |elapsed| elapsed.as_secs());
    let directory = path.parent().unwrap_or_else(|| Path::new("."));
    let side_file = directory.join(format!("{TORN_PREFIX}{line}-{seconds}"));
    let mut side = OpenOptions::new().create_new(true).write(true).open(&side_file).map_err(io(&side_file))?;
    side.write_all(torn).and_then(|()| side.sync_all()).map_err(io(&side_file))?;
    if let Ok(directory) = File::open(directory) {
        let _ = directory.sync_all();
    }
    log.set_len(kept).and_then(|()| log.sync_all()).map_err(io(path))?;
    let set_aside = SetAside { line, bytes: torn.len() as u64, side_file };
    tracing::warn!(
        log = %path.display(),
        side_file = %set_aside.side_file.display(),
        line = set_aside.line,
        bytes = set_aside.bytes,
        "evidence log ended in a torn line (a write cut off by a crash, never acknowledged): \
         its bytes were set aside in the side file and the log continues after the last complete record"
    );
    Ok(set_aside)
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
