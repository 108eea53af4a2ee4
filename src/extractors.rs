//! Building the configured [`ExtractorSet`] from extractor names: the one
//! place `--extractors` is interpreted, so the CLI, the server and the sandbox
//! agree.
//!
//! Known names: `rules`, the offline extractor (its brands and models come
//! from the configured catalog, else the embedded sandbox catalog);
//! `replay:DIR`, outputs recorded earlier; every `[extractors.NAME]` table of
//! `extractors/extractors.toml` (hosted or local providers); and `fixed:PATH`,
//! a test extractor that returns the facts in the JSON file at PATH for any
//! request (read at build time and again at each extraction, so a test can
//! change it). Credentials come through `env`; this module never reads the
//! process environment itself.

use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::catalog::{Catalog, CatalogError};
use crate::extract::replay::{REPLAY_PREFIX, record_all};
use crate::extract::rules::RulesExtractor;
use crate::extract::set::{ExtractorSet, SetError};
use crate::extract::{Cost, ExtractError, ExtractFuture, ExtractInput, ExtractedFacts, Extraction, Extractor};
use crate::providers::config::{self, ConfigError, ExtractorsConfig};

/// How long one check waits for extraction. Hosted models answer in seconds
/// and the slowest configured local model's own timeout is two minutes; past
/// this the check fails closed rather than hold the agent.
pub const EXTRACTION_DEADLINE: Duration = Duration::from_secs(150);
/// Requests whose facts are remembered.
const CACHE_CAPACITY: NonZeroUsize = match NonZeroUsize::new(256) {
    Some(capacity) => capacity,
    None => NonZeroUsize::MIN,
};

/// A name that does not build an extractor.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("the embedded catalog does not load: {0}")]
    Catalog(#[from] CatalogError),
    #[error("extractor {name:?}: {message}")]
    Invalid { name: String, message: String },
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Set(#[from] SetError),
}

/// The offline extractor's name.
pub const RULES: &str = config::RULES;

/// How to build a set: which names (none: the defaults of
/// [`config::default_names`]), from which configuration, recording where.
#[derive(Debug, Clone, Default)]
pub struct Choice {
    pub names: Option<Vec<String>>,
    /// `extractors.toml` to read; `None`: the one shipped in `extractors/`.
    pub config: Option<PathBuf>,
    /// Save every extractor's raw output under this folder (`--record DIR`).
    pub record: Option<PathBuf>,
}

impl Choice {
    /// The configuration this choice reads.
    pub fn load_config(&self) -> Result<ExtractorsConfig, ConfigError> {
        match &self.config {
            Some(path) => ExtractorsConfig::load(path),
            None => ExtractorsConfig::default_config(),
        }
    }

    /// The names this choice builds: the given ones, or the defaults (a
    /// hosted provider whose key is set, plus `rules`; `rules` alone with
    /// no key).
    pub fn resolve_names(&self, config: &ExtractorsConfig, env: &dyn Fn(&str) -> Option<String>) -> Vec<String> {
        match &self.names {
            Some(names) => names.clone(),
            None => config::default_names(config, env),
        }
    }
}

/// Builds the set named by `names` with the shipped configuration. `env`
/// looks up configuration such as API keys (the binary passes the process
/// environment; tests pass a map).
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
    let choice = Choice { names: Some(names.to_vec()), ..Choice::default() };
    build_choice(&choice, env, catalog)
}

/// Builds the set a [`Choice`] describes.
pub fn build_choice(
    choice: &Choice,
    env: &dyn Fn(&str) -> Option<String>,
    catalog: Option<&Catalog>,
) -> Result<ExtractorSet, BuildError> {
    let config = choice.load_config()?;
    let names = choice.resolve_names(&config, env);
    let mut extractors = build_list(&names, &config, env, catalog)?;
    if let Some(directory) = &choice.record {
        extractors = record_all(extractors, directory);
    }
    Ok(ExtractorSet::new(extractors, None, EXTRACTION_DEADLINE, CACHE_CAPACITY)?)
}

/// Builds the extractors named, in order, without a set around them (the
/// sandbox pairs them itself).
pub fn build_list(
    names: &[String],
    config: &ExtractorsConfig,
    env: &dyn Fn(&str) -> Option<String>,
    catalog: Option<&Catalog>,
) -> Result<Vec<Arc<dyn Extractor>>, BuildError> {
    // `rules` and `fixed:PATH` are built here; the rest by the config.
    let embedded;
    let catalog = match catalog {
        Some(catalog) => catalog,
        None => {
            embedded = Catalog::embedded()?;
            &embedded
        }
    };
    let mut invalid: Option<BuildError> = None;
    let extra = |name: &str| -> Option<Arc<dyn Extractor>> {
        if name == RULES {
            return Some(Arc::new(RulesExtractor::for_catalog(catalog)));
        }
        let path = name.strip_prefix("fixed:")?;
        let fixed = Fixed { name: name.to_owned(), path: PathBuf::from(path) };
        fixed.read().ok()?;
        Some(Arc::new(fixed))
    };
    for name in names {
        if let Some(path) = name.strip_prefix("fixed:")
            && let Err(error) = (Fixed { name: name.clone(), path: PathBuf::from(path) }).read()
        {
            invalid = Some(BuildError::Invalid { name: name.clone(), message: error.to_string() });
        }
    }
    if let Some(error) = invalid {
        return Err(error);
    }
    Ok(config::build_extractors(names, config, env, &extra)?)
}

/// Whether any of `names` sends the request to a hosted or local model (the
/// tool's `openWorldHint`): everything but `rules`, recorded replays and the
/// test extractor.
pub fn any_hosted(names: &[String]) -> bool {
    names.iter().any(|name| !name.starts_with("fixed:") && !name.starts_with(REPLAY_PREFIX) && name != RULES)
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
