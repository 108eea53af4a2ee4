//! The payment wrapper's HTTP client: the bounds the Agentic Action Profile
//! puts on a client (§6.8) and nothing else. Redirects are never followed
//! (§2: a client must reject them during an action, or a publisher could
//! send a payment to an origin it has no authority over); every answer is
//! read whole within a byte cap (§6.8: 64 KiB for the reference transport,
//! 256 KiB for an OpenAPI document) and within the request's timeout, so a
//! slow or endless answer cannot hold a payment or memory.
//!
//! It knows no profile and no ledger: `pay` decides what a failure means.

use std::time::Duration;

use serde_json::Value;

/// The longest answer of the service to a submission, a status or a
/// verification read, and the longest profile (§2, §6.8).
pub const MAX_ANSWER_BYTES: usize = 64 * 1024;
/// The longest OpenAPI document (§2).
pub const MAX_OPENAPI_BYTES: usize = 256 * 1024;
/// How long fetching a profile or an OpenAPI document may take: the
/// profile's own `timeoutMs` is not known before it is read.
pub const DOCUMENT_TIMEOUT: Duration = Duration::from_secs(10);

/// Why a call got no usable answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TransportError {
    #[error("no answer within {0} ms")]
    Timeout(u128),
    #[error("answered with a redirect ({status}{}), which is refused", location.as_deref().map(|to| format!(" to {to}")).unwrap_or_default())]
    Redirect { status: u16, location: Option<String> },
    #[error("answered with more than {0} bytes, which is refused")]
    Oversized(usize),
    #[error("answered HTTP {0}")]
    Status(u16),
    #[error("answered with a body that is not JSON: {0}")]
    NotJson(String),
    #[error("cannot reach it: {0}")]
    Unreachable(String),
}

/// A JSON answer: the HTTP status and the body (`Null` when empty).
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub status: u16,
    pub body: Value,
}

/// The bounded client. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Transport {
    client: reqwest::Client,
}

impl Transport {
    pub fn new() -> Result<Transport, TransportError> {
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            // A payment goes to the origin the profile names, not through a
            // proxy the environment happens to set.
            .no_proxy()
            .build()
            .map_err(|error| TransportError::Unreachable(error.to_string()))?;
        Ok(Transport { client })
    }

    /// GETs `url`; any 2xx or 4xx status with its JSON body (a 404 is an
    /// answer too), a redirect or 5xx refused.
    pub async fn get(&self, url: &str, timeout: Duration, max_bytes: usize) -> Result<Answer, TransportError> {
        self.send(self.client.get(url), timeout, max_bytes).await
    }

    /// POSTs `body` as JSON with `Idempotency-Key: key`.
    pub async fn post(&self, url: &str, key: &str, body: &Value, timeout: Duration) -> Result<Answer, TransportError> {
        let request = self.client.post(url).header("Idempotency-Key", key).json(body);
        self.send(request, timeout, MAX_ANSWER_BYTES).await
    }

    async fn send(
        &self,
        request: reqwest::RequestBuilder,
        timeout: Duration,
        max_bytes: usize,
    ) -> Result<Answer, TransportError> {
        let exchange = async {
            let mut response = request.send().await.map_err(unreachable)?;
            let status = response.status();
            if status.is_redirection() {
                let location = response
                    .headers()
                    .get(reqwest::header::LOCATION)
                    .and_then(|value| value.to_str().ok())
                    .map(|text| text.chars().take(200).collect());
                return Err(TransportError::Redirect { status: status.as_u16(), location });
            }
            if response.content_length().is_some_and(|length| length > max_bytes as u64) {
                return Err(TransportError::Oversized(max_bytes));
            }
            let mut body = Vec::new();
            while let Some(chunk) = response.chunk().await.map_err(unreachable)? {
                if body.len() + chunk.len() > max_bytes {
                    return Err(TransportError::Oversized(max_bytes));
                }
                body.extend_from_slice(&chunk);
            }
            if status.is_server_error() {
                return Err(TransportError::Status(status.as_u16()));
            }
            // A refusal's body (a plain-text 404) need not be JSON; an
            // answer's must.
            let body = match serde_json::from_slice(&body) {
                Ok(value) => value,
                Err(_) if body.iter().all(u8::is_ascii_whitespace) || !status.is_success() => Value::Null,
                Err(error) => return Err(TransportError::NotJson(error.to_string())),
            };
            Ok(Answer { status: status.as_u16(), body })
        };
        match tokio::time::timeout(timeout, exchange).await {
            Ok(answer) => answer,
            Err(_) => Err(TransportError::Timeout(timeout.as_millis())),
        }
    }
}

fn unreachable(error: reqwest::Error) -> TransportError {
    TransportError::Unreachable(error.to_string())
}
