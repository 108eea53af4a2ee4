//! OpenAI-compatible Chat Completions as an extractor.
//!
//! One `base_url` makes this client serve OpenAI, Ollama, vLLM and llama.cpp's
//! server. The token-limit field and `temperature` follow the model's
//! family ([`super::family`]): reasoning models take
//! `max_completion_tokens` and no `temperature`. The facts schema goes in `response_format` (`json_schema`,
//! `strict: true`); for servers that accept only `json_object`, the schema is
//! put in the instructions instead, and local validation does the rest. A
//! schema-invalid or unparsable reply is answered once with its errors.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::http::HttpClient;
use super::{FEEDBACK_ROUNDS, Meter, ProviderSettings, Usage, feedback, openai_chat_url};
use crate::extract::prompt::{system_prompt, user_message};
use crate::extract::schema::{bound_lengths, validate, wire_schema};
use crate::extract::{ExtractError, ExtractFuture, ExtractInput, Extraction, Extractor};

pub const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";
/// The name of the schema in `response_format.json_schema`.
pub const SCHEMA_NAME: &str = "intent_facts";

/// How the server is asked for JSON.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResponseFormat {
    /// `{"type":"json_schema", … "strict": true}`: the server constrains the
    /// output to the schema (OpenAI, llama.cpp, vLLM, Ollama).
    #[default]
    JsonSchema,
    /// `{"type":"json_object"}`: any JSON object, for servers that reject
    /// `json_schema` (llama-cpp-python).
    JsonObject,
}

/// An extractor backed by an OpenAI-compatible server.
#[derive(Debug)]
pub struct OpenAiExtractor {
    settings: ProviderSettings,
    response_format: ResponseFormat,
    /// The schema sent, with any length bounds; validation uses the
    /// unbounded facts schema regardless.
    schema: Value,
    client: HttpClient,
}

impl OpenAiExtractor {
    pub fn new(settings: ProviderSettings, response_format: ResponseFormat) -> Result<OpenAiExtractor, ExtractError> {
        let client = HttpClient::new(settings.http.clone())?;
        Ok(OpenAiExtractor { settings, response_format, schema: wire_schema(), client })
    }

    /// Bounds lists and strings in the schema sent to the server (see
    /// [`bound_lengths`]), for grammar-constrained local servers.
    pub fn with_length_bounds(mut self, max_items: Option<u32>, max_string_length: Option<u32>) -> OpenAiExtractor {
        bound_lengths(&mut self.schema, max_items, max_string_length);
        self
    }

    /// The system message (the same for every request and day, so that
    /// OpenAI's automatic prefix caching covers it) and the response format.
    fn instructions_and_format(&self) -> (String, Value) {
        let system = system_prompt().to_owned();
        match self.response_format {
            ResponseFormat::JsonSchema => (
                system,
                json!({
                    "type": "json_schema",
                    "json_schema": { "name": SCHEMA_NAME, "strict": true, "schema": self.schema },
                }),
            ),
            ResponseFormat::JsonObject => (
                format!(
                    "{system}\nReturn one JSON object, and nothing else, that matches this JSON Schema:\n{}\n",
                    self.schema
                ),
                json!({ "type": "json_object" }),
            ),
        }
    }

    async fn run(&self, input: &ExtractInput) -> Result<Extraction, ExtractError> {
        let key = self.settings.key()?;
        let url = openai_chat_url(&self.settings.base_url);
        let options = self.settings.options;
        let authorization = key.map(|key| format!("Bearer {}", key.expose()));
        let headers: Vec<(&'static str, &str)> =
            authorization.iter().map(|value| ("authorization", value.as_str())).collect();
        let (system, response_format) = self.instructions_and_format();
        let mut messages = vec![
            json!({ "role": "system", "content": system }),
            json!({ "role": "user", "content": user_message(input) }),
        ];
        let mut meter = Meter::start();
        let mut round = 0;
        loop {
            let mut body = json!({
                "model": self.settings.model,
                "messages": messages,
                "response_format": response_format,
            });
            // Reasoning models take only `max_completion_tokens` and the
            // default temperature (`super::family`); older and local servers
            // know only `max_tokens`.
            body[options.token_limit_field.as_str()] = json!(options.max_tokens);
            if options.send_temperature {
                body["temperature"] = json!(0);
            }
            let reply = self.client.post_json(&url, &headers, key, &body).await?;
            meter.add(Usage::openai(&reply["usage"]));
            let choice = &reply["choices"][0];
            if let Some(refusal) = choice["message"]["refusal"].as_str() {
                return Err(ExtractError::Refused(refusal.to_owned()));
            }
            match choice["finish_reason"].as_str() {
                Some("length") => return Err(ExtractError::Truncated),
                Some("content_filter") => return Err(ExtractError::Refused("finish_reason content_filter".into())),
                _ => {}
            }
            let Some(content) = choice["message"]["content"].as_str() else {
                return Err(ExtractError::Malformed("no choices[0].message.content in the reply".into()));
            };
            let checked = serde_json::from_str::<Value>(content)
                .map_err(|error| ExtractError::Malformed(format!("the content is not json: {error}")))
                .and_then(|output| validate(&output).map(|extracted| (output, extracted)));
            match checked {
                Ok((output, extracted)) => return Ok(Extraction { extracted, raw: output, cost: meter.cost() }),
                Err(error @ (ExtractError::SchemaInvalid(_) | ExtractError::Malformed(_)))
                    if round < FEEDBACK_ROUNDS =>
                {
                    tracing::info!(extractor = %self.settings.name, %error, "invalid output, feeding errors back");
                    let errors = match error {
                        ExtractError::SchemaInvalid(errors) | ExtractError::Malformed(errors) => errors,
                        other => other.to_string(),
                    };
                    messages.push(json!({ "role": "assistant", "content": content }));
                    messages.push(json!({ "role": "user", "content": feedback(&errors) }));
                    round += 1;
                }
                Err(error) => return Err(error),
            }
        }
    }
}

impl Extractor for OpenAiExtractor {
    fn name(&self) -> &str {
        &self.settings.name
    }

    fn extract<'a>(&'a self, input: &'a ExtractInput) -> ExtractFuture<'a> {
        Box::pin(self.run(input))
    }
}
