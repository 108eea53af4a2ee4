//! The `asasked` binary: parses arguments, starts logging on stderr, runs the
//! library, maps results to exit codes. Stdout carries only results.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};

use asasked::sandbox::command::{self, CompareCommand, ReplayCommand};
use asasked::sandbox::dataset::SplitFilter;
use asasked::sandbox::registry;
use asasked::sandbox::replay::Agent;
use asasked::{cli, decision};

#[derive(Parser)]
#[command(name = "asasked", version, about = "A pre-checkout guard for AI shopping agents")]
struct Arguments {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check a cart against intent facts: prints the decision, reasons, notes and question.
    /// Exit status: 0 proceed, 1 ask, 2 error.
    Check {
        /// Intent facts (JSON, guard.md §3).
        #[arg(long)]
        facts: PathBuf,
        /// The cart (JSON list of {item, quantity} or flat items).
        #[arg(long)]
        cart: PathBuf,
        /// Items the person's mandate allows, for the price check (JSON list).
        #[arg(long)]
        allowed: Option<PathBuf>,
        /// Print the full result as JSON.
        #[arg(long)]
        json: bool,
    },
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

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
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
        Command::Check { facts, cart, allowed, json } => {
            let facts = cli::read_facts(&facts)?;
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
    match name {
        "rules" => {
            let catalog = asasked::catalog::Catalog::embedded().ok()?;
            Some(std::sync::Arc::new(asasked::extract::rules::RulesExtractor::for_catalog(&catalog)))
        }
        _ => registry::no_fallback(name),
    }
}

/// One thread is enough: offline extractors are instant, and hosted ones
/// wait on the network, not the CPU.
fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread().enable_all().build().context("cannot start the async runtime")
}
