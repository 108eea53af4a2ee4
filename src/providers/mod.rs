//! Hosted and local LLM providers, each an [`Extractor`] over HTTP.
//!
//! - [`anthropic`]: the Messages API with a forced tool whose input schema is
//!   the facts schema.
//! - [`openai`]: Chat Completions with a `json_schema` response format; one
//!   `base_url` serves OpenAI, Ollama, vLLM and llama.cpp's server.
//! - [`http`]: the shared client (timeouts, bounded retries, a hidden key).
//! - [`config`]: `extractors/extractors.toml`, the tables naming each
//!   configured provider, and the building of a client from one.
//! - [`family`]: model families and the request options each accepts
//!   (token-limit field, `temperature`, strict tools), with the provider
//!   documentation they come from.
//!
//! Every output goes through [`crate::extract::schema::validate`] before it
//! is used. A schema failure gets one more turn with the errors fed back in
//! the conversation; a second failure fails the extraction. Providers never
//! read the environment: the key arrives in [`ProviderSettings`].
//!
//! [`Extractor`]: crate::extract::Extractor

pub mod anthropic;
pub mod config;
pub mod family;
pub mod http;
pub mod openai;

use std::time::Instant;

use crate::extract::{Cost, ExtractError};
use family::RequestOptions;
use http::{ApiKey, HttpSettings};

/// How many times a schema-invalid output is answered with its errors
/// before the extraction fails. One: a model that ignores the errors twice
/// will not be fixed by a third try, and every turn adds latency to a check.
pub const FEEDBACK_ROUNDS: u32 = 1;

/// Which wire protocol an extractor speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Provider {
    Anthropic,
    /// OpenAI Chat Completions, and every server compatible with it.
    Openai,
}

/// What every provider needs to know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderSettings {
    /// The configured extractor name.
    pub name: String,
    pub model: String,
    /// The API root, with or without its `/v1`: `https://api.anthropic.com`,
    /// `https://api.openai.com/v1`, `http://127.0.0.1:8080`. The endpoint is
    /// built by [`anthropic_messages_url`] or [`openai_chat_url`].
    pub base_url: String,
    /// The environment variable the key comes from, named in errors; `None`
    /// for a local server that needs no key.
    pub key_env: Option<String>,
    /// The key read from `key_env` by the binary, if it was set.
    pub key: Option<ApiKey>,
    /// Token limit, `temperature` and strict tool, from the model's family
    /// and the table's overrides.
    pub options: RequestOptions,
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
}

/// The Messages endpoint under an Anthropic base URL given with or without
/// its `/v1` (`https://api.anthropic.com`, `…/v1`, `…/v1/`): always one `/v1`.
pub fn anthropic_messages_url(base_url: &str) -> String {
    let base = base_url.trim_end_matches('/');
    let root = base.strip_suffix("/v1").unwrap_or(base);
    format!("{root}/v1/messages")
}

/// The Chat Completions endpoint under an OpenAI-compatible base URL. A
/// base with a path (`https://api.openai.com/v1`, `https://openrouter.ai/api/v1`)
/// is used as given; a bare host (`http://127.0.0.1:8080`) gets the `/v1`
/// every compatible server (OpenAI, llama.cpp, Ollama, vLLM) serves under.
pub fn openai_chat_url(base_url: &str) -> String {
    let base = base_url.trim_end_matches('/');
    let has_path = reqwest::Url::parse(base).is_ok_and(|url| !url.path().trim_matches('/').is_empty());
    if has_path { format!("{base}/chat/completions") } else { format!("{base}/v1/chat/completions") }
}

/// The message that answers a schema-invalid output.
fn feedback(errors: &str) -> String {
    format!(
        "Your output does not match the facts schema: {errors}. \
         Answer again with the complete facts object, every field present, matching the schema exactly."
    )
}

/// The token counts of one reply, as the provider reported them.
#[derive(Debug, Clone, Copy, Default)]
struct Usage {
    /// Every prompt token, cached or not.
    input: Option<u64>,
    /// Of `input`, those read from the prompt cache.
    cached: Option<u64>,
    output: Option<u64>,
}

impl Usage {
    /// Anthropic's `usage`: `input_tokens` counts only the tokens after the
    /// last cache breakpoint, so the prompt is that plus the cache reads and
    /// writes (<https://docs.claude.com/en/docs/build-with-claude/prompt-caching>).
    fn anthropic(usage: &serde_json::Value) -> Usage {
        let uncached = usage["input_tokens"].as_u64();
        let read = usage["cache_read_input_tokens"].as_u64();
        let written = usage["cache_creation_input_tokens"].as_u64();
        let input = match (uncached, read, written) {
            (None, None, None) => None,
            _ => Some([uncached, read, written].into_iter().flatten().fold(0u64, u64::saturating_add)),
        };
        Usage { input, cached: read, output: usage["output_tokens"].as_u64() }
    }

    /// OpenAI's `usage`: `prompt_tokens` already includes the cached ones,
    /// reported in `prompt_tokens_details.cached_tokens`
    /// (<https://platform.openai.com/docs/guides/prompt-caching>).
    fn openai(usage: &serde_json::Value) -> Usage {
        Usage {
            input: usage["prompt_tokens"].as_u64(),
            cached: usage["prompt_tokens_details"]["cached_tokens"].as_u64(),
            output: usage["completion_tokens"].as_u64(),
        }
    }
}

/// Latency and token counts, summed over the turns of one extraction.
struct Meter {
    started: Instant,
    usage: Usage,
}

impl Meter {
    fn start() -> Meter {
        Meter { started: Instant::now(), usage: Usage::default() }
    }

    fn add(&mut self, more: Usage) {
        let sum = |total: Option<u64>, more: Option<u64>| match (total, more) {
            (Some(total), Some(more)) => Some(total.saturating_add(more)),
            (total, more) => total.or(more),
        };
        self.usage = Usage {
            input: sum(self.usage.input, more.input),
            cached: sum(self.usage.cached, more.cached),
            output: sum(self.usage.output, more.output),
        };
    }

    fn cost(&self) -> Cost {
        Cost {
            latency_ms: u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX),
            input_tokens: self.usage.input,
            cached_input_tokens: self.usage.cached,
            output_tokens: self.usage.output,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_urls_with_or_without_v1_reach_one_endpoint() {
        for base in [
            "https://api.anthropic.com",
            "https://api.anthropic.com/",
            "https://api.anthropic.com/v1",
            "https://api.anthropic.com/v1/",
        ] {
            assert_eq!(anthropic_messages_url(base), "https://api.anthropic.com/v1/messages", "{base}");
        }
        assert_eq!(
            anthropic_messages_url("https://gateway.example/anthropic"),
            "https://gateway.example/anthropic/v1/messages"
        );
        for base in [
            "https://api.openai.com",
            "https://api.openai.com/",
            "https://api.openai.com/v1",
            "https://api.openai.com/v1/",
        ] {
            assert_eq!(openai_chat_url(base), "https://api.openai.com/v1/chat/completions", "{base}");
        }
        assert_eq!(openai_chat_url("http://127.0.0.1:8080"), "http://127.0.0.1:8080/v1/chat/completions");
        assert_eq!(openai_chat_url("https://openrouter.ai/api/v1"), "https://openrouter.ai/api/v1/chat/completions");
    }
}
