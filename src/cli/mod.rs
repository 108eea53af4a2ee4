//! The commands of the `asasked` binary, one function and one file each:
//! [`check()`], [`serve()`], [`evidence()`], [`extract()`], [`schema()`],
//! [`conform()`], [`replay()`], [`compare()`], [`keys()`], [`verify()`], [`store()`],
//! [`tokens()`], [`pay()`]. Each takes its parsed
//! [`args`], reads the files they name, runs the library, prints results for
//! people or machines and returns an [`Outcome`] or a [`CommandError`].
//!
//! `main.rs` parses arguments, starts logging, calls one of these and maps
//! the result to an exit status; nothing here exits the process or reads the
//! process environment (key and token variables arrive through `env`).

pub mod args;
mod check;
mod compare;
mod conform;
mod evidence;
mod extract;
mod keys;
mod pay;
mod replay;
mod sandbox;
mod schema;
mod serve;
mod store;
mod tokens;
mod verify;

use std::fs;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::cart::{Cart, Item, parse_item};
use crate::decision::Decision;
use crate::facts::Facts;

pub use args::{Arguments, Command};
pub use check::check;
pub use compare::compare;
pub use conform::{ConformRunError, conform};
pub use evidence::evidence;
pub use extract::extract;
pub use keys::keys;
pub use pay::pay;
pub use replay::replay;
pub use sandbox::SandboxError;
pub use schema::schema;
pub use serve::{HTTP_TOKEN_VARIABLE, serve, shutdown_signal};
pub use store::store;
pub use tokens::tokens;
pub use verify::verify;

/// How a command that ran to its end came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Exit status 0: proceed, a whole chain, every case passed, facts that
    /// merged, a server that stopped when asked.
    Clear,
    /// Exit status 1: the command worked and its answer is "not as it
    /// stands": ask, a broken chain, a failed case, an extraction that would
    /// fail the check closed.
    Flagged,
}

impl From<Decision> for Outcome {
    fn from(decision: Decision) -> Outcome {
        match decision {
            Decision::Proceed => Outcome::Clear,
            Decision::Ask => Outcome::Flagged,
        }
    }
}

/// Why a command could not finish (exit status 2). Output errors keep the
/// I/O error as their source, so that `main` can tell a reader that stopped
/// early (`asasked … | head`) from a real failure.
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    #[error(transparent)]
    Input(#[from] InputError),
    #[error(transparent)]
    Today(#[from] crate::today::TodayError),
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error(transparent)]
    Extractors(#[from] crate::extractors::BuildError),
    /// The check refused its arguments; the message names the argument.
    #[error("invalid argument {0}")]
    InvalidArgument(crate::service::CheckError),
    #[error(transparent)]
    Check(crate::service::CheckError),
    #[error(transparent)]
    Serve(#[from] crate::mcp::ServeError),
    #[error("cannot listen on {address}")]
    Listen { address: SocketAddr, source: std::io::Error },
    #[error(transparent)]
    Evidence(#[from] crate::evidence::StoreError),
    #[error(transparent)]
    Keys(#[from] crate::receipt::KeyError),
    #[error(transparent)]
    Tokens(#[from] crate::principal::tokens::TokenError),
    #[error(transparent)]
    Ledger(#[from] crate::redeem::LedgerError),
    /// The payment could not be run or continued; the message names the
    /// argument, the profile or the request.
    #[error(transparent)]
    Pay(#[from] crate::pay::PayError),
    #[error(transparent)]
    PayLedger(#[from] crate::pay::ledger::LedgerError),
    #[error("principal: {0}")]
    Principal(String),
    #[error("--data-dir: the request-state secret: {0}")]
    RequestState(String),
    #[error(transparent)]
    Export(#[from] crate::service::record::ExportError),
    #[error("no record {record_id} in {}", path.display())]
    NoRecord { record_id: String, path: PathBuf },
    /// A data folder that does not exist holds no evidence to read: most
    /// likely a mistyped `--data-dir`, which "0 records" would hide.
    #[error("no data folder {}: nothing was ever sealed there (check --data-dir)", .0.display())]
    NoDataDir(PathBuf),
    /// `store` needs a database: neither --store nor the variable named one.
    #[error("no database: pass --store postgres://user@host:port/database or set {0}")]
    NoDatabase(&'static str),
    #[error("store import")]
    Import(#[source] Box<crate::pg::ImportRefused>),
    #[error("conform")]
    Conform(#[source] ConformRunError),
    #[error("replay")]
    Replay(#[source] SandboxError),
    #[error("compare")]
    Compare(#[source] SandboxError),
    #[error("cannot start the async runtime")]
    Runtime(#[source] std::io::Error),
    #[error("cannot write the output")]
    Output(#[from] std::io::Error),
    #[error("cannot write the output")]
    Render(#[from] serde_json::Error),
}

/// Errors of the CLI's input files, naming the file (and the flag, for
/// `check --request`) and the field.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("cannot read {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("{path}: not JSON: {source}")]
    Json { path: PathBuf, source: serde_json::Error },
    #[error("{path}: {message}")]
    Invalid { path: PathBuf, message: String },
    #[error("{flag} {}", path.display())]
    FlagRead { flag: &'static str, path: PathBuf, source: std::io::Error },
    #[error("{flag} {}", path.display())]
    FlagJson { flag: &'static str, path: PathBuf, source: serde_json::Error },
    #[error("--facts or --request is required")]
    NothingToCheck,
}

fn read_json(path: &Path) -> Result<Value, InputError> {
    let text = fs::read_to_string(path).map_err(|source| InputError::Read { path: path.to_owned(), source })?;
    serde_json::from_str(&text).map_err(|source| InputError::Json { path: path.to_owned(), source })
}

/// Reads the JSON file a flag names into `T`; errors name the flag and file.
pub(super) fn read_flag_json<T: serde::de::DeserializeOwned>(flag: &'static str, path: &Path) -> Result<T, InputError> {
    let text =
        fs::read_to_string(path).map_err(|source| InputError::FlagRead { flag, path: path.to_owned(), source })?;
    serde_json::from_str(&text).map_err(|source| InputError::FlagJson { flag, path: path.to_owned(), source })
}

/// Reads and validates a facts file.
pub fn read_facts(path: &Path) -> Result<Facts, InputError> {
    let value = read_json(path)?;
    let invalid = |message: String| InputError::Invalid { path: path.to_owned(), message };
    Facts::from_value(value).map_err(|error| invalid(error.to_string()))
}

/// Reads a cart file: a list of entries in either item shape.
pub fn read_cart(path: &Path) -> Result<Cart, InputError> {
    let value = read_json(path)?;
    Cart::from_value_at(&value, "$.cart")
        .map_err(|error| InputError::Invalid { path: path.to_owned(), message: error.to_string() })
}

/// Reads a list of allowed items.
pub fn read_items(path: &Path) -> Result<Vec<Item>, InputError> {
    let value = read_json(path)?;
    let invalid = |message: String| InputError::Invalid { path: path.to_owned(), message };
    let list = value.as_array().ok_or_else(|| invalid("$: expected a list of items".into()))?;
    list.iter()
        .enumerate()
        .map(|(index, item)| {
            parse_item(item, &format!("$.allowed_items[{index}]")).map_err(|error| invalid(error.to_string()))
        })
        .collect()
}

/// What `check --request` and `serve` need to build a [`crate::service::Service`].
#[derive(Debug, Clone)]
pub struct ServiceOptions {
    /// Where evidence is sealed (and, whatever the store, the receipt keys).
    pub data_dir: PathBuf,
    /// `--store`, if given (else [`DATABASE_URL_VARIABLE`], else embedded).
    pub store: Option<StoreChoice>,
    /// A catalog folder, the embedded sandbox catalog, or none.
    pub catalog: CatalogChoice,
    /// Which extractors (`--extractors`, `--extractors-config`, `--record`).
    pub extractors: crate::extractors::Choice,
    /// How long a verdict may be acted on (`expires_at - issued_at`).
    pub validity: chrono::Duration,
    /// Exchange rates for checks that give none (`--fx`).
    pub rates: Vec<crate::cart::ExchangeRate>,
}

/// Which catalog `{id, quantity}` cart entries refer to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CatalogChoice {
    Embedded,
    Directory(PathBuf),
    None,
}

impl CatalogChoice {
    /// `embedded`, `none`, or a folder path.
    pub fn parse(text: &str) -> CatalogChoice {
        match text {
            "embedded" => CatalogChoice::Embedded,
            "none" => CatalogChoice::None,
            path => CatalogChoice::Directory(PathBuf::from(path)),
        }
    }
}

/// The variable that selects a PostgreSQL store when `--store` is absent.
pub const DATABASE_URL_VARIABLE: &str = "ASASKED_DATABASE_URL";

/// Where evidence, record lookups and the facts cache live. Its `Debug`
/// shows a database without the URL's user and password.
#[derive(Clone, PartialEq, Eq)]
pub enum StoreChoice {
    /// The JSON Lines log in the data folder and the in-memory facts cache.
    Embedded,
    /// A PostgreSQL database (its URL) shared by several instances.
    Postgres(String),
}

impl std::fmt::Debug for StoreChoice {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreChoice::Embedded => formatter.write_str("Embedded"),
            StoreChoice::Postgres(url) => write!(formatter, "Postgres({})", crate::pg::redacted(url)),
        }
    }
}

impl StoreChoice {
    /// `embedded` or a `postgres://` / `postgresql://` URL.
    pub fn parse(text: &str) -> Result<StoreChoice, String> {
        if text == "embedded" {
            Ok(StoreChoice::Embedded)
        } else if crate::pg::is_url(text) {
            Ok(StoreChoice::Postgres(text.to_owned()))
        } else {
            Err("expected `embedded` or a postgres://user@host:port/database URL".into())
        }
    }

    /// The flag if given, else [`DATABASE_URL_VARIABLE`] if set and not
    /// empty, else embedded.
    pub fn resolve(
        flag: Option<&StoreChoice>,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<StoreChoice, SetupError> {
        if let Some(choice) = flag {
            return Ok(choice.clone());
        }
        match env(DATABASE_URL_VARIABLE).filter(|url| !url.is_empty()) {
            None => Ok(StoreChoice::Embedded),
            Some(url) => StoreChoice::parse(&url)
                .map_err(|message| SetupError::StoreVariable { variable: DATABASE_URL_VARIABLE, message }),
        }
    }
}

/// Errors of setting a service up, naming the option at fault.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("--catalog")]
    Catalog(#[from] crate::catalog::CatalogError),
    #[error("--extractors")]
    Extractors(#[from] crate::extractors::BuildError),
    #[error("--data-dir")]
    Evidence(#[from] crate::evidence::StoreError),
    #[error("--data-dir: the receipt keys")]
    Keys(#[from] crate::receipt::KeyError),
    #[error("--store")]
    Store(#[source] crate::evidence::StoreError),
    #[error("{variable}: {message}")]
    StoreVariable { variable: &'static str, message: String },
}

/// Builds the service: catalog, extractors (with `env` for their keys),
/// evidence store, receipt keys (`<data dir>/keys/`, created on first use),
/// system clock.
pub fn build_service(
    options: &ServiceOptions,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<crate::service::Service, SetupError> {
    use std::sync::Arc;
    let catalog = match &options.catalog {
        CatalogChoice::Embedded => Some(Arc::new(crate::catalog::Catalog::embedded()?)),
        CatalogChoice::Directory(path) => Some(Arc::new(crate::catalog::Catalog::load_dir(path)?)),
        CatalogChoice::None => None,
    };
    let extractors = crate::extractors::build_choice(&options.extractors, env, catalog.as_deref())?;
    let (extractors, store): (_, Arc<dyn crate::evidence::RecordStore>) =
        match StoreChoice::resolve(options.store.as_ref(), env)? {
            StoreChoice::Embedded => (extractors, crate::evidence::EvidenceStore::open(&options.data_dir)?.into()),
            StoreChoice::Postgres(url) => {
                let store = open_postgres(&url)?;
                (extractors.with_shared_cache(Arc::new(store.clone())), store.into())
            }
        };
    let extractors = Arc::new(extractors);
    let keys = crate::receipt::KeyRing::open_or_create(&options.data_dir.join(keys::KEY_FOLDER))?;
    Ok(crate::service::Service::new(extractors, catalog, store, Arc::new(crate::service::SystemClock))
        .with_validity(options.validity)
        .with_rates(options.rates.clone())
        .with_receipts(Arc::new(keys)))
}

/// Where `serve --http` records redemptions: the data folder's ledger with
/// the embedded store, the database's with PostgreSQL (so that instances
/// sharing it never redeem one verdict twice).
pub fn redemption_ledger(
    options: &ServiceOptions,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<std::sync::Arc<dyn crate::redeem::Ledger>, CommandError> {
    match StoreChoice::resolve(options.store.as_ref(), env)? {
        StoreChoice::Embedded => Ok(std::sync::Arc::new(crate::redeem::file::FileLedger::open(&options.data_dir)?)),
        StoreChoice::Postgres(url) => Ok(std::sync::Arc::new(open_postgres(&url)?)),
    }
}

/// The PostgreSQL store at `url`, after checking that it answers and has
/// this binary's schema: a server refuses to start rather than fail every
/// check.
fn open_postgres(url: &str) -> Result<crate::pg::PgStore, SetupError> {
    let store = crate::pg::PgStore::new(url).map_err(SetupError::Store)?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|source| {
        SetupError::Store(crate::evidence::StoreError::Database {
            location: store_location(&store),
            source: Box::new(source),
        })
    })?;
    runtime.block_on(store.check_schema()).map_err(SetupError::Store)?;
    Ok(store)
}

fn store_location(store: &crate::pg::PgStore) -> String {
    crate::evidence::RecordStore::location(store)
}

/// The platform data directory (`~/.local/share/asasked` on Linux), or
/// `./asasked-data` where the platform has none.
pub fn default_data_dir() -> PathBuf {
    directories::ProjectDirs::from("", "", "asasked")
        .map(|directories| directories.data_dir().to_owned())
        .unwrap_or_else(|| PathBuf::from("asasked-data"))
}

/// The runtime of a one-shot command. One thread is enough: offline
/// extractors are instant, and hosted ones wait on the network, not the CPU.
fn runtime() -> Result<tokio::runtime::Runtime, CommandError> {
    tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(CommandError::Runtime)
}
