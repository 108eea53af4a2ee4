//! The MCP server: one `check_order` tool over stdio or Streamable HTTP.
//!
//! This is the only module that imports rmcp. It owns the tool's wire
//! description (title, description for the calling model, annotations) and
//! the mapping of [`CheckError`] to tool errors; every check goes through
//! [`Service`]. One handler, two transports: [`serve_stdio`] and
//! [`serve_http`] take the same [`CheckServer`].

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::serve::ListenerExt;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig, ToolAnnotations};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{Json, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::service::{CheckError, CheckRequest, CheckResult, Service};

/// The tool's name on the wire.
pub const TOOL_NAME: &str = "check_order";
/// The tool's human title.
pub const TOOL_TITLE: &str = "Check the cart against the person's request before paying";
/// The server's name on the wire.
pub const SERVER_NAME: &str = "asasked";
/// Where the Streamable HTTP endpoint is mounted.
pub const HTTP_PATH: &str = "/mcp";
/// The largest request body accepted over HTTP. A check's arguments are a
/// request and a cart: a few KiB; 256 KiB leaves room for big carts and
/// refuses memory-exhausting bodies.
pub const MAX_BODY_BYTES: usize = 256 * 1024;
/// HTTP requests served at once. Each check may wait on extraction; beyond
/// this, callers queue instead of piling up work on a 2-core machine.
pub const MAX_CONCURRENT_REQUESTS: usize = 32;

const TOOL_DESCRIPTION: &str = "Call this BEFORE paying for any order you placed on a person's behalf. It checks \
whether the cart matches what the person asked for (brand, model, colour, size, level, returnability, delivery \
deadline, quantity, budget, price preference, stated requirements) and seals the check as evidence.\n\
Pass `request` = the person's own words, verbatim, and `cart` = what you are about to buy.\n\
Result `decision`:\n\
- `proceed`: you may pay. Show any `notes` to the person.\n\
- `ask`: do NOT pay. Show `question` to the person exactly as given and wait for their reply. Then either fix the \
cart and call again with `previous_record_id` = this result's `record_id`, or call again with `previous_record_id` \
and `answers`: one `{finding_id, reply}` per finding the person answered, where reply is `accept` (they knowingly \
accept it), `decline`, or their own words (\"43 is fine too\"). Never answer on the person's behalf.\n\
An `ask` is a normal result, not an error. After max_attempts (3) checks of one order, the person must decide.";

const INSTRUCTIONS: &str = "asasked is a pre-checkout guard. Before paying for an order placed for a person, call \
check_order with their verbatim request and the cart. Pay only on decision `proceed`; on `ask`, show the question \
to the person and never pay until a re-check proceeds.";

/// The tool handler, shared by both transports.
#[derive(Clone)]
pub struct CheckServer {
    service: Service,
    tool_router: ToolRouter<CheckServer>,
}

impl std::fmt::Debug for CheckServer {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("CheckServer").field("service", &self.service).finish()
    }
}

#[tool_router]
impl CheckServer {
    /// `open_world`: a hosted extractor sends the request to a third party,
    /// which the `openWorldHint` annotation must disclose.
    pub fn new(service: Service, open_world: bool) -> CheckServer {
        let mut tool_router = Self::tool_router();
        if let Some(route) = tool_router.map.get_mut(TOOL_NAME) {
            route.attr.annotations = Some(
                ToolAnnotations::with_title(TOOL_TITLE)
                    .read_only(true)
                    .destructive(false)
                    .idempotent(true)
                    .open_world(open_world),
            );
        }
        CheckServer { service, tool_router }
    }

    pub fn service(&self) -> &Service {
        &self.service
    }

    #[tool(name = "check_order", title = "Check the cart against the person's request before paying", description = TOOL_DESCRIPTION)]
    async fn check_order(
        &self,
        Parameters(arguments): Parameters<CheckRequest>,
    ) -> Result<Json<CheckResult>, CallToolResult> {
        match self.service.check_order(arguments).await {
            Ok(result) => Ok(Json(result)),
            Err(CheckError::InvalidArgument { field, message }) => {
                Err(CallToolResult::error(vec![ContentBlock::text(format!("invalid argument {field}: {message}"))]))
            }
            Err(error) => {
                // Details go to the log; the caller learns only that no
                // result may be relied on.
                tracing::error!(%error, "check failed");
                Err(CallToolResult::error(vec![ContentBlock::text(
                    "the check could not be sealed as evidence: do not pay; try again later".to_owned(),
                )]))
            }
        }
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for CheckServer {
    fn get_info(&self) -> ServerConfig {
        let mut implementation = Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION"));
        implementation.title = Some("asasked pre-checkout guard".to_owned());
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(implementation)
            .with_instructions(INSTRUCTIONS)
    }
}

/// Serving failures.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("refusing to listen on {0}: a non-loopback address needs a bearer token (ASASKED_HTTP_TOKEN)")]
    PublicWithoutToken(SocketAddr),
    #[error("the MCP session could not start: {0}")]
    Initialize(String),
    #[error("the MCP session ended with an error: {0}")]
    Session(String),
    #[error("http server: {0}")]
    Io(#[from] std::io::Error),
}

/// Serves one MCP session over a byte stream pair (stdin/stdout, or a pipe in
/// tests) until the peer closes it or `shutdown` fires, then waits for the
/// checks in flight.
pub async fn serve_stdio<R, W>(
    server: CheckServer,
    transport: (R, W),
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), ServeError>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    let service = server.service.clone();
    let running = server.serve(transport).await.map_err(|error| ServeError::Initialize(error.to_string()))?;
    let cancel = running.cancellation_token();
    tokio::select! {
        finished = running.waiting() => {
            finished.map_err(|error| ServeError::Session(error.to_string()))?;
        }
        () = shutdown => {
            service.shutdown().await;
            cancel.cancel();
        }
    }
    service.shutdown().await;
    Ok(())
}

/// Refuses a non-loopback bind without a token (before anything listens).
pub fn check_bind(address: SocketAddr, token: Option<&str>) -> Result<(), ServeError> {
    if address.ip().is_loopback() || token.is_some_and(|token| !token.is_empty()) {
        Ok(())
    } else {
        Err(ServeError::PublicWithoutToken(address))
    }
}

/// The axum router: `/mcp` with the bearer check (when a token is set), the
/// concurrency limit and the body limit. `cancel` ends the MCP sessions.
pub fn router(server: CheckServer, token: Option<String>, cancel: CancellationToken) -> axum::Router {
    let mut config = StreamableHttpServerConfig::default()
        .with_cancellation_token(cancel)
        .with_max_request_body_bytes(MAX_BODY_BYTES);
    if token.is_some() {
        // With a token, callers are authenticated, so host names other than
        // loopback (a reverse proxy's, a LAN address) are accepted.
        config = config.disable_allowed_hosts();
    }
    let mcp = StreamableHttpService::new(move || Ok(server.clone()), LocalSessionManager::default().into(), config);
    let mut app = axum::Router::new().nest_service(HTTP_PATH, mcp);
    if let Some(token) = token {
        let expected: Arc<str> = Arc::from(format!("Bearer {token}"));
        app = app.layer(axum::middleware::from_fn(move |request: Request, next: Next| {
            let expected = Arc::clone(&expected);
            async move { require_bearer(&expected, request, next).await }
        }));
    }
    app.layer(tower::limit::ConcurrencyLimitLayer::new(MAX_CONCURRENT_REQUESTS))
}

async fn require_bearer(expected: &str, request: Request, next: Next) -> Response {
    let presented = request.headers().get(header::AUTHORIZATION).map(HeaderValue::as_bytes).unwrap_or_default();
    if constant_time_equal(presented, expected.as_bytes()) {
        next.run(request).await
    } else {
        let mut response = (StatusCode::UNAUTHORIZED, "missing or wrong bearer token\n").into_response();
        response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        response
    }
}

/// Compares without an early exit, so response time does not reveal how much
/// of the token was right.
fn constant_time_equal(left: &[u8], right: &[u8]) -> bool {
    left.len() == right.len() && left.iter().zip(right).fold(0u8, |difference, (a, b)| difference | (a ^ b)) == 0
}

/// Serves Streamable HTTP on `listener` until `shutdown` fires; then stops
/// accepting, lets the checks in flight finish and seal, ends the MCP
/// sessions and returns.
pub async fn serve_http(
    server: CheckServer,
    listener: TcpListener,
    token: Option<String>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    check_bind(listener.local_addr()?, token.as_deref())?;
    let sessions = CancellationToken::new();
    let stopping = CancellationToken::new();
    let service = server.service.clone();
    let app = router(server, token, sessions.clone());
    tokio::spawn({
        let stopping = stopping.clone();
        async move {
            shutdown.await;
            stopping.cancel();
        }
    });
    let drain = tokio::spawn({
        let stopping = stopping.clone();
        let service = service.clone();
        async move {
            stopping.cancelled().await;
            service.shutdown().await;
            // Open SSE streams would keep connections alive forever: end the
            // sessions once no check is in flight.
            sessions.cancel();
        }
    });
    // A reply is a few small SSE writes: with Nagle's algorithm on, the last
    // one waits for the client's delayed ACK (about 40 ms per check).
    let listener = listener.tap_io(|stream| {
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!(%error, "cannot set TCP_NODELAY");
        }
    });
    axum::serve(listener, app).with_graceful_shutdown(stopping.clone().cancelled_owned()).await?;
    stopping.cancel();
    let _ = drain.await;
    Ok(())
}
