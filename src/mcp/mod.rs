//! The MCP server: `check_order`, `brief_order`, `verify_verdict` and (with
//! approved payment origins) `pay_order` over
//! stdio or Streamable HTTP.
//!
//! This is the only module that imports rmcp, axum and hyper. It owns the
//! tool's wire description and the mapping of
//! [`CheckError`](crate::service::CheckError) to tool errors; every check
//! goes through [`Service`](crate::service::Service). One handler, two
//! transports:
//! - [`tool`]: [`CheckServer`], the `check_order`, `brief_order` and
//!   `verify_verdict` tools, their descriptions and annotations.
//! - [`elicit`]: on an `ask`, the question put to the person as a form
//!   (clients that declared elicitation), the reply sealed and re-checked.
//! - [`stdio`]: [`serve_stdio`], one session over a byte stream pair.
//! - [`http`]: [`serve_http`] and its [`router`], with the guards every
//!   request passes (bearer token, body size and read time, concurrency,
//!   session cap and idle expiry), set by [`HttpOptions`].
//! - [`redemption`]: a merchant's redemption of a `proceed` at most once
//!   (`/v1/redemptions`, `/v1/verdicts`) and the Agentic Action Profile
//!   documents that describe it.

pub mod elicit;
pub mod http;
pub mod redemption;
pub mod rounds;
pub mod stdio;
pub mod tool;

pub use http::{
    BODY_READ_TIMEOUT, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_TIMEOUT, HEADER_READ_TIMEOUT, HTTP_PATH, HttpOptions,
    JWKS_PATH, MAX_BODY_BYTES, MAX_CONCURRENT_REQUESTS, SESSION_LIMIT_CODE, check_bind, check_bind_authenticated,
    router, serve_http,
};
pub use stdio::{MAX_STDIO_LINE_BYTES, serve_stdio};
pub use tool::{
    BRIEF_TOOL_NAME, BRIEF_TOOL_TITLE, CheckServer, PAY_TOOL_NAME, PAY_TOOL_TITLE, SERVER_NAME, TOOL_NAME, TOOL_TITLE,
    VERIFY_TOOL_NAME, VerifyRequest,
};

/// Serving failures.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("refusing to listen on {0}: a non-loopback address needs a bearer token (ASASKED_HTTP_TOKEN)")]
    PublicWithoutToken(std::net::SocketAddr),
    #[error("the MCP session could not start: {0}")]
    Initialize(String),
    #[error("the MCP session ended with an error: {0}")]
    Session(String),
    #[error("http server: {0}")]
    Io(#[from] std::io::Error),
}
