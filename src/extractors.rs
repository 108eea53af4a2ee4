//! Building the configured [`ExtractorSet`] from extractor names: the one
//! place `--extractors` is interpreted, so the CLI and the server agree.
//!
//! Known names: `rules`, the offline extractor (its brands and models come
//! from the configured catalog, else the embedded sandbox catalog), and
//! `fixed:PATH`, a test extractor that returns the facts in the JSON file at
//! PATH for any request (the file is read at build time and again at each
//! extraction, so a test can change it).
//! Credentials, when providers need them, come through `env`; this module
//! never reads the process environment itself.

use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::catalog::{Catalog, CatalogError};
use crate::extract::rules::RulesExtractor;
use crate::extract::set::{ExtractorSet, SetError};
use crate::extract::{Cost, ExtractError, ExtractFuture, ExtractInput, ExtractedFacts, Extraction, Extractor};

/// How long one check waits for extraction. Hosted models answer in seconds;
/// past this the check fails closed rather than hold the agent.
pub const EXTRACTION_DEADLINE: Duration = Duration::from_secs(60);
/// Requests whose facts are remembered.
const CACHE_CAPACITY: NonZeroUsize = match NonZeroUsize::new(256) {
    Some(capacity) => capacity,
    None => NonZeroUsize::MIN,
};

/// A name that does not build an extractor.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("unknown extractor {0:?} (known: rules, fixed:PATH)")]
    Unknown(String),
    #[error("the embedded catalog does not load: {0}")]
    Catalog(#[from] CatalogError),
    #[error("extractor {name:?}: {message}")]
    Invalid { name: String, message: String },
    #[error(transparent)]
    Set(#[from] SetError),
}

/// Builds the set named by `names`. `env` looks up configuration such as API
/// keys (the binary passes the process environment; tests pass a map).
pub fn build(names: &[String], env: &dyn Fn(&str) -> Option<String>) -> Result<ExtractorSet, BuildError> {
    build_with_catalog(names, env, None)
}

/// Like [`build`], with the catalog whose brands and models `rules` knows
/// (`None`: the embedded sandbox catalog).
pub fn build_with_catalog(
    names: &[String],
    env: &dyn Fn(&str) -> Option<String>,
    catalog: Option<&Catalog>,
) -> Result<ExtractorSet, BuildError> {
    let _ = env;
    let mut extractors: Vec<Arc<dyn Extractor>> = Vec::with_capacity(names.len());
    for name in names {
        if name == RULES {
            let rules = match catalog {
                Some(catalog) => RulesExtractor::for_catalog(catalog),
                None => RulesExtractor::for_catalog(&Catalog::embedded()?),
            };
            extractors.push(Arc::new(rules));
        } else if let Some(path) = name.strip_prefix("fixed:") {
            let fixed = Fixed { name: name.clone(), path: PathBuf::from(path) };
            fixed.read().map_err(|error| BuildError::Invalid { name: name.clone(), message: error.to_string() })?;
            extractors.push(Arc::new(fixed));
        } else {
            return Err(BuildError::Unknown(name.clone()));
        }
    }
    Ok(ExtractorSet::new(extractors, None, EXTRACTION_DEADLINE, CACHE_CAPACITY)?)
}

/// The offline extractor's name.
pub const RULES: &str = "rules";

/// Whether any of `names` sends the request to a hosted model (the tool's
/// `openWorldHint`).
pub fn any_hosted(names: &[String]) -> bool {
    names.iter().any(|name| !name.starts_with("fixed:") && name != RULES)
}

/// Returns the facts of one JSON file for every request.
struct Fixed {
    name: String,
    path: PathBuf,
}

impl Fixed {
    fn read(&self) -> Result<(serde_json::Value, ExtractedFacts), ExtractError> {
        let text = std::fs::read_to_string(&self.path)
            .map_err(|error| ExtractError::Other(format!("cannot read {}: {error}", self.path.display())))?;
        let raw: serde_json::Value = serde_json::from_str(&text)
            .map_err(|error| ExtractError::Malformed(format!("{}: {error}", self.path.display())))?;
        let extracted = serde_json::from_value(raw.clone())
            .map_err(|error| ExtractError::SchemaInvalid(format!("{}: {error}", self.path.display())))?;
        Ok((raw, extracted))
    }
}

impl Extractor for Fixed {
    fn name(&self) -> &str {
        &self.name
    }

    fn extract<'a>(&'a self, _input: &'a ExtractInput) -> ExtractFuture<'a> {
        Box::pin(async move {
            let (raw, extracted) = self.read()?;
            Ok(Extraction { extracted, raw, cost: Cost::default() })
        })
    }
}
