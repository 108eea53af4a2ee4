//! `asasked replay`: simulated agents buy from a labelled dataset with the
//! guard off and enforced; prints the guard.md §10 figures.

use std::io::Write;

use super::args::ReplayArguments;
use super::sandbox::{SandboxError, build_extractors, load_catalog, progress_bar, write_file};
use super::{CommandError, Outcome, runtime};
use crate::sandbox::replay::{self, ReplayOptions};
use crate::sandbox::{dataset, extractor_set};

/// Runs `asasked replay`: prints the figures (or JSON) to `out`, and writes
/// the Markdown report if asked.
pub fn replay(
    arguments: &ReplayArguments,
    env: &dyn Fn(&str) -> Option<String>,
    out: &mut impl Write,
) -> Result<Outcome, CommandError> {
    runtime()?.block_on(run(arguments, env, out)).map_err(CommandError::Replay)?;
    Ok(Outcome::Clear)
}

async fn run(
    arguments: &ReplayArguments,
    env: &dyn Fn(&str) -> Option<String>,
    out: &mut impl Write,
) -> Result<(), SandboxError> {
    if !(0.0..=1.0).contains(&arguments.p_right) {
        return Err(SandboxError::Probability(arguments.p_right));
    }
    let catalog = load_catalog(arguments.catalog.as_deref())?;
    let dataset = dataset::load(&arguments.dataset, &catalog)?;
    let set = extractor_set(build_extractors(&arguments.extractors.0, &dataset, &catalog, env)?, dataset.tasks.len())?;
    let options = ReplayOptions {
        agent: arguments.agent,
        seed: arguments.seed,
        p_right: arguments.p_right,
        split: arguments.split,
    };
    let bar = progress_bar(dataset.tasks(arguments.split).count() as u64, arguments.json, "extracting");
    let report = replay::replay(&dataset, &catalog, &set, &options, &|| bar.inc(1)).await;
    bar.finish_and_clear();
    if arguments.json {
        serde_json::to_writer_pretty(&mut *out, &report)?;
        writeln!(out)?;
    } else {
        writeln!(out, "{}\n", replay::sentence(&report))?;
        write!(out, "{}", replay::figures_table(&report))?;
    }
    if let Some(path) = &arguments.report {
        write_file(path, &replay::markdown(&report))?;
    }
    Ok(())
}
