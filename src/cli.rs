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
    Cart::from_value_at(&value, "$")
        .map_err(|error| InputError::Invalid { path: path.to_owned(), message: error.to_string() })
}

/// Reads a list of allowed items.
pub fn read_items(path: &Path) -> Result<Vec<Item>, InputError> {
    let value = read_json(path)?;
    let invalid = |message: String| InputError::Invalid { path: path.to_owned(), message };
    let list = value.as_array().ok_or_else(|| invalid("$: expected a list of items".into()))?;
    list.iter()
        .enumerate()
        .map(|(index, item)| parse_item(item, &format!("$[{index}]")).map_err(|error| invalid(error.to_string())))
        .collect()
}

/// Prints a verdict for people.
pub fn print_verdict(out: &mut impl Write, verdict: &Verdict) -> std::io::Result<()> {
    writeln!(out, "decision: {}", verdict.decision.as_str())?;
    if !verdict.reasons.is_empty() {
        writeln!(out, "reasons:")?;
        for reason in &verdict.reasons {
            writeln!(out, "  \u{2013} {reason}")?;
        }
    }
    if !verdict.notes.is_empty() {
        writeln!(out, "notes:")?;
        for note in &verdict.notes {
            writeln!(out, "  \u{2013} {note}")?;
        }
    }
    if let Some(question) = &verdict.question {
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
