//! MCP over Streamable HTTP: [`serve_http`] accepts connections on a bound
//! listener, and [`router`] puts every request through the guards that keep
//! one client from starving the others or growing the server: a bearer
//! token, a concurrency limit, a body size limit and read timeout, header
//! read timeouts, and a cap on sessions with idle expiry. [`HttpOptions`]
//! sets them; its defaults are the documented ones (docs/mcp.md).

use std::collections::VecDeque;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use http_body::{Body as HttpBody, Frame};
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio::sync::Mutex;
use tokio_util::sync::CancellationToken;

use super::{CheckServer, ServeError};
use crate::principal::Principal;
use crate::principal::tokens::{Admission, Bearers, TokenFile};
use crate::redeem::{Ledger, Redeemer};

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

/// Refuses a non-loopback bind without a token (before anything listens).
pub fn check_bind(address: SocketAddr, token: Option<&str>) -> Result<(), ServeError> {
    check_bind_authenticated(address, token.is_some_and(|token| !token.is_empty()))
}

/// Refuses a non-loopback bind unless callers must authenticate
/// (`ASASKED_HTTP_TOKEN`, or a token file in the data folder).
pub fn check_bind_authenticated(address: SocketAddr, authenticated: bool) -> Result<(), ServeError> {
    if address.ip().is_loopback() || authenticated { Ok(()) } else { Err(ServeError::PublicWithoutToken(address)) }
}

/// What a Streamable HTTP server enforces. The defaults are the
/// documented limits; tests shorten the timeouts and lower the caps.
#[derive(Clone)]
pub struct HttpOptions {
    /// The bearer token of the local principal (`ASASKED_HTTP_TOKEN`), if
    /// set; a non-loopback address is refused without it or `tokens`.
    pub token: Option<String>,
    /// The token file of named principals (`asasked tokens add`), read
    /// again whenever it changes. While the file exists, every request must
    /// present a live token of it or `token`.
    pub tokens: Option<TokenFile>,
    /// Where redemptions are recorded: with it (and receipts), the server
    /// also serves `/v1/redemptions`, `/v1/verdicts`, `/agentic.json` and
    /// `/openapi.json` (see `redemption`).
    pub ledger: Option<Arc<dyn Ledger>>,
    /// How long a client may take to send its request line and headers.
    /// Shutdown also waits at most this long for a connection still
    /// sending them.
    pub header_read_timeout: Duration,
    /// How long a request body may take to arrive.
    pub body_read_timeout: Duration,
    /// Sessions open at once; past it, `initialize` gets 503 until a session
    /// is deleted or expires.
    pub max_sessions: usize,
    /// How long a session may go without a message before it is closed.
    pub session_idle_timeout: Duration,
}

impl Default for HttpOptions {
    fn default() -> HttpOptions {
        HttpOptions {
            token: None,
            tokens: None,
            ledger: None,
            header_read_timeout: HEADER_READ_TIMEOUT,
            body_read_timeout: BODY_READ_TIMEOUT,
            max_sessions: DEFAULT_MAX_SESSIONS,
            session_idle_timeout: DEFAULT_SESSION_IDLE_TIMEOUT,
        }
    }
}

/// Shows whether a token is set, never the token.
impl std::fmt::Debug for HttpOptions {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("HttpOptions")
            .field("token", &self.token.as_ref().map(|_| "<set>"))
            .field("tokens", &self.tokens.as_ref().map(TokenFile::path))
            .field("ledger", &self.ledger)
            .field("header_read_timeout", &self.header_read_timeout)
            .field("body_read_timeout", &self.body_read_timeout)
            .field("max_sessions", &self.max_sessions)
            .field("session_idle_timeout", &self.session_idle_timeout)
            .finish()
    }
}

/// The axum router: `/mcp` behind the concurrency limit, the bearer check
/// (when a token is set), the timed and bounded body read and the session
/// cap of `options` (its header read timeout is the connection's, applied by
/// [`serve_http`]). `cancel` ends the MCP sessions.
pub fn router(server: CheckServer, options: &HttpOptions, cancel: CancellationToken) -> axum::Router {
    // A form sent during a call must be answered before the session idles out.
    let server = server.with_form_timeout(super::elicit::form_timeout_within(options.session_idle_timeout));
    let mut config = StreamableHttpServerConfig::default()
        .with_cancellation_token(cancel)
        .with_max_request_body_bytes(MAX_BODY_BYTES);
    let bearers = Arc::new(Bearers::new(options.token.clone(), options.tokens.clone()));
    if bearers.required() {
        // With a token, callers are authenticated, so host names other than
        // loopback (a reverse proxy's, a LAN address) are accepted.
        config = config.disable_allowed_hosts();
    }
    // rmcp closes a session idle for `keep_alive` and removes it from the
    // manager's map, as it does on DELETE: the map is the count of open
    // sessions that the limit reads.
    let mut manager = LocalSessionManager::default();
    manager.session_config.keep_alive = Some(options.session_idle_timeout);
    let manager = Arc::new(manager);
    let jwks = server.service().jwks();
    let redeemer = match (&options.ledger, &jwks) {
        (Some(ledger), Some(_)) => Some(Redeemer::new(server.service().clone(), Arc::clone(ledger))),
        _ => None,
    };
    let mcp = StreamableHttpService::new(move || Ok(server.clone()), Arc::clone(&manager), config);
    let limit = Arc::new(SessionLimit { manager, max_sessions: options.max_sessions, turn: Mutex::new(()) });
    let body_read_timeout = options.body_read_timeout;
    // Layers run outside in: the concurrency limit, then the bearer check (it
    // refuses without reading the body), then the timed body read, then the
    // session limit (which looks into the body read whole), then DELETE's
    // status, set on rmcp's own answer.
    let mut app = axum::Router::new()
        .nest_service(HTTP_PATH, mcp)
        .layer(axum::middleware::from_fn(one_write_reply))
        .layer(axum::middleware::from_fn(no_content_on_delete))
        .layer(axum::middleware::from_fn(move |request: Request, next: Next| {
            let limit = Arc::clone(&limit);
            async move { limit.admit(request, next).await }
        }))
        .layer(axum::middleware::from_fn(move |request: Request, next: Next| async move {
            read_body_in_time(body_read_timeout, request, next).await
        }));
    // Redemption is JSON, not JSON-RPC: beside `/mcp`'s guards, behind the
    // bearer check (its answers are the caller's principal's).
    let publishes_profile = redeemer.is_some();
    if let Some(redeemer) = redeemer {
        app = app.merge(super::redemption::routes(redeemer, body_read_timeout, MAX_BODY_BYTES));
    }
    app = app.layer(axum::middleware::from_fn(move |request: Request, next: Next| {
        let bearers = Arc::clone(&bearers);
        async move { require_bearer(&bearers, request, next).await }
    }));
    // The receipt keys are public: added after the bearer check, so a
    // merchant or gateway needs no token to fetch them.
    if let Some(jwks) = jwks {
        let body: Arc<str> = Arc::from(serde_json::to_string(&jwks).unwrap_or_default());
        app = app.route(
            JWKS_PATH,
            axum::routing::get(move || {
                let body = Arc::clone(&body);
                async move { ([(axum::http::header::CONTENT_TYPE, "application/jwk-set+json")], body.to_string()) }
            }),
        );
    }
    if publishes_profile {
        app = app.merge(super::redemption::documents());
    }
    app.layer(tower::limit::ConcurrencyLimitLayer::new(MAX_CONCURRENT_REQUESTS))
}

/// Where the HTTP server publishes the public keys of its receipts.
pub const JWKS_PATH: &str = "/.well-known/jwks.json";

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
        // A POST body that is not JSON is no `initialize`; `read_body_in_time`
        // refuses it once it comes back.
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

/// Answers a session DELETE that rmcp accepted with 204 No Content instead of
/// its 202. The official Python SDK takes only 200 or 204 as a closed session
/// and logs "Session termination failed: 202" on every close otherwise
/// (mcp 2.3.0, `StreamableHTTPTransport.terminate_session`); the session is
/// gone either way, and the body is empty either way.
async fn no_content_on_delete(request: Request, next: Next) -> Response {
    let delete = request.method() == axum::http::Method::DELETE;
    let mut response = next.run(request).await;
    if delete && response.status() == StatusCode::ACCEPTED {
        *response.status_mut() = StatusCode::NO_CONTENT;
    }
    response
}

/// Holds a POST's SSE reply until its first message (or the end of the
/// stream) is there, so that hyper writes the headers, the message and, when
/// the stream has ended by then, its last chunk in one `writev`.
///
/// rmcp answers a request with an event stream at once and its messages
/// later: hyper wrote the headers and the priming event (an event id and
/// empty data, SEP-1699) when the stream opened and the result in a second
/// write, and each write on loopback wakes the client's reader once more.
/// That second write was about a sixth of the server's CPU per sealed check
/// (docs/benchmarks.md). Nothing the client gets changes but the moment the
/// headers leave: with the first message, never later than a message the
/// client must answer (an elicitation is a message) or rmcp's keep-alive
/// comment. A GET's stream (server notifications) is passed on untouched.
async fn one_write_reply(request: Request, next: Next) -> Response {
    let post = request.method() == axum::http::Method::POST;
    let response = next.run(request).await;
    let event_stream = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|value| value.as_bytes().starts_with(b"text/event-stream"));
    if !post || !event_stream {
        return response;
    }
    let (parts, mut body) = response.into_parts();
    let mut held = VecDeque::new();
    let mut ended = false;
    loop {
        match std::future::poll_fn(|context| Pin::new(&mut body).poll_frame(context)).await {
            Some(frame) => {
                let primes = frame.as_ref().is_ok_and(is_priming);
                held.push_back(frame);
                if !primes {
                    break;
                }
            }
            None => {
                ended = true;
                break;
            }
        }
    }
    // The stream usually ends with its one message: taking that now puts the
    // last chunk in the same write.
    while !ended {
        let waker = Waker::noop();
        let mut context = Context::from_waker(waker);
        match Pin::new(&mut body).poll_frame(&mut context) {
            Poll::Ready(Some(frame)) => held.push_back(frame),
            Poll::Ready(None) => ended = true,
            Poll::Pending => break,
        }
    }
    Response::from_parts(parts, Body::new(HeldBody { held, rest: (!ended).then_some(body) }))
}

/// An SSE priming event as rmcp writes it: empty data, then its id and retry.
fn is_priming(frame: &Frame<Bytes>) -> bool {
    frame.data_ref().is_some_and(|data| data.starts_with(b"data: \n"))
}

/// The frames [`one_write_reply`] took, then the rest of the body.
struct HeldBody {
    held: VecDeque<Result<Frame<Bytes>, axum::Error>>,
    /// `None` once the body has ended.
    rest: Option<Body>,
}

impl HttpBody for HeldBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        if let Some(frame) = self.held.pop_front() {
            return Poll::Ready(Some(frame));
        }
        match self.rest.as_mut() {
            Some(rest) => Pin::new(rest).poll_frame(context),
            None => Poll::Ready(None),
        }
    }

    fn is_end_stream(&self) -> bool {
        self.held.is_empty() && self.rest.as_ref().is_none_or(HttpBody::is_end_stream)
    }
}

/// The header naming a request's MCP session.
const SESSION_ID_HEADER: &str = "mcp-session-id";

/// Admits a request whose bearer token is live (or every request when no
/// token is configured), with its principal in the request's extensions,
/// where the tools and the redemption endpoints read it; refuses any other
/// with 401.
async fn require_bearer(bearers: &Bearers, mut request: Request, next: Next) -> Response {
    let presented = request.headers().get(header::AUTHORIZATION).map(HeaderValue::as_bytes);
    match bearers.admit(presented) {
        Admission::Open => {
            request.extensions_mut().insert(Principal::Local);
            next.run(request).await
        }
        Admission::Principal(principal) => {
            request.extensions_mut().insert(principal);
            next.run(request).await
        }
        Admission::Refused => {
            let mut response = (StatusCode::UNAUTHORIZED, "missing, wrong or revoked bearer token\n").into_response();
            response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
            response
        }
    }
}

/// Reads the whole body within `timeout` (408 otherwise) and up to
/// [`MAX_BODY_BYTES`] (413 otherwise), then passes it on; a POST body
/// that is not a JSON-RPC message gets JSON-RPC's error (`malformed_json_rpc`).
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
            // A malformed POST body is refused after rmcp's answer, not
            // before: rmcp parses every body it answers with a success
            // (`initialize`, a call, a notification), so only a failure can
            // be one, and checking first parsed each body twice, about 5% of
            // a sealed check's CPU. Nothing inside acts on a body it cannot
            // parse (the session limit only refuses), and the refusal takes
            // precedence over any failure rmcp or the session limit gave, as
            // when it came first.
            let post = parts.method == axum::http::Method::POST;
            let bytes = axum::body::Bytes::from(bytes);
            let response = next.run(Request::from_parts(parts, Body::from(bytes.clone()))).await;
            if post
                && !response.status().is_success()
                && let Some(refusal) = malformed_json_rpc(&bytes)
            {
                return refusal;
            }
            response
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
    // Parsed as rmcp itself parses it first: a body that rmcp accepts needs
    // no refusal (its failure was another one), and building a `Value`,
    // cloning it and converting it cost about 8% of the server's CPU per
    // check when every body came here.
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

/// Serves Streamable HTTP on `listener` until `shutdown` fires; then stops
/// accepting, lets the checks in flight finish and seal, ends the MCP
/// sessions and returns.
pub async fn serve_http(
    server: CheckServer,
    listener: TcpListener,
    options: HttpOptions,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let authenticated = Bearers::new(options.token.clone(), options.tokens.clone()).required();
    check_bind_authenticated(listener.local_addr()?, authenticated)?;
    let sessions = CancellationToken::new();
    let stopping = CancellationToken::new();
    let service = server.service().clone();
    let app = router(server, &options, sessions.clone());
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
    serve_connections(listener, app, options.header_read_timeout, stopping.clone()).await;
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

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::Method;
    use tokio::sync::mpsc;
    use tower::Service;

    const PRIMING: &[u8] = b"data: \nid: 0\nretry: 3000\n\n";
    const MESSAGE: &[u8] = b"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n";

    /// A route answering with an event stream fed by the returned sender,
    /// behind [`one_write_reply`].
    fn streaming_route() -> (axum::Router, mpsc::UnboundedSender<&'static [u8]>) {
        let (sender, receiver) = mpsc::unbounded_channel::<&'static [u8]>();
        let receiver = Arc::new(std::sync::Mutex::new(Some(receiver)));
        let answer = move || {
            let receiver = receiver.lock().unwrap().take().expect("one request per route");
            let frames = futures_util::stream::unfold(receiver, |mut receiver| async move {
                let bytes = receiver.recv().await?;
                Some((Ok::<_, std::convert::Infallible>(Bytes::from_static(bytes)), receiver))
            });
            async move { ([(header::CONTENT_TYPE, "text/event-stream")], Body::from_stream(frames)) }
        };
        let router = axum::Router::new()
            .route("/", axum::routing::any(answer))
            .layer(axum::middleware::from_fn(one_write_reply));
        (router, sender)
    }

    fn request(method: Method) -> Request {
        Request::builder().method(method).uri("/").body(Body::empty()).unwrap()
    }

    /// Every frame the body has ready now, without waiting; `None` last if it
    /// has ended.
    fn ready_frames(body: &mut Body) -> Vec<Option<Bytes>> {
        let mut context = Context::from_waker(Waker::noop());
        let mut frames = Vec::new();
        loop {
            match Pin::new(&mut *body).poll_frame(&mut context) {
                Poll::Ready(Some(frame)) => frames.push(Some(frame.unwrap().into_data().unwrap())),
                Poll::Ready(None) => {
                    frames.push(None);
                    return frames;
                }
                Poll::Pending => return frames,
            }
        }
    }

    async fn settle() {
        for _ in 0..20 {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn a_posts_reply_leaves_with_its_message_and_its_end_in_one_go() {
        let (mut router, sender) = streaming_route();
        let call = tokio::spawn(router.call(request(Method::POST)));
        sender.send(PRIMING).unwrap();
        settle().await;
        assert!(!call.is_finished(), "headers held while only the priming event is there");
        sender.send(MESSAGE).unwrap();
        drop(sender);
        let mut body = call.await.unwrap().unwrap().into_body();
        assert_eq!(
            ready_frames(&mut body),
            vec![Some(Bytes::from_static(PRIMING)), Some(Bytes::from_static(MESSAGE)), None]
        );
    }

    #[tokio::test]
    async fn a_message_the_client_must_answer_is_never_held_back() {
        // An elicitation: the stream goes on only once the client answers.
        let (mut router, sender) = streaming_route();
        let call = tokio::spawn(router.call(request(Method::POST)));
        sender.send(PRIMING).unwrap();
        sender.send(MESSAGE).unwrap();
        let mut body = call.await.unwrap().unwrap().into_body();
        assert_eq!(ready_frames(&mut body), vec![Some(Bytes::from_static(PRIMING)), Some(Bytes::from_static(MESSAGE))]);
        sender.send(MESSAGE).unwrap();
        drop(sender);
        settle().await;
        assert_eq!(ready_frames(&mut body), vec![Some(Bytes::from_static(MESSAGE)), None]);
    }

    #[tokio::test]
    async fn a_gets_stream_opens_at_once() {
        let (mut router, sender) = streaming_route();
        let mut body = router.call(request(Method::GET)).await.unwrap().into_body();
        assert_eq!(ready_frames(&mut body), vec![]);
        sender.send(PRIMING).unwrap();
        drop(sender);
        settle().await;
        assert_eq!(ready_frames(&mut body), vec![Some(Bytes::from_static(PRIMING)), None]);
    }
}
