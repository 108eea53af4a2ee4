//! `asasked serve`: the MCP server over stdio, or Streamable HTTP with
//! `--http`, until the client leaves or `shutdown` fires.

use std::future::Future;

use super::args::ServeArguments;
use super::{CommandError, Outcome, build_service};
use crate::extractors;
use crate::mcp::{self, CheckServer, HttpOptions};
use crate::principal::tokens::TokenFile;

/// The variable holding the bearer token HTTP clients must present.
pub const HTTP_TOKEN_VARIABLE: &str = "ASASKED_HTTP_TOKEN";

/// Serves until the session ends (stdio) or `shutdown` fires; every check in
/// flight has sealed its record when this returns.
pub fn serve(
    arguments: &ServeArguments,
    env: &dyn Fn(&str) -> Option<String>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<Outcome, CommandError> {
    let options = arguments.service.options();
    let token = env(HTTP_TOKEN_VARIABLE).filter(|token| !token.is_empty());
    // The named principals' tokens (`asasked tokens add`); the environment's
    // token, if any, stays the local principal's.
    let tokens = TokenFile::in_folder(&options.data_dir);
    // Refused before anything is opened: a public address without a token
    // never gets as far as opening the evidence log.
    if let Some(address) = arguments.http {
        mcp::check_bind_authenticated(address, token.is_some() || tokens.exists())?;
    }
    let service = build_service(&options, env)?;
    let names = service.extractor_names();
    let open_world = extractors::any_hosted(&names);
    let location = service.evidence_location();
    if open_world {
        eprintln!("asasked: checking with {} (evidence in {location})", names.join(", "));
    } else {
        eprintln!(
            "asasked: no hosted extractor configured; checking with {} (evidence in {location})",
            names.join(", ")
        );
    }
    // The secret that seals 2026-07-28 elicitation rounds, beside the
    // receipt keys (several instances behind one address share both).
    let secret = crate::receipt::keys::state_secret(&options.data_dir.join(super::keys::KEY_FOLDER))?;
    let rounds = mcp::rounds::Rounds::new(secret).map_err(|error| CommandError::RequestState(error.to_string()))?;
    let mut server = CheckServer::new(service, open_world).with_rounds(rounds);
    if !arguments.pay_origin.is_empty() {
        // Each origin canonical (`https://shop.example`), as a profile states it.
        let origins = arguments
            .pay_origin
            .iter()
            .map(|origin| crate::pay::profile::origin_of(origin).map_err(crate::pay::PayError::from))
            .collect::<Result<Vec<_>, _>>()?;
        let ledger = crate::pay::ledger::PayLedger::open(&options.data_dir)?;
        server = server.with_payer(crate::pay::Payer::new(ledger, crate::pay::Approval::Origins(origins))?);
    }
    // Redemptions are recorded beside the evidence: in the data folder's
    // ledger, or in the PostgreSQL database every instance shares.
    let ledger = super::redemption_ledger(&options, env)?;
    // Several threads, so HTTP sessions and checks run side by side.
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(CommandError::Runtime)?;
    let served = match arguments.http {
        None => runtime
            .block_on(mcp::serve_stdio(server, (tokio::io::stdin(), tokio::io::stdout()), shutdown))
            .map_err(CommandError::from),
        Some(address) => runtime.block_on(async {
            let listener = tokio::net::TcpListener::bind(address)
                .await
                .map_err(|source| CommandError::Listen { address, source })?;
            let bound = listener.local_addr().map_err(|source| CommandError::Listen { address, source })?;
            eprintln!("asasked: serving MCP at http://{bound}{}", mcp::HTTP_PATH);
            let http_options = HttpOptions {
                token,
                tokens: Some(tokens),
                ledger: Some(ledger),
                // At most 65536 (the flag's range): fits any usize.
                max_sessions: usize::try_from(arguments.max_sessions).unwrap_or(usize::MAX),
                session_idle_timeout: std::time::Duration::from_secs(arguments.session_idle_timeout),
                ..HttpOptions::default()
            };
            Ok(mcp::serve_http(server, listener, http_options, shutdown).await?)
        }),
    };
    // Tokio reads stdin on a blocking thread that nothing can cancel, and
    // dropping the runtime waits for it: after SIGTERM an idle stdio server
    // hung until its client sent a byte or closed stdin. Every check has
    // sealed by now (both serve functions wait).
    runtime.shutdown_background();
    served.map(|()| Outcome::Clear)
}

/// Resolves on Ctrl-C or SIGTERM: the shutdown the binary passes to
/// [`serve`].
pub async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
}
