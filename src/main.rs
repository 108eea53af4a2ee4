//! The `asasked` binary: parses arguments, starts logging on stderr, runs the
//! library, maps results to exit codes. Stdout carries only results.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};

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
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_env("ASASKED_LOG").unwrap_or_else(|_| "warn".into()))
        .init();
    match run(Arguments::parse()) {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(2)
        }
    }
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
            let all_passed =
                cli::conform(&mut out, &paths, json).map_err(|error| anyhow::anyhow!(error)).context("conform")?;
            Ok(if all_passed { 0 } else { 1 })
        }
    }
}
