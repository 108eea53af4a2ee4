//! The `asasked` binary: parses arguments, starts logging on stderr, runs
//! one `asasked::cli` command and maps its outcome to the exit status (0
//! clear, 1 flagged, 2 error). Stdout carries only results.

use std::process::ExitCode;

use clap::Parser;

use asasked::cli::{self, Arguments, Command, CommandError, Outcome};

/// mimalloc instead of glibc's malloc: reading words allocates a string or
/// a list per token, and glibc's `_int_malloc`, `free` and
/// `malloc_consolidate` took about a fifth of the CPU of a sealed check and
/// of `rules` extraction when sampled natively (`perf record`, issue 27 and
/// issue 31 §6 in docs/benchmarks.md). The library sets no allocator: that
/// is the binary's choice, and the benches that time library calls set the
/// same one (`benches/common/allocator.rs`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_env("ASASKED_LOG").unwrap_or_else(|_| "warn".into()))
        .init();
    match run(Arguments::parse().command) {
        Ok(Outcome::Clear) => ExitCode::SUCCESS,
        Ok(Outcome::Flagged) => ExitCode::from(1),
        Err(error) => {
            let error = anyhow::Error::from(error);
            // A reader that stopped early (`asasked … | head`) is not an error.
            if is_broken_pipe(&error) {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {}", message(&error));
            ExitCode::from(2)
        }
    }
}

/// The library never reads the environment; this is the lookup it is given.
fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

fn run(command: Command) -> Result<Outcome, CommandError> {
    // Each command locks stdout for itself; `serve` must not, because its
    // stdio transport writes stdout from tokio's blocking pool.
    let stdout = std::io::stdout;
    match command {
        Command::Check(arguments) => cli::check(&arguments, &process_env, &mut stdout().lock()),
        Command::Serve(arguments) => cli::serve(&arguments, &process_env, cli::shutdown_signal()),
        Command::Evidence(arguments) => cli::evidence(&arguments, &process_env, &mut stdout().lock()),
        Command::Store(arguments) => cli::store(&arguments, &process_env, &mut stdout().lock()),
        Command::Extract(arguments) => cli::extract(&arguments, &process_env, &mut stdout().lock()),
        Command::Schema => cli::schema(&mut stdout().lock()),
        Command::Conform(arguments) => cli::conform(&arguments, &mut stdout().lock()),
        Command::Replay(arguments) => cli::replay(&arguments, &process_env, &mut stdout().lock()),
        Command::Compare(arguments) => cli::compare(&arguments, &process_env, &mut stdout().lock()),
        Command::Keys(arguments) => cli::keys(&arguments, &mut stdout().lock()),
        Command::Verify(arguments) => cli::verify(&arguments, &mut stdout().lock()),
        Command::Pay(arguments) => cli::pay(&arguments, &process_env, &mut stdout().lock()),
        Command::Tokens(arguments) => {
            let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
            cli::tokens(&arguments, &now, &mut stdout().lock())
        }
    }
}

/// The error and its causes, each said once: many errors already put their
/// source in their own text (`cannot read PATH: No such file…`), and
/// anyhow's `{:#}` would repeat it.
fn message(error: &anyhow::Error) -> String {
    let mut text = error.to_string();
    for cause in error.chain().skip(1) {
        let cause = cause.to_string();
        if !text.contains(&cause) {
            text.push_str(": ");
            text.push_str(&cause);
        }
    }
    text
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            || cause
                .downcast_ref::<serde_json::Error>()
                .is_some_and(|json| json.io_error_kind() == Some(std::io::ErrorKind::BrokenPipe))
    })
}
