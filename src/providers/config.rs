//! `extractors/extractors.toml`: the provider tables that `--extractors a,b`
//! can name, and the building of one provider client from its table.
//!
//! It lives with the providers because a table is a provider's settings
//! (wire protocol, model, URL, key variable, timeouts). The library never
//! reads the environment: the binary passes a lookup
//! (`&|name| std::env::var(name).ok()`), which is asked only for the key
//! variables named in the config. Names that are not tables (`rules`,
//! `replay:DIR`, …) are `crate::extractors`' business, not this module's.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;

use super::anthropic::{self, AnthropicExtractor};
use super::family::{ModelFamily, RequestOptions, TokenLimitField};
use super::http::{ApiKey, HttpSettings};
use super::openai::{self, OpenAiExtractor, ResponseFormat};
use super::{Provider, ProviderSettings};
use crate::extract::merge::MergePolicy;
use crate::extract::name::ExtractorName;
use crate::extract::{ExtractError, Extractor};

/// The checked-in configuration, for a binary started without `--extractors-config`.
pub const DEFAULT_CONFIG: &str = include_str!("../../extractors/extractors.toml");

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
    /// The token limit; default by family (`family::DEFAULT_MAX_TOKENS`,
    /// `REASONING_MAX_TOKENS` for OpenAI reasoning models).
    #[serde(default)]
    pub max_tokens: Option<u32>,
    /// `max_tokens` or `max_completion_tokens`; default by family.
    #[serde(default)]
    pub token_limit_field: Option<TokenLimitField>,
    /// Whether `temperature: 0` is sent; default by family (not for OpenAI
    /// reasoning models, nor for Claude from Opus 4.7 on).
    #[serde(default)]
    pub send_temperature: Option<bool>,
    /// Anthropic only: mark the forced tool `strict: true`; default by
    /// family (Claude 4.5 and later).
    #[serde(default)]
    pub strict_tool: Option<bool>,
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

impl ExtractorConfig {
    /// The family's defaults with this table's overrides.
    pub fn request_options(&self) -> RequestOptions {
        let defaults = RequestOptions::for_model(self.provider, &self.model);
        RequestOptions {
            token_limit_field: self.token_limit_field.unwrap_or(defaults.token_limit_field),
            send_temperature: self.send_temperature.unwrap_or(defaults.send_temperature),
            strict_tool: self.strict_tool.unwrap_or(defaults.strict_tool),
            max_tokens: self.max_tokens.unwrap_or(defaults.max_tokens),
        }
    }
}

/// The whole file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtractorsConfig {
    #[serde(default)]
    pub extractors: BTreeMap<String, ExtractorConfig>,
    /// `merge = "spec"` or `"grounded"`; absent: grounded.
    #[serde(default)]
    pub merge: Option<MergePolicy>,
}

/// The file as read before each extractor's table is checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    #[serde(default)]
    extractors: BTreeMap<String, toml::Value>,
    #[serde(default)]
    merge: Option<MergePolicy>,
}

/// Why a configuration cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Read { path: String, source: std::io::Error },
    /// The TOML is malformed, or has a key outside `[extractors.NAME]`.
    #[error("invalid extractors config: {0}")]
    Parse(#[source] Box<toml::de::Error>),
    /// A table with an unknown key, a missing key or a wrong type.
    #[error("extractor {extractor:?}: {source}")]
    Extractor { extractor: String, source: Box<toml::de::Error> },
    #[error("extractor {extractor:?}: {key}: {message}")]
    Invalid { extractor: String, key: &'static str, message: String },
}

impl ExtractorsConfig {
    /// Parses and checks a config file's text.
    pub fn parse(text: &str) -> Result<ExtractorsConfig, ConfigError> {
        // TOML errors are boxed: they are large, and a config error travels
        // up through every command's error.
        let file: ConfigFile = toml::from_str(text).map_err(|error| ConfigError::Parse(Box::new(error)))?;
        let mut config = ExtractorsConfig { merge: file.merge, ..ExtractorsConfig::default() };
        for (name, table) in file.extractors {
            // Each table is read on its own, so an error names its extractor.
            let extractor: ExtractorConfig = table
                .try_into()
                .map_err(|source| ConfigError::Extractor { extractor: name.clone(), source: Box::new(source) })?;
            config.extractors.insert(name, extractor);
        }
        for (name, extractor) in &config.extractors {
            let invalid =
                |key, message: &str| ConfigError::Invalid { extractor: name.clone(), key, message: message.to_owned() };
            // A table is reachable only under a name that parses as a table:
            // `rules`, `gold` and the prefixed kinds mean something else.
            let reachable =
                matches!(ExtractorName::parse(name), Ok(ExtractorName::Configured(parsed)) if parsed == *name);
            if !reachable || name.contains(',') {
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
            if extractor.provider == Provider::Openai && extractor.strict_tool.is_some() {
                return Err(invalid("strict_tool", "only for the anthropic provider (json_schema is always strict)"));
            }
            if extractor.max_tokens == Some(0) {
                return Err(invalid("max_tokens", "must be above 0"));
            }
            // A combination the provider documents as invalid would fail
            // every request with a 400; refusing it here names the key.
            let family = ModelFamily::of(extractor.provider, &extractor.model);
            if let Some((key, reason)) = family.refusal(&extractor.request_options()) {
                return Err(ConfigError::Invalid {
                    extractor: name.clone(),
                    key,
                    message: format!("not valid for model {:?}: {reason}", extractor.model),
                });
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
            options: config.request_options(),
            http,
        };
        Some((settings, config))
    }

    /// The provider client of the table `name`; `None` if there is no such
    /// table. A provider whose key variable is unset is still built: it
    /// fails every extraction with `MissingKey` (naming the variable) and so
    /// fails the check closed, without sending a request.
    pub fn build(
        &self,
        name: &str,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Option<Result<Arc<dyn Extractor>, ExtractError>> {
        let (settings, config) = self.provider_settings(name, env)?;
        let built: Result<Arc<dyn Extractor>, ExtractError> = match config.provider {
            Provider::Anthropic => {
                AnthropicExtractor::new(settings).map(|client| Arc::new(client) as Arc<dyn Extractor>)
            }
            Provider::Openai => {
                OpenAiExtractor::new(settings, config.response_format.unwrap_or_default()).map(|client| {
                    Arc::new(client.with_length_bounds(config.max_items, config.max_string_length))
                        as Arc<dyn Extractor>
                })
            }
        };
        Some(built)
    }
}

/// The extractors used when none are named: a hosted provider whose key is
/// set, plus `rules` (two independent methods); `rules` alone with no key.
/// A configured Anthropic extractor is preferred over an OpenAI one; the
/// first in name order wins within a provider.
pub fn default_names(config: &ExtractorsConfig, env: &dyn Fn(&str) -> Option<String>) -> Vec<ExtractorName> {
    let key_set = |extractor: &ExtractorConfig| {
        extractor.key_env.as_deref().and_then(env).is_some_and(|key| !key.trim().is_empty())
    };
    let hosted = [Provider::Anthropic, Provider::Openai].into_iter().find_map(|provider| {
        config
            .extractors
            .iter()
            .find(|(_, extractor)| extractor.provider == provider && extractor.key_env.is_some() && key_set(extractor))
            .map(|(name, _)| ExtractorName::Configured(name.clone()))
    });
    hosted.into_iter().chain([ExtractorName::Rules]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_env(_: &str) -> Option<String> {
        None
    }

    fn names(names: Vec<ExtractorName>) -> Vec<String> {
        names.iter().map(ExtractorName::to_string).collect()
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
        for reserved in ["rules", "gold", "\"replay:x\"", "\"noisy:1:0.2\"", "\"fixed:f\"", "\"a,b\""] {
            let error =
                ExtractorsConfig::parse(&format!("[extractors.{reserved}]\nprovider = \"openai\"\nmodel = \"m\"\n"))
                    .unwrap_err();
            assert!(matches!(error, ConfigError::Invalid { key: "name", .. }), "{reserved}: {error}");
        }
    }

    #[test]
    fn documented_invalid_combinations_are_refused_naming_the_key() {
        let table = |provider: &str, model: &str, extra: &str| {
            format!("[extractors.x]\nprovider = \"{provider}\"\nmodel = \"{model}\"\nkey_env = \"K\"\n{extra}\n")
        };
        let refused = [
            ("openai", "o3-mini", "send_temperature = true", "send_temperature"),
            ("openai", "gpt-5-mini", "token_limit_field = \"max_tokens\"", "token_limit_field"),
            ("anthropic", "claude-opus-4-7", "send_temperature = true", "send_temperature"),
            ("anthropic", "claude-sonnet-4-6", "token_limit_field = \"max_completion_tokens\"", "token_limit_field"),
            ("anthropic", "claude-3-5-haiku-20241022", "strict_tool = true", "strict_tool"),
            ("openai", "gpt-4.1-mini", "strict_tool = true", "strict_tool"),
            ("openai", "gpt-4.1-mini", "max_tokens = 0", "max_tokens"),
        ];
        for (provider, model, extra, key) in refused {
            let error = ExtractorsConfig::parse(&table(provider, model, extra)).unwrap_err();
            assert!(
                matches!(&error, ConfigError::Invalid { key: found, .. } if *found == key),
                "{model} {extra}: {error}"
            );
            assert!(error.to_string().starts_with(&format!("extractor \"x\": {key}: ")), "{error}");
        }
        let accepted = [
            ("openai", "gpt-4.1-mini", "send_temperature = false"),
            ("openai", "o3-mini", "token_limit_field = \"max_completion_tokens\""),
            ("anthropic", "claude-sonnet-4-6", "strict_tool = false\nsend_temperature = false"),
            ("anthropic", "claude-opus-4-7", ""),
        ];
        for (provider, model, extra) in accepted {
            ExtractorsConfig::parse(&table(provider, model, extra)).unwrap_or_else(|error| panic!("{model}: {error}"));
        }
    }

    #[test]
    fn request_options_default_by_family_and_yield_to_the_table() {
        let config = ExtractorsConfig::default_config().unwrap();
        assert_eq!(config.extractors["claude"].model, "claude-sonnet-4-6");
        let claude = config.extractors["claude"].request_options();
        assert!(claude.send_temperature && claude.strict_tool);
        assert_eq!(claude.token_limit_field, TokenLimitField::MaxTokens);
        let parsed = ExtractorsConfig::parse(
            "[extractors.r]\nprovider = \"openai\"\nmodel = \"gpt-5-mini\"\nkey_env = \"K\"\nmax_tokens = 4000\n",
        )
        .unwrap();
        let reasoning = parsed.extractors["r"].request_options();
        assert_eq!(reasoning.token_limit_field, TokenLimitField::MaxCompletionTokens);
        assert!(!reasoning.send_temperature);
        assert_eq!(reasoning.max_tokens, 4000);
    }

    #[test]
    fn defaults_follow_the_keys_that_are_set() {
        let config = ExtractorsConfig::default_config().unwrap();
        assert_eq!(names(default_names(&config, &no_env)), ["rules"]);
        let openai_only = |name: &str| (name == "OPENAI_API_KEY").then(|| "sk-1".to_owned());
        assert_eq!(names(default_names(&config, &openai_only)), ["openai", "rules"]);
        let both = |name: &str| name.ends_with("_API_KEY").then(|| "k".to_owned());
        assert_eq!(names(default_names(&config, &both)), ["claude", "rules"]);
        let empty = |_: &str| Some(String::new());
        assert_eq!(names(default_names(&config, &empty)), ["rules"], "an empty key is no key");
    }

    #[test]
    fn tables_build_their_provider_and_nothing_else() {
        let config = ExtractorsConfig::default_config().unwrap();
        for name in ["local", "claude", "openai"] {
            let built = config.build(name, &no_env).expect("a table").expect("a client");
            assert_eq!(built.name(), name);
        }
        assert!(config.build("rules", &no_env).is_none(), "rules is not a table");
        assert!(config.build("telepathy", &no_env).is_none());
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
