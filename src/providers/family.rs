//! Model families and the request options each accepts: which token-limit
//! field, whether `temperature` may be sent, whether the Anthropic tool can
//! be `strict`. A table in `extractors.toml` may override an option, and
//! [`ModelFamily::refusal`] names an override the provider documents as
//! invalid, so the binary refuses it at startup instead of every request
//! failing with a 400.
//!
//! What the providers document, as found with the project's search index in
//! November 2026 (the providers' own sites were not fetched; where a page
//! was seen only through a quotation, the quoting source is named):
//! - OpenAI, Chat Completions reference (`max_tokens`: "deprecated in favor
//!   of `max_completion_tokens`, and is not compatible with o-series
//!   models", quoted in ScalingIntelligence/tokasaurus#7) and the reasoning
//!   guide: reasoning models (o1, o3, o4-mini,
//!   the gpt-5 family except `gpt-5-chat`) answer 400 "Unsupported
//!   parameter: 'max_tokens' … Use 'max_completion_tokens' instead" and
//!   accept only the default `temperature` (1), "Unsupported value:
//!   'temperature' does not support 0 with this model" (quoted in
//!   openai/openai-python#2104, teilomillet/gollm#33). Reasoning tokens count
//!   towards `max_completion_tokens`, hence the larger default.
//! - Anthropic, "Migration guide" (platform.claude.com/docs/en/about-claude/
//!   models/migration-guide#migrating-to-claude-opus-4-7): from Claude
//!   Opus 4.7 on, `temperature`, `top_p` and `top_k` are removed and a
//!   request that sends one gets a 400 ("`temperature` is deprecated for
//!   this model", Comfy-Org/ComfyUI#13923; OpenRouter's Claude 4.7
//!   migration page links the guide); Sonnet 4.6, Opus 4.6, the 4.5 models
//!   and older accept it (scottpmiller/evalcore 2.4.3 and agnt5dev/sdk-core
//!   0.3.7 release notes, which also list Opus 4.8, Opus 5, Sonnet 5 and
//!   Fable as rejecting it). Models newer than this table are assumed
//!   to have no sampling parameters: leaving `temperature` out only costs
//!   determinism, sending it costs every request.
//! - Anthropic, "Structured outputs" (platform.claude.com/docs/en/
//!   build-with-claude/structured-outputs, seen in its Japanese version and
//!   an English mirror): structured outputs and strict tool use
//!   (`tools[].strict`) are generally available for Opus 4.6, Sonnet 4.6,
//!   Sonnet 4.5, Opus 4.5 and Haiku 4.5 (Vertex AI's page lists Opus 4.7
//!   too); older models are not listed, so they are not sent `strict`.

use serde::{Deserialize, Serialize};

use super::Provider;

/// The most tokens a non-reasoning model may spend on one facts object. A
/// complete object with every field is a few hundred tokens; the bound
/// turns a runaway generation into `Truncated` instead of a long wait.
pub const DEFAULT_MAX_TOKENS: u32 = 1024;

/// The bound for OpenAI reasoning models, whose hidden reasoning tokens
/// count towards it: 1024 would end most extractions as `Truncated` before
/// the answer starts. It is a ceiling, not a spend.
pub const REASONING_MAX_TOKENS: u32 = 16384;

/// The name of the request's token-limit field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenLimitField {
    MaxTokens,
    MaxCompletionTokens,
}

impl TokenLimitField {
    pub fn as_str(self) -> &'static str {
        match self {
            TokenLimitField::MaxTokens => "max_tokens",
            TokenLimitField::MaxCompletionTokens => "max_completion_tokens",
        }
    }
}

/// What a request carries besides the conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RequestOptions {
    pub token_limit_field: TokenLimitField,
    /// Send `temperature: 0`, so the same request gives the same facts
    /// where the model allows it.
    pub send_temperature: bool,
    /// Anthropic only: mark the forced tool `strict: true`, so the model's
    /// input is constrained to the facts schema.
    pub strict_tool: bool,
    pub max_tokens: u32,
}

impl RequestOptions {
    /// The defaults of `model`'s family.
    pub fn for_model(provider: Provider, model: &str) -> RequestOptions {
        ModelFamily::of(provider, model).defaults()
    }
}

/// The families whose requests differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelFamily {
    /// o1, o3, o4 series and the gpt-5 family (gpt-6 and later too), except
    /// the `-chat` models.
    OpenAiReasoning,
    /// Every other model behind an OpenAI-compatible API (gpt-4.1, gpt-4o,
    /// local servers).
    OpenAiChat,
    /// Claude 3.x, Sonnet 4, Opus 4 and 4.1: sampling parameters, no strict tools.
    ClaudeBeforeStrict,
    /// Claude Sonnet, Opus and Haiku 4.5, Sonnet and Opus 4.6: both.
    ClaudeWithSampling,
    /// Claude Opus 4.7 and later, Sonnet, Haiku or any model 5 and later,
    /// and any id this table does not know: strict tools, no sampling parameters.
    ClaudeWithoutSampling,
}

impl ModelFamily {
    pub fn of(provider: Provider, model: &str) -> ModelFamily {
        let model = model.trim().to_ascii_lowercase();
        match provider {
            Provider::Openai if is_openai_reasoning(&model) => ModelFamily::OpenAiReasoning,
            Provider::Openai => ModelFamily::OpenAiChat,
            Provider::Anthropic => claude_family(&model),
        }
    }

    pub fn defaults(self) -> RequestOptions {
        let max_tokens = if self == ModelFamily::OpenAiReasoning { REASONING_MAX_TOKENS } else { DEFAULT_MAX_TOKENS };
        RequestOptions {
            token_limit_field: if self == ModelFamily::OpenAiReasoning {
                TokenLimitField::MaxCompletionTokens
            } else {
                TokenLimitField::MaxTokens
            },
            send_temperature: matches!(
                self,
                ModelFamily::OpenAiChat | ModelFamily::ClaudeBeforeStrict | ModelFamily::ClaudeWithSampling
            ),
            strict_tool: matches!(self, ModelFamily::ClaudeWithSampling | ModelFamily::ClaudeWithoutSampling),
            max_tokens,
        }
    }

    /// Why the provider refuses `options` for this family, naming the
    /// config key; `None` if it accepts them.
    pub fn refusal(self, options: &RequestOptions) -> Option<(&'static str, &'static str)> {
        let anthropic = !matches!(self, ModelFamily::OpenAiReasoning | ModelFamily::OpenAiChat);
        if anthropic && options.token_limit_field == TokenLimitField::MaxCompletionTokens {
            return Some(("token_limit_field", "the anthropic Messages API takes max_tokens"));
        }
        if self == ModelFamily::OpenAiReasoning && options.token_limit_field == TokenLimitField::MaxTokens {
            return Some((
                "token_limit_field",
                "OpenAI reasoning models reject max_tokens; they take max_completion_tokens",
            ));
        }
        if options.send_temperature && self == ModelFamily::OpenAiReasoning {
            return Some(("send_temperature", "OpenAI reasoning models accept only the default temperature"));
        }
        if options.send_temperature && self == ModelFamily::ClaudeWithoutSampling {
            return Some((
                "send_temperature",
                "Claude models from Opus 4.7 on (and ids newer than asasked's table) reject temperature",
            ));
        }
        if options.strict_tool && self == ModelFamily::ClaudeBeforeStrict {
            return Some(("strict_tool", "strict tool use needs a Claude 4.5 model or later"));
        }
        None
    }
}

/// `o1`, `o3-mini`, `o4-mini`, `gpt-5`, `gpt-5.1-mini`, `openai/gpt-5`;
/// not `gpt-5-chat-latest`, `gpt-4.1`, `gpt-oss-20b`.
fn is_openai_reasoning(model: &str) -> bool {
    let model = model.rsplit('/').next().unwrap_or(model);
    let o_series = ["o1", "o3", "o4"]
        .iter()
        .any(|series| model.strip_prefix(series).is_some_and(|rest| rest.is_empty() || rest.starts_with('-')));
    let gpt_generation = model
        .strip_prefix("gpt-")
        .map(|rest| rest.chars().take_while(char::is_ascii_digit).collect::<String>())
        .and_then(|digits| digits.parse::<u32>().ok());
    o_series || (gpt_generation.is_some_and(|generation| generation >= 5) && !model.contains("-chat"))
}

/// The family of a Claude model id: `claude-sonnet-4-6`,
/// `claude-3-5-haiku-20241022`, `claude-opus-4-1-20250805`, with an
/// optional `anthropic.` or `anthropic/` prefix (Bedrock, gateways).
fn claude_family(model: &str) -> ModelFamily {
    let model = model.trim_start_matches("anthropic.").trim_start_matches("anthropic/");
    let Some(rest) = model.strip_prefix("claude-") else { return ModelFamily::ClaudeWithoutSampling };
    let segments: Vec<&str> = rest.split(['-', '@', ':']).collect();
    let number = |index: usize| -> Option<u32> {
        segments.get(index).filter(|segment| (1..=2).contains(&segment.len())).and_then(|segment| segment.parse().ok())
    };
    // `claude-3-5-sonnet-…`, `claude-3-opus-…`: the old order, all before strict tools.
    if number(0).is_some() {
        return ModelFamily::ClaudeBeforeStrict;
    }
    let (Some(major), minor) = (number(1), number(2).unwrap_or(0)) else {
        return ModelFamily::ClaudeWithoutSampling;
    };
    match (major, minor) {
        (0..=3, _) | (4, 0..=4) => ModelFamily::ClaudeBeforeStrict,
        (4, 5..=6) => ModelFamily::ClaudeWithSampling,
        _ => ModelFamily::ClaudeWithoutSampling,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_of_known_ids() {
        let cases = [
            (Provider::Openai, "gpt-4.1-mini", ModelFamily::OpenAiChat),
            (Provider::Openai, "gpt-4o-2024-08-06", ModelFamily::OpenAiChat),
            (Provider::Openai, "gemma3-270m", ModelFamily::OpenAiChat),
            (Provider::Openai, "gpt-oss:20b", ModelFamily::OpenAiChat),
            (Provider::Openai, "gpt-5-chat-latest", ModelFamily::OpenAiChat),
            (Provider::Openai, "o1", ModelFamily::OpenAiReasoning),
            (Provider::Openai, "o3-mini", ModelFamily::OpenAiReasoning),
            (Provider::Openai, "o4-mini-2025-04-16", ModelFamily::OpenAiReasoning),
            (Provider::Openai, "gpt-5", ModelFamily::OpenAiReasoning),
            (Provider::Openai, "gpt-5-mini", ModelFamily::OpenAiReasoning),
            (Provider::Openai, "gpt-5.1", ModelFamily::OpenAiReasoning),
            (Provider::Openai, "openai/gpt-5-nano", ModelFamily::OpenAiReasoning),
            (Provider::Openai, "omni-7b", ModelFamily::OpenAiChat),
            (Provider::Anthropic, "claude-3-5-haiku-20241022", ModelFamily::ClaudeBeforeStrict),
            (Provider::Anthropic, "claude-3-opus-20240229", ModelFamily::ClaudeBeforeStrict),
            (Provider::Anthropic, "claude-sonnet-4-20250514", ModelFamily::ClaudeBeforeStrict),
            (Provider::Anthropic, "claude-opus-4-1", ModelFamily::ClaudeBeforeStrict),
            (Provider::Anthropic, "claude-sonnet-4-5", ModelFamily::ClaudeWithSampling),
            (Provider::Anthropic, "claude-sonnet-4-5-20250929", ModelFamily::ClaudeWithSampling),
            (Provider::Anthropic, "claude-haiku-4-5-20251001", ModelFamily::ClaudeWithSampling),
            (Provider::Anthropic, "claude-sonnet-4-6", ModelFamily::ClaudeWithSampling),
            (Provider::Anthropic, "anthropic.claude-opus-4-6-v1", ModelFamily::ClaudeWithSampling),
            (Provider::Anthropic, "claude-opus-4-7", ModelFamily::ClaudeWithoutSampling),
            (Provider::Anthropic, "claude-sonnet-5", ModelFamily::ClaudeWithoutSampling),
            (Provider::Anthropic, "claude-fable-5-1", ModelFamily::ClaudeWithoutSampling),
            (Provider::Anthropic, "my-proxy-alias", ModelFamily::ClaudeWithoutSampling),
        ];
        for (provider, model, family) in cases {
            assert_eq!(ModelFamily::of(provider, model), family, "{model}");
        }
    }

    #[test]
    fn defaults_are_never_refused() {
        for family in [
            ModelFamily::OpenAiReasoning,
            ModelFamily::OpenAiChat,
            ModelFamily::ClaudeBeforeStrict,
            ModelFamily::ClaudeWithSampling,
            ModelFamily::ClaudeWithoutSampling,
        ] {
            assert_eq!(family.refusal(&family.defaults()), None, "{family:?}");
        }
        let reasoning = ModelFamily::OpenAiReasoning.defaults();
        assert_eq!(reasoning.token_limit_field, TokenLimitField::MaxCompletionTokens);
        assert!(!reasoning.send_temperature);
        assert_eq!(reasoning.max_tokens, REASONING_MAX_TOKENS);
        let with_temperature = RequestOptions { send_temperature: true, ..reasoning };
        assert_eq!(
            ModelFamily::OpenAiReasoning.refusal(&with_temperature).map(|(key, _)| key),
            Some("send_temperature")
        );
    }
}
