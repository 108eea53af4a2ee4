//! Torn last lines: a write a crash or a full disk cut off, never
//! acknowledged, moved verbatim to a side file when the log is opened.

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
