//! Anthropic's Messages API as an extractor.
//!
//! The model is forced to call one tool whose `input_schema` is the facts
//! schema (`tool_choice` of type `tool`, with `disable_parallel_tool_use`
//! so the turn holds exactly one call), and the facts are that call's
//! `input`. The tool is `strict` where the model supports it (see
//! [`super::family`]), so the input is decoded under the schema. A
//! schema-invalid call is answered, once, with a `tool_result` marked
//! `is_error` that carries the validation errors; every other `tool_use`
//! block of that turn gets a `tool_result` too, because the API refuses a
//! turn whose `tool_use` ids are not all answered in the next message.

use serde_json::{Value, json};

use super::http::HttpClient;
use super::{FEEDBACK_ROUNDS, Meter, ProviderSettings, Usage, anthropic_messages_url, feedback};
use crate::extract::prompt::{system_prompt, user_message};
use crate::extract::schema::{validate, wire_schema};
use crate::extract::{ExtractError, ExtractFuture, ExtractInput, Extraction, Extractor};

/// The API root; a `base_url` with or without `/v1` reaches the same endpoint.
pub const DEFAULT_BASE_URL: &str = "https://api.anthropic.com";
pub const API_VERSION: &str = "2023-06-01";
/// The forced tool. Its name is what the model "calls" to hand over facts.
pub const TOOL_NAME: &str = "record_facts";
const TOOL_DESCRIPTION: &str = "Record the intent facts the person stated in the request.";

/// An extractor backed by a Claude model.
#[derive(Debug)]
pub struct AnthropicExtractor {
    settings: ProviderSettings,
    client: HttpClient,
}

impl AnthropicExtractor {
    pub fn new(settings: ProviderSettings) -> Result<AnthropicExtractor, ExtractError> {
        let client = HttpClient::new(settings.http.clone())?;
        Ok(AnthropicExtractor { settings, client })
    }

    async fn run(&self, input: &ExtractInput) -> Result<Extraction, ExtractError> {
        let key = self.settings.key()?;
        let url = anthropic_messages_url(&self.settings.base_url);
        let mut headers: Vec<(&'static str, &str)> = vec![("anthropic-version", API_VERSION)];
        if let Some(key) = key {
            headers.push(("x-api-key", key.expose()));
        }
        // The fixed part first and marked as a cache breakpoint: the cached
        // prefix is the tool (with the schema) and these instructions, the
        // same for every request and every day; only the user message varies.
        let system = json!([{ "type": "text", "text": system_prompt(), "cache_control": { "type": "ephemeral" } }]);
        let options = self.settings.options;
        let mut tool = json!({ "name": TOOL_NAME, "description": TOOL_DESCRIPTION, "input_schema": wire_schema() });
        if options.strict_tool {
            tool["strict"] = json!(true);
        }
        let tools = json!([tool]);
        let mut messages = vec![json!({ "role": "user", "content": user_message(input) })];
        let mut meter = Meter::start();
        let mut round = 0;
        loop {
            let mut body = json!({
                "model": self.settings.model,
                "max_tokens": options.max_tokens,
                "system": system,
                "tools": tools,
                "tool_choice": { "type": "tool", "name": TOOL_NAME, "disable_parallel_tool_use": true },
                "messages": messages,
            });
            if options.send_temperature {
                body["temperature"] = json!(0);
            }
            let reply = self.client.post_json(&url, &headers, key, &body).await?;
            meter.add(Usage::anthropic(&reply["usage"]));
            match reply["stop_reason"].as_str() {
                Some("max_tokens") => return Err(ExtractError::Truncated),
                Some("refusal") => return Err(ExtractError::Refused(text_of(&reply))),
                _ => {}
            }
            let call = reply["content"]
                .as_array()
                .and_then(|blocks| {
                    blocks.iter().find(|block| block["type"] == "tool_use" && block["name"] == TOOL_NAME)
                })
                .ok_or_else(|| ExtractError::Malformed(format!("no {TOOL_NAME} tool call in the reply")))?;
            let output = call["input"].clone();
            match validate(&output) {
                Ok(extracted) => return Ok(Extraction { extracted, raw: output, cost: meter.cost() }),
                Err(ExtractError::SchemaInvalid(errors)) if round < FEEDBACK_ROUNDS => {
                    tracing::info!(extractor = %self.settings.name, %errors, "schema-invalid output, feeding errors back");
                    messages.push(json!({ "role": "assistant", "content": reply["content"] }));
                    messages.push(json!({ "role": "user", "content": tool_results(&reply, &call["id"], &errors) }));
                    round += 1;
                }
                Err(error) => return Err(error),
            }
        }
    }
}

/// The answer to every `tool_use` block of `reply`: the validation errors
/// for the call that was read (`answered`), and for any other call (a model
/// that ignored `disable_parallel_tool_use`) a note that one call is expected.
fn tool_results(reply: &Value, answered: &Value, errors: &str) -> Vec<Value> {
    let calls = reply["content"].as_array().into_iter().flatten().filter(|block| block["type"] == "tool_use");
    calls
        .map(|call| {
            let content = if &call["id"] == answered {
                feedback(errors)
            } else {
                format!("Only one {TOOL_NAME} call is read; this one was ignored.")
            };
            json!({ "type": "tool_result", "tool_use_id": call["id"], "is_error": true, "content": content })
        })
        .collect()
}

/// The text blocks of a reply, for a refusal's reason.
fn text_of(reply: &Value) -> String {
    let text: Vec<&str> = reply["content"]
        .as_array()
        .map(|blocks| blocks.iter().filter_map(|block| block["text"].as_str()).collect())
        .unwrap_or_default();
    if text.is_empty() { "stop_reason refusal".to_owned() } else { text.join(" ") }
}

impl Extractor for AnthropicExtractor {
    fn name(&self) -> &str {
        &self.settings.name
    }

    fn extract<'a>(&'a self, input: &'a ExtractInput) -> ExtractFuture<'a> {
        Box::pin(self.run(input))
    }
}
