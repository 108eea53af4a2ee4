//! The I/O of `asasked replay` and `asasked compare`: loading the catalog and
//! dataset, the progress bar, and writing results. `crate::cli` fills these
//! structs from the arguments and maps errors to exit codes; the measuring itself
//! happens in [`super::replay`] and [`super::compare`].

use std::fs;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::chart::{self, ChartError};
use super::compare::{self, Pair};
use super::dataset::{self, DatasetError, SplitFilter};
use super::registry::{Fallback, Registry, RegistryError};
use super::replay::{self, Agent, ReplayOptions};
use crate::catalog::{Catalog, CatalogError};

/// What `asasked replay` was asked.
#[derive(Debug, Clone)]
pub struct ReplayCommand {
    pub dataset: PathBuf,
    /// A catalog folder; the embedded catalog if `None`.
    pub catalog: Option<PathBuf>,
    pub agent: Agent,
    pub extractors: String,
    pub seed: u64,
    pub p_right: f64,
    pub split: SplitFilter,
    pub json: bool,
    /// Where to write the Markdown report.
    pub report: Option<PathBuf>,
}

/// What `asasked compare` was asked.
#[derive(Debug, Clone)]
pub struct CompareCommand {
    pub dataset: PathBuf,
    pub catalog: Option<PathBuf>,
    pub pairs: Vec<String>,
    pub split: SplitFilter,
    /// Folder for `compare.md`, `compare.svg` and `compare.json`.
    pub out: PathBuf,
    pub json: bool,
}

/// Why a sandbox command failed.
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    #[error(transparent)]
    Catalog(#[from] CatalogError),
    #[error(transparent)]
    Dataset(#[from] DatasetError),
    #[error(transparent)]
    Registry(#[from] RegistryError),
    #[error(transparent)]
    Chart(#[from] ChartError),
    #[error("--p-right {0} is outside 0..1")]
    Probability(f64),
    #[error("--pair: {0}")]
    Pair(String),
    #[error("no --pair given")]
    NoPairs,
    #[error("cannot write {path}: {source}")]
    Write { path: PathBuf, source: std::io::Error },
    #[error("cannot write the output: {0}")]
    Output(#[from] std::io::Error),
    #[error("cannot serialise the result: {0}")]
    Json(#[from] serde_json::Error),
}

fn load_catalog(path: Option<&Path>) -> Result<Catalog, CatalogError> {
    match path {
        Some(path) => Catalog::load_dir(path),
        None => Catalog::embedded(),
    }
}

/// A progress bar on stderr, hidden for machines (`--json`) and when stderr
/// is not a terminal, so logs and pipes stay clean.
fn progress_bar(length: u64, machine: bool, message: &str) -> ProgressBar {
    if machine || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(length), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} {elapsed}") {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(message.to_owned());
    bar
}

fn write_file(path: &Path, text: &str) -> Result<(), CommandError> {
    let write = |path: &Path| -> std::io::Result<()> {
        if let Some(parent) = path.parent().filter(|parent| !parent.as_os_str().is_empty()) {
            fs::create_dir_all(parent)?;
        }
        fs::write(path, text)
    };
    write(path).map_err(|source| CommandError::Write { path: path.to_owned(), source })
}

/// Runs `asasked replay`: prints the §10 figures (or JSON) to `out`.
pub async fn replay(command: &ReplayCommand, fallback: Fallback<'_>, out: &mut impl Write) -> Result<(), CommandError> {
    if !(0.0..=1.0).contains(&command.p_right) {
        return Err(CommandError::Probability(command.p_right));
    }
    let catalog = load_catalog(command.catalog.as_deref())?;
    let dataset = dataset::load(&command.dataset, &catalog)?;
    let registry = Registry::new(&dataset, fallback);
    let set = registry.set(registry.extractors(&command.extractors)?, dataset.tasks.len())?;
    let options =
        ReplayOptions { agent: command.agent, seed: command.seed, p_right: command.p_right, split: command.split };
    let bar = progress_bar(dataset.tasks(command.split).count() as u64, command.json, "extracting");
    let report = replay::replay(&dataset, &catalog, &set, &options, &|| bar.inc(1)).await;
    bar.finish_and_clear();
    if command.json {
        serde_json::to_writer_pretty(&mut *out, &report)?;
        writeln!(out)?;
    } else {
        writeln!(out, "{}\n", replay::sentence(&report))?;
        write!(out, "{}", replay::figures_table(&report))?;
    }
    if let Some(path) = &command.report {
        write_file(path, &replay::markdown(&report))?;
    }
    Ok(())
}

/// Runs `asasked compare`: prints the Markdown tables (or JSON) to `out`
/// and writes them with the chart to the output folder.
pub async fn compare(
    command: &CompareCommand,
    fallback: Fallback<'_>,
    out: &mut impl Write,
) -> Result<(), CommandError> {
    if command.pairs.is_empty() {
        return Err(CommandError::NoPairs);
    }
    let pairs: Vec<Pair> =
        command.pairs.iter().map(|text| Pair::parse(text)).collect::<Result<_, _>>().map_err(CommandError::Pair)?;
    let catalog = load_catalog(command.catalog.as_deref())?;
    let dataset = dataset::load(&command.dataset, &catalog)?;
    let registry = Registry::new(&dataset, fallback);
    let bar = progress_bar(compare::steps(&dataset, &pairs, command.split), command.json, "extracting");
    let report = compare::compare(&dataset, &catalog, &registry, &pairs, command.split, &|| bar.inc(1)).await?;
    bar.finish_and_clear();
    let markdown = compare::markdown(&report);
    let json = serde_json::to_string_pretty(&report)?;
    let svg_path = command.out.join("compare.svg");
    write_file(&svg_path, &chart::render(&report)?)?;
    write_file(&command.out.join("compare.md"), &format!("{markdown}\n![chart](compare.svg)\n"))?;
    write_file(&command.out.join("compare.json"), &json)?;
    if command.json {
        writeln!(out, "{json}")?;
    } else {
        write!(out, "{markdown}")?;
        writeln!(out, "\nchart: {}", svg_path.display())?;
    }
    Ok(())
}
