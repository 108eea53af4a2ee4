//! `asasked replay`: simulated agents buy from a labelled dataset with the
//! guard off and enforced; prints the guard.md §10 figures.

use std::io::Write;

use super::args::ReplayArguments;
use super::{CommandError, Outcome, extractor_fallback, runtime};
use crate::sandbox::command::{self, ReplayCommand};

/// Runs `asasked replay`: prints the figures (or JSON) to `out`, and writes
/// the Markdown report if asked.
pub fn replay(
    arguments: &ReplayArguments,
    env: &dyn Fn(&str) -> Option<String>,
    out: &mut impl Write,
) -> Result<Outcome, CommandError> {
    let replay = ReplayCommand {
        dataset: arguments.dataset.clone(),
        catalog: arguments.catalog.clone(),
        agent: arguments.agent,
        extractors: arguments.extractors.clone(),
        seed: arguments.seed,
        p_right: arguments.p_right,
        split: arguments.split,
        json: arguments.json,
        report: arguments.report.clone(),
    };
    let fallback = |name: &str| extractor_fallback(name, env);
    runtime()?.block_on(command::replay(&replay, &fallback, out)).map_err(CommandError::Replay)?;
    Ok(Outcome::Clear)
}
