//! The MCP server: one `check_order` tool over stdio or Streamable HTTP.
//!
//! This is the only module that imports rmcp. It owns the tool's wire
//! description (title, description for the calling model, annotations) and
//! the mapping of [`CheckError`] to tool errors; every check goes through
//! [`Service`]. One handler, two transports: [`serve_stdio`] and
//! [`serve_http`] take the same [`CheckServer`].

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, ClientJsonRpcMessage, ContentBlock, Implementation, ServerCapabilities, ServerConfig,
    ToolAnnotations,
};
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{Json, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::Mutex;
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
/// How long a request body may take to arrive. A check's arguments are a few
/// KiB, sent at once; a client trickling its body would otherwise hold one of
/// the [`MAX_CONCURRENT_REQUESTS`] slots for as long as it likes.
pub const BODY_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a client may take to send a request's headers. axum's `serve`
/// sets no timer, so a client sending one header byte a minute kept its
/// socket and task for ever; enough of them exhaust the file descriptors.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// HTTP requests served at once. Each check may wait on extraction; beyond
/// this, callers queue instead of piling up work on a 2-core machine.
pub const MAX_CONCURRENT_REQUESTS: usize = 32;
/// MCP sessions open at once over HTTP, by default. rmcp keeps every session
/// (a worker task and its channels, about 55 KiB measured) until it is
/// deleted or idles out, so one client initializing in a loop (about 900 a
/// second on loopback) held some 14 GiB by the time the first expired. An
/// agent host needs a session per conversation; 1024 is far beyond that and
/// bounds them to about 55 MiB (docs/hostile.md).
pub const DEFAULT_MAX_SESSIONS: usize = 1024;
/// How long an HTTP session may go without a message before it is closed,
/// by default: rmcp's own default, set here so that an upgrade cannot change
/// it. A client that vanished without DELETE frees its slot after this.
pub const DEFAULT_SESSION_IDLE_TIMEOUT: Duration = Duration::from_secs(300);
/// The JSON-RPC error code of a refused `initialize` (the server-error range).
pub const SESSION_LIMIT_CODE: i64 = -32000;

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

/// The longest line (one JSON-RPC message) read over stdio: rmcp's own
/// default, set here so that an rmcp upgrade cannot silently change it (rmcp
/// before 3.x buffered a line without bound, so a client that never sent a
/// newline grew the server until it was killed). A longer line is read
/// through and dropped without being buffered, logged, and gets no reply:
/// its JSON-RPC id is in the bytes that were not kept. A check's arguments
/// are a few KiB; 16 MiB is a memory bound, not a size any client needs.
pub const MAX_STDIO_LINE_BYTES: usize = 16 * 1024 * 1024;

/// Serves one MCP session over a byte stream pair (stdin/stdout, or a pipe in
/// tests) until the peer closes its end for reading (EOF), stops reading
/// replies (a failed write: the client closed stdout) or `shutdown` fires;
/// then waits for the checks in flight, each of which seals its record.
pub async fn serve_stdio<R, W>(
    server: CheckServer,
    (read, write): (R, W),
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), ServeError>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    let service = server.service.clone();
    let write_failed = CancellationToken::new();
    let write = WatchedWriter { inner: write, failed: write_failed.clone() };
    let transport = AsyncRwTransport::new_server(read, write).with_max_line_length(MAX_STDIO_LINE_BYTES);
    let running = server.serve(transport).await.map_err(|error| ServeError::Initialize(error.to_string()))?;
    let cancel = running.cancellation_token();
    tokio::select! {
        finished = running.waiting() => {
            finished.map_err(|error| ServeError::Session(error.to_string()))?;
        }
        () = write_failed.cancelled() => {
            // rmcp logs a failed reply and reads on, so a client that closed
            // stdout but not stdin would keep a deaf server running.
            tracing::warn!("a reply could not be written (the client closed stdout?): ending the session");
            service.shutdown().await;
            cancel.cancel();
        }
        () = shutdown => {
            service.shutdown().await;
            cancel.cancel();
        }
    }
    service.shutdown().await;
    Ok(())
}

/// The stdio writer, which cancels `failed` when a write or flush fails: no
/// later reply can reach the client either.
struct WatchedWriter<W> {
    inner: W,
    failed: CancellationToken,
}

impl<W> WatchedWriter<W> {
    fn watch<T>(&self, polled: Poll<std::io::Result<T>>) -> Poll<std::io::Result<T>> {
        if let Poll::Ready(Err(_)) = &polled {
            self.failed.cancel();
        }
        polled
    }
}

impl<W: AsyncWrite + Unpin> AsyncWrite for WatchedWriter<W> {
    fn poll_write(mut self: Pin<&mut Self>, context: &mut Context<'_>, bytes: &[u8]) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write(context, bytes);
        self.watch(polled)
    }

    fn poll_flush(mut self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let polled = Pin::new(&mut self.inner).poll_flush(context);
        self.watch(polled)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let polled = Pin::new(&mut self.inner).poll_shutdown(context);
        self.watch(polled)
    }
}

/// Refuses a non-loopback bind without a token (before anything listens).
pub fn check_bind(address: SocketAddr, token: Option<&str>) -> Result<(), ServeError> {
    if address.ip().is_loopback() || token.is_some_and(|token| !token.is_empty()) {
        Ok(())
    } else {
        Err(ServeError::PublicWithoutToken(address))
    }
}

/// How many HTTP sessions may be open and for how long one may idle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionLimits {
    /// Past it, `initialize` gets 503 until a session is deleted or expires.
    pub max_sessions: usize,
    pub idle_timeout: Duration,
}

impl Default for SessionLimits {
    fn default() -> SessionLimits {
        SessionLimits { max_sessions: DEFAULT_MAX_SESSIONS, idle_timeout: DEFAULT_SESSION_IDLE_TIMEOUT }
    }
}

/// The axum router: `/mcp` with the bearer check (when a token is set), the
/// concurrency limit, the body limit, [`BODY_READ_TIMEOUT`] and the default
/// [`SessionLimits`]. `cancel` ends the MCP sessions.
pub fn router(server: CheckServer, token: Option<String>, cancel: CancellationToken) -> axum::Router {
    router_with_timeout(server, token, cancel, BODY_READ_TIMEOUT)
}

/// [`router`] with another body read timeout (tests use a short one).
pub fn router_with_timeout(
    server: CheckServer,
    token: Option<String>,
    cancel: CancellationToken,
    body_read_timeout: Duration,
) -> axum::Router {
    router_with(server, token, cancel, body_read_timeout, SessionLimits::default())
}

/// [`router`] with another body read timeout and other session limits.
pub fn router_with(
    server: CheckServer,
    token: Option<String>,
    cancel: CancellationToken,
    body_read_timeout: Duration,
    sessions: SessionLimits,
) -> axum::Router {
    let mut config = StreamableHttpServerConfig::default()
        .with_cancellation_token(cancel)
        .with_max_request_body_bytes(MAX_BODY_BYTES);
    if token.is_some() {
        // With a token, callers are authenticated, so host names other than
        // loopback (a reverse proxy's, a LAN address) are accepted.
        config = config.disable_allowed_hosts();
    }
    // rmcp closes a session idle for `keep_alive` and removes it from the
    // manager's map, as it does on DELETE: the map is the count of open
    // sessions that the limit reads.
    let mut manager = LocalSessionManager::default();
    manager.session_config.keep_alive = Some(sessions.idle_timeout);
    let manager = Arc::new(manager);
    let mcp = StreamableHttpService::new(move || Ok(server.clone()), Arc::clone(&manager), config);
    let limit = Arc::new(SessionLimit { manager, max_sessions: sessions.max_sessions, turn: Mutex::new(()) });
    // Layers run outside in: the concurrency limit, then the bearer check (it
    // refuses without reading the body), then the timed body read, then the
    // session limit (which looks into the body read whole).
    let mut app = axum::Router::new()
        .nest_service(HTTP_PATH, mcp)
        .layer(axum::middleware::from_fn(move |request: Request, next: Next| {
            let limit = Arc::clone(&limit);
            async move { limit.admit(request, next).await }
        }))
        .layer(axum::middleware::from_fn(move |request: Request, next: Next| async move {
            read_body_in_time(body_read_timeout, request, next).await
        }));
    if let Some(token) = token {
        let expected: Arc<str> = Arc::from(format!("Bearer {token}"));
        app = app.layer(axum::middleware::from_fn(move |request: Request, next: Next| {
            let expected = Arc::clone(&expected);
            async move { require_bearer(&expected, request, next).await }
        }));
    }
    app.layer(tower::limit::ConcurrencyLimitLayer::new(MAX_CONCURRENT_REQUESTS))
}

/// Counts the open sessions and refuses a new one past the limit.
struct SessionLimit {
    manager: Arc<LocalSessionManager>,
    max_sessions: usize,
    /// Held from the count until rmcp has added the new session to its map:
    /// two `initialize` requests cannot both see the last free slot.
    turn: Mutex<()>,
}

impl SessionLimit {
    /// Passes every request on, except an `initialize` (a POST without a
    /// session id) while `max_sessions` are open: that gets 503 and a
    /// JSON-RPC error with its id. Only `initialize` creates a session.
    async fn admit(&self, request: Request, next: Next) -> Response {
        if request.method() != axum::http::Method::POST || request.headers().contains_key(SESSION_ID_HEADER) {
            return next.run(request).await;
        }
        let (parts, body) = request.into_parts();
        // `read_body_in_time` has read the body whole and within its bound.
        let Ok(bytes) = axum::body::to_bytes(body, MAX_BODY_BYTES).await else {
            return (StatusCode::BAD_REQUEST, "the request body could not be read\n").into_response();
        };
        // A POST body that is not JSON was refused by `read_body_in_time`.
        let message = serde_json::from_slice::<serde_json::Value>(&bytes).unwrap_or_default();
        if message.get("method").and_then(serde_json::Value::as_str) != Some("initialize") {
            return next.run(Request::from_parts(parts, Body::from(bytes))).await;
        }
        let _turn = self.turn.lock().await;
        let open = self.manager.sessions.read().await.len();
        if open >= self.max_sessions {
            tracing::warn!(open, max_sessions = self.max_sessions, "session limit reached: initialize refused");
            let id = message.get("id").filter(|id| id.is_string() || id.is_number()).cloned();
            let message = format!(
                "session limit reached: the server holds its maximum of {} MCP sessions; end one (DELETE) or retry \
                 when one expires",
                self.max_sessions
            );
            let error = serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": SESSION_LIMIT_CODE, "message": message}});
            return (StatusCode::SERVICE_UNAVAILABLE, axum::Json(error)).into_response();
        }
        next.run(Request::from_parts(parts, Body::from(bytes))).await
    }
}

/// The header naming a request's MCP session.
const SESSION_ID_HEADER: &str = "mcp-session-id";

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

/// Reads the whole body within `timeout` (408 otherwise) and up to
/// [`MAX_BODY_BYTES`] (413 otherwise), then passes it on.
async fn read_body_in_time(timeout: Duration, request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    let read = async {
        let mut stream = body.into_data_stream();
        let mut collected = Vec::new();
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.map_err(|_| StatusCode::BAD_REQUEST)?;
            if collected.len() + chunk.len() > MAX_BODY_BYTES {
                return Err(StatusCode::PAYLOAD_TOO_LARGE);
            }
            collected.extend_from_slice(&chunk);
        }
        Ok(collected)
    };
    match tokio::time::timeout(timeout, read).await {
        Ok(Ok(bytes)) => {
            if parts.method == axum::http::Method::POST
                && let Some(refusal) = malformed_json_rpc(&bytes)
            {
                return refusal;
            }
            next.run(Request::from_parts(parts, Body::from(bytes))).await
        }
        Ok(Err(StatusCode::PAYLOAD_TOO_LARGE)) => {
            (StatusCode::PAYLOAD_TOO_LARGE, format!("the request body is above {MAX_BODY_BYTES} bytes\n"))
                .into_response()
        }
        Ok(Err(status)) => (status, "the request body could not be read\n").into_response(),
        Err(_) => (StatusCode::REQUEST_TIMEOUT, "the request body did not arrive in time\n").into_response(),
    }
}

/// JSON-RPC's own error for a body that is not JSON (-32700) or not a
/// JSON-RPC message (-32600), with status 400. rmcp answers both with a
/// plain-text 415, which a client cannot tell from a wrong content type.
fn malformed_json_rpc(body: &[u8]) -> Option<Response> {
    // The common case first, parsed as rmcp itself will parse it: a body
    // that rmcp accepts needs no refusal, and building a `Value`, cloning it
    // and converting it cost about 8% of the server's CPU per check.
    if serde_json::from_slice::<ClientJsonRpcMessage>(body).is_ok() {
        return None;
    }
    let (code, message, id) = match serde_json::from_slice::<serde_json::Value>(body) {
        Err(_) => (-32700, "parse error: the body is not JSON", serde_json::Value::Null),
        Ok(value) => {
            if serde_json::from_value::<ClientJsonRpcMessage>(value.clone()).is_ok() {
                return None;
            }
            let id = value.get("id").filter(|id| id.is_string() || id.is_number()).cloned();
            (-32600, "invalid request: not a JSON-RPC 2.0 message an MCP client sends", id.unwrap_or_default())
        }
    };
    let error = serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}});
    Some((StatusCode::BAD_REQUEST, axum::Json(error)).into_response())
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
    serve_http_with(server, listener, token, HttpTimeouts::default(), SessionLimits::default(), shutdown).await
}

/// How long a client may take to send its request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HttpTimeouts {
    /// The request line and headers. Shutdown also waits at most this long
    /// for a connection still sending them.
    pub header_read: Duration,
    pub body_read: Duration,
}

impl Default for HttpTimeouts {
    fn default() -> HttpTimeouts {
        HttpTimeouts { header_read: HEADER_READ_TIMEOUT, body_read: BODY_READ_TIMEOUT }
    }
}

/// [`serve_http`] with other timeouts (tests use short ones) and session
/// limits.
pub async fn serve_http_with(
    server: CheckServer,
    listener: TcpListener,
    token: Option<String>,
    timeouts: HttpTimeouts,
    limits: SessionLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    check_bind(listener.local_addr()?, token.as_deref())?;
    let sessions = CancellationToken::new();
    let stopping = CancellationToken::new();
    let service = server.service.clone();
    let app = router_with(server, token, sessions.clone(), timeouts.body_read, limits);
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
    serve_connections(listener, app, timeouts.header_read, stopping.clone()).await;
    stopping.cancel();
    let _ = drain.await;
    Ok(())
}

/// Accepts HTTP/1.1 connections until `stopping` fires, each with a header
/// read timeout; then asks every open connection to finish its request in
/// flight and close, and waits for them (a connection still sending its
/// headers, at most `header_read`).
async fn serve_connections(
    listener: TcpListener,
    app: axum::Router,
    header_read: Duration,
    stopping: CancellationToken,
) {
    let connections = tokio_util::task::TaskTracker::new();
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(error) => {
                    // Out of file descriptors or a connection reset before
                    // accept: wait a moment instead of spinning.
                    tracing::warn!(%error, "accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = stopping.cancelled() => break,
        };
        // A reply is a few small SSE writes: with Nagle's algorithm on, the
        // last one waits for the client's delayed ACK (about 40 ms a check).
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!(%error, "cannot set TCP_NODELAY");
        }
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        let stopping = stopping.clone();
        connections.spawn(async move {
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder.timer(hyper_util::rt::TokioTimer::new()).header_read_timeout(header_read);
            let connection = builder.serve_connection(hyper_util::rt::TokioIo::new(stream), service).with_upgrades();
            let mut connection = std::pin::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                () = stopping.cancelled() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
        });
    }
    connections.close();
    connections.wait().await;
}
