//! What `asasked replay` and `asasked compare` share: loading the catalog,
//! building the named extractors beside a labelled dataset, the progress
//! bar, writing result files, and their errors.

use std::fs;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::catalog::{Catalog, CatalogError};
use crate::extract::Extractor;
use crate::extract::name::ExtractorName;
use crate::extract::set::SetError;
use crate::extractors::{self, BuildContext, BuildError};
use crate::providers::config::{ConfigError, ExtractorsConfig};
use crate::sandbox::chart::ChartError;
use crate::sandbox::compare::CompareError;
use crate::sandbox::dataset::{Dataset, DatasetError};
use crate::sandbox::gold::GoldBook;

/// Why a sandbox command failed.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error(transparent)]
    Catalog(#[from] CatalogError),
    #[error(transparent)]
    Dataset(#[from] DatasetError),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Extractors(#[from] BuildError),
    #[error(transparent)]
    Set(#[from] SetError),
    #[error(transparent)]
    Compare(#[from] CompareError),
    #[error(transparent)]
    Chart(#[from] ChartError),
    #[error("--p-right {0} is outside 0..1")]
    Probability(f64),
    #[error("cannot write {path}: {source}")]
    Write { path: PathBuf, source: std::io::Error },
    #[error("cannot write the output: {0}")]
    Output(#[from] std::io::Error),
    #[error("cannot serialise the result: {0}")]
    Json(#[from] serde_json::Error),
}

pub(super) fn load_catalog(path: Option<&Path>) -> Result<Catalog, CatalogError> {
    match path {
        Some(path) => Catalog::load_dir(path),
        None => Catalog::embedded(),
    }
}

/// The extractors `names` call for, beside `dataset`: `gold` and
/// `noisy:SEED:RATE` read its labels; every other name is built as for a
/// check, from the shipped extractors config, with keys from `env`; `rules`
/// knows the brands and models of `catalog`, the store the dataset is
/// checked against (`--catalog`, else the embedded one).
pub(super) fn build_extractors(
    names: &[ExtractorName],
    dataset: &Dataset,
    catalog: &Catalog,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Vec<Arc<dyn Extractor>>, SandboxError> {
    let config = ExtractorsConfig::default_config()?;
    let book = Arc::new(GoldBook::new(dataset));
    let context = BuildContext { config: &config, env, catalog: Some(catalog), gold: Some(&book) };
    Ok(extractors::build_list(names, &context)?)
}

/// A progress bar on stderr, hidden for machines (`--json`) and when stderr
/// is not a terminal, so logs and pipes stay clean.
pub(super) fn progress_bar(length: u64, machine: bool, message: &str) -> ProgressBar {
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

pub(super) fn write_file(path: &Path, text: &str) -> Result<(), SandboxError> {
    let write = |path: &Path| -> std::io::Result<()> {
        if let Some(parent) = path.parent().filter(|parent| !parent.as_os_str().is_empty()) {
            fs::create_dir_all(parent)?;
        }
        fs::write(path, text)
    };
    write(path).map_err(|source| SandboxError::Write { path: path.to_owned(), source })
}
