//! `asasked compare`: per-field accuracy, disputes and decision effects of
//! extractors and pairs on a labelled dataset, as tables, JSON and a chart.

use std::collections::BTreeMap;
use std::io::Write;

use super::args::CompareArguments;
use super::sandbox::{SandboxError, build_extractors, load_catalog, progress_bar, write_file};
use super::{CommandError, Outcome, runtime};
use crate::extract::name::ExtractorName;
use crate::sandbox::compare::{self, unique_names};
use crate::sandbox::{chart, dataset};

/// Runs `asasked compare`: prints the Markdown tables (or JSON) to `out` and
/// writes them with the chart to the output folder.
pub fn compare(
    arguments: &CompareArguments,
    env: &dyn Fn(&str) -> Option<String>,
    out: &mut impl Write,
) -> Result<Outcome, CommandError> {
    runtime()?.block_on(run(arguments, env, out)).map_err(CommandError::Compare)?;
    Ok(Outcome::Clear)
}

async fn run(
    arguments: &CompareArguments,
    env: &dyn Fn(&str) -> Option<String>,
    out: &mut impl Write,
) -> Result<(), SandboxError> {
    let pairs = &arguments.pairs;
    let catalog = load_catalog(arguments.catalog.as_deref())?;
    let dataset = dataset::load(&arguments.dataset, &catalog)?;
    let names: Vec<ExtractorName> = unique_names(pairs).into_iter().cloned().collect();
    let built = build_extractors(&names, &dataset, &catalog, env)?;
    let extractors: BTreeMap<String, _> = names.iter().map(ExtractorName::to_string).zip(built).collect();
    let bar = progress_bar(compare::steps(&dataset, pairs, arguments.split), arguments.json, "extracting");
    let report = compare::compare(&dataset, &catalog, &extractors, pairs, arguments.split, &|| bar.inc(1)).await?;
    bar.finish_and_clear();
    let markdown = compare::markdown(&report);
    let json = serde_json::to_string_pretty(&report)?;
    let svg_path = arguments.out.join("compare.svg");
    write_file(&svg_path, &chart::render(&report)?)?;
    write_file(&arguments.out.join("compare.md"), &format!("{markdown}\n![chart](compare.svg)\n"))?;
    write_file(&arguments.out.join("compare.json"), &json)?;
    if arguments.json {
        writeln!(out, "{json}")?;
    } else {
        write!(out, "{markdown}")?;
        writeln!(out, "\nchart: {}", svg_path.display())?;
    }
    Ok(())
}
