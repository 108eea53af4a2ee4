//! The HTTP client shared by the providers: timeouts, bounded retries with
//! backoff and jitter, and an API key that never shows up in logs or errors.
//!
//! Only transient failures are retried: 429, 5xx and timeouts. A 4xx is the
//! request's fault and would fail again; a schema failure is handled by the
//! provider (one retry with the errors fed back), not here.

use std::fmt;
use std::time::Duration;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue, RETRY_AFTER};
use serde_json::Value;

use crate::extract::ExtractError;

/// An API key. Its `Debug` and `Display` print `***`, so a key inside a
/// config or a provider cannot leak through `{:?}` or a log line.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn new(key: impl Into<String>) -> ApiKey {
        ApiKey(key.into())
    }

    /// The key itself, for the one header that carries it.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// `text` with every occurrence of the key replaced, for error bodies a
    /// server might have echoed the key into.
    pub fn scrub(&self, text: &str) -> String {
        if self.0.is_empty() { text.to_owned() } else { text.replace(&self.0, "***") }
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("ApiKey(***)")
    }
}

impl fmt::Display for ApiKey {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("***")
    }
}

/// Timeouts and retry policy of one provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpSettings {
    /// Connecting is fast or the host is down; waiting long only delays the
    /// fail-closed answer.
    pub connect_timeout: Duration,
    /// One attempt, from sending to the last byte of the reply. A structured
    /// extraction by a hosted model takes a few seconds.
    pub timeout: Duration,
    /// Retries after the first attempt, on 429, 5xx and timeouts only.
    pub max_retries: u32,
    /// The first backoff; it doubles on each retry, with jitter.
    pub backoff: Duration,
    /// The longest `Retry-After` honoured. A server asking for more is not
    /// waited for: the check fails closed now rather than hang.
    pub max_retry_after: Duration,
}

impl Default for HttpSettings {
    fn default() -> HttpSettings {
        HttpSettings {
            connect_timeout: Duration::from_secs(5),
            timeout: Duration::from_secs(30),
            max_retries: 2,
            backoff: Duration::from_millis(250),
            max_retry_after: Duration::from_secs(5),
        }
    }
}

/// The longest error body kept in an error message.
const MAX_ERROR_BODY_CHARS: usize = 500;

/// A JSON-over-HTTP client with the retry policy of [`HttpSettings`].
#[derive(Debug, Clone)]
pub struct HttpClient {
    client: reqwest::Client,
    settings: HttpSettings,
}

impl HttpClient {
    pub fn new(settings: HttpSettings) -> Result<HttpClient, ExtractError> {
        let client = reqwest::Client::builder()
            .connect_timeout(settings.connect_timeout)
            .timeout(settings.timeout)
            .build()
            .map_err(|error| ExtractError::Http(format!("cannot build the http client: {error}")))?;
        Ok(HttpClient { client, settings })
    }

    pub fn settings(&self) -> &HttpSettings {
        &self.settings
    }

    /// POSTs `body` as JSON and returns the JSON reply, retrying transient
    /// failures. `secret` marks the header that carries the key as sensitive
    /// and is scrubbed from any error body.
    pub async fn post_json(
        &self,
        url: &str,
        headers: &[(&'static str, &str)],
        secret: Option<&ApiKey>,
        body: &Value,
    ) -> Result<Value, ExtractError> {
        let header_map = header_map(headers, secret)?;
        let mut attempt = 0;
        loop {
            let (error, retry_after) = match self.attempt(url, header_map.clone(), secret, body).await {
                Attempt::Done(result) => return result,
                Attempt::Retryable { error, retry_after } => (error, retry_after),
            };
            if attempt >= self.settings.max_retries {
                return Err(error);
            }
            let wait = match retry_after {
                Some(asked) if asked > self.settings.max_retry_after => return Err(error),
                Some(asked) => asked,
                None => self.backoff(attempt),
            };
            tracing::debug!(url, attempt, ?wait, %error, "retrying provider request");
            tokio::time::sleep(wait).await;
            attempt += 1;
        }
    }

    /// Exponential backoff with jitter: a random wait between half and all of
    /// `backoff × 2^attempt`, so clients that failed together do not retry
    /// together.
    fn backoff(&self, attempt: u32) -> Duration {
        let full = self.settings.backoff.saturating_mul(2u32.saturating_pow(attempt));
        full.mul_f64(0.5 + fastrand::f64() * 0.5)
    }

    async fn attempt(&self, url: &str, headers: HeaderMap, secret: Option<&ApiKey>, body: &Value) -> Attempt {
        let scrub = |text: &str| secret.map(|key| key.scrub(text)).unwrap_or_else(|| text.to_owned());
        let response = match self.client.post(url).headers(headers).json(body).send().await {
            Ok(response) => response,
            Err(error) if error.is_timeout() => {
                return Attempt::Retryable { error: ExtractError::Timeout(self.settings.timeout), retry_after: None };
            }
            Err(error) => return Attempt::Done(Err(ExtractError::Http(scrub(&error_chain(&error))))),
        };
        let status = response.status();
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|value| value.to_str().ok())
            .and_then(|text| text.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let text = match read_bounded(response).await {
            Ok(text) => text,
            Err(Read::Failed(error)) if error.is_timeout() => {
                return Attempt::Retryable { error: ExtractError::Timeout(self.settings.timeout), retry_after: None };
            }
            Err(Read::Failed(error)) => return Attempt::Done(Err(ExtractError::Http(scrub(&error_chain(&error))))),
            Err(Read::TooLarge) => {
                return Attempt::Done(Err(ExtractError::Malformed(format!(
                    "the reply is longer than {MAX_REPLY_BYTES} bytes"
                ))));
            }
        };
        if status.is_success() {
            return Attempt::Done(serde_json::from_str(&text).map_err(|error| {
                ExtractError::Malformed(format!("the reply is not json ({error}): {}", truncate(&scrub(&text))))
            }));
        }
        let error = ExtractError::Status { status: status.as_u16(), body: truncate(&scrub(&text)) };
        if status.as_u16() == 429 || status.is_server_error() {
            Attempt::Retryable { error, retry_after }
        } else {
            Attempt::Done(Err(error))
        }
    }
}

/// The longest reply read. A facts reply is a few KiB; a server that streams
/// without end must not grow the process's memory until the timeout.
pub const MAX_REPLY_BYTES: usize = 1024 * 1024;

enum Read {
    Failed(reqwest::Error),
    TooLarge,
}

/// The reply body as text, read chunk by chunk up to [`MAX_REPLY_BYTES`].
async fn read_bounded(mut response: reqwest::Response) -> Result<String, Read> {
    if response.content_length().is_some_and(|length| length > MAX_REPLY_BYTES as u64) {
        return Err(Read::TooLarge);
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(Read::Failed)? {
        if body.len() + chunk.len() > MAX_REPLY_BYTES {
            return Err(Read::TooLarge);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(String::from_utf8_lossy(&body).into_owned())
}

enum Attempt {
    Done(Result<Value, ExtractError>),
    /// A 429, 5xx or timeout, with the server's `Retry-After` if it sent one.
    Retryable {
        error: ExtractError,
        retry_after: Option<Duration>,
    },
}

fn header_map(headers: &[(&'static str, &str)], secret: Option<&ApiKey>) -> Result<HeaderMap, ExtractError> {
    let mut map = HeaderMap::new();
    for (name, value) in headers {
        let mut header_value = HeaderValue::from_str(value)
            .map_err(|_| ExtractError::Other(format!("header {name} holds characters a header cannot carry")))?;
        if secret.is_some_and(|key| value.contains(key.expose())) {
            header_value.set_sensitive(true);
        }
        map.insert(HeaderName::from_static(name), header_value);
    }
    Ok(map)
}

/// The error with its sources: reqwest's top-level message alone ("error
/// sending request") does not say what failed.
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

fn truncate(text: &str) -> String {
    if text.chars().count() <= MAX_ERROR_BODY_CHARS {
        return text.to_owned();
    }
    let mut short: String = text.chars().take(MAX_ERROR_BODY_CHARS).collect();
    short.push('…');
    short
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_never_print() {
        let key = ApiKey::new("sk-secret-123");
        assert_eq!(format!("{key:?}"), "ApiKey(***)");
        assert_eq!(format!("{key}"), "***");
        assert_eq!(key.scrub("bad key sk-secret-123 given"), "bad key *** given");
    }

    #[test]
    fn backoff_doubles_with_jitter() {
        let client =
            HttpClient::new(HttpSettings { backoff: Duration::from_millis(100), ..HttpSettings::default() }).unwrap();
        for _ in 0..20 {
            let first = client.backoff(0);
            assert!(first >= Duration::from_millis(50) && first <= Duration::from_millis(100), "{first:?}");
            let third = client.backoff(2);
            assert!(third >= Duration::from_millis(200) && third <= Duration::from_millis(400), "{third:?}");
        }
    }
}
