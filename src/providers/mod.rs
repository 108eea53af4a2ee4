//! Hosted and local LLM providers, each an [`Extractor`] over HTTP.
//!
//! - [`anthropic`]: the Messages API with a forced tool whose input schema is
//!   the facts schema.
//! - [`openai`]: Chat Completions with a `json_schema` response format; one
//!   `base_url` serves OpenAI, Ollama, vLLM and llama.cpp's server.
//! - [`http`]: the shared client (timeouts, bounded retries, a hidden key).
//! - [`config`]: `extractors/extractors.toml`, the tables naming each
//!   configured provider, and the building of a client from one.
//!
//! Every output goes through [`crate::extract::schema::validate`] before it
//! is used. A schema failure gets one more turn with the errors fed back in
//! the conversation; a second failure fails the extraction. Providers never
//! read the environment: the key arrives in [`ProviderSettings`].
//!
//! [`Extractor`]: crate::extract::Extractor

pub mod anthropic;
pub mod config;
pub mod http;
pub mod openai;

use std::time::Instant;

use crate::extract::{Cost, ExtractError};
use http::{ApiKey, HttpSettings};

/// How many times a schema-invalid output is answered with its errors
/// before the extraction fails. One: a model that ignores the errors twice
/// will not be fixed by a third try, and every turn adds latency to a check.
pub const FEEDBACK_ROUNDS: u32 = 1;

/// The most tokens a provider may spend on one facts object. A complete
/// object with every field is a few hundred tokens; the bound turns a
/// runaway generation into `Truncated` instead of a long wait.
pub const DEFAULT_MAX_TOKENS: u32 = 1024;

/// What every provider needs to know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderSettings {
    /// The configured extractor name.
    pub name: String,
    pub model: String,
    /// The API root: `https://api.anthropic.com`, or for OpenAI-compatible
    /// servers the root including `/v1`.
    pub base_url: String,
    /// The environment variable the key comes from, named in errors; `None`
    /// for a local server that needs no key.
    pub key_env: Option<String>,
    /// The key read from `key_env` by the binary, if it was set.
    pub key: Option<ApiKey>,
    pub max_tokens: u32,
    pub http: HttpSettings,
}

impl ProviderSettings {
    /// The key to send, `None` if none is needed, or `MissingKey` (before any
    /// request is sent) if one is needed and was not set.
    fn key(&self) -> Result<Option<&ApiKey>, ExtractError> {
        match (&self.key_env, &self.key) {
            (_, Some(key)) => Ok(Some(key)),
            (Some(env), None) => Err(ExtractError::MissingKey(env.clone())),
            (None, None) => Ok(None),
        }
    }

    /// `base_url` joined with `path`, without a doubled slash.
    fn url(&self, path: &str) -> String {
        format!("{}/{}", self.base_url.trim_end_matches('/'), path.trim_start_matches('/'))
    }
}

/// The message that answers a schema-invalid output.
fn feedback(errors: &str) -> String {
    format!(
        "Your output does not match the facts schema: {errors}. \
         Answer again with the complete facts object, every field present, matching the schema exactly."
    )
}

/// Latency and token counts, summed over the turns of one extraction.
struct Meter {
    started: Instant,
    input_tokens: Option<u64>,
    output_tokens: Option<u64>,
}

impl Meter {
    fn start() -> Meter {
        Meter { started: Instant::now(), input_tokens: None, output_tokens: None }
    }

    fn add(&mut self, input_tokens: Option<u64>, output_tokens: Option<u64>) {
        let sum = |total: Option<u64>, more: Option<u64>| match (total, more) {
            (Some(total), Some(more)) => Some(total.saturating_add(more)),
            (total, more) => total.or(more),
        };
        self.input_tokens = sum(self.input_tokens, input_tokens);
        self.output_tokens = sum(self.output_tokens, output_tokens);
    }

    fn cost(&self) -> Cost {
        Cost {
            latency_ms: u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX),
            input_tokens: self.input_tokens,
            output_tokens: self.output_tokens,
        }
    }
}
