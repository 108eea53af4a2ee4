//! The `asasked` binary: parses arguments, starts logging on stderr, runs the
//! library, maps results to exit codes. Stdout carries only results.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};

use asasked::cli::{self, CatalogChoice, ServiceOptions};
use asasked::sandbox::command::{self, CompareCommand, ReplayCommand};
use asasked::sandbox::dataset::SplitFilter;
use asasked::sandbox::registry;
use asasked::sandbox::replay::Agent;
use asasked::service::{Answer, CheckError, CheckRequest, Format};
use asasked::{decision, evidence, extractors, mcp};

#[derive(Parser)]
#[command(name = "asasked", version, about = "A pre-checkout guard for AI shopping agents")]
struct Arguments {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check a cart against intent facts (--facts) or against the person's words
    /// (--request, extracted and sealed as evidence): prints the decision,
    /// reasons, notes and question. Exit status: 0 proceed, 1 ask, 2 error.
    Check {
        /// Intent facts (JSON, guard.md §3).
        #[arg(long, conflicts_with = "request", required_unless_present = "request")]
        facts: Option<PathBuf>,
        /// The person's request, verbatim: extract facts and seal the check.
        #[arg(long)]
        request: Option<String>,
        /// The cart (JSON list of {item, quantity}, flat items or {id, quantity}).
        #[arg(long)]
        cart: PathBuf,
        #[command(flatten)]
        checked: CheckedOptions,
        /// Items the person's mandate allows, for the price check (JSON list).
        #[arg(long)]
        allowed: Option<PathBuf>,
        /// Print the full result as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Serve the check_order MCP tool over stdio (default) or Streamable HTTP.
    Serve {
        /// Listen for Streamable HTTP at ADDR (path /mcp), e.g. 127.0.0.1:8750.
        /// A non-loopback address needs ASASKED_HTTP_TOKEN, then required as bearer token.
        #[arg(long, value_name = "ADDR")]
        http: Option<std::net::SocketAddr>,
        /// With --http: MCP sessions open at once; past it, a new session gets
        /// 503 until one is deleted or expires.
        #[arg(long, value_name = "N", requires = "http", default_value_t = mcp::DEFAULT_MAX_SESSIONS as u64,
              value_parser = clap::value_parser!(u64).range(1..=65536))]
        max_sessions: u64,
        /// With --http: seconds a session may go without a message before it
        /// is closed and its slot freed.
        #[arg(long, value_name = "SECONDS", requires = "http",
              default_value_t = mcp::DEFAULT_SESSION_IDLE_TIMEOUT.as_secs(),
              value_parser = clap::value_parser!(u64).range(1..=86400))]
        session_idle_timeout: u64,
        #[command(flatten)]
        service: ServiceArguments,
    },
    /// Inspect the sealed evidence log.
    Evidence {
        #[command(subcommand)]
        command: EvidenceCommand,
        /// Where evidence is sealed (default: the platform data directory).
        #[arg(long, global = true)]
        data_dir: Option<PathBuf>,
    },
    /// Extract facts from a request: prints each extractor's facts and the
    /// merged facts with `disputed`. Exit status: 0, or 1 if the check would
    /// fail closed.
    Extract {
        /// The person's request, verbatim.
        #[arg(long)]
        request: String,
        /// Today's date (ISO or "Monday, 2 November 2026"); default: the current date.
        #[arg(long)]
        today: Option<String>,
        #[command(flatten)]
        extractors: ExtractorArguments,
        /// Print the whole outcome as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print the JSON Schema extractors are held to (extractors/facts.schema.json).
    Schema,
    /// Run conformance case files (shared/conformance/FORMAT.md).
    /// Exit status: 0 if every case passed.
    Conform {
        /// Case files or folders.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// One JSON line per case.
        #[arg(long)]
        json: bool,
    },
    /// Replay a labelled dataset: simulated agents buy with the guard off and
    /// enforced; prints the guard.md §10 figures.
    Replay(ReplayArguments),
    /// Compare extractors and extractor pairs on a labelled dataset: per-field
    /// accuracy, disputes, decision effects; writes tables and an SVG chart.
    Compare(CompareArguments),
}

#[derive(clap::Args)]
struct ReplayArguments {
    /// Dataset folder (holding tasks.jsonl) or tasks file.
    dataset: PathBuf,
    /// naive (first search result) or careful (right cart with --p-right).
    #[arg(long, default_value = "naive")]
    agent: Agent,
    /// Comma-separated extractor names: gold, noisy:SEED:RATE, ...
    #[arg(long, default_value = "gold")]
    extractors: String,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// For the careful agent: the probability of buying a right cart.
    #[arg(long, default_value_t = 0.9)]
    p_right: f64,
    /// open, heldout or all.
    #[arg(long, default_value = "all")]
    split: SplitFilter,
    /// Catalog folder; the catalog built into the binary by default.
    #[arg(long)]
    catalog: Option<PathBuf>,
    /// Print the whole run as JSON.
    #[arg(long)]
    json: bool,
    /// Write a Markdown report with per-code and per-category tables.
    #[arg(long)]
    report: Option<PathBuf>,
}

#[derive(clap::Args)]
struct CompareArguments {
    /// Dataset folder (holding tasks.jsonl) or tasks file.
    dataset: PathBuf,
    /// Two comma-separated extractor names; repeat for more pairs.
    #[arg(long = "pair", required = true)]
    pairs: Vec<String>,
    /// open, heldout or all.
    #[arg(long, default_value = "all")]
    split: SplitFilter,
    /// Catalog folder; the catalog built into the binary by default.
    #[arg(long)]
    catalog: Option<PathBuf>,
    /// Folder for compare.md, compare.svg and compare.json.
    #[arg(long, default_value = "reports/compare")]
    out: PathBuf,
    /// Print the comparison as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
struct ServiceArguments {
    /// Where evidence is sealed (default: the platform data directory).
    #[arg(long)]
    data_dir: Option<PathBuf>,
    /// Catalog for {id, quantity} cart entries: a folder, `embedded` (the sandbox) or `none`.
    #[arg(long, default_value = "embedded")]
    catalog: String,
    #[command(flatten)]
    extractors: ExtractorArguments,
    /// Minutes a verdict may be acted on (the conformity object's expires_at).
    #[arg(long, default_value_t = asasked::service::DEFAULT_VALIDITY_MINUTES, value_parser = clap::value_parser!(i64).range(1..=1440))]
    validity_minutes: i64,
}

impl ServiceArguments {
    fn options(&self) -> ServiceOptions {
        ServiceOptions {
            data_dir: self.data_dir.clone().unwrap_or_else(cli::default_data_dir),
            catalog: CatalogChoice::parse(&self.catalog),
            extractors: self.extractors.choice(),
            validity: chrono::Duration::minutes(self.validity_minutes),
        }
    }
}

/// Which extractors run.
#[derive(clap::Args)]
struct ExtractorArguments {
    /// Extractors, comma-separated: rules, replay:DIR, or a name from the
    /// extractors config (default: a hosted provider whose key is set, plus
    /// rules; rules alone with no key).
    #[arg(long, value_delimiter = ',')]
    extractors: Option<Vec<String>>,
    /// The extractors config (default: the shipped extractors/extractors.toml).
    #[arg(long, value_name = "PATH")]
    extractors_config: Option<PathBuf>,
    /// Save every extractor's raw output under DIR/<extractor>/ for replay.
    #[arg(long, value_name = "DIR")]
    record: Option<PathBuf>,
}

impl ExtractorArguments {
    fn choice(&self) -> extractors::Choice {
        extractors::Choice {
            names: self.extractors.clone(),
            config: self.extractors_config.clone(),
            record: self.record.clone(),
        }
    }
}

/// Options of `check --request`.
#[derive(clap::Args)]
struct CheckedOptions {
    /// Today's date (ISO or "Monday, 2 November 2026"); default: the current date.
    #[arg(long, requires = "request")]
    today: Option<String>,
    /// The person's answers to the previous check: JSON list of {finding_id, reply}.
    #[arg(long, requires = "previous_record_id")]
    answers: Option<PathBuf>,
    /// The record this check supersedes.
    #[arg(long, requires = "request")]
    previous_record_id: Option<String>,
    /// Also print the ACF v0.1 verdict object (implies --json).
    #[arg(long, value_parser = ["acf-v0.1"], requires = "request")]
    format: Option<String>,
    #[command(flatten)]
    service: ServiceArguments,
}

#[derive(Subcommand)]
enum EvidenceCommand {
    /// Verify the whole hash chain; exit 1 and name the first broken record otherwise.
    Verify,
    /// Print one sealed record.
    Show { record_id: String },
    /// Print the attempt chain of a record as one dispute bundle.
    Export {
        record_id: String,
        /// Drop the request text, free-text answers, facts and extractor outputs; keep digests, codes, decisions.
        #[arg(long)]
        redact: bool,
    },
}

fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// Resolves on Ctrl-C or SIGTERM.
async fn shutdown_signal() {
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

/// The server's runtime: several threads, so HTTP sessions and checks run
/// side by side.
fn server_runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().context("cannot start the async runtime")
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_env("ASASKED_LOG").unwrap_or_else(|_| "warn".into()))
        .init();
    match run(Arguments::parse()) {
        Ok(code) => ExitCode::from(code),
        // A reader that stopped early (`asasked … | head`) is not an error.
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(2)
        }
    }
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            || cause
                .downcast_ref::<serde_json::Error>()
                .is_some_and(|json| json.io_error_kind() == Some(std::io::ErrorKind::BrokenPipe))
    })
}

fn run(arguments: Arguments) -> anyhow::Result<u8> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match arguments.command {
        Command::Check { facts: None, request: Some(request), cart, allowed, json, checked } => {
            let cart_value: serde_json::Value = serde_json::from_str(
                &std::fs::read_to_string(&cart).with_context(|| format!("--cart {}", cart.display()))?,
            )
            .with_context(|| format!("--cart {}", cart.display()))?;
            let cart = serde_json::from_value(cart_value).context("--cart: expected a list of objects")?;
            let allowed_items = match allowed {
                Some(path) => Some(
                    serde_json::from_str(&std::fs::read_to_string(&path)?)
                        .with_context(|| format!("--allowed {}", path.display()))?,
                ),
                None => None,
            };
            let answers: Vec<Answer> = match &checked.answers {
                Some(path) => serde_json::from_str(&std::fs::read_to_string(path)?)
                    .with_context(|| format!("--answers {}", path.display()))?,
                None => Vec::new(),
            };
            let arguments = CheckRequest {
                request,
                cart,
                answers,
                today: checked.today,
                allowed_items,
                previous_record_id: checked.previous_record_id,
                format: checked.format.as_ref().map(|_| Format::AcfV01),
            };
            let service = cli::build_service(&checked.service.options(), &process_env)?;
            let result = runtime()?.block_on(service.check_order(arguments)).map_err(|error| match error {
                CheckError::InvalidArgument { .. } => anyhow::anyhow!("invalid argument {error}"),
                other => anyhow::anyhow!(other),
            })?;
            if json || checked.format.is_some() {
                serde_json::to_writer_pretty(&mut out, &result)?;
                writeln!(out)?;
            } else {
                cli::print_check_result(&mut out, &result)?;
            }
            Ok(cli::exit_status(result.decision))
        }
        Command::Check { facts, cart, allowed, json, .. } => {
            let facts = cli::read_facts(&facts.context("--facts or --request is required")?)?;
            let cart = cli::read_cart(&cart)?;
            let allowed = match allowed {
                Some(path) => cli::read_items(&path)?,
                None => Vec::new(),
            };
            let verdict = decision::check(&facts, &cart, &allowed);
            if json {
                serde_json::to_writer_pretty(&mut out, &verdict)?;
                writeln!(out)?;
            } else {
                cli::print_verdict(&mut out, &verdict)?;
            }
            Ok(cli::exit_status(verdict.decision))
        }
        Command::Serve { http, max_sessions, session_idle_timeout, service } => {
            // The stdio transport writes stdout from tokio's blocking pool:
            // holding the lock here would stall every reply.
            drop(out);
            let options = service.options();
            let token = process_env("ASASKED_HTTP_TOKEN").filter(|token| !token.is_empty());
            if let Some(address) = http {
                mcp::check_bind(address, token.as_deref())?;
            }
            let server_service = cli::build_service(&options, &process_env)?;
            let names = server_service.extractor_names();
            let open_world = extractors::any_hosted(&names);
            if !open_world {
                eprintln!(
                    "asasked: no hosted extractor configured; checking with {} (evidence in {})",
                    names.join(", "),
                    options.data_dir.display()
                );
            } else {
                eprintln!("asasked: checking with {} (evidence in {})", names.join(", "), options.data_dir.display());
            }
            let server = mcp::CheckServer::new(server_service, open_world);
            let runtime = server_runtime()?;
            let served = match http {
                None => runtime
                    .block_on(mcp::serve_stdio(server, (tokio::io::stdin(), tokio::io::stdout()), shutdown_signal()))
                    .map_err(anyhow::Error::from),
                Some(address) => runtime.block_on(async {
                    let listener = tokio::net::TcpListener::bind(address)
                        .await
                        .with_context(|| format!("cannot listen on {address}"))?;
                    eprintln!("asasked: serving MCP at http://{}{}", listener.local_addr()?, mcp::HTTP_PATH);
                    let options = mcp::HttpOptions {
                        token,
                        // At most 65536 (the flag's range): fits any usize.
                        max_sessions: usize::try_from(max_sessions).unwrap_or(usize::MAX),
                        session_idle_timeout: std::time::Duration::from_secs(session_idle_timeout),
                        ..mcp::HttpOptions::default()
                    };
                    mcp::serve_http(server, listener, options, shutdown_signal()).await?;
                    anyhow::Ok(())
                }),
            };
            // Tokio reads stdin on a blocking thread that nothing can cancel,
            // and dropping the runtime waits for it: after SIGTERM an idle
            // stdio server hung until its client sent a byte or closed stdin.
            // Every check has sealed by now (both serve functions wait).
            runtime.shutdown_background();
            served?;
            Ok(0)
        }
        Command::Evidence { command, data_dir } => {
            let path = data_dir.unwrap_or_else(cli::default_data_dir).join(evidence::LOG_FILE);
            match command {
                EvidenceCommand::Verify => {
                    let report = evidence::verify_file(&path)?;
                    let verified = cli::print_verify(&mut out, &report)?;
                    let directory = path.parent().unwrap_or_else(|| std::path::Path::new("."));
                    cli::print_set_aside(&mut out, &evidence::set_aside_files(directory))?;
                    Ok(if verified { 0 } else { 1 })
                }
                EvidenceCommand::Show { record_id } => match evidence::show(&path, &record_id)? {
                    Some(record) => {
                        serde_json::to_writer_pretty(&mut out, &record)?;
                        writeln!(out)?;
                        Ok(0)
                    }
                    None => anyhow::bail!("no record {record_id} in {}", path.display()),
                },
                EvidenceCommand::Export { record_id, redact } => match evidence::export(&path, &record_id, redact)? {
                    Some(bundle) => {
                        serde_json::to_writer_pretty(&mut out, &bundle)?;
                        writeln!(out)?;
                        Ok(0)
                    }
                    None => anyhow::bail!("no record {record_id} in {}", path.display()),
                },
            }
        }
        Command::Extract { request, today, extractors: choice, json } => {
            let today = match today {
                Some(text) => asasked::today::parse(&text, "--today")?,
                None => chrono::Utc::now().date_naive(),
            };
            let set = extractors::build_choice(&choice.choice(), &process_env, None)?;
            let input = asasked::extract::ExtractInput { request, today, answers: Vec::new() };
            let outcome = runtime()?.block_on(set.extract(&input));
            if json {
                serde_json::to_writer_pretty(&mut out, &*outcome)?;
                writeln!(out)?;
            } else {
                cli::print_extraction(&mut out, &outcome)?;
            }
            Ok(if outcome.merged.is_ok() { 0 } else { 1 })
        }
        Command::Schema => {
            write!(out, "{}", asasked::extract::schema::facts_schema_text())?;
            Ok(0)
        }
        Command::Conform { paths, json } => {
            let all_passed = cli::conform(&mut out, &paths, json).context("conform")?;
            Ok(if all_passed { 0 } else { 1 })
        }
        Command::Replay(arguments) => {
            let replay = ReplayCommand {
                dataset: arguments.dataset,
                catalog: arguments.catalog,
                agent: arguments.agent,
                extractors: arguments.extractors,
                seed: arguments.seed,
                p_right: arguments.p_right,
                split: arguments.split,
                json: arguments.json,
                report: arguments.report,
            };
            runtime()?.block_on(command::replay(&replay, &extractor_fallback, &mut out)).context("replay")?;
            Ok(0)
        }
        Command::Compare(arguments) => {
            let compare = CompareCommand {
                dataset: arguments.dataset,
                catalog: arguments.catalog,
                pairs: arguments.pairs,
                split: arguments.split,
                out: arguments.out,
                json: arguments.json,
            };
            runtime()?.block_on(command::compare(&compare, &extractor_fallback, &mut out)).context("compare")?;
            Ok(0)
        }
    }
}

/// The extractors this build knows besides the sandbox's `gold` and
/// `noisy:SEED:RATE`: `rules`, `replay:DIR` and hosted providers plug in here.
fn extractor_fallback(name: &str) -> Option<std::sync::Arc<dyn asasked::extract::Extractor>> {
    let config = asasked::providers::config::ExtractorsConfig::default_config().ok()?;
    match extractors::build_list(&[name.to_owned()], &config, &process_env, None) {
        Ok(mut list) => list.pop(),
        Err(error) => {
            tracing::warn!(%error, "extractor {name}");
            registry::no_fallback(name)
        }
    }
}

/// One thread is enough: offline extractors are instant, and hosted ones
/// wait on the network, not the CPU.
fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread().enable_all().build().context("cannot start the async runtime")
}
