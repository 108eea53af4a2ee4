//! The command line as clap parses it: one struct per subcommand, each the
//! input of its `cli::<command>` function. Names are parsed here, once, so a
//! malformed extractor name or `--pair` is a usage error before any work.
//!
//! The `///` comments on fields and variants are the `--help` text.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::extract::merge::MergePolicy;
use crate::extract::name::{ExtractorName, NameError, parse_list};
use crate::extractors;
use crate::mcp;
use crate::messages::Language;
use crate::sandbox::compare::Pair;
use crate::sandbox::dataset::SplitFilter;
use crate::sandbox::replay::Agent;

use super::{CatalogChoice, ServiceOptions, StoreChoice, default_data_dir};

#[derive(Parser)]
#[command(name = "asasked", version, about = "A pre-checkout guard for AI shopping agents")]
pub struct Arguments {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Check a cart against intent facts (--facts) or against the person's words
    /// (--request, extracted and sealed as evidence): prints the decision,
    /// reasons, notes and question. Exit status: 0 proceed, 1 ask, 2 error.
    Check(CheckArguments),
    /// Serve the check_order MCP tool over stdio (default) or Streamable HTTP.
    Serve(ServeArguments),
    /// Inspect the sealed evidence log (or the evidence database, --store).
    Evidence(EvidenceArguments),
    /// Set up the PostgreSQL store several instances share: apply its schema
    /// migrations, or import an existing evidence log into it.
    Store(StoreArguments),
    /// Extract facts from a request: prints each extractor's facts and the
    /// merged facts with `disputed`. Exit status: 0, or 1 if the check would
    /// fail closed.
    Extract(ExtractArguments),
    /// Print the JSON Schema extractors are held to (extractors/facts.schema.json).
    Schema,
    /// Run conformance case files (shared/conformance/FORMAT.md).
    /// Exit status: 0 if every case passed.
    Conform(ConformArguments),
    /// Replay a labelled dataset: simulated agents buy with the guard off and
    /// enforced; prints the guard.md §10 figures.
    Replay(ReplayArguments),
    /// Compare extractors and extractor pairs on a labelled dataset: per-field
    /// accuracy, disputes, decision effects; writes tables and an SVG chart.
    Compare(CompareArguments),
    /// Print the public keys that verify receipts (a JWKS), creating the
    /// first key if there is none; --rotate signs with a new key from now on.
    Keys(KeysArguments),
    /// Verify a receipt (what a merchant or gateway runs before taking a
    /// payment): prints valid, expired, cart_changed, unknown_key,
    /// bad_signature or malformed. Exit status: 0 valid, 1 otherwise, 2 error.
    Verify(VerifyArguments),
    /// Manage the bearer tokens of HTTP principals (stored hashed in the
    /// data folder): `add NAME` prints a new token once, `list`, `revoke ID`.
    /// While any token exists, `serve --http` admits only live tokens (and
    /// ASASKED_HTTP_TOKEN, the local principal's).
    Tokens(TokensArguments),
    /// Check the cart, then pay at most once through a payment service's
    /// Agentic Action Profile (--profile, --action, --input): on ask nothing
    /// is paid and the question is printed; on proceed the payment is
    /// recorded in the data folder before it is sent, submitted once,
    /// reconciled through the service's status and verified. Running it
    /// again with the same arguments never pays again: it only reads the
    /// status (as --reconcile REQUEST_ID does). Prints the result as JSON.
    /// Exit status: 0 paid (succeeded), 1 ask or not paid (failed, pending,
    /// unknown), 2 error.
    Pay(PayArguments),
}

#[derive(clap::Args)]
pub struct PayArguments {
    /// The person's request, verbatim (as `check --request`; `@FILE` reads a JSON file).
    #[arg(long, required_unless_present = "reconcile")]
    pub request: Option<String>,
    /// The cart (as `check --cart`).
    #[arg(long, required_unless_present = "reconcile")]
    pub cart: Option<PathBuf>,
    /// Items the person's mandate allows, for the price check (JSON list).
    #[arg(long)]
    pub allowed: Option<PathBuf>,
    /// Today's date (ISO or "Monday, 2 November 2026"); default: the current date.
    #[arg(long)]
    pub today: Option<String>,
    /// The person's answers to the previous check: JSON list of {finding_id, reply}.
    #[arg(long, requires = "previous_record_id")]
    pub answers: Option<PathBuf>,
    /// The record this check supersedes.
    #[arg(long)]
    pub previous_record_id: Option<String>,
    /// The language of the reasons and the question: en or ru.
    #[arg(long, value_name = "LANG")]
    pub language: Option<Language>,
    /// The URL of the payment service's Agentic Action Profile (agentic.json).
    #[arg(long, value_name = "URL", required_unless_present = "reconcile")]
    pub profile: Option<String>,
    /// The profile's action to run (its `actions[].id`).
    #[arg(long, value_name = "ID", required_unless_present = "reconcile")]
    pub action: Option<String>,
    /// The payment input: a JSON file holding the exact object to submit.
    /// Its amount must be the checked cart's total.
    #[arg(long, value_name = "FILE", required_unless_present = "reconcile")]
    pub input: Option<PathBuf>,
    /// JSON Pointer to the amount in the input.
    #[arg(long, value_name = "POINTER", default_value = crate::pay::DEFAULT_AMOUNT_POINTER)]
    pub amount_pointer: String,
    /// How the amount is written: decimal ("139.99") or minor (13999).
    #[arg(long, value_name = "UNIT", default_value = "decimal", value_parser = ["decimal", "minor"])]
    pub amount_unit: String,
    /// JSON Pointer to the currency in the input, which must then be there
    /// (default: /currency, checked when present).
    #[arg(long, value_name = "POINTER")]
    pub currency_pointer: Option<String>,
    /// Reconcile the payment request REQUEST_ID, read-only: its saved receipt
    /// if settled, else the service's status and resource. Never submits.
    #[arg(long, value_name = "REQUEST_ID",
          conflicts_with_all = ["request", "cart", "profile", "action", "input", "answers", "previous_record_id", "allowed"])]
    pub reconcile: Option<String>,
    #[command(flatten)]
    pub service: ServiceArguments,
}

#[derive(clap::Args)]
pub struct TokensArguments {
    #[command(subcommand)]
    pub command: TokensCommand,
    /// The data folder whose `tokens.json` to change (default: the platform data directory).
    #[arg(long, global = true)]
    pub data_dir: Option<PathBuf>,
}

#[derive(Subcommand)]
pub enum TokensCommand {
    /// Add a token for the principal NAME (a-z, 0-9, '-', '_'): prints the
    /// token, once. A principal may hold several tokens.
    Add {
        #[arg(value_name = "NAME")]
        principal: String,
    },
    /// List every token: id, principal, when added, live or revoked.
    List,
    /// Revoke the token ID (as `list` shows it): refused from the next request on.
    Revoke {
        #[arg(value_name = "ID")]
        id: String,
    },
}

#[derive(clap::Args)]
pub struct CheckArguments {
    /// Intent facts (JSON, guard.md §3).
    #[arg(long, conflicts_with = "request", required_unless_present = "request")]
    pub facts: Option<PathBuf>,
    /// The person's request, verbatim: extract facts and seal the check.
    /// `@FILE` reads it from a JSON file: a string, or an AP2 IntentMandate
    /// or `{text, mandates}` with AP2 v0.2 open mandates (`@@…` is a request
    /// that begins with `@`).
    #[arg(long)]
    pub request: Option<String>,
    /// The cart: a JSON list of {item, quantity}, flat items or {id,
    /// quantity}, or a UCP checkout, an ACP CheckoutSession or an AP2
    /// CartMandate object.
    #[arg(long)]
    pub cart: PathBuf,
    #[command(flatten)]
    pub checked: CheckedOptions,
    /// Items the person's mandate allows, for the price check (JSON list).
    #[arg(long)]
    pub allowed: Option<PathBuf>,
    /// Print the full result as JSON.
    #[arg(long)]
    pub json: bool,
    /// The language of the reasons and the question: en or ru. Default: the
    /// request's own (Russian when at least a quarter of its letters are
    /// Cyrillic); English with --facts.
    #[arg(long, value_name = "LANG")]
    pub language: Option<Language>,
}

/// Options of `check --request`.
#[derive(clap::Args)]
pub struct CheckedOptions {
    /// Today's date (ISO or "Monday, 2 November 2026"); default: the current date.
    #[arg(long, requires = "request")]
    pub today: Option<String>,
    /// The person's answers to the previous check: JSON list of {finding_id, reply}.
    #[arg(long, requires = "previous_record_id")]
    pub answers: Option<PathBuf>,
    /// The record this check supersedes.
    #[arg(long, requires = "request")]
    pub previous_record_id: Option<String>,
    /// Also print the ACF v0.1 verdict object (implies --json).
    #[arg(long, value_parser = ["acf-v0.1"], requires = "request")]
    pub format: Option<String>,
    #[command(flatten)]
    pub service: ServiceArguments,
}

#[derive(clap::Args)]
pub struct ServeArguments {
    /// Listen for Streamable HTTP at ADDR (path /mcp), e.g. 127.0.0.1:8750
    /// or localhost:8750. A non-loopback address needs ASASKED_HTTP_TOKEN,
    /// then required as bearer token.
    #[arg(long, value_name = "ADDR", value_parser = listen_address)]
    pub http: Option<SocketAddr>,
    /// With --http: MCP sessions open at once; past it, a new session gets
    /// 503 until one is deleted or expires.
    #[arg(long, value_name = "N", requires = "http", default_value_t = mcp::DEFAULT_MAX_SESSIONS as u64,
          value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub max_sessions: u64,
    /// With --http: seconds a session may go without a message before it
    /// is closed and its slot freed.
    #[arg(long, value_name = "SECONDS", requires = "http",
          default_value_t = mcp::DEFAULT_SESSION_IDLE_TIMEOUT.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..=86400))]
    pub session_idle_timeout: u64,
    /// Offer the pay_order tool, paying only this origin
    /// (`https://shop.example`; `http` only on localhost): repeatable. The
    /// payment ledger is the data folder's.
    #[arg(long, value_name = "ORIGIN")]
    pub pay_origin: Vec<String>,
    #[command(flatten)]
    pub service: ServiceArguments,
}

#[derive(clap::Args)]
pub struct VerifyArguments {
    /// The receipt (`receipt` of a proceed).
    pub token: String,
    /// The cart about to be paid (the shape sent to check_order): the receipt
    /// must be for exactly this cart. Without it only the signature and
    /// expiry are checked.
    #[arg(long)]
    pub cart: Option<PathBuf>,
    /// The public keys (a JWKS, as `asasked keys` prints it); default: the
    /// keys in the data dir.
    #[arg(long, conflicts_with = "data_dir")]
    pub jwks: Option<PathBuf>,
    /// Where the signing keys live, under `keys/` (default: the platform data directory).
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// Catalog folder that `{id, quantity}` cart entries refer to, `embedded` or `none`.
    #[arg(long, default_value = "embedded")]
    pub catalog: String,
    /// The `today` the check was made with (ISO), when it was given: a UCP or
    /// ACP checkout's delivery days are counted from it. Default: today's date.
    #[arg(long)]
    pub today: Option<String>,
}

#[derive(clap::Args)]
pub struct KeysArguments {
    /// Where the keys live, under `keys/` (default: the platform data directory).
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// Add a new key and sign with it from now on.
    #[arg(long)]
    pub rotate: bool,
}

#[derive(clap::Args)]
pub struct EvidenceArguments {
    #[command(subcommand)]
    pub command: EvidenceCommand,
    /// Where evidence is sealed (default: the platform data directory).
    #[arg(long, global = true)]
    pub data_dir: Option<PathBuf>,
    /// Read the evidence of a PostgreSQL database (`postgres://…`; default:
    /// $ASASKED_DATABASE_URL, else the log in --data-dir).
    #[arg(long, global = true, value_name = "URL", value_parser = store_choice)]
    pub store: Option<StoreChoice>,
}

#[derive(clap::Args)]
pub struct StoreArguments {
    #[command(subcommand)]
    pub command: StoreCommand,
    /// The database (`postgres://user@host:port/database`; default: $ASASKED_DATABASE_URL).
    #[arg(long, global = true, value_name = "URL", value_parser = store_choice)]
    pub store: Option<StoreChoice>,
}

#[derive(Subcommand)]
pub enum StoreCommand {
    /// Create or upgrade the database's schema (versioned migrations embedded
    /// in this binary); safe to run again and from several machines.
    Migrate,
    /// Copy the evidence log of DATA_DIR into an empty, migrated database,
    /// line for line, then verify the database's chain against the log's head.
    Import {
        /// The data folder whose evidence.jsonl is imported.
        data_dir: PathBuf,
    },
}

#[derive(Subcommand)]
pub enum EvidenceCommand {
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

#[derive(clap::Args)]
pub struct ExtractArguments {
    /// The person's request, verbatim.
    #[arg(long)]
    pub request: String,
    /// Today's date (ISO or "Monday, 2 November 2026"); default: the current date.
    #[arg(long)]
    pub today: Option<String>,
    #[command(flatten)]
    pub extractors: ExtractorArguments,
    /// Print the whole outcome as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct ConformArguments {
    /// Case files or folders.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// One JSON line per case.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct ReplayArguments {
    /// Dataset folder (holding tasks.jsonl) or tasks file.
    pub dataset: PathBuf,
    /// naive (first search result) or careful (right cart with --p-right).
    #[arg(long, default_value = "naive")]
    pub agent: Agent,
    /// Comma-separated extractor names: gold, noisy:SEED:RATE, ...
    #[arg(long, default_value = "gold", value_parser = extractor_list)]
    pub extractors: ExtractorList,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// For the careful agent: the probability of buying a right cart.
    #[arg(long, default_value_t = 0.9)]
    pub p_right: f64,
    /// open, heldout or all.
    #[arg(long, default_value = "all")]
    pub split: SplitFilter,
    /// Catalog folder; the catalog built into the binary by default.
    #[arg(long)]
    pub catalog: Option<PathBuf>,
    /// Print the whole run as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write a Markdown report with per-code and per-category tables.
    #[arg(long)]
    pub report: Option<PathBuf>,
}

#[derive(clap::Args)]
pub struct CompareArguments {
    /// Dataset folder (holding tasks.jsonl) or tasks file.
    pub dataset: PathBuf,
    /// Two comma-separated extractor names; repeat for more pairs.
    #[arg(long = "pair", required = true, value_parser = Pair::parse)]
    pub pairs: Vec<Pair>,
    /// open, heldout or all.
    #[arg(long, default_value = "all")]
    pub split: SplitFilter,
    /// Catalog folder; the catalog built into the binary by default.
    #[arg(long)]
    pub catalog: Option<PathBuf>,
    /// Folder for compare.md, compare.svg and compare.json.
    #[arg(long, default_value = "reports/compare")]
    pub out: PathBuf,
    /// Print the comparison as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct ServiceArguments {
    /// Where evidence is sealed (default: the platform data directory); with
    /// a PostgreSQL --store, where this instance keeps its receipt keys.
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// Where evidence, record lookups and the facts cache live: `embedded`
    /// (the log in --data-dir and an in-memory cache, the default) or a
    /// PostgreSQL database shared by several instances (`postgres://…`,
    /// migrated with `asasked store migrate`). Default: $ASASKED_DATABASE_URL
    /// if set, else `embedded`.
    #[arg(long, value_name = "URL", value_parser = store_choice)]
    pub store: Option<StoreChoice>,
    /// Catalog for {id, quantity} cart entries: a folder, `embedded` (the sandbox) or `none`.
    #[arg(long, default_value = "embedded")]
    pub catalog: String,
    #[command(flatten)]
    pub extractors: ExtractorArguments,
    /// Minutes a verdict may be acted on (the conformity object's expires_at).
    #[arg(long, default_value_t = crate::service::DEFAULT_VALIDITY_MINUTES, value_parser = clap::value_parser!(i64).range(1..=1440))]
    pub validity_minutes: i64,
    /// An exchange rate you hold, with the day it was quoted:
    /// FROM:TO=RATE@DATE (`USD:EUR=0.92@2026-11-01`: one USD is 0.92 EUR),
    /// repeatable. A spending limit in one currency is compared with a cart
    /// in another only through a rate given here or in a call's `fx`
    /// (which replaces these); none is ever fetched.
    #[arg(long, value_name = "FROM:TO=RATE@DATE", value_parser = exchange_rate)]
    pub fx: Vec<crate::cart::ExchangeRate>,
}

fn exchange_rate(text: &str) -> Result<crate::cart::ExchangeRate, String> {
    crate::cart::ExchangeRate::parse_spec(text, "--fx").map_err(|error| error.message)
}

impl ServiceArguments {
    pub fn options(&self) -> ServiceOptions {
        ServiceOptions {
            data_dir: self.data_dir.clone().unwrap_or_else(default_data_dir),
            store: self.store.clone(),
            catalog: CatalogChoice::parse(&self.catalog),
            extractors: self.extractors.choice(),
            validity: chrono::Duration::minutes(self.validity_minutes),
            rates: self.fx.clone(),
        }
    }
}

/// Which extractors run.
#[derive(clap::Args)]
pub struct ExtractorArguments {
    /// Extractors, comma-separated: rules, replay:DIR, or a name from the
    /// extractors config (default: a hosted provider whose key is set, plus
    /// rules; rules alone with no key).
    #[arg(long, value_parser = extractor_list)]
    pub extractors: Vec<ExtractorList>,
    /// The extractors config (default: the shipped extractors/extractors.toml).
    #[arg(long, value_name = "PATH")]
    pub extractors_config: Option<PathBuf>,
    /// Save every extractor's raw output under `DIR/<extractor>/` for replay.
    #[arg(long, value_name = "DIR")]
    pub record: Option<PathBuf>,
    /// Merge policy: grounded (default: only values the request's words
    /// support, docs/semantics.md) or spec (guard.md §4.2 exactly). Overrides
    /// `merge` in the extractors config.
    #[arg(long, value_parser = merge_policy)]
    pub merge: Option<MergePolicy>,
}

fn merge_policy(text: &str) -> Result<MergePolicy, String> {
    MergePolicy::parse(text).ok_or_else(|| format!("{text:?} is neither spec nor grounded"))
}

impl ExtractorArguments {
    /// The names given (a repeated `--extractors` adds to the list), or
    /// `None` for the defaults.
    pub fn choice(&self) -> extractors::Choice {
        let names: Vec<ExtractorName> = self.extractors.iter().flat_map(|list| list.0.iter().cloned()).collect();
        extractors::Choice {
            names: (!names.is_empty()).then_some(names),
            config: self.extractors_config.clone(),
            record: self.record.clone(),
            merge: self.merge,
        }
    }
}

/// One `--extractors a,b` value.
#[derive(Debug, Clone)]
pub struct ExtractorList(pub Vec<ExtractorName>);

fn extractor_list(text: &str) -> Result<ExtractorList, NameError> {
    parse_list(text).map(ExtractorList)
}

/// An address to listen on: `IP:PORT`, or `localhost:PORT` as 127.0.0.1.
/// No name is resolved: `localhost` is the only name people type here, and
/// a lookup could bind an address the person did not mean.
fn store_choice(text: &str) -> Result<StoreChoice, String> {
    StoreChoice::parse(text)
}

fn listen_address(text: &str) -> Result<SocketAddr, String> {
    if let Ok(address) = text.parse::<SocketAddr>() {
        return Ok(address);
    }
    let port = text
        .rsplit_once(':')
        .filter(|(host, _)| host.eq_ignore_ascii_case("localhost"))
        .map(|(_, port)| port.parse::<u16>())
        .ok_or_else(|| format!("{text:?} is not IP:PORT or localhost:PORT (e.g. 127.0.0.1:8750)"))?
        .map_err(|error| format!("port of {text:?}: {error}"))?;
    Ok(SocketAddr::from(([127, 0, 0, 1], port)))
}

#[cfg(test)]
mod tests {
    use super::listen_address;

    #[test]
    fn localhost_is_the_loopback_address_and_other_names_are_refused() {
        assert_eq!(listen_address("localhost:8750").unwrap().to_string(), "127.0.0.1:8750");
        assert_eq!(listen_address("LOCALHOST:0").unwrap().to_string(), "127.0.0.1:0");
        assert_eq!(listen_address("[::1]:8750").unwrap().to_string(), "[::1]:8750");
        assert!(listen_address("example.com:8750").unwrap_err().contains("localhost:PORT"));
        assert!(listen_address("localhost:99999").unwrap_err().contains("port"));
    }
}
