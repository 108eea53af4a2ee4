//! Building extractors from their parsed names: the one place an
//! [`ExtractorName`] becomes an extractor, by one `match`, so the CLI, the
//! server and the sandbox agree on what every name means.
//!
//! Known names: `rules`, the offline extractor (its brands and models come
//! from the configured catalog, else the embedded sandbox catalog);
//! `replay:DIR`, outputs recorded earlier; every `[extractors.NAME]` table
//! of `extractors/extractors.toml` (hosted or local providers); `gold` and
//! `noisy:SEED:RATE`, only where a labelled dataset is loaded (replay,
//! compare); and `fixed:PATH`, a test extractor that returns the facts in the
//! JSON file at PATH for any request (read at build time and again at each
//! extraction, so a test can change it). Credentials come through `env`; this
//! module never reads the process environment itself.
//!
//! This module sits above `extract`, `providers` and the sandbox's offline
//! extractors and imports all three; none of them imports it.

use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::catalog::{Catalog, CatalogError};
use crate::extract::merge::MergePolicy;
use crate::extract::name::{ExtractorName, GOLD, NOISY_PREFIX, REPLAY_PREFIX, RULES};
use crate::extract::replay::{ReplayExtractor, record_all};
use crate::extract::rules::RulesExtractor;
use crate::extract::set::{ExtractorSet, SetError};
use crate::extract::{Cost, ExtractError, ExtractFuture, ExtractInput, ExtractedFacts, Extraction, Extractor};
use crate::providers::config::{ConfigError, ExtractorsConfig, default_names};
use crate::sandbox::gold::{GoldBook, GoldExtractor};
use crate::sandbox::noisy::NoisyExtractor;

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
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// Neither a kind built here nor a table of the config.
    #[error("unknown extractor {name:?}; known: {known}")]
    Unknown { name: String, known: String },
    /// The extractor exists but cannot start (an unreadable `fixed:PATH`, a
    /// provider client that cannot be made).
    #[error("extractor {name:?}")]
    Extractor { name: String, source: ExtractError },
    /// A hosted extractor named while its key variable is unset or empty:
    /// refused at startup, so the mistake is seen once, not as every check
    /// failing closed.
    #[error("extractor {name:?} needs an API key: set the environment variable {variable}")]
    MissingKey { name: String, variable: String },
    #[error(transparent)]
    Set(#[from] SetError),
}

/// What building may draw on besides the names.
#[derive(Clone, Copy)]
pub struct BuildContext<'a> {
    /// The `[extractors.NAME]` tables.
    pub config: &'a ExtractorsConfig,
    /// Looks up the key variables the config names.
    pub env: &'a dyn Fn(&str) -> Option<String>,
    /// Whose brands and models `rules` knows; the embedded sandbox catalog
    /// if `None`.
    pub catalog: Option<&'a Catalog>,
    /// A labelled dataset's gold facts: `gold` and `noisy:SEED:RATE` exist
    /// only with one.
    pub gold: Option<&'a Arc<GoldBook>>,
}

/// Builds the extractors named, in order (the first is the merge's
/// tie-breaker), without a set around them.
pub fn build_list(names: &[ExtractorName], context: &BuildContext<'_>) -> Result<Vec<Arc<dyn Extractor>>, BuildError> {
    names.iter().map(|name| build_one(name, context)).collect()
}

/// Builds one extractor: every kind of name, in one `match`.
pub fn build_one(name: &ExtractorName, context: &BuildContext<'_>) -> Result<Arc<dyn Extractor>, BuildError> {
    let unknown = || BuildError::Unknown { name: name.to_string(), known: known_names(context) };
    Ok(match name {
        ExtractorName::Rules => match context.catalog {
            Some(catalog) => Arc::new(RulesExtractor::for_catalog(catalog)),
            None => Arc::new(RulesExtractor::for_catalog(&Catalog::embedded()?)),
        },
        ExtractorName::Gold => Arc::new(GoldExtractor::new(Arc::clone(context.gold.ok_or_else(unknown)?))),
        ExtractorName::Noisy { seed, rate, written } => {
            let book = Arc::clone(context.gold.ok_or_else(unknown)?);
            Arc::new(NoisyExtractor::new(book, *seed, *rate).named(written))
        }
        ExtractorName::Replay(directory) => Arc::new(ReplayExtractor::new(directory)),
        ExtractorName::Fixed(path) => {
            let fixed = Fixed { name: name.to_string(), path: path.clone() };
            fixed.read().map_err(|source| BuildError::Extractor { name: name.to_string(), source })?;
            Arc::new(fixed)
        }
        ExtractorName::Configured(table) => {
            let variable = context.config.extractors.get(table).and_then(|extractor| extractor.key_env.as_deref());
            if let Some(variable) = variable
                && (context.env)(variable).is_none_or(|key| key.trim().is_empty())
            {
                return Err(BuildError::MissingKey { name: name.to_string(), variable: variable.to_owned() });
            }
            context
                .config
                .build(table, context.env)
                .ok_or_else(unknown)?
                .map_err(|source| BuildError::Extractor { name: name.to_string(), source })?
        }
    })
}

/// The names an error lists as known here (`fixed:PATH` is for tests and
/// goes unlisted).
fn known_names(context: &BuildContext<'_>) -> String {
    let sandbox = [GOLD.to_owned(), format!("{NOISY_PREFIX}SEED:RATE")];
    let mut known: Vec<String> = if context.gold.is_some() { sandbox.to_vec() } else { Vec::new() };
    known.extend([RULES.to_owned(), format!("{REPLAY_PREFIX}DIR")]);
    known.extend(context.config.extractors.keys().cloned());
    known.join(", ")
}

/// How to build the set of a check: which names (none: the defaults of
/// [`default_names`]), from which configuration, recording where.
#[derive(Debug, Clone, Default)]
pub struct Choice {
    pub names: Option<Vec<ExtractorName>>,
    /// `extractors.toml` to read; `None`: the one shipped in `extractors/`.
    pub config: Option<PathBuf>,
    /// Save every extractor's raw output under this folder (`--record DIR`).
    pub record: Option<PathBuf>,
    /// `--merge`; `None`: the config's `merge`, else `grounded`.
    pub merge: Option<MergePolicy>,
}

impl Choice {
    /// The configuration this choice reads.
    pub fn load_config(&self) -> Result<ExtractorsConfig, ConfigError> {
        match &self.config {
            Some(path) => ExtractorsConfig::load(path),
            None => ExtractorsConfig::default_config(),
        }
    }
}

/// Builds the set a [`Choice`] describes, for checks: the given names or the
/// defaults (a hosted provider whose key is set, plus `rules`; `rules` alone
/// with no key), each recorded if asked, under [`EXTRACTION_DEADLINE`].
pub fn build_choice(
    choice: &Choice,
    env: &dyn Fn(&str) -> Option<String>,
    catalog: Option<&Catalog>,
) -> Result<ExtractorSet, BuildError> {
    let config = choice.load_config()?;
    let names = choice.names.clone().unwrap_or_else(|| default_names(&config, env));
    let mut extractors = build_list(&names, &BuildContext { config: &config, env, catalog, gold: None })?;
    if let Some(directory) = &choice.record {
        extractors = record_all(extractors, directory);
    }
    let policy = choice.merge.or(config.merge).unwrap_or(MergePolicy::Grounded);
    Ok(ExtractorSet::new(extractors, None, deadline_for(&names, &config), CACHE_CAPACITY)?.with_policy(policy))
}

/// [`EXTRACTION_DEADLINE`], or longer when a chosen table of the config gives
/// its extractor a longer timeout per attempt (a small local model on a busy
/// machine): the config's own timeout, not the set, then decides when the
/// check fails closed.
fn deadline_for(names: &[ExtractorName], config: &ExtractorsConfig) -> Duration {
    names
        .iter()
        .filter_map(|name| match name {
            ExtractorName::Configured(table) => config.extractors.get(table)?.timeout_ms,
            _ => None,
        })
        .map(|milliseconds| Duration::from_millis(milliseconds).saturating_add(Duration::from_secs(5)))
        .fold(EXTRACTION_DEADLINE, Duration::max)
}

/// Builds the set of `names` with the shipped configuration and the
/// embedded catalog. `env` looks up configuration such as API keys (tests
/// pass a map).
pub fn build(names: &[ExtractorName], env: &dyn Fn(&str) -> Option<String>) -> Result<ExtractorSet, BuildError> {
    let choice = Choice { names: Some(names.to_vec()), ..Choice::default() };
    build_choice(&choice, env, None)
}

/// Whether any of a set's extractor names sends the request to a model
/// outside the process (the tool's `openWorldHint`). A built extractor's
/// name is its [`ExtractorName`] written back, so it parses again; a name
/// that does not counts as hosted, so the hint errs towards disclosure.
pub fn any_hosted(names: &[String]) -> bool {
    names.iter().any(|name| ExtractorName::parse(name).map_or(true, |name| name.is_hosted()))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::name::parse_list;
    use std::path::Path;

    fn no_env(_: &str) -> Option<String> {
        None
    }

    fn names_of(extractors: &[Arc<dyn Extractor>]) -> Vec<&str> {
        extractors.iter().map(|extractor| extractor.name()).collect()
    }

    /// A local model whose table allows more than the set's deadline gets
    /// its own timeout (plus a margin); hosted tables and built-ins do not
    /// shorten or lengthen it.
    #[test]
    fn the_deadline_follows_the_slowest_chosen_table() {
        let config = ExtractorsConfig::parse(
            "[extractors.slow]\nprovider = \"openai\"\nmodel = \"m\"\nbase_url = \"http://127.0.0.1:1/v1\"\ntimeout_ms = 300000\n",
        )
        .unwrap();
        assert_eq!(deadline_for(&parse_list("rules").unwrap(), &config), EXTRACTION_DEADLINE);
        assert_eq!(deadline_for(&parse_list("rules,slow").unwrap(), &config), Duration::from_secs(305));
        let default = ExtractorsConfig::default_config().unwrap();
        assert_eq!(deadline_for(&parse_list("claude,local").unwrap(), &default), EXTRACTION_DEADLINE);
    }

    #[test]
    fn every_kind_of_name_builds_where_it_is_known() {
        let config = ExtractorsConfig::default_config().unwrap();
        let with_key = |variable: &str| (variable == "ANTHROPIC_API_KEY").then(|| "sk-test".to_owned());
        let keyed = BuildContext { config: &config, env: &with_key, catalog: None, gold: None };
        let names = parse_list("local, replay:recordings/claude,claude,rules").unwrap();
        let built = build_list(&names, &keyed).unwrap();
        assert_eq!(names_of(&built), ["local", "replay:recordings/claude", "claude", "rules"]);
        let context = BuildContext { env: &no_env, ..keyed };

        // Without a dataset, gold and noisy are unknown, as any other name.
        for name in ["gold", "noisy:1:0.2", "telepathy"] {
            let error = build_list(&parse_list(name).unwrap(), &context).err().unwrap().to_string();
            assert_eq!(
                error,
                format!("unknown extractor {name:?}; known: rules, replay:DIR, claude, local, ollama, openai")
            );
        }

        let catalog = Catalog::embedded().unwrap();
        let dataset =
            crate::sandbox::dataset::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/v1"), &catalog)
                .unwrap();
        let book = Arc::new(GoldBook::new(&dataset));
        let sandbox = BuildContext { gold: Some(&book), ..context };
        let built = build_list(&parse_list("gold, noisy:1:0.20, rules").unwrap(), &sandbox).unwrap();
        assert_eq!(names_of(&built), ["gold", "noisy:1:0.20", "rules"], "noisy keeps the name as written");
        let error = build_one(&ExtractorName::parse("telepathy").unwrap(), &sandbox).err().unwrap().to_string();
        assert!(error.contains("known: gold, noisy:SEED:RATE, rules"), "{error}");
    }

    #[test]
    fn issue_13_a_hosted_extractor_without_its_key_is_refused_naming_the_variable() {
        let config = ExtractorsConfig::default_config().unwrap();
        let blank = |_: &str| Some("  ".to_owned());
        for env in [&no_env as &dyn Fn(&str) -> Option<String>, &blank] {
            let context = BuildContext { config: &config, env, catalog: None, gold: None };
            let error = build_list(&parse_list("rules,claude").unwrap(), &context).err().unwrap();
            assert_eq!(
                error.to_string(),
                "extractor \"claude\" needs an API key: set the environment variable ANTHROPIC_API_KEY"
            );
            // A local server names no key and needs none.
            assert!(build_list(&parse_list("local").unwrap(), &context).is_ok());
        }
    }

    #[test]
    fn fixed_files_are_read_when_built() {
        let error = build(&parse_list("fixed:/nonexistent/facts.json").unwrap(), &no_env).err().unwrap();
        assert!(matches!(&error, BuildError::Extractor { name, .. } if name == "fixed:/nonexistent/facts.json"));
        let set = build(&parse_list("rules").unwrap(), &no_env).unwrap();
        assert_eq!(set.names(), ["rules"]);
        assert!(matches!(build(&parse_list("rules,rules").unwrap(), &no_env), Err(BuildError::Set(_))));
    }

    #[test]
    fn only_configured_providers_are_hosted() {
        let names = |list: &[&str]| list.iter().map(|name| (*name).to_owned()).collect::<Vec<_>>();
        assert!(!any_hosted(&names(&["rules", "replay:r/claude", "fixed:f.json", "gold"])));
        assert!(any_hosted(&names(&["rules", "claude"])));
    }
}
