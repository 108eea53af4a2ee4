//! `extractors/extractors.toml`: the extractors that can be named in
//! `--extractors a,b`, and the building of a configured list.
//!
//! It lives with the providers because a table is a provider's settings
//! (wire protocol, model, URL, key variable, timeouts), and building one
//! means constructing a provider client: in `extract` it made `extract`
//! import `providers` while `providers` imports `extract`.
//!
//! The library never reads the environment. The binary passes a lookup
//! (`&|name| std::env::var(name).ok()`), which the builder asks only for the
//! key variables named in the config. Extractors that are not providers
//! (`rules`, written elsewhere) are supplied by the caller through a lookup
//! of their own, so this module does not depend on them.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;

use super::anthropic::{self, AnthropicExtractor};
use super::http::{ApiKey, HttpSettings};
use super::openai::{self, OpenAiExtractor, ResponseFormat};
use super::{DEFAULT_MAX_TOKENS, ProviderSettings};
use crate::extract::Extractor;
use crate::extract::replay::{REPLAY_PREFIX, ReplayExtractor};

/// The checked-in configuration, for a binary started without `--config`.
pub const DEFAULT_CONFIG: &str = include_str!("../../extractors/extractors.toml");

/// The embedded offline extractor's name; always the fallback.
pub const RULES: &str = "rules";

/// Which wire protocol an extractor speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Provider {
    Anthropic,
    /// OpenAI Chat Completions, and every server compatible with it.
    Openai,
}

/// One `[extractors.NAME]` table.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtractorConfig {
    pub provider: Provider,
    pub model: String,
    /// Defaults to the provider's public API.
    #[serde(default)]
    pub base_url: Option<String>,
    /// The environment variable holding the key; absent for a local server.
    #[serde(default)]
    pub key_env: Option<String>,
    /// One attempt's total time, in milliseconds.
    #[serde(default)]
    pub timeout_ms: Option<u64>,
    #[serde(default)]
    pub connect_timeout_ms: Option<u64>,
    /// Retries on 429, 5xx and timeouts.
    #[serde(default)]
    pub max_retries: Option<u32>,
    #[serde(default)]
    pub max_tokens: Option<u32>,
    /// OpenAI-compatible only: `json_schema` (default) or `json_object`.
    #[serde(default)]
    pub response_format: Option<ResponseFormat>,
    /// OpenAI-compatible only: `maxItems` for every list in the schema sent,
    /// for grammar-constrained local servers (see `schema::bound_lengths`).
    #[serde(default)]
    pub max_items: Option<u32>,
    /// OpenAI-compatible only: `maxLength` for every free string sent.
    #[serde(default)]
    pub max_string_length: Option<u32>,
}

/// The whole file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtractorsConfig {
    #[serde(default)]
    pub extractors: BTreeMap<String, ExtractorConfig>,
}

/// The file as read before each extractor's table is checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    #[serde(default)]
    extractors: BTreeMap<String, toml::Value>,
}

/// Why a configuration or a list of names cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Read { path: String, source: std::io::Error },
    /// The TOML is malformed, or has a key outside `[extractors.NAME]`.
    #[error("invalid extractors config: {0}")]
    Parse(#[from] toml::de::Error),
    /// A table with an unknown key, a missing key or a wrong type.
    #[error("extractor {extractor:?}: {source}")]
    Extractor { extractor: String, source: toml::de::Error },
    #[error("extractor {extractor:?}: {key}: {message}")]
    Invalid { extractor: String, key: &'static str, message: String },
    #[error("unknown extractor {name:?}; known: {known}")]
    UnknownExtractor { name: String, known: String },
    #[error("extractor {extractor:?}: {source}")]
    Build { extractor: String, source: crate::extract::ExtractError },
}

impl ExtractorsConfig {
    /// Parses and checks a config file's text.
    pub fn parse(text: &str) -> Result<ExtractorsConfig, ConfigError> {
        let file: ConfigFile = toml::from_str(text)?;
        let mut config = ExtractorsConfig::default();
        for (name, table) in file.extractors {
            // Each table is read on its own, so an error names its extractor.
            let extractor: ExtractorConfig =
                table.try_into().map_err(|source| ConfigError::Extractor { extractor: name.clone(), source })?;
            config.extractors.insert(name, extractor);
        }
        for (name, extractor) in &config.extractors {
            let invalid =
                |key, message: &str| ConfigError::Invalid { extractor: name.clone(), key, message: message.to_owned() };
            if name == RULES || name.starts_with(REPLAY_PREFIX) || name.contains(',') {
                return Err(invalid("name", "reserved or unusable as an extractor name"));
            }
            if extractor.model.trim().is_empty() {
                return Err(invalid("model", "must not be empty"));
            }
            if let Some(base_url) = &extractor.base_url
                && !(base_url.starts_with("http://") || base_url.starts_with("https://"))
            {
                return Err(invalid("base_url", "must start with http:// or https://"));
            }
            if extractor.provider == Provider::Anthropic && extractor.key_env.is_none() {
                return Err(invalid("key_env", "the anthropic provider needs a key"));
            }
            if extractor.provider == Provider::Anthropic {
                for (key, set) in [
                    ("response_format", extractor.response_format.is_some()),
                    ("max_items", extractor.max_items.is_some()),
                    ("max_string_length", extractor.max_string_length.is_some()),
                ] {
                    if set {
                        return Err(invalid(key, "only for the openai provider"));
                    }
                }
            }
            if extractor.timeout_ms == Some(0) || extractor.connect_timeout_ms == Some(0) {
                return Err(invalid("timeout_ms", "must be above 0"));
            }
        }
        Ok(config)
    }

    /// Reads and parses a config file.
    pub fn load(path: &Path) -> Result<ExtractorsConfig, ConfigError> {
        let text = std::fs::read_to_string(path)
            .map_err(|source| ConfigError::Read { path: path.display().to_string(), source })?;
        ExtractorsConfig::parse(&text)
    }

    /// The checked-in configuration.
    pub fn default_config() -> Result<ExtractorsConfig, ConfigError> {
        ExtractorsConfig::parse(DEFAULT_CONFIG)
    }

    /// The settings a provider gets, with the key looked up in `env`.
    pub fn provider_settings(
        &self,
        name: &str,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Option<(ProviderSettings, &ExtractorConfig)> {
        let config = self.extractors.get(name)?;
        let defaults = HttpSettings::default();
        let http = HttpSettings {
            connect_timeout: config.connect_timeout_ms.map(Duration::from_millis).unwrap_or(defaults.connect_timeout),
            timeout: config.timeout_ms.map(Duration::from_millis).unwrap_or(defaults.timeout),
            max_retries: config.max_retries.unwrap_or(defaults.max_retries),
            ..defaults
        };
        let base_url = config.base_url.clone().unwrap_or_else(|| match config.provider {
            Provider::Anthropic => anthropic::DEFAULT_BASE_URL.to_owned(),
            Provider::Openai => openai::DEFAULT_BASE_URL.to_owned(),
        });
        // An empty variable is treated as unset: sending an empty key only
        // turns a clear MissingKey into a provider's 401.
        let key = config.key_env.as_deref().and_then(env).filter(|key| !key.trim().is_empty()).map(ApiKey::new);
        let settings = ProviderSettings {
            name: name.to_owned(),
            model: config.model.clone(),
            base_url,
            key_env: config.key_env.clone(),
            key,
            max_tokens: config.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS),
            http,
        };
        Some((settings, config))
    }
}

/// Builds the extractors named in `names`, in order (the first is the merge's
/// tie-breaker). A name is, in this order:
/// - `replay:DIR`: the outputs recorded in DIR;
/// - a name `extra` knows (the binary passes `rules` here);
/// - a `[extractors.NAME]` table of `config`.
///
/// A provider whose key variable is unset is still built: it fails every
/// extraction with `MissingKey` (naming the variable) and so fails the check
/// closed, without sending a request.
pub fn build_extractors(
    names: &[String],
    config: &ExtractorsConfig,
    env: &dyn Fn(&str) -> Option<String>,
    extra: &dyn Fn(&str) -> Option<Arc<dyn Extractor>>,
) -> Result<Vec<Arc<dyn Extractor>>, ConfigError> {
    names.iter().map(|name| build_one(name.trim(), config, env, extra)).collect()
}

fn build_one(
    name: &str,
    config: &ExtractorsConfig,
    env: &dyn Fn(&str) -> Option<String>,
    extra: &dyn Fn(&str) -> Option<Arc<dyn Extractor>>,
) -> Result<Arc<dyn Extractor>, ConfigError> {
    if let Some(dir) = name.strip_prefix(REPLAY_PREFIX) {
        if dir.is_empty() {
            return Err(ConfigError::Invalid {
                extractor: name.to_owned(),
                key: "name",
                message: "replay needs a folder: replay:DIR".into(),
            });
        }
        return Ok(Arc::new(ReplayExtractor::new(dir)));
    }
    if let Some(extractor) = extra(name) {
        return Ok(extractor);
    }
    let Some((settings, extractor_config)) = config.provider_settings(name, env) else {
        let mut known: Vec<&str> = vec![RULES, "replay:DIR"];
        known.extend(config.extractors.keys().map(String::as_str));
        return Err(ConfigError::UnknownExtractor { name: name.to_owned(), known: known.join(", ") });
    };
    let build_error = |source| ConfigError::Build { extractor: name.to_owned(), source };
    Ok(match extractor_config.provider {
        Provider::Anthropic => Arc::new(AnthropicExtractor::new(settings).map_err(build_error)?),
        Provider::Openai => Arc::new(
            OpenAiExtractor::new(settings, extractor_config.response_format.unwrap_or_default())
                .map_err(build_error)?
                .with_length_bounds(extractor_config.max_items, extractor_config.max_string_length),
        ),
    })
}

/// Splits `--extractors a,b` into names, dropping empty entries.
pub fn parse_names(list: &str) -> Vec<String> {
    list.split(',').map(str::trim).filter(|name| !name.is_empty()).map(str::to_owned).collect()
}

/// The extractors used when none are named: a hosted provider whose key is
/// set, plus `rules` (two independent methods); `rules` alone with no key.
/// A configured Anthropic extractor is preferred over an OpenAI one; the
/// first in name order wins within a provider.
pub fn default_names(config: &ExtractorsConfig, env: &dyn Fn(&str) -> Option<String>) -> Vec<String> {
    let key_set = |extractor: &ExtractorConfig| {
        extractor.key_env.as_deref().and_then(env).is_some_and(|key| !key.trim().is_empty())
    };
    let hosted = [Provider::Anthropic, Provider::Openai].into_iter().find_map(|provider| {
        config
            .extractors
            .iter()
            .find(|(_, extractor)| extractor.provider == provider && extractor.key_env.is_some() && key_set(extractor))
            .map(|(name, _)| name.clone())
    });
    match hosted {
        Some(name) => vec![name, RULES.to_owned()],
        None => vec![RULES.to_owned()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_env(_: &str) -> Option<String> {
        None
    }

    fn no_extra(_: &str) -> Option<Arc<dyn Extractor>> {
        None
    }

    #[test]
    fn the_checked_in_config_parses() {
        let config = ExtractorsConfig::default_config().unwrap();
        for name in ["claude", "openai", "local", "ollama"] {
            assert!(config.extractors.contains_key(name), "{name}");
        }
        assert_eq!(config.extractors["claude"].provider, Provider::Anthropic);
        assert_eq!(config.extractors["local"].key_env, None);
        assert_eq!(config.extractors["local"].response_format, Some(ResponseFormat::JsonSchema));
    }

    #[test]
    fn errors_name_the_extractor_and_key() {
        let error = ExtractorsConfig::parse(
            "[extractors.x]\nprovider = \"anthropic\"\nmodel = \"m\"\nkey_env = \"K\"\ntimeout = 5\n",
        )
        .unwrap_err()
        .to_string();
        assert!(error.starts_with("extractor \"x\": unknown field `timeout`"), "{error}");
        let error =
            ExtractorsConfig::parse("[extractors.x]\nprovider = \"gemini\"\nmodel = \"m\"\n").unwrap_err().to_string();
        assert!(error.contains("gemini"), "{error}");
        let error =
            ExtractorsConfig::parse("[extractors.x]\nprovider = \"openai\"\nmodel = \"m\"\nbase_url = \"ftp://h\"\n")
                .unwrap_err()
                .to_string();
        assert_eq!(error, "extractor \"x\": base_url: must start with http:// or https://");
        let error = ExtractorsConfig::parse("[extractors.rules]\nprovider = \"openai\"\nmodel = \"m\"\n").unwrap_err();
        assert!(matches!(error, ConfigError::Invalid { key: "name", .. }));
    }

    #[test]
    fn defaults_follow_the_keys_that_are_set() {
        let config = ExtractorsConfig::default_config().unwrap();
        assert_eq!(default_names(&config, &no_env), vec!["rules"]);
        let openai_only = |name: &str| (name == "OPENAI_API_KEY").then(|| "sk-1".to_owned());
        assert_eq!(default_names(&config, &openai_only), vec!["openai", "rules"]);
        let both = |name: &str| name.ends_with("_API_KEY").then(|| "k".to_owned());
        assert_eq!(default_names(&config, &both), vec!["claude", "rules"]);
        let empty = |_: &str| Some(String::new());
        assert_eq!(default_names(&config, &empty), vec!["rules"], "an empty key is no key");
    }

    #[test]
    fn names_resolve_to_replay_extra_and_providers() {
        let config = ExtractorsConfig::default_config().unwrap();
        let names = parse_names("local, replay:recordings/claude,claude");
        let built = build_extractors(&names, &config, &no_env, &no_extra).unwrap();
        let built_names: Vec<&str> = built.iter().map(|extractor| extractor.name()).collect();
        assert_eq!(built_names, ["local", "replay:recordings/claude", "claude"]);

        let error = match build_extractors(&parse_names("rules"), &config, &no_env, &no_extra) {
            Err(error) => error.to_string(),
            Ok(_) => panic!("rules is not built in here"),
        };
        assert!(error.contains("unknown extractor \"rules\"") && error.contains("claude"), "{error}");
        let with_rules = |name: &str| -> Option<Arc<dyn Extractor>> {
            (name == RULES).then(|| Arc::new(ReplayExtractor::new("stand-in")) as Arc<dyn Extractor>)
        };
        assert_eq!(build_extractors(&parse_names("rules"), &config, &no_env, &with_rules).unwrap().len(), 1);
    }

    #[test]
    fn settings_carry_the_key_without_showing_it() {
        let config = ExtractorsConfig::default_config().unwrap();
        let env = |name: &str| (name == "ANTHROPIC_API_KEY").then(|| "sk-ant-very-secret".to_owned());
        let (settings, _) = config.provider_settings("claude", &env).unwrap();
        assert_eq!(settings.key.as_ref().map(ApiKey::expose), Some("sk-ant-very-secret"));
        assert!(!format!("{settings:?}").contains("very-secret"));
        assert_eq!(settings.base_url, anthropic::DEFAULT_BASE_URL);
    }
}
