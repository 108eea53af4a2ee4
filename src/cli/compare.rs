//! `asasked compare`: per-field accuracy, disputes and decision effects of
//! extractors and pairs on a labelled dataset, as tables, JSON and a chart.

use std::io::Write;

use super::args::CompareArguments;
use super::{CommandError, Outcome, extractor_fallback, runtime};
use crate::sandbox::command::{self, CompareCommand};

/// Runs `asasked compare`: prints the Markdown tables (or JSON) to `out` and
/// writes them with the chart to the output folder.
pub fn compare(
    arguments: &CompareArguments,
    env: &dyn Fn(&str) -> Option<String>,
    out: &mut impl Write,
) -> Result<Outcome, CommandError> {
    let compare = CompareCommand {
        dataset: arguments.dataset.clone(),
        catalog: arguments.catalog.clone(),
        pairs: arguments.pairs.clone(),
        split: arguments.split,
        out: arguments.out.clone(),
        json: arguments.json,
    };
    let fallback = |name: &str| extractor_fallback(name, env);
    runtime()?.block_on(command::compare(&compare, &fallback, out)).map_err(CommandError::Compare)?;
    Ok(Outcome::Clear)
}
