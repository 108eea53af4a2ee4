//! `asasked evidence verify | show | export`: reading the sealed log, or the
//! evidence database with `--store postgres://…`. Readers take no lock, so
//! they work beside running servers.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::args::{EvidenceArguments, EvidenceCommand};
use super::{CommandError, Outcome, StoreChoice, default_data_dir, runtime};
use crate::evidence::{self, VerifyReport};

/// Runs one evidence subcommand; `verify` is flagged when the chain breaks.
pub fn evidence(
    arguments: &EvidenceArguments,
    env: &dyn Fn(&str) -> Option<String>,
    out: &mut impl Write,
) -> Result<Outcome, CommandError> {
    if let StoreChoice::Postgres(url) = StoreChoice::resolve(arguments.store.as_ref(), env)? {
        return database_evidence(arguments, &url, out);
    }
    let directory = arguments.data_dir.clone().unwrap_or_else(default_data_dir);
    if !directory.is_dir() {
        return Err(CommandError::NoDataDir(directory));
    }
    let path = directory.join(evidence::LOG_FILE);
    let no_record = |record_id: &str| CommandError::NoRecord { record_id: record_id.to_owned(), path: path.clone() };
    match &arguments.command {
        EvidenceCommand::Verify => {
            let report = evidence::verify_file(&path)?;
            let verified = print_verify(out, &report)?;
            let directory = path.parent().unwrap_or_else(|| Path::new("."));
            print_set_aside(out, &evidence::set_aside_files(directory))?;
            Ok(if verified { Outcome::Clear } else { Outcome::Flagged })
        }
        EvidenceCommand::Show { record_id } => {
            let record = evidence::show(&path, record_id)?.ok_or_else(|| no_record(record_id))?;
            serde_json::to_writer_pretty(&mut *out, &record)?;
            writeln!(out)?;
            Ok(Outcome::Clear)
        }
        EvidenceCommand::Export { record_id, redact } => {
            let bundle = crate::service::record::dispute_bundle(&path, record_id, *redact)?
                .ok_or_else(|| no_record(record_id))?;
            serde_json::to_writer_pretty(&mut *out, &bundle)?;
            writeln!(out)?;
            Ok(Outcome::Clear)
        }
    }
}

/// The same subcommands against a PostgreSQL store (`crate::pg`).
fn database_evidence(arguments: &EvidenceArguments, url: &str, out: &mut impl Write) -> Result<Outcome, CommandError> {
    let store = crate::pg::PgStore::new(url)?;
    let location = crate::evidence::RecordStore::location(&store);
    let no_record =
        |record_id: &str| CommandError::NoRecord { record_id: record_id.to_owned(), path: location.clone().into() };
    let runtime = runtime()?;
    match &arguments.command {
        EvidenceCommand::Verify => {
            let report = runtime.block_on(store.verify())?;
            Ok(if print_verify(out, &report)? { Outcome::Clear } else { Outcome::Flagged })
        }
        EvidenceCommand::Show { record_id } => {
            let record = runtime.block_on(store.show(record_id))?.ok_or_else(|| no_record(record_id))?;
            serde_json::to_writer_pretty(&mut *out, &record)?;
            writeln!(out)?;
            Ok(Outcome::Clear)
        }
        EvidenceCommand::Export { record_id, redact } => {
            let records = runtime.block_on(store.read_all())?;
            let head = records.last().map_or(evidence::GENESIS, |record| record.hash.as_str());
            let bundle = crate::service::record::bundle_of(&records, head, record_id, *redact)?
                .ok_or_else(|| no_record(record_id))?;
            serde_json::to_writer_pretty(&mut *out, &bundle)?;
            writeln!(out)?;
            Ok(Outcome::Clear)
        }
    }
}

/// Prints the outcome of `evidence verify`; returns whether the log verified.
pub(super) fn print_verify(out: &mut impl Write, report: &VerifyReport) -> std::io::Result<bool> {
    match &report.first_broken {
        None => {
            writeln!(out, "ok: {} records, head {}", report.records, report.head)?;
            Ok(true)
        }
        Some(broken) => {
            let record = broken.record_id.as_deref().map(|id| format!(" (record {id})")).unwrap_or_default();
            writeln!(out, "BROKEN at line {}{record}: {}", broken.line, broken.reason)?;
            writeln!(out, "{} records verified before it", report.records)?;
            Ok(false)
        }
    }
}

/// Lists the torn lines set aside from the log: they were never acknowledged,
/// but they are kept, and a person should see that they exist.
fn print_set_aside(out: &mut impl Write, side_files: &[PathBuf]) -> std::io::Result<()> {
    for side_file in side_files {
        let bytes = std::fs::metadata(side_file).map(|metadata| metadata.len()).unwrap_or(0);
        writeln!(out, "set aside: {} ({bytes} bytes of a torn last line, never acknowledged)", side_file.display())?;
    }
    Ok(())
}
