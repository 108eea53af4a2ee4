//! MCP over a byte stream pair (stdin/stdout, or a pipe in tests): one
//! session per process, a bound on line length, and an end when the client
//! stops reading replies.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use rmcp::ServiceExt;
use rmcp::transport::async_rw::AsyncRwTransport;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_util::sync::CancellationToken;

use super::{CheckServer, ServeError};

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
    let service = server.service().clone();
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
