//! The command-line renderings: reading input files and printing results for
//! people or machines. `main.rs` parses arguments and maps these results to
//! exit codes; nothing here exits the process.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::cart::{Cart, Item, parse_item};
use crate::conform::{self, CaseResult};
use crate::decision::{Decision, Verdict};
use crate::facts::Facts;

/// Errors of the CLI's inputs, naming the file and the field.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("cannot read {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("{path}: not JSON: {source}")]
    Json { path: PathBuf, source: serde_json::Error },
    #[error("{path}: {message}")]
    Invalid { path: PathBuf, message: String },
}

fn read_json(path: &Path) -> Result<Value, InputError> {
    let text = fs::read_to_string(path).map_err(|source| InputError::Read { path: path.to_owned(), source })?;
    serde_json::from_str(&text).map_err(|source| InputError::Json { path: path.to_owned(), source })
}

/// Reads and validates a facts file.
pub fn read_facts(path: &Path) -> Result<Facts, InputError> {
    let value = read_json(path)?;
    let invalid = |message: String| InputError::Invalid { path: path.to_owned(), message };
    Facts::from_value(value).map_err(|error| invalid(error.to_string()))
}

/// Reads a cart file: a list of entries in either item shape.
pub fn read_cart(path: &Path) -> Result<Cart, InputError> {
    let value = read_json(path)?;
    Cart::from_value_at(&value, "$.cart")
        .map_err(|error| InputError::Invalid { path: path.to_owned(), message: error.to_string() })
}

/// Reads a list of allowed items.
pub fn read_items(path: &Path) -> Result<Vec<Item>, InputError> {
    let value = read_json(path)?;
    let invalid = |message: String| InputError::Invalid { path: path.to_owned(), message };
    let list = value.as_array().ok_or_else(|| invalid("$: expected a list of items".into()))?;
    list.iter()
        .enumerate()
        .map(|(index, item)| {
            parse_item(item, &format!("$.allowed_items[{index}]")).map_err(|error| invalid(error.to_string()))
        })
        .collect()
}

/// Prints a verdict for people.
pub fn print_verdict(out: &mut impl Write, verdict: &Verdict) -> std::io::Result<()> {
    print_decision(out, verdict.decision, &verdict.reasons, &verdict.notes, verdict.question.as_deref())
}

/// Prints a decision with its reasons, notes and question.
fn print_decision(
    out: &mut impl Write,
    decision: Decision,
    reasons: &[String],
    notes: &[String],
    question: Option<&str>,
) -> std::io::Result<()> {
    writeln!(out, "decision: {}", decision.as_str())?;
    if !reasons.is_empty() {
        writeln!(out, "reasons:")?;
        for reason in reasons {
            writeln!(out, "  \u{2013} {reason}")?;
        }
    }
    if !notes.is_empty() {
        writeln!(out, "notes:")?;
        for note in notes {
            writeln!(out, "  \u{2013} {note}")?;
        }
    }
    if let Some(question) = question {
        writeln!(out, "question for the person:")?;
        for line in question.lines() {
            writeln!(out, "  {line}")?;
        }
    }
    Ok(())
}

/// The exit status of a check: 0 proceed, 1 ask (2 is left for errors).
pub fn exit_status(decision: Decision) -> u8 {
    match decision {
        Decision::Proceed => 0,
        Decision::Ask => 1,
    }
}

/// Why a conformance run could not report.
#[derive(Debug, thiserror::Error)]
pub enum ConformRunError {
    #[error(transparent)]
    Cases(#[from] conform::ConformError),
    #[error("cannot write the results")]
    Write(#[from] std::io::Error),
    #[error("cannot render a result")]
    Render(#[from] serde_json::Error),
    #[error("no cases found")]
    NoCases,
}

/// Runs conformance cases and prints them; returns whether all passed.
pub fn conform(out: &mut impl Write, paths: &[PathBuf], json: bool) -> Result<bool, ConformRunError> {
    let results = conform::run_paths(paths)?;
    let failed: Vec<&CaseResult> = results.iter().filter(|result| !result.passed()).collect();
    if json {
        for result in &results {
            writeln!(out, "{}", serde_json::to_string(result)?)?;
        }
    } else {
        for result in &failed {
            writeln!(out, "FAIL {}: {}", result.id(), serde_json::to_string(result)?)?;
        }
        writeln!(out, "{} passed, {} failed", results.len() - failed.len(), failed.len())?;
    }
    if results.is_empty() {
        return Err(ConformRunError::NoCases);
    }
    Ok(failed.is_empty())
}

/// What `check --request` and `serve` need to build a [`crate::service::Service`].
#[derive(Debug, Clone)]
pub struct ServiceOptions {
    /// Where evidence is sealed.
    pub data_dir: PathBuf,
    /// A catalog folder, the embedded sandbox catalog, or none.
    pub catalog: CatalogChoice,
    /// Which extractors (`--extractors`, `--extractors-config`, `--record`).
    pub extractors: crate::extractors::Choice,
    /// How long a verdict may be acted on (`expires_at - issued_at`).
    pub validity: chrono::Duration,
}

/// Which catalog `{id, quantity}` cart entries refer to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CatalogChoice {
    Embedded,
    Directory(PathBuf),
    None,
}

impl CatalogChoice {
    /// `embedded`, `none`, or a folder path.
    pub fn parse(text: &str) -> CatalogChoice {
        match text {
            "embedded" => CatalogChoice::Embedded,
            "none" => CatalogChoice::None,
            path => CatalogChoice::Directory(PathBuf::from(path)),
        }
    }
}

/// Errors of setting a service up, naming the option at fault.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("--catalog")]
    Catalog(#[from] crate::catalog::CatalogError),
    #[error("--extractors")]
    Extractors(#[from] crate::extractors::BuildError),
    #[error("--data-dir")]
    Evidence(#[from] crate::evidence::StoreError),
}

/// Builds the service: catalog, extractors (with `env` for their keys),
/// evidence store, system clock.
pub fn build_service(
    options: &ServiceOptions,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<crate::service::Service, SetupError> {
    use std::sync::Arc;
    let catalog = match &options.catalog {
        CatalogChoice::Embedded => Some(Arc::new(crate::catalog::Catalog::embedded()?)),
        CatalogChoice::Directory(path) => Some(Arc::new(crate::catalog::Catalog::load_dir(path)?)),
        CatalogChoice::None => None,
    };
    let extractors = Arc::new(crate::extractors::build_choice(&options.extractors, env, catalog.as_deref())?);
    let store = crate::evidence::EvidenceStore::open(&options.data_dir)?;
    Ok(crate::service::Service::new(extractors, catalog, store, Arc::new(crate::service::SystemClock))
        .with_validity(options.validity))
}

/// The platform data directory (`~/.local/share/asasked` on Linux), or
/// `./asasked-data` where the platform has none.
pub fn default_data_dir() -> PathBuf {
    directories::ProjectDirs::from("", "", "asasked")
        .map(|directories| directories.data_dir().to_owned())
        .unwrap_or_else(|| PathBuf::from("asasked-data"))
}

/// Prints a service check result for people: the verdict, then its record.
pub fn print_check_result(out: &mut impl Write, result: &crate::service::CheckResult) -> std::io::Result<()> {
    print_decision(out, result.decision, &result.reasons, &result.notes, result.question.as_deref())?;
    writeln!(out, "record: {} (attempt {})", result.record_id, result.attempt)
}

/// Prints the outcome of `evidence verify`; returns whether the log verified.
pub fn print_verify(out: &mut impl Write, report: &crate::evidence::VerifyReport) -> std::io::Result<bool> {
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
pub fn print_set_aside(out: &mut impl Write, side_files: &[PathBuf]) -> std::io::Result<()> {
    for side_file in side_files {
        let bytes = std::fs::metadata(side_file).map(|metadata| metadata.len()).unwrap_or(0);
        writeln!(out, "set aside: {} ({bytes} bytes of a torn last line, never acknowledged)", side_file.display())?;
    }
    Ok(())
}

/// Prints an extraction outcome for people: each extractor's facts (or
/// error), then the merged facts with `disputed`.
pub fn print_extraction(out: &mut impl Write, outcome: &crate::extract::set::SetOutcome) -> std::io::Result<()> {
    for report in &outcome.reports {
        writeln!(out, "{} ({} ms):", report.name, report.cost.latency_ms)?;
        match (&report.facts, &report.error) {
            (Some(facts), _) => writeln!(out, "  {}", compact_facts(facts))?,
            (None, Some(error)) => writeln!(out, "  failed: {error}")?,
            (None, None) => writeln!(out, "  no output")?,
        }
    }
    match &outcome.merged {
        Ok(facts) => writeln!(out, "merged:\n  {}", compact_facts(facts)),
        Err(error) => writeln!(out, "merged: none: {error}"),
    }
}

/// The facts as one JSON line, leaving out fields that are not stated.
fn compact_facts(facts: &Facts) -> String {
    let value = serde_json::to_value(facts).unwrap_or(Value::Null);
    let stated: serde_json::Map<String, Value> = value
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(_, value)| match value {
            Value::Null | Value::Bool(false) => false,
            Value::Array(items) => !items.is_empty(),
            _ => true,
        })
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    Value::Object(stated).to_string()
}
