//! `asasked conform`: conformance case files (`shared/conformance/FORMAT.md`).

use std::io::Write;

use super::args::ConformArguments;
use super::{CommandError, Outcome};
use crate::conform::{self, CaseResult};

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

/// Runs the cases and prints the failures (or every case as JSON); flagged
/// unless all passed.
pub fn conform(arguments: &ConformArguments, out: &mut impl Write) -> Result<Outcome, CommandError> {
    let all_passed = run(out, &arguments.paths, arguments.json).map_err(CommandError::Conform)?;
    Ok(if all_passed { Outcome::Clear } else { Outcome::Flagged })
}

fn run(out: &mut impl Write, paths: &[std::path::PathBuf], json: bool) -> Result<bool, ConformRunError> {
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
