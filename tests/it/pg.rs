//! Several instances on one PostgreSQL database (`--store postgres://…`),
//! against a real server: two `serve --http` processes behind a loopback
//! round-robin balancer with an answers loop whose calls land on both, one
//! of them SIGKILLed under load, the database crashed and restarted under
//! a loaded server, concurrent resubmissions on two instances, a log
//! imported (and a record tampered with), a shared facts cache, and the
//! embedded default still needing no database.
//!
//! The database: `ASASKED_TEST_DATABASE_URL` (a superuser URL, e.g.
//! `postgres://postgres@127.0.0.1:54329/postgres`; `.ci/run` starts a
//! throwaway cluster with `scripts/postgres.sh`). Each test creates its own
//! database in it, so the tests run in parallel. The tests that need it are
//! `#[ignore]`d: `cargo test --locked` counts them as ignored, and
//! `cargo test --locked -- --ignored` (a step of `.ci/run`) runs them; run
//! without the variable, they fail saying how to start a cluster. The
//! crash test starts its own private cluster (the `postgres` binaries of
//! Debian's package), since it stops it.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use asasked::extract::schema::{empty_facts_value, validate};
use asasked::extract::set::ExtractorSet;
use asasked::extract::{Cost, ExtractFuture, ExtractInput, Extraction, Extractor};
use asasked::service::{CheckRequest, Service, SystemClock};
use serde_json::{Value, json};
use tokio::net::{TcpListener, TcpStream};

const BIN: &str = env!("CARGO_BIN_EXE_asasked");
const URL_ENV: &str = "ASASKED_TEST_DATABASE_URL";
const FACTS: &str = r#"{"brand":"Nike","model":"Pegasus 41","color":"white","size_label":"42"}"#;
const REQUEST: &str = "Nike Pegasus 41, white, size 42 please";

/// The test server's URL; its absence is a failure, since these tests run
/// only when asked for (`--ignored`) and must not then pass doing nothing.
fn admin_url() -> String {
    match std::env::var(URL_ENV) {
        Ok(url) if !url.trim().is_empty() => url,
        _ => panic!(
            "no PostgreSQL for the tests: run `eval \"export $(scripts/postgres.sh start | tail -n 1)\"` to set \
             {URL_ENV}, then cargo test --locked -- --ignored (or .ci/run)"
        ),
    }
}

/// A new database for one test on the server at `admin`, migrated by the
/// binary (`asasked store migrate`); returns its URL.
async fn fresh_database(admin: &str, test: &str) -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let name = format!("asasked_{test}_{}_{}", std::process::id(), NEXT.fetch_add(1, Ordering::SeqCst));
    let client = connect(admin).await;
    client.batch_execute(&format!("DROP DATABASE IF EXISTS {name}")).await.unwrap();
    client.batch_execute(&format!("CREATE DATABASE {name}")).await.unwrap();
    let (base, _) = admin.rsplit_once('/').expect("a URL with a database path");
    let url = format!("{base}/{name}");
    let migrate = Command::new(BIN).args(["store", "migrate", "--store", &url]).output().unwrap();
    assert!(migrate.status.success(), "{}", String::from_utf8_lossy(&migrate.stderr));
    assert!(String::from_utf8_lossy(&migrate.stdout).contains("applied migration 1"));
    url
}

async fn connect(url: &str) -> tokio_postgres::Client {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(connection);
    client
}

async fn sealed_ids(url: &str) -> BTreeSet<String> {
    let client = connect(url).await;
    let rows = client.query("SELECT record_id FROM asasked_evidence", &[]).await.unwrap();
    rows.iter().map(|row| row.get(0)).collect()
}

fn facts_file(directory: &Path) -> PathBuf {
    let facts = directory.join("facts.json");
    std::fs::write(&facts, FACTS).unwrap();
    facts
}

/// `asasked evidence ARGS --store URL`: (success, stdout).
fn evidence(url: &str, arguments: &[&str]) -> (bool, String) {
    let output = Command::new(BIN).arg("evidence").args(arguments).args(["--store", url]).output().unwrap();
    (output.status.success(), String::from_utf8_lossy(&output.stdout).into_owned())
}

// ---------------------------------------------------------------------------
// Servers, a balancer and a client

/// `asasked serve --http 127.0.0.1:0 --store URL`, its own data dir (for
/// its receipt keys), the `fixed` extractor.
struct Server {
    child: Child,
    address: SocketAddr,
}

impl Server {
    fn start(url: &str, data: &Path, facts: &Path) -> Server {
        let mut child = Command::new(BIN)
            .args(["serve", "--http", "127.0.0.1:0", "--store", url, "--data-dir"])
            .arg(data)
            .arg("--extractors")
            .arg(format!("fixed:{}", facts.display()))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (found, address) = std::sync::mpsc::channel();
        let lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&seen);
        // Drains stderr for the server's whole life, so it never blocks on it.
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                if let Some(rest) = line.split("serving MCP at http://").nth(1) {
                    let _ = found.send(rest.trim().trim_end_matches("/mcp").to_owned());
                }
                kept.lock().unwrap().push(line);
            }
        });
        match address.recv_timeout(Duration::from_secs(20)) {
            Ok(address) => Server { child, address: address.parse().unwrap() },
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("the server did not start: {:?}", seen.lock().unwrap());
            }
        }
    }

    fn kill(&mut self) {
        // std's kill is SIGKILL on Unix: no shutdown path runs.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A loopback TCP balancer with source-address affinity, as balancers keep
/// MCP sessions on one instance: a client address seen for the first time
/// goes to the next backend in turn, and stays there while it accepts
/// connections; a backend that refuses one (a dead instance) is skipped, as
/// a health check would. `served[i]`: client addresses sent to backend i.
struct Balancer {
    url: String,
    served: Arc<Vec<AtomicUsize>>,
}

async fn balancer(backends: Vec<SocketAddr>) -> Balancer {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let served: Arc<Vec<AtomicUsize>> = Arc::new(backends.iter().map(|_| AtomicUsize::new(0)).collect());
    let counts = Arc::clone(&served);
    tokio::spawn(async move {
        let mut next = 0;
        let mut affinity = std::collections::HashMap::new();
        while let Ok((mut inbound, client)) = listener.accept().await {
            let mut outbound = None;
            if let Some(&index) = affinity.get(&client.ip())
                && let Ok(stream) = TcpStream::connect(backends[index]).await
            {
                outbound = Some(stream);
            }
            for _ in 0..backends.len() {
                if outbound.is_some() {
                    break;
                }
                let index = next % backends.len();
                next += 1;
                if let Ok(stream) = TcpStream::connect(backends[index]).await {
                    counts[index].fetch_add(1, Ordering::SeqCst);
                    affinity.insert(client.ip(), index);
                    outbound = Some(stream);
                }
            }
            if let Some(mut outbound) = outbound {
                tokio::spawn(async move {
                    let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                });
            }
        }
    });
    Balancer { url, served }
}

/// A client address of its own for each session (all of 127.0.0.0/8 is
/// loopback on Linux), so the balancer sees one client per session.
fn client_address() -> std::net::IpAddr {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let number = NEXT.fetch_add(1, Ordering::SeqCst);
    std::net::IpAddr::from([127, 0, 1 + (number / 250) as u8, 2 + (number % 250) as u8])
}

/// One MCP session from a client address of its own (see [`Balancer`]).
struct Session {
    http: reqwest::Client,
    url: String,
    session: Option<String>,
    next_id: u64,
}

impl Session {
    async fn open(url: &str) -> Result<Session, String> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .local_address(client_address())
            .build()
            .map_err(|error| error.to_string())?;
        let mut session = Session { http, url: url.to_owned(), session: None, next_id: 1 };
        let initialize =
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "pg", "version": "0"}});
        session.request("initialize", initialize).await?;
        session.post(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await?;
        Ok(session)
    }

    /// POSTs one message and reads the whole reply (JSON or an SSE stream
    /// that ends after the reply).
    async fn post(&mut self, message: &Value) -> Result<String, String> {
        let mut builder = self
            .http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .json(message);
        if let Some(session) = &self.session {
            builder = builder.header("mcp-session-id", session).header("mcp-protocol-version", "2025-06-18");
        }
        let response = builder.send().await.map_err(|error| error.to_string())?;
        if let Some(session) = response.headers().get("mcp-session-id") {
            self.session = Some(session.to_str().unwrap().to_owned());
        }
        let status = response.status();
        let body = response.text().await.map_err(|error| error.to_string())?;
        if !status.is_success() {
            return Err(format!("{status}: {body}"));
        }
        Ok(body)
    }

    async fn request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        let id = self.next_id;
        self.next_id += 1;
        let body = self.post(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})).await?;
        let is_reply = |value: &Value| value.get("id") == Some(&json!(id));
        body.lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
            .chain(serde_json::from_str::<Value>(&body).ok())
            .find(is_reply)
            .ok_or_else(|| format!("{method}: no reply in {body}"))
    }

    /// One `check_order` call: the tool result (`structuredContent`, `isError`).
    async fn check(&mut self, arguments: Value) -> Result<Value, String> {
        let reply = self.request("tools/call", json!({"name": "check_order", "arguments": arguments})).await?;
        reply.get("result").cloned().ok_or_else(|| format!("no result: {reply}"))
    }
}

fn order(cart: &str) -> Value {
    json!({"request": REQUEST, "cart": [{"id": cart, "quantity": 1}], "today": "2026-11-02"})
}

fn answered(cart: &str, previous: &str, finding: &str, reply: &str) -> Value {
    let mut arguments = order(cart);
    arguments["previous_record_id"] = json!(previous);
    arguments["answers"] = json!([{"finding_id": finding, "reply": reply}]);
    arguments
}

/// A one-call session through `url`: the call's result.
async fn call(url: &str, arguments: Value) -> Value {
    let mut session = Session::open(url).await.unwrap();
    session.check(arguments).await.unwrap()
}

// ---------------------------------------------------------------------------
// The tests

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: run scripts/postgres.sh start, export ASASKED_TEST_DATABASE_URL, then cargo test --locked -- --ignored (or .ci/run)"]
async fn an_answers_loop_across_two_instances_follows_one_chain_and_one_retry_budget() {
    let admin = admin_url();
    let url = fresh_database(&admin, "answers").await;
    let directory = tempfile::tempdir().unwrap();
    let facts = facts_file(directory.path());
    let first = Server::start(&url, &directory.path().join("a"), &facts);
    let second = Server::start(&url, &directory.path().join("b"), &facts);
    let balancer = balancer(vec![first.address, second.address]).await;

    // Each call is a new session, so the balancer alternates instances.
    let ask = call(&balancer.url, order("shoe-002")).await;
    let content = &ask["structuredContent"];
    assert_eq!(content["decision"], "ask", "{ask}");
    let first_id = content["record_id"].as_str().unwrap().to_owned();
    let finding = content["findings"][0]["id"].as_str().unwrap().to_owned();

    // Declined on the other instance: it reads the first record from the
    // database (link rules, answers), attempt 2, still ask.
    let declined = call(&balancer.url, answered("shoe-002", &first_id, &finding, "decline")).await;
    let declined = &declined["structuredContent"];
    assert_eq!((declined["decision"].as_str(), declined["attempt"].as_u64()), (Some("ask"), Some(2)), "{declined}");
    let second_id = declined["record_id"].as_str().unwrap().to_owned();

    let accepted = call(&balancer.url, answered("shoe-002", &second_id, &finding, "accept")).await;
    let accepted = &accepted["structuredContent"];
    assert_eq!((accepted["decision"].as_str(), accepted["attempt"].as_u64()), (Some("proceed"), Some(3)), "{accepted}");
    let third_id = accepted["record_id"].as_str().unwrap().to_owned();

    // The first record was superseded on the other instance: a new check
    // against it is refused here (the same check as the superseding one
    // would be a replay, answered below).
    let stale = call(&balancer.url, answered("shoe-003", &first_id, &finding, "decline")).await;
    assert_eq!(stale["isError"], true, "{stale}");
    assert!(stale.to_string().contains("superseded"), "{stale}");

    // The retry budget (3 attempts) is counted across instances.
    let over = call(&balancer.url, answered("shoe-003", &third_id, &finding, "accept")).await;
    let over = &over["structuredContent"];
    assert_eq!(
        (over["decision"].as_str(), over["record_id"].as_str()),
        (Some("ask"), Some(third_id.as_str())),
        "{over}"
    );

    // The very same check again, on the other instance: the sealed record.
    let replay = call(&balancer.url, answered("shoe-002", &second_id, &finding, "accept")).await;
    assert_eq!(replay["structuredContent"]["record_id"], third_id.as_str(), "{replay}");

    let served: Vec<usize> = balancer.served.iter().map(|count| count.load(Ordering::SeqCst)).collect();
    assert!(served.iter().all(|count| *count >= 2), "both instances served calls: {served:?}");
    let (ok, report) = evidence(&url, &["verify"]);
    assert!(ok && report.starts_with("ok: 3 records"), "{report}");
    let (ok, chain) = evidence(&url, &["export", &third_id]);
    let bundle: Value = serde_json::from_str(&chain).unwrap();
    assert!(ok && bundle["records"].as_array().unwrap().len() == 3, "{chain}");
    eprintln!("answers loop over two instances: calls per instance {served:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: run scripts/postgres.sh start, export ASASKED_TEST_DATABASE_URL, then cargo test --locked -- --ignored (or .ci/run)"]
async fn sigkill_of_one_instance_under_load_loses_no_acknowledged_record() {
    const CLIENTS: usize = 6;
    let admin = admin_url();
    let url = fresh_database(&admin, "sigkill").await;
    let directory = tempfile::tempdir().unwrap();
    let facts = facts_file(directory.path());
    let mut first = Server::start(&url, &directory.path().join("a"), &facts);
    let second = Server::start(&url, &directory.path().join("b"), &facts);
    let balancer = balancer(vec![first.address, second.address]).await;
    let acknowledged = Arc::new(Mutex::new(BTreeSet::new()));
    let counter = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let started = Instant::now();

    let load = |url: String| {
        let (acknowledged, counter, stop) = (Arc::clone(&acknowledged), Arc::clone(&counter), Arc::clone(&stop));
        tokio::spawn(async move {
            // A client stops at its first failure (its instance was killed),
            // when told, or after 2,000 checks.
            let Ok(mut session) = Session::open(&url).await else { return 0 };
            let mut done = 0;
            while !stop.load(Ordering::SeqCst) && done < 2000 {
                let number = counter.fetch_add(1, Ordering::SeqCst);
                let arguments = json!({"request": format!("{REQUEST} (order {number})"),
                    "cart": [{"id": "shoe-003", "quantity": 1}], "today": "2026-11-02"});
                match session.check(arguments).await {
                    Ok(result) if result["isError"] != true => {
                        assert_eq!(result["structuredContent"]["decision"], "proceed", "{result}");
                        let id = result["structuredContent"]["record_id"].as_str().unwrap().to_owned();
                        acknowledged.lock().unwrap().insert(id);
                        done += 1;
                    }
                    _ => return done,
                }
            }
            done
        })
    };
    let clients: Vec<_> = (0..CLIENTS).map(|_| load(balancer.url.clone())).collect();
    let wait_for = |count: usize, limit: Duration| {
        let acknowledged = Arc::clone(&acknowledged);
        async move {
            let since = Instant::now();
            while acknowledged.lock().unwrap().len() < count && since.elapsed() < limit {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        }
    };
    wait_for(20, Duration::from_secs(30)).await;
    let seed = std::env::var("ASASKED_CRASH_SEED").ok().and_then(|seed| seed.parse().ok()).unwrap_or(0x5eed_u64);
    tokio::time::sleep(Duration::from_millis(fastrand::Rng::with_seed(seed).u64(0..=300))).await;
    first.kill();
    let at_kill = acknowledged.lock().unwrap().len();
    // The survivor goes on, and new sessions through the balancer reach it.
    let late: Vec<_> = (0..2).map(|_| load(balancer.url.clone())).collect();
    wait_for(at_kill + 30, Duration::from_secs(30)).await;
    stop.store(true, Ordering::SeqCst);
    let mut per_client = Vec::new();
    for client in clients {
        per_client.push(tokio::time::timeout(Duration::from_secs(30), client).await.expect("clients end").unwrap());
    }
    let mut late_done = Vec::new();
    for client in late {
        late_done.push(tokio::time::timeout(Duration::from_secs(30), client).await.expect("clients end").unwrap());
    }

    let acknowledged = acknowledged.lock().unwrap().clone();
    let sealed = sealed_ids(&url).await;
    let missing: Vec<_> = acknowledged.difference(&sealed).collect();
    assert!(missing.is_empty(), "acknowledged but not in the database: {missing:?}");
    assert!(acknowledged.len() > at_kill, "the surviving instance went on: {at_kill} → {}", acknowledged.len());
    assert!(late_done.iter().all(|done| *done > 0), "new sessions after the kill were served: {late_done:?}");
    let (ok, report) = evidence(&url, &["verify"]);
    assert!(ok, "{report}");
    eprintln!(
        "two instances, one SIGKILLed after {at_kill} acknowledged: {} acknowledged, all among {} sealed, \
         per client {per_client:?}, late sessions {late_done:?}, {report}, {:?}",
        acknowledged.len(),
        sealed.len(),
        started.elapsed()
    );
}

/// A PostgreSQL cluster of this test's own (initdb into a temporary folder,
/// `pg_ctl` on a free port), as the `postgres` user when run as root.
struct Cluster {
    bin: PathBuf,
    folder: tempfile::TempDir,
    port: u16,
}

impl Cluster {
    fn bin_dir() -> Option<PathBuf> {
        let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
            .ok()?
            .filter_map(|entry| entry.ok().map(|entry| entry.path().join("bin")))
            .filter(|bin| bin.join("pg_ctl").is_file())
            .collect();
        found.sort();
        found.pop()
    }

    fn as_owner(program: &Path) -> Command {
        let root = Command::new("id").arg("-u").output().is_ok_and(|output| output.stdout.trim_ascii() == b"0");
        if root {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(program);
            command
        } else {
            Command::new(program)
        }
    }

    fn start_new() -> Cluster {
        let bin = Cluster::bin_dir().expect(
            "PostgreSQL's binaries in /usr/lib/postgresql/*/bin: install Debian's postgresql package (scripts/postgres.sh \
             start does), then cargo test --locked -- --ignored (or .ci/run)",
        );
        let folder = tempfile::tempdir().unwrap();
        let _ = Command::new("chown").arg("postgres").arg(folder.path()).status();
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let data = folder.path().join("data");
        let status = Cluster::as_owner(&bin.join("initdb"))
            .arg("-D")
            .arg(&data)
            .args(["-A", "trust", "-U", "postgres", "--no-sync"])
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "initdb");
        let cluster = Cluster { bin, folder, port };
        cluster.start();
        cluster
    }

    fn pg_ctl(&self, arguments: &[&str]) {
        let data = self.folder.path().join("data");
        let options = format!("-p {} -k {} -c listen_addresses=127.0.0.1", self.port, self.folder.path().display());
        let status = Cluster::as_owner(&self.bin.join("pg_ctl"))
            .arg("-D")
            .arg(&data)
            .arg("-l")
            .arg(self.folder.path().join("log"))
            .args(["-o", &options])
            .args(arguments)
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "pg_ctl {arguments:?}");
    }

    fn start(&self) {
        self.pg_ctl(&["-w", "start"]);
    }

    /// `pg_ctl stop -m immediate`: the server processes exit without a
    /// checkpoint, as in a crash; the restart replays the WAL.
    fn crash(&self) {
        self.pg_ctl(&["-m", "immediate", "-w", "stop"]);
    }

    fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let data = self.folder.path().join("data");
        let _ = Cluster::as_owner(&self.bin.join("pg_ctl"))
            .arg("-D")
            .arg(&data)
            .args(["-m", "immediate", "-w", "stop"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL's binaries (Debian's postgresql package, as scripts/postgres.sh start installs): cargo test --locked -- --ignored (or .ci/run)"]
async fn a_database_crash_under_load_fails_checks_closed_then_they_recover() {
    let cluster = Cluster::start_new();
    let url = cluster.url();
    let migrate = Command::new(BIN).args(["store", "migrate", "--store", &url]).output().unwrap();
    assert!(migrate.status.success(), "{}", String::from_utf8_lossy(&migrate.stderr));
    let directory = tempfile::tempdir().unwrap();
    let facts = facts_file(directory.path());
    let server = Server::start(&url, &directory.path().join("data"), &facts);
    let server_url = format!("http://{}/mcp", server.address);
    let mut session = Session::open(&server_url).await.unwrap();
    let before = session.check(order("shoe-003")).await.unwrap();
    assert_eq!(before["structuredContent"]["decision"], "proceed", "{before}");

    // Load through the crash and the restart: every call answers, either a
    // sealed proceed or the clear error, never a result without its record.
    let acknowledged = Arc::new(Mutex::new(BTreeSet::new()));
    let refusals = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let counter = Arc::new(AtomicU64::new(0));
    let clients: Vec<_> = (0..3)
        .map(|_| {
            let (acknowledged, refusals, stop, counter) =
                (Arc::clone(&acknowledged), Arc::clone(&refusals), Arc::clone(&stop), Arc::clone(&counter));
            let server_url = server_url.clone();
            tokio::spawn(async move {
                let mut session = Session::open(&server_url).await.unwrap();
                while !stop.load(Ordering::SeqCst) {
                    let mut arguments = order("shoe-003");
                    arguments["request"] =
                        json!(format!("{REQUEST} (order {})", counter.fetch_add(1, Ordering::SeqCst)));
                    let result = session.check(arguments).await.unwrap();
                    if result["isError"] == true {
                        assert!(result.to_string().contains("could not be sealed as evidence: do not pay"), "{result}");
                        refusals.fetch_add(1, Ordering::SeqCst);
                        tokio::time::sleep(Duration::from_millis(20)).await;
                    } else {
                        assert_eq!(result["structuredContent"]["decision"], "proceed", "{result}");
                        let id = result["structuredContent"]["record_id"].as_str().unwrap().to_owned();
                        acknowledged.lock().unwrap().insert(id);
                    }
                }
            })
        })
        .collect();
    let acknowledged_at_least = |count: usize| {
        let acknowledged = Arc::clone(&acknowledged);
        async move {
            let since = Instant::now();
            while acknowledged.lock().unwrap().len() < count && since.elapsed() < Duration::from_secs(30) {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        }
    };
    acknowledged_at_least(10).await;

    // A crash, not a clean shutdown: committed records must survive it.
    cluster.crash();
    let mut down = order("shoe-003");
    down["request"] = json!(format!("{REQUEST}, while the database is down"));
    let failed = session.check(down.clone()).await.unwrap();
    assert_eq!(failed["isError"], true, "no result without its record: {failed}");
    assert!(failed.to_string().contains("could not be sealed as evidence: do not pay"), "{failed}");
    // A new process refuses to start on an unreachable database, naming it.
    let refused = Command::new(BIN)
        .args(["check", "--request", REQUEST, "--cart"])
        .arg(directory.path().join("facts.json"))
        .args(["--store", &url, "--data-dir"])
        .arg(directory.path().join("cli"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--store") && stderr.contains(&format!("127.0.0.1:{}", cluster.port)), "{stderr}");

    cluster.start();
    // The pool replaces the connections the restart closed.
    let since = Instant::now();
    let recovered = loop {
        let result = session.check(down.clone()).await.unwrap();
        if result["isError"] != true || since.elapsed() > Duration::from_secs(30) {
            break result;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(recovered["structuredContent"]["decision"], "proceed", "{recovered}");
    let recovered_after = since.elapsed();
    let at_recovery = acknowledged.lock().unwrap().len();
    acknowledged_at_least(at_recovery + 10).await;
    stop.store(true, Ordering::SeqCst);
    for client in clients {
        tokio::time::timeout(Duration::from_secs(30), client).await.expect("clients end").unwrap();
    }

    let acknowledged = acknowledged.lock().unwrap().clone();
    let sealed = sealed_ids(&url).await;
    let missing: Vec<_> = acknowledged.difference(&sealed).collect();
    assert!(missing.is_empty(), "acknowledged but lost in the crash: {missing:?}");
    assert!(acknowledged.len() >= at_recovery + 10, "the load recovered too");
    assert!(refusals.load(Ordering::SeqCst) > 0, "the load met the outage");
    for id in [&before, &recovered].map(|result| result["structuredContent"]["record_id"].as_str().unwrap()) {
        assert!(sealed.contains(id), "{id}");
    }
    let (ok, report) = evidence(&url, &["verify"]);
    assert!(ok, "{report}");
    eprintln!(
        "database crash under load: {} refused with the clear error, recovered after {recovered_after:?}, \
         {} acknowledged all among {} sealed, {report}",
        refusals.load(Ordering::SeqCst),
        acknowledged.len(),
        sealed.len()
    );
}

#[tokio::test]
#[ignore = "needs PostgreSQL: run scripts/postgres.sh start, export ASASKED_TEST_DATABASE_URL, then cargo test --locked -- --ignored (or .ci/run)"]
async fn a_log_is_imported_once_and_verifies_with_the_same_head() {
    let admin = admin_url();
    let url = fresh_database(&admin, "import").await;
    let again = Command::new(BIN).args(["store", "migrate", "--store", &url]).output().unwrap();
    assert!(again.status.success() && !String::from_utf8_lossy(&again.stdout).contains("applied"));
    let directory = tempfile::tempdir().unwrap();
    let facts = facts_file(directory.path());
    let data = directory.path().join("data");
    let cart = directory.path().join("cart.json");
    for item in ["shoe-003", "shoe-002"] {
        std::fs::write(&cart, format!(r#"[{{"id": "{item}", "quantity": 1}}]"#)).unwrap();
        let output = Command::new(BIN)
            .args(["check", "--request", REQUEST, "--today", "2026-11-02", "--store", "embedded", "--cart"])
            .arg(&cart)
            .arg("--data-dir")
            .arg(&data)
            .arg("--extractors")
            .arg(format!("fixed:{}", facts.display()))
            .output()
            .unwrap();
        assert!(output.status.code().is_some_and(|code| code < 2), "{}", String::from_utf8_lossy(&output.stderr));
    }
    let log = Command::new(BIN).args(["evidence", "verify", "--data-dir"]).arg(&data).output().unwrap();
    let log = String::from_utf8_lossy(&log.stdout).into_owned();
    let import = |data: &Path| Command::new(BIN).args(["store", "import", "--store", &url]).arg(data).output().unwrap();
    let imported = import(&data);
    assert!(imported.status.success(), "{}", String::from_utf8_lossy(&imported.stderr));
    let (ok, report) = evidence(&url, &["verify"]);
    assert!(ok && report == log && log.starts_with("ok: 2 records"), "{report} vs {log}");
    // The records are the log's lines: every one reads back the same.
    let lines = std::fs::read_to_string(data.join("evidence.jsonl")).unwrap();
    let first: Value = serde_json::from_str(lines.lines().next().unwrap()).unwrap();
    let (_, shown) = evidence(&url, &["show", first["record_id"].as_str().unwrap()]);
    assert_eq!(serde_json::from_str::<Value>(&shown).unwrap(), first);

    let twice = import(&data);
    assert_eq!(twice.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&twice.stderr).contains("already holds 2 records"));
    let client = connect(&url).await;
    for statement in ["DELETE FROM asasked_evidence", "UPDATE asasked_evidence SET line = line WHERE seq = 1"] {
        let error = client.execute(statement, &[]).await.unwrap_err();
        let message = error.as_db_error().map(|error| error.message().to_owned()).unwrap_or_default();
        assert!(message.contains("append-only"), "{statement}: {error:?}");
    }

    // Only an owner who drops the guard can alter a record, and verify sees it.
    client
        .batch_execute(
            "ALTER TABLE asasked_evidence DISABLE TRIGGER asasked_evidence_append_only; \
             UPDATE asasked_evidence SET line = replace(line, 'EU 41', 'EU 42') WHERE seq = 2",
        )
        .await
        .unwrap();
    let (ok, report) = evidence(&url, &["verify"]);
    assert!(!ok && report.contains("BROKEN at line 2") && report.contains("altered"), "{report}");
    let second: Value = serde_json::from_str(lines.lines().nth(1).unwrap()).unwrap();
    let (ok, _) = evidence(&url, &["show", second["record_id"].as_str().unwrap()]);
    assert!(!ok, "show refuses a record whose hash no longer matches");

    // A database nobody migrated is refused before any check, naming the command.
    let admin_client = connect(&admin).await;
    let name = format!("asasked_unmigrated_{}", std::process::id());
    admin_client.batch_execute(&format!("DROP DATABASE IF EXISTS {name}")).await.unwrap();
    admin_client.batch_execute(&format!("CREATE DATABASE {name}")).await.unwrap();
    let unmigrated = format!("{}/{name}", admin.rsplit_once('/').unwrap().0);
    let refused = Command::new(BIN)
        .args(["serve", "--http", "127.0.0.1:0", "--store", &unmigrated, "--data-dir"])
        .arg(directory.path().join("unmigrated"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("schema version 0") && stderr.contains("asasked store migrate"), "{stderr}");
}

/// Counts its calls; returns the same colour for any request.
struct Counting(Arc<AtomicUsize>);

impl Extractor for Counting {
    fn name(&self) -> &str {
        "counting"
    }

    fn extract<'a>(&'a self, _input: &'a ExtractInput) -> ExtractFuture<'a> {
        self.0.fetch_add(1, Ordering::SeqCst);
        Box::pin(async move {
            let mut raw = empty_facts_value();
            raw["color"] = json!("white");
            Ok(Extraction { extracted: validate(&raw)?, raw, cost: Cost::default() })
        })
    }
}

#[tokio::test]
#[ignore = "needs PostgreSQL: run scripts/postgres.sh start, export ASASKED_TEST_DATABASE_URL, then cargo test --locked -- --ignored (or .ci/run)"]
async fn a_second_instance_takes_facts_from_the_shared_cache() {
    let admin = admin_url();
    let url = fresh_database(&admin, "cache").await;
    let calls = Arc::new(AtomicUsize::new(0));
    // Two instances: each its own pool, extractor set and in-memory cache.
    let instance = || {
        let store = asasked::pg::PgStore::new(&url).unwrap();
        let extractors = vec![Arc::new(Counting(Arc::clone(&calls))) as Arc<dyn Extractor>];
        let set = ExtractorSet::new(extractors, None, Duration::from_secs(10), NonZeroUsize::new(8).unwrap())
            .unwrap()
            .with_shared_cache(Arc::new(store.clone()));
        Service::new(Arc::new(set), None, store, Arc::new(SystemClock))
    };
    let (first, second) = (instance(), instance());
    let check = |today: &str, colour: &str| CheckRequest {
        request: "white shoes".into(),
        cart: json!([{"name": "Shoe", "color": colour, "quantity": 1}]),
        answers: Vec::new(),
        today: Some(today.into()),
        allowed_items: None,
        previous_record_id: None,
        format: None,
        language: None,
        fx: Vec::new(),
    };
    let one = first.check_order(check("2026-11-02", "white")).await.unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    let two = second.check_order(check("2026-11-02", "black")).await.unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 1, "the second instance extracted nothing");
    assert_eq!(one.facts, two.facts);
    assert_ne!((one.decision, &one.record_id), (two.decision, &two.record_id));
    // Another day is another key: extracted again.
    second.check_order(check("2026-11-03", "white")).await.unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 2);
    let (ok, report) = evidence(&url, &["verify"]);
    assert!(ok && report.starts_with("ok: 3 records"), "{report}");
}

#[test]
fn the_embedded_default_needs_no_database() {
    let directory = tempfile::tempdir().unwrap();
    let facts = facts_file(directory.path());
    let cart = directory.path().join("cart.json");
    std::fs::write(&cart, r#"[{"id": "shoe-003", "quantity": 1}]"#).unwrap();
    let data = directory.path().join("data");
    let output = Command::new(BIN)
        .args(["check", "--request", REQUEST, "--today", "2026-11-02", "--cart"])
        .arg(&cart)
        .arg("--data-dir")
        .arg(&data)
        .arg("--extractors")
        .arg(format!("fixed:{}", facts.display()))
        .env_remove("ASASKED_DATABASE_URL")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(data.join("evidence.jsonl").is_file());
    // The variable selects a database; `--store embedded` overrides it.
    let unreachable = "postgres://nobody@127.0.0.1:1/none";
    let with = |store: Option<&str>| {
        let mut command = Command::new(BIN);
        command
            .args(["check", "--request", REQUEST, "--today", "2026-11-02", "--cart"])
            .arg(&cart)
            .arg("--data-dir")
            .arg(&data)
            .arg("--extractors")
            .arg(format!("fixed:{}", facts.display()))
            .env("ASASKED_DATABASE_URL", unreachable);
        if let Some(store) = store {
            command.args(["--store", store]);
        }
        command.output().unwrap()
    };
    assert_eq!(with(Some("embedded")).status.code(), Some(0));
    let refused = with(None);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("127.0.0.1:1/none"));
    let bad = Command::new(BIN).args(["evidence", "verify", "--store", "mysql://x"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("postgres://"));
}

/// Two instances (two pools) race twenty resubmissions against one record:
/// the link rules hold across instances and batches, so exactly one extends
/// the chain and every other is told which record superseded it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: run scripts/postgres.sh start, export ASASKED_TEST_DATABASE_URL, then cargo test --locked -- --ignored (or .ci/run)"]
async fn concurrent_resubmissions_on_two_instances_extend_a_record_once() {
    use asasked::evidence::{Appended, Draft, LinkError, RecordStore};
    let admin = admin_url();
    let url = fresh_database(&admin, "race").await;
    let instances = [asasked::pg::PgStore::new(&url).unwrap(), asasked::pg::PgStore::new(&url).unwrap()];
    let draft = |record_id: String, previous: Option<&str>| Draft {
        record_id,
        previous_record_id: previous.map(str::to_owned),
        request: REQUEST.to_owned(),
        sealed_at: "2026-11-02T10:00:00Z".to_owned(),
        body: json!({"n": 1}).into(),
    };
    let first = instances[0].append(draft("rec_first".into(), None)).await.unwrap().unwrap();
    assert!(matches!(first, Appended::New(_)));
    let tasks: Vec<_> = (0..20)
        .map(|number| {
            let store = instances[number % 2].clone();
            let draft = draft(format!("rec_{number}"), Some("rec_first"));
            tokio::spawn(async move { store.append(draft).await.unwrap() })
        })
        .collect();
    let mut sealed = Vec::new();
    let mut refused = 0;
    for task in tasks {
        match task.await.unwrap() {
            Ok(Appended::New(record)) => sealed.push(record.record_id.clone()),
            Err(LinkError::NotHead(previous, successor)) => {
                assert_eq!(previous, "rec_first");
                assert!(successor.starts_with("rec_"), "{successor}");
                refused += 1;
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!((sealed.len(), refused), (1, 19), "{sealed:?}");
    // Both instances read the winner, and the chain verifies.
    for store in &instances {
        assert_eq!(store.successor("rec_first").await.unwrap().as_deref(), Some(sealed[0].as_str()));
        assert_eq!(store.get(&sealed[0]).await.unwrap().unwrap().attempt, 2);
    }
    let (ok, report) = evidence(&url, &["verify"]);
    assert!(ok && report.starts_with("ok: 2 records"), "{report}");
}

/// A service on the database at `url` (its own pool, as another instance
/// has), with the fixed facts of `FACTS`, the embedded catalog and the
/// receipt keys of `keys` (instances behind one address share them).
fn pg_service(url: &str, facts: &Path, keys: &Path) -> (Service, asasked::pg::PgStore) {
    let names = [asasked::extract::name::ExtractorName::Fixed(facts.to_path_buf())];
    let extractors = Arc::new(asasked::extractors::build(&names, &|_| None).unwrap());
    let catalog = Some(Arc::new(asasked::catalog::Catalog::embedded().unwrap()));
    let store = asasked::pg::PgStore::new(url).unwrap();
    let ring = asasked::receipt::KeyRing::open_or_create(keys).unwrap();
    let service = Service::new(extractors, catalog, store.clone(), Arc::new(SystemClock)).with_receipts(Arc::new(ring));
    (service, store)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: run scripts/postgres.sh start, export ASASKED_TEST_DATABASE_URL, then cargo test --locked -- --ignored (or .ci/run)"]
async fn two_instances_sharing_postgres_never_redeem_one_verdict_twice() {
    let url = fresh_database(&admin_url(), "redeem").await;
    let directory = tempfile::tempdir().unwrap();
    let facts = directory.path().join("facts.json");
    std::fs::write(&facts, FACTS).unwrap();
    let keys = directory.path().join("keys");
    let mut bases = Vec::new();
    for _ in 0..2 {
        let (service, store) = pg_service(&url, &facts, &keys);
        let server = asasked::mcp::CheckServer::new(service, false);
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        bases.push(format!("http://{}", listener.local_addr().unwrap()));
        let options =
            asasked::mcp::HttpOptions { ledger: Some(Arc::new(store)), ..asasked::mcp::HttpOptions::default() };
        tokio::spawn(asasked::mcp::serve_http(server, listener, options, std::future::pending()));
    }
    // The check on the first instance; its receipt redeemed on both.
    let (service, _) = pg_service(&url, &facts, &keys);
    let arguments = json!({"request": REQUEST, "cart": [{"id": "shoe-003", "quantity": 1}], "today": "2026-11-02"});
    let result = service.check_order(serde_json::from_value::<CheckRequest>(arguments).unwrap()).await.unwrap();
    let receipt = result.receipt.clone().expect("a proceed is signed");
    let body = json!({"receipt": receipt, "cart": [{"id": "shoe-003", "quantity": 1}]});
    let http = reqwest::Client::builder().timeout(Duration::from_secs(30)).build().unwrap();
    let storm: Vec<_> = (0..50)
        .map(|index| {
            let (http, body, base) = (http.clone(), body.clone(), bases[index % 2].clone());
            tokio::spawn(async move {
                let response = http
                    .post(format!("{base}/v1/redemptions"))
                    .header("Idempotency-Key", format!("storm-{index}"))
                    .json(&body)
                    .send()
                    .await
                    .unwrap();
                assert_eq!(response.status().as_u16(), 200);
                response.json::<Value>().await.unwrap()
            })
        })
        .collect();
    let mut outcomes = Vec::new();
    for outcome in storm {
        outcomes.push(outcome.await.unwrap());
    }
    let succeeded = outcomes.iter().filter(|outcome| outcome["status"] == "succeeded").count();
    let already = outcomes.iter().filter(|outcome| outcome["reason"] == "already_redeemed").count();
    assert_eq!((succeeded, already), (1, 49), "{outcomes:?}");
    eprintln!("50 concurrent redemptions through two instances on PostgreSQL: 1 succeeded, 49 already_redeemed");
    // Every outcome committed once; a replay on the other instance gets the first answer.
    let client = connect(&url).await;
    let rows: i64 = client.query_one("SELECT count(*) FROM asasked_redemptions", &[]).await.unwrap().get(0);
    assert_eq!(rows, 50);
    let winner = outcomes.iter().find(|outcome| outcome["status"] == "succeeded").unwrap();
    let key = winner["request_id"].as_str().unwrap();
    let index: usize = key.trim_start_matches("storm-").parse().unwrap();
    let replay: Value = http
        .post(format!("{}/v1/redemptions", bases[(index + 1) % 2]))
        .header("Idempotency-Key", key)
        .json(&body)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(&replay, winner);
    // Append-only: a recorded outcome cannot be changed.
    assert!(client.execute("DELETE FROM asasked_redemptions", &[]).await.is_err());
}
