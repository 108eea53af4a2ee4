//! Anthropic's Messages API as an extractor.
//!
//! The model is forced to call one tool whose `input_schema` is the facts
//! schema (`tool_choice` of type `tool`), and the facts are that call's
//! `input`. A schema-invalid call is answered with a `tool_result` marked
//! `is_error` that carries the validation errors, once.

use serde_json::{Value, json};

use super::http::HttpClient;
use super::{FEEDBACK_ROUNDS, Meter, ProviderSettings, feedback};
use crate::extract::prompt::{system_prompt, user_message};
use crate::extract::schema::{validate, wire_schema};
use crate::extract::{ExtractError, ExtractFuture, ExtractInput, Extraction, Extractor};

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
        let url = self.settings.url("v1/messages");
        let mut headers: Vec<(&'static str, &str)> = vec![("anthropic-version", API_VERSION)];
        if let Some(key) = key {
            headers.push(("x-api-key", key.expose()));
        }
        let system = system_prompt(input.today);
        let tools = json!([{ "name": TOOL_NAME, "description": TOOL_DESCRIPTION, "input_schema": wire_schema() }]);
        let mut messages = vec![json!({ "role": "user", "content": user_message(input) })];
        let mut meter = Meter::start();
        let mut round = 0;
        loop {
            let body = json!({
                "model": self.settings.model,
                "max_tokens": self.settings.max_tokens,
                "temperature": 0,
                "system": system,
                "tools": tools,
                "tool_choice": { "type": "tool", "name": TOOL_NAME },
                "messages": messages,
            });
            let reply = self.client.post_json(&url, &headers, key, &body).await?;
            meter.add(reply["usage"]["input_tokens"].as_u64(), reply["usage"]["output_tokens"].as_u64());
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
                    messages.push(json!({
                        "role": "user",
                        "content": [{
                            "type": "tool_result",
                            "tool_use_id": call["id"],
                            "is_error": true,
                            "content": feedback(&errors),
                        }],
                    }));
                    round += 1;
                }
                Err(error) => return Err(error),
            }
        }
    }
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
