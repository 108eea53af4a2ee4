//! PostgreSQL storage for several instances behind one balancer (`--store
//! postgres://…`): the evidence chain ([`RecordStore`]), the record lookups
//! the link rules and the retry budget read, and the shared facts cache
//! ([`SharedFacts`]), in one database every instance reaches.
//!
//! One chain for every writer: an append locks the head row (`SELECT … FOR
//! UPDATE`) in its transaction, checks the link rules, inserts the record
//! and moves the head, and commits with `synchronous_commit = on` (set on
//! every connection) before the caller hears back. Within an instance,
//! appends are group-committed: those queued while a transaction commits go
//! together in the next one (one lock, one commit, one WAL flush). A record
//! is stored as the very line the embedded log would write, so `evidence
//! verify` runs the same check on the same bytes, and `store import` moves a
//! log in unchanged.
//!
//! Driver: tokio-postgres (the rust-postgres project's async client, also
//! under sqlx's PostgreSQL driver) with deadpool-postgres as the pool: plain
//! SQL, no compile-time query macros, and a pool that replaces connections a
//! restarted database closed, so checks recover without a restart of the
//! server. A database error fails the check closed: nothing is returned that
//! is not committed.
//!
//! Redemptions ([`crate::redeem::Ledger`]): one row per request, keyed by
//! principal and request id, and a unique index on the successful row of a
//! record, so that instances sharing the database redeem a verdict at most
//! once: of two transactions proposing a success for one record, the second
//! inserts nothing and reads the first's committed row as `already_redeemed`.
//!
//! This module knows records, lines and hashes like `evidence`, and the facts
//! cache only as text under a key; it does not know what a check is.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use futures_util::future::BoxFuture;
use sha2::{Digest, Sha256};
use tokio::sync::oneshot;
use tokio_postgres::NoTls;

use crate::evidence::{
    Appended, Broken, Draft, LinkError, RecordStore, SealedRecord, StoreError, StoreFuture, VerifyReport, seal,
    verify_bytes,
};
use crate::extract::set::SharedFacts;

/// The schema migrations, in order, embedded in the binary and applied by
/// `asasked store migrate`; a server refuses a database at another version.
const MIGRATIONS: &[Migration] = &[
    Migration { version: 1, name: "evidence chain and facts cache", sql: include_str!("migrations/0001_evidence.sql") },
    Migration { version: 2, name: "redemptions", sql: include_str!("migrations/0002_redemptions.sql") },
];

/// Taken (`pg_advisory_xact_lock`) by a migration run, so two at once apply
/// each migration once.
const MIGRATION_LOCK: i64 = 0x6173_6173_6b65_6401;

/// Facts cache entries kept: each is a few kilobytes, and nothing a client
/// sends may grow without bound.
const FACTS_CACHE_ENTRIES: i64 = 100_000;
/// The cache is pruned to [`FACTS_CACHE_ENTRIES`] once every this many
/// insertions by an instance.
const PRUNE_EVERY: u64 = 256;

/// The most appends one transaction seals.
const MAX_BATCH: usize = 64;

type Reply = oneshot::Sender<Result<Result<Appended, LinkError>, StoreError>>;

/// An append waiting for the next batch.
struct Queued {
    draft: Draft,
    reply: Reply,
}

/// This instance's appends waiting to be sealed, and the lock whose holder
/// seals them (see [`PgStore::append_batched`]).
#[derive(Default)]
struct Batch {
    queue: Mutex<Vec<Queued>>,
    leader: tokio::sync::Mutex<()>,
}

/// The connections one instance opens. A batch of appends holds one for its
/// whole transaction, waiting for the head lock behind other instances;
/// lookups and the facts cache use the others.
const POOL_SIZE: usize = 16;

/// The longest a check's statement may run, in milliseconds (an append's
/// wait for the head row's lock included).
const STATEMENT_TIMEOUT_MS: u64 = 15_000;

struct Migration {
    version: i32,
    name: &'static str,
    sql: &'static str,
}

/// The schema version this binary reads and writes.
pub fn schema_version() -> i32 {
    MIGRATIONS.last().map_or(0, |migration| migration.version)
}

/// A handle on the database: a pool of connections. Cheap to clone.
#[derive(Clone)]
pub struct PgStore {
    pool: Pool,
    config: tokio_postgres::Config,
    location: Arc<str>,
    inserted: Arc<AtomicU64>,
    batch: Arc<Batch>,
}

impl std::fmt::Debug for PgStore {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("PgStore").field("location", &self.location).finish_non_exhaustive()
    }
}

/// Whether `text` names a PostgreSQL database (`postgres://` or
/// `postgresql://`).
pub fn is_url(text: &str) -> bool {
    text.starts_with("postgres://") || text.starts_with("postgresql://")
}

impl PgStore {
    /// A pool for the database at `url`. Connects lazily: the first call
    /// that needs the database opens a connection (see [`PgStore::check_schema`]).
    pub fn new(url: &str) -> Result<PgStore, StoreError> {
        let mut config: tokio_postgres::Config = url.parse().map_err(|source| StoreError::Database {
            location: "(the --store URL)".into(),
            source: Box::new(source),
        })?;
        let location: Arc<str> = location_of(&config).into();
        // A record's reply waits for its commit to be on disk, whatever the
        // database's default is (`off` would acknowledge before the flush).
        let options = match config.get_options() {
            Some(options) => format!("{options} -c synchronous_commit=on"),
            None => "-c synchronous_commit=on".to_owned(),
        };
        config.options(&options);
        config.connect_timeout(Duration::from_secs(5));
        if config.get_application_name().is_none() {
            config.application_name("asasked");
        }
        // The pool serves checks: a statement stuck behind a lock or a hung
        // database ends in an error (the check fails closed) rather than
        // holding its client forever. One-shot commands (verify, import) read
        // or write whole chains and have no such bound.
        let mut pooled = config.clone();
        pooled.options(format!("{options} -c statement_timeout={STATEMENT_TIMEOUT_MS}"));
        let manager = Manager::from_config(pooled, NoTls, ManagerConfig { recycling_method: RecyclingMethod::Fast });
        // Bounded waits: with the database down, a check fails closed in
        // seconds instead of hanging its client.
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(Duration::from_secs(10)))
            .create_timeout(Some(Duration::from_secs(5)))
            .recycle_timeout(Some(Duration::from_secs(5)))
            .build()
            .map_err(|source| StoreError::Database { location: location.to_string(), source: Box::new(source) })?;
        Ok(PgStore { pool, config, location, inserted: Arc::new(AtomicU64::new(0)), batch: Arc::new(Batch::default()) })
    }

    fn error(&self, source: impl std::error::Error + Send + Sync + 'static) -> StoreError {
        StoreError::Database { location: self.location.to_string(), source: Box::new(source) }
    }

    async fn client(&self) -> Result<deadpool_postgres::Client, StoreError> {
        self.pool.get().await.map_err(|error| self.error(error))
    }

    /// A connection outside the pool, for one-shot commands and the startup
    /// check (which may run on a runtime that ends right after).
    async fn connect(&self) -> Result<tokio_postgres::Client, StoreError> {
        let (client, connection) = self.config.connect(NoTls).await.map_err(|error| self.error(error))?;
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!(%error, "database connection ended");
            }
        });
        Ok(client)
    }

    /// Applies the migrations the database lacks, each in its own
    /// transaction; returns the versions applied now.
    pub async fn migrate(&self) -> Result<Vec<(i32, &'static str)>, StoreError> {
        let mut client = self.connect().await?;
        let mut applied = Vec::new();
        for migration in MIGRATIONS {
            let transaction = client.transaction().await.map_err(|error| self.error(error))?;
            transaction
                .execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
                .await
                .map_err(|error| self.error(error))?;
            transaction
                .batch_execute(
                    "CREATE TABLE IF NOT EXISTS asasked_migrations (version integer PRIMARY KEY, name text NOT NULL, \
                     applied_at timestamptz NOT NULL DEFAULT now())",
                )
                .await
                .map_err(|error| self.error(error))?;
            let done = transaction
                .query_opt("SELECT 1 FROM asasked_migrations WHERE version = $1", &[&migration.version])
                .await
                .map_err(|error| self.error(error))?;
            if done.is_none() {
                transaction.batch_execute(migration.sql).await.map_err(|error| self.error(error))?;
                transaction
                    .execute(
                        "INSERT INTO asasked_migrations (version, name) VALUES ($1, $2)",
                        &[&migration.version, &migration.name],
                    )
                    .await
                    .map_err(|error| self.error(error))?;
                applied.push((migration.version, migration.name));
            }
            transaction.commit().await.map_err(|error| self.error(error))?;
        }
        Ok(applied)
    }

    /// Refuses a database this binary cannot use: unreachable, or at another
    /// schema version than [`schema_version`].
    pub async fn check_schema(&self) -> Result<(), StoreError> {
        let client = self.connect().await?;
        let exists = client
            .query_one("SELECT to_regclass('asasked_migrations') IS NOT NULL", &[])
            .await
            .map_err(|error| self.error(error))?
            .get::<_, bool>(0);
        let found = if exists {
            client
                .query_one("SELECT coalesce(max(version), 0) FROM asasked_migrations", &[])
                .await
                .map_err(|error| self.error(error))?
                .get::<_, i32>(0)
        } else {
            0
        };
        if found != schema_version() {
            return Err(StoreError::Schema { location: self.location.to_string(), found, expected: schema_version() });
        }
        Ok(())
    }

    /// Seals `draft` with group commit: the appends queued in this instance
    /// while another batch commits go together in the next transaction
    /// (one head-row lock, one commit, one WAL flush), as the embedded
    /// writer batches its fsyncs. No task is spawned: the first caller to
    /// take the leader lock commits every queued draft, its own included,
    /// and replies to each after the commit.
    async fn append_batched(&self, draft: Draft) -> Result<Result<Appended, LinkError>, StoreError> {
        let (reply, mut answer) = oneshot::channel();
        self.batch.queue.lock().unwrap_or_else(PoisonError::into_inner).push(Queued { draft, reply });
        loop {
            tokio::select! {
                biased;
                answer = &mut answer => {
                    // A leader dropped mid-commit: nothing may be assumed sealed.
                    return answer.unwrap_or(Err(StoreError::WriterStopped));
                }
                _leader = self.batch.leader.lock() => {
                    let queued: Vec<Queued> = {
                        let mut queue = self.batch.queue.lock().unwrap_or_else(PoisonError::into_inner);
                        let take = queue.len().min(MAX_BATCH);
                        queue.drain(..take).collect()
                    };
                    if !queued.is_empty() {
                        self.commit_batch(queued).await;
                    }
                }
            }
        }
    }

    /// One transaction for `queued`, then every reply (the same error to
    /// each if it failed: none of them was sealed).
    async fn commit_batch(&self, queued: Vec<Queued>) {
        let (drafts, replies): (Vec<Draft>, Vec<Reply>) =
            queued.into_iter().map(|queued| (queued.draft, queued.reply)).unzip();
        match self.seal_batch(drafts).await {
            Ok(results) => {
                for (reply, result) in replies.into_iter().zip(results) {
                    let _ = reply.send(Ok(result));
                }
            }
            Err(error) => {
                let reason = error.to_string();
                let mut first = Some(error);
                for reply in replies {
                    let error = first.take().unwrap_or_else(|| StoreError::Database {
                        location: self.location.to_string(),
                        source: reason.clone().into(),
                    });
                    let _ = reply.send(Err(error));
                }
            }
        }
    }

    /// Seals `drafts` in order in one transaction that holds the head row's
    /// lock: the link rules are checked against every committed record,
    /// whichever instance sealed it (and against the batch's earlier
    /// records), and the whole batch is committed before this returns.
    async fn seal_batch(&self, drafts: Vec<Draft>) -> Result<Vec<Result<Appended, LinkError>>, StoreError> {
        let mut client = self.client().await?;
        let transaction = client.transaction().await.map_err(|error| self.error(error))?;
        let head = transaction
            .query_one("SELECT seq, hash FROM asasked_evidence_head FOR UPDATE", &[])
            .await
            .map_err(|error| self.error(error))?;
        let (mut head_seq, mut head_hash): (i64, String) = (head.get(0), head.get(1));
        let lookup = transaction
            .prepare_cached(
                "SELECT (SELECT line FROM asasked_evidence WHERE record_id = $1), \
                        previous.attempt, previous.request_sha256, \
                        (SELECT record_id FROM asasked_evidence WHERE previous_record_id = $2) \
                 FROM (SELECT 1) AS one LEFT JOIN asasked_evidence AS previous ON previous.record_id = $2",
            )
            .await
            .map_err(|error| self.error(error))?;
        let insert = transaction
            .prepare_cached(
                "INSERT INTO asasked_evidence (seq, record_id, previous_record_id, attempt, request_sha256, line) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .await
            .map_err(|error| self.error(error))?;
        let mut results = Vec::with_capacity(drafts.len());
        let sealed_before = head_seq;
        for draft in drafts {
            let row = transaction
                .query_one(&lookup, &[&draft.record_id, &draft.previous_record_id])
                .await
                .map_err(|error| self.error(error))?;
            if let Some(line) = row.get::<_, Option<String>>(0) {
                results.push(Ok(Appended::Existing(Arc::new(self.parse(&line)?))));
                continue;
            }
            let request_sha256 = Sha256::digest(draft.request.as_bytes()).to_vec();
            let attempt = match &draft.previous_record_id {
                None => 1,
                Some(previous) => {
                    let (Some(attempt), Some(request)) =
                        (row.get::<_, Option<i32>>(1), row.get::<_, Option<Vec<u8>>>(2))
                    else {
                        results.push(Err(LinkError::NotFound(previous.clone())));
                        continue;
                    };
                    if request != request_sha256 {
                        results.push(Err(LinkError::OtherRequest(previous.clone())));
                        continue;
                    }
                    if let Some(successor) = row.get::<_, Option<String>>(3) {
                        results.push(Err(LinkError::NotHead(previous.clone(), successor)));
                        continue;
                    }
                    u32::try_from(attempt).unwrap_or(0) + 1
                }
            };
            head_seq += 1;
            let seq = u64::try_from(head_seq).unwrap_or(0);
            let (record, line) = seal(draft, seq, attempt, std::mem::take(&mut head_hash));
            let line = String::from_utf8_lossy(line.trim_ascii_end()).into_owned();
            let attempt = i32::try_from(attempt).unwrap_or(i32::MAX);
            transaction
                .execute(
                    &insert,
                    &[&head_seq, &record.record_id, &record.previous_record_id, &attempt, &request_sha256, &line],
                )
                .await
                .map_err(|error| self.error(error))?;
            head_hash = record.hash.clone();
            results.push(Ok(Appended::New(record)));
        }
        if head_seq == sealed_before {
            // Only replays and refused links: nothing to commit.
            return Ok(results);
        }
        transaction
            .execute("UPDATE asasked_evidence_head SET seq = $1, hash = $2", &[&head_seq, &head_hash])
            .await
            .map_err(|error| self.error(error))?;
        // The replies are the callers' licence to act: the commit (flushed
        // to the database's WAL, synchronous_commit = on) comes first.
        transaction.commit().await.map_err(|error| self.error(error))?;
        Ok(results)
    }

    fn parse(&self, line: &str) -> Result<SealedRecord, StoreError> {
        serde_json::from_str(line).map_err(StoreError::from)
    }

    async fn get_one(&self, record_id: &str) -> Result<Option<Arc<SealedRecord>>, StoreError> {
        let client = self.client().await?;
        let statement = client
            .prepare_cached("SELECT line FROM asasked_evidence WHERE record_id = $1")
            .await
            .map_err(|error| self.error(error))?;
        let row = client.query_opt(&statement, &[&record_id]).await.map_err(|error| self.error(error))?;
        row.map(|row| self.parse(&row.get::<_, String>(0)).map(Arc::new)).transpose()
    }

    async fn successor_of(&self, record_id: &str) -> Result<Option<String>, StoreError> {
        let client = self.client().await?;
        let statement = client
            .prepare_cached("SELECT record_id FROM asasked_evidence WHERE previous_record_id = $1")
            .await
            .map_err(|error| self.error(error))?;
        let row = client.query_opt(&statement, &[&record_id]).await.map_err(|error| self.error(error))?;
        Ok(row.map(|row| row.get(0)))
    }

    /// Every record's line in chain order, newline-terminated: the bytes of
    /// the equivalent JSON Lines log.
    pub async fn log_bytes(&self) -> Result<Vec<u8>, StoreError> {
        let client = self.connect().await?;
        let rows = client
            .query("SELECT line FROM asasked_evidence ORDER BY seq", &[])
            .await
            .map_err(|error| self.error(error))?;
        let mut bytes = Vec::new();
        for row in rows {
            bytes.extend_from_slice(row.get::<_, &str>(0).as_bytes());
            bytes.push(b'\n');
        }
        Ok(bytes)
    }

    /// Verifies the chain as `evidence verify` verifies a log, and that the
    /// head row names its last record.
    pub async fn verify(&self) -> Result<VerifyReport, StoreError> {
        let bytes = self.log_bytes().await?;
        let mut report = verify_bytes(&bytes);
        if report.ok() {
            let client = self.connect().await?;
            let head = client
                .query_one("SELECT seq, hash FROM asasked_evidence_head", &[])
                .await
                .map_err(|error| self.error(error))?;
            let (seq, hash): (i64, String) = (head.get(0), head.get(1));
            if u64::try_from(seq).ok() != Some(report.records) || hash != report.head {
                report.first_broken = Some(Broken {
                    line: report.records + 1,
                    record_id: None,
                    reason: format!("the head row (seq {seq}, {hash}) does not name the last record"),
                });
            }
        }
        Ok(report)
    }

    /// Every record, after the chain verified (as `evidence::read_all`).
    pub async fn read_all(&self) -> Result<Vec<SealedRecord>, StoreError> {
        let bytes = self.log_bytes().await?;
        let report = verify_bytes(&bytes);
        if let Some(broken) = report.first_broken {
            return Err(StoreError::Broken {
                path: self.location.as_ref().into(),
                line: broken.line,
                reason: broken.reason,
            });
        }
        bytes
            .split(|byte| *byte == b'\n')
            .filter(|line| !line.is_empty())
            .map(|line| serde_json::from_slice(line).map_err(StoreError::from))
            .collect()
    }

    /// The record `record_id`, checked against its own hash.
    pub async fn show(&self, record_id: &str) -> Result<Option<SealedRecord>, StoreError> {
        let Some(record) = self.get_one(record_id).await? else { return Ok(None) };
        if record.compute_hash()? != record.hash {
            return Err(StoreError::Broken {
                path: self.location.as_ref().into(),
                line: record.seq,
                reason: "the record changed after it was sealed".into(),
            });
        }
        Ok(Some(Arc::unwrap_or_clone(record)))
    }

    /// Moves the JSON Lines log `bytes` (which must verify) into an empty
    /// database, line for line, in one transaction, then verifies the
    /// database and compares its head with the log's. Returns that report.
    pub async fn import(&self, bytes: &[u8]) -> Result<Result<VerifyReport, ImportRefused>, StoreError> {
        let source = verify_bytes(bytes);
        if let Some(broken) = source.first_broken {
            return Ok(Err(ImportRefused::Broken(broken)));
        }
        let mut client = self.connect().await?;
        let transaction = client.transaction().await.map_err(|error| self.error(error))?;
        let head = transaction
            .query_one("SELECT seq FROM asasked_evidence_head FOR UPDATE", &[])
            .await
            .map_err(|error| self.error(error))?;
        let records: i64 = head.get(0);
        if records != 0 {
            return Ok(Err(ImportRefused::NotEmpty(records)));
        }
        let insert = transaction
            .prepare(
                "INSERT INTO asasked_evidence (seq, record_id, previous_record_id, attempt, request_sha256, line) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .await
            .map_err(|error| self.error(error))?;
        for line in bytes.split(|byte| *byte == b'\n').filter(|line| !line.is_empty()) {
            let record: SealedRecord = serde_json::from_slice(line)?;
            let text = String::from_utf8_lossy(line);
            let seq = i64::try_from(record.seq).unwrap_or(i64::MAX);
            let attempt = i32::try_from(record.attempt).unwrap_or(i32::MAX);
            let request_sha256 = Sha256::digest(record.request.as_bytes()).to_vec();
            transaction
                .execute(
                    &insert,
                    &[&seq, &record.record_id, &record.previous_record_id, &attempt, &request_sha256, &text],
                )
                .await
                .map_err(|error| self.error(error))?;
        }
        let seq = i64::try_from(source.records).unwrap_or(i64::MAX);
        transaction
            .execute("UPDATE asasked_evidence_head SET seq = $1, hash = $2", &[&seq, &source.head])
            .await
            .map_err(|error| self.error(error))?;
        transaction.commit().await.map_err(|error| self.error(error))?;
        let imported = self.verify().await?;
        if imported.records != source.records || imported.head != source.head {
            return Ok(Err(ImportRefused::Mismatch { log: source, database: imported }));
        }
        Ok(Ok(imported))
    }

    async fn cache_get(&self, key: &str) -> Result<Option<String>, StoreError> {
        let client = self.client().await?;
        let statement = client
            .prepare_cached("SELECT outcome FROM asasked_facts_cache WHERE key = $1")
            .await
            .map_err(|error| self.error(error))?;
        let row = client.query_opt(&statement, &[&key]).await.map_err(|error| self.error(error))?;
        Ok(row.map(|row| row.get(0)))
    }

    async fn cache_put(&self, key: &str, outcome: &str) -> Result<(), StoreError> {
        let client = self.client().await?;
        let statement = client
            .prepare_cached(
                "INSERT INTO asasked_facts_cache (key, outcome) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
            )
            .await
            .map_err(|error| self.error(error))?;
        client.execute(&statement, &[&key, &outcome]).await.map_err(|error| self.error(error))?;
        if self.inserted.fetch_add(1, Ordering::Relaxed) % PRUNE_EVERY == PRUNE_EVERY - 1 {
            client
                .execute(
                    "DELETE FROM asasked_facts_cache WHERE key IN \
                     (SELECT key FROM asasked_facts_cache ORDER BY created_at DESC, key OFFSET $1)",
                    &[&FACTS_CACHE_ENTRIES],
                )
                .await
                .map_err(|error| self.error(error))?;
        }
        Ok(())
    }
}

/// Why `store import` moved nothing (or, for `Mismatch`, what differs).
#[derive(Debug)]
pub enum ImportRefused {
    /// The log does not verify: fix or set aside first (`evidence verify`).
    Broken(Broken),
    /// The database already holds this many records: a chain starts at the
    /// genesis hash, so a log can only go into an empty one.
    NotEmpty(i64),
    /// The database, read back, does not give the log's head.
    Mismatch { log: VerifyReport, database: VerifyReport },
}

impl std::fmt::Display for ImportRefused {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ImportRefused::Broken(broken) => {
                write!(formatter, "the log is broken at line {}: {}; nothing imported", broken.line, broken.reason)
            }
            ImportRefused::NotEmpty(records) => write!(
                formatter,
                "the database already holds {records} records; a log is imported into an empty database only"
            ),
            ImportRefused::Mismatch { log, database } => write!(
                formatter,
                "the database reads back {} records, head {}, where the log has {}, head {}",
                database.records, database.head, log.records, log.head
            ),
        }
    }
}

impl std::error::Error for ImportRefused {}

/// `url` for logs and `Debug`: its host, port and database, without user
/// or password.
pub fn redacted(url: &str) -> String {
    url.parse::<tokio_postgres::Config>()
        .map(|config| location_of(&config))
        .unwrap_or_else(|_| "(an unreadable database URL)".to_owned())
}

/// `host:port/database` of `config`, without user or password.
fn location_of(config: &tokio_postgres::Config) -> String {
    let host = match config.get_hosts().first() {
        Some(tokio_postgres::config::Host::Tcp(host)) => host.clone(),
        #[cfg(unix)]
        Some(tokio_postgres::config::Host::Unix(path)) => path.display().to_string(),
        None => "localhost".to_owned(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let database = config.get_dbname().or(config.get_user()).unwrap_or("postgres");
    format!("postgres://{host}:{port}/{database}")
}

impl RecordStore for PgStore {
    fn append(&self, draft: Draft) -> StoreFuture<'_, Result<Appended, LinkError>> {
        Box::pin(self.append_batched(draft))
    }

    fn get<'a>(&'a self, record_id: &'a str) -> StoreFuture<'a, Option<Arc<SealedRecord>>> {
        Box::pin(self.get_one(record_id))
    }

    fn successor<'a>(&'a self, record_id: &'a str) -> StoreFuture<'a, Option<String>> {
        Box::pin(self.successor_of(record_id))
    }

    fn location(&self) -> String {
        self.location.to_string()
    }
}

impl SharedFacts for PgStore {
    fn get<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Option<String>> {
        Box::pin(async move {
            self.cache_get(key).await.unwrap_or_else(|error| {
                tracing::warn!(%error, "shared facts cache: lookup failed, extracting");
                None
            })
        })
    }

    fn put<'a>(&'a self, key: &'a str, outcome: String) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            if let Err(error) = self.cache_put(key, &outcome).await {
                tracing::warn!(%error, "shared facts cache: insert failed");
            }
        })
    }
}

impl From<PgStore> for Arc<dyn RecordStore> {
    fn from(store: PgStore) -> Arc<dyn RecordStore> {
        Arc::new(store)
    }
}

/// How often a redemption transaction starts again after a concurrent one
/// committed the same request id or the same verdict first (the retry then
/// reads that row; a third conflict cannot happen, as rows never change).
#[cfg(feature = "server")]
const REDEEM_ATTEMPTS: usize = 3;

#[cfg(feature = "server")]
impl PgStore {
    fn ledger_error(&self, error: impl std::fmt::Display) -> crate::redeem::LedgerError {
        crate::redeem::LedgerError::Database(format!("{}: {error}", self.location))
    }

    fn decode_redemption(&self, entry: &str) -> Result<crate::redeem::Redemption, crate::redeem::LedgerError> {
        serde_json::from_str(entry).map_err(|error| self.ledger_error(error))
    }

    async fn commit_redemption(
        &self,
        proposed: crate::redeem::Redemption,
    ) -> Result<crate::redeem::Committed, crate::redeem::LedgerError> {
        use crate::redeem::{Committed, Reason, Status};
        let principal = proposed.principal.clone().unwrap_or_default();
        let mut client = self.client().await.map_err(|error| self.ledger_error(error))?;
        for _ in 0..REDEEM_ATTEMPTS {
            let transaction = client.transaction().await.map_err(|error| self.ledger_error(error))?;
            let existing = transaction
                .query_opt(
                    "SELECT entry FROM asasked_redemptions WHERE principal = $1 AND request_id = $2",
                    &[&principal, &proposed.request_id],
                )
                .await
                .map_err(|error| self.ledger_error(error))?;
            if let Some(row) = existing {
                return Ok(Committed::Existing(self.decode_redemption(row.get(0))?));
            }
            let mut recorded = proposed.clone();
            if recorded.status == Status::Succeeded {
                let redeemed = transaction
                    .query_opt(
                        "SELECT 1 FROM asasked_redemptions WHERE record_id = $1 AND succeeded",
                        &[&recorded.record_id],
                    )
                    .await
                    .map_err(|error| self.ledger_error(error))?;
                if redeemed.is_some() {
                    recorded.status = Status::Failed;
                    recorded.reason = Some(Reason::AlreadyRedeemed);
                    recorded.receipt = None;
                }
            }
            let entry = serde_json::to_string(&recorded).map_err(|error| self.ledger_error(error))?;
            let succeeded = recorded.status == Status::Succeeded;
            // DO NOTHING on either key: a concurrent transaction committed
            // this request id, or a success for this record, first.
            let inserted = transaction
                .execute(
                    "INSERT INTO asasked_redemptions (principal, request_id, record_id, succeeded, entry) \
                     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
                    &[&principal, &recorded.request_id, &recorded.record_id, &succeeded, &entry],
                )
                .await
                .map_err(|error| self.ledger_error(error))?;
            if inserted == 1 {
                // Committed (synchronous_commit = on) before anyone is told.
                transaction.commit().await.map_err(|error| self.ledger_error(error))?;
                return Ok(Committed::New(recorded));
            }
            transaction.rollback().await.map_err(|error| self.ledger_error(error))?;
        }
        Err(self.ledger_error("the redemption kept conflicting with concurrent ones"))
    }
}

#[cfg(feature = "server")]
impl crate::redeem::Ledger for PgStore {
    fn commit(&self, proposed: crate::redeem::Redemption) -> crate::redeem::LedgerFuture<'_, crate::redeem::Committed> {
        Box::pin(self.commit_redemption(proposed))
    }

    fn request<'a>(
        &'a self,
        principal: Option<&'a str>,
        request_id: &'a str,
    ) -> crate::redeem::LedgerFuture<'a, Option<crate::redeem::Redemption>> {
        Box::pin(async move {
            let client = self.client().await.map_err(|error| self.ledger_error(error))?;
            let row = client
                .query_opt(
                    "SELECT entry FROM asasked_redemptions WHERE principal = $1 AND request_id = $2",
                    &[&principal.unwrap_or_default(), &request_id],
                )
                .await
                .map_err(|error| self.ledger_error(error))?;
            row.map(|row| self.decode_redemption(row.get(0))).transpose()
        })
    }

    fn redeemed<'a>(
        &'a self,
        record_id: &'a str,
    ) -> crate::redeem::LedgerFuture<'a, Option<crate::redeem::Redemption>> {
        Box::pin(async move {
            let client = self.client().await.map_err(|error| self.ledger_error(error))?;
            let row = client
                .query_opt("SELECT entry FROM asasked_redemptions WHERE record_id = $1 AND succeeded", &[&record_id])
                .await
                .map_err(|error| self.ledger_error(error))?;
            row.map(|row| self.decode_redemption(row.get(0))).transpose()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::GENESIS;

    #[test]
    fn the_first_migration_starts_the_head_at_the_genesis_hash() {
        assert!(MIGRATIONS[0].sql.contains(GENESIS), "the head row starts where the embedded log starts");
        let versions: Vec<i32> = MIGRATIONS.iter().map(|migration| migration.version).collect();
        let expected: Vec<i32> = (1..=MIGRATIONS.len() as i32).collect();
        assert_eq!(versions, expected, "versions are 1, 2, … in order");
    }

    #[test]
    fn the_location_names_no_password() {
        let config: tokio_postgres::Config = "postgres://user:secret@db.example:6543/asasked".parse().unwrap();
        assert_eq!(location_of(&config), "postgres://db.example:6543/asasked");
        assert!(is_url("postgresql://x/y") && is_url("postgres://x") && !is_url("embedded"));
        assert_eq!(redacted("postgres://user:secret@db:1/x"), "postgres://db:1/x");
        assert!(!redacted("postgres://user:secret@db:notaport/x").contains("secret"));
    }
}
