//! Load and speed over Streamable HTTP (issue 5, "Load and speed").
//!
//! Spawns the built `asasked serve --http 127.0.0.1:0` as its own process (so
//! its RSS is the server's alone) and drives it with MCP clients speaking
//! JSON-RPC over HTTP/1.1 on loopback, one session per client. Every run is
//! bounded by a count and a time and stops by itself. The clients share the
//! machine's cores with the server: the figures are for both together.
//!
//! Each load line also prints the CPU time (user + system) per check of the
//! server process and of this process (the clients), read from /proc: a
//! steadier measure than checks/s when other work shares the cores.
//!
//! Scenarios (all printed as one line each):
//! - `load/new/disk` and `load/new/tmpfs`: one request text (facts cached
//!   after the first check), a different cart per check, so every check
//!   seals and fsyncs a new record; the data dir on the real disk, then on
//!   /dev/shm, which separates the fsync's cost from the CPU's.
//! - `load/replay`: the very same check again and again: the record exists,
//!   nothing is appended.
//! - `e2e/providers/disk` and `/tmpfs`: two OpenAI-compatible loopback
//!   providers answering after 300 ms and 500 ms; distinct requests (no cache
//!   hit); the check's wall time minus 500 ms, sequential checks.
//! - `brief/stdio/disk` and `/tmpfs` (issue 14): the same two providers;
//!   over stdio (the server as a client spawns it), for each of
//!   `LOAD_BRIEF_ORDERS` (100) distinct requests, `brief_order` and then
//!   `check_order` with the same request and today; the check's wall time
//!   (facts reused from the brief, so no model call; the record sealed and
//!   fsynced), median and p99.
//! - `elicit2026/stdio/tmpfs` (issue 14): the same asks for a 2026-07-28
//!   client (no `initialize`): each comes back as an `input_required`
//!   round, and the retry with the reply is timed.
//! - `elicit/stdio/tmpfs` (issue 14): over stdio with `rules`, a client
//!   that declared form elicitation; per order a plain check, then an ask
//!   (a cart in the wrong size) whose form the client accepts: the server's
//!   time from the reply to the final result (the answer sealed as the next
//!   record and re-checked), beside the plain check's.
//! - `store/embedded/1|2` and `store/postgres/1|2` (issue 16): the
//!   `load/new` load (every check a new sealed record) on one or two
//!   instances, the clients spread over them; embedded: each instance its
//!   own data dir on disk (two chains, nothing shared); postgres: one fresh
//!   database that both share (`--store`), through `LOAD_DATABASE_URL` (a
//!   superuser URL, e.g. the one `scripts/postgres.sh start` prints; the
//!   scenario is skipped without it). `store/postgres-apart/2`: two
//!   instances, each on a database of its own (one chain per instance, the
//!   commit path of issue 16's option (b), for comparison).
//! - `store/shared/disk/1|4` and `store/shared/tmpfs/1|4` (issue 31): the
//!   `load/new` load on one or four instances that share one data dir (one
//!   embedded log, one chain; each batch under the log's `flock`), the
//!   clients spread over them.
//! - `memory`: RSS of the idle server, then after each stage of 100,000
//!   checks with distinct requests (the facts cache holds 256).
//!
//! Run: `cargo bench --bench load` (or `scripts/bench.sh`). Environment:
//! `LOAD_CLIENTS` (8), `LOAD_CHECKS` (30000 per load run), `LOAD_SECONDS`
//! (15 per load run), `LOAD_MEMORY_CHECKS` (100000), `LOAD_BRIEF_ORDERS`
//! (100), `LOAD_DATABASE_URL` (for `store/postgres/…`), `LOAD_ONLY` (a
//! scenario prefix, e.g. `load/new` or `store/`).

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use asasked::extract::schema::empty_facts_value;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};

const BIN: &str = env!("CARGO_BIN_EXE_asasked");
const REQUEST: &str = "Nike Pegasus 41 running shoes, white, size 42, under $150, must arrive within 5 days";
const TODAY: &str = "2026-11-02";
const PROTOCOL: &str = "2025-06-18";
const WARM_UP: u64 = 200;
const SLOW_PROVIDER: Duration = Duration::from_millis(500);
const FAST_PROVIDER: Duration = Duration::from_millis(300);

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|value| value.parse().ok()).unwrap_or(default)
}

/// A spawned server and the URL of its MCP endpoint.
struct Server {
    child: tokio::process::Child,
    pid: u32,
    url: String,
}

impl Server {
    async fn start(data_dir: &Path, extractor_arguments: &[String]) -> Server {
        let mut child = tokio::process::Command::new(BIN)
            .args(["serve", "--http", "127.0.0.1:0", "--catalog", "none", "--data-dir"])
            .arg(data_dir)
            .args(extractor_arguments)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("spawn asasked serve");
        let pid = child.id().expect("pid");
        let stderr = child.stderr.take().expect("stderr");
        let mut lines = BufReader::new(stderr).lines();
        let url = loop {
            let line = tokio::time::timeout(Duration::from_secs(30), lines.next_line())
                .await
                .expect("the server did not start within 30 s")
                .expect("read stderr")
                .expect("the server exited before listening");
            if let Some(url) = line.strip_prefix("asasked: serving MCP at ") {
                break url.trim().to_owned();
            }
        };
        // Keep draining stderr so the server never blocks on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        Server { child, pid, url }
    }

    /// (VmRSS, VmHWM) in KiB.
    fn memory(&self) -> (u64, u64) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid)).unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find_map(|line| line.strip_prefix(name))
                .and_then(|rest| rest.split_whitespace().next())
                .and_then(|kib| kib.parse().ok())
                .unwrap_or(0)
        };
        (field("VmRSS:"), field("VmHWM:"))
    }

    /// SIGTERM, then wait: the server drains and seals what is in flight.
    async fn stop(mut self) {
        let _ = Command::new("kill").arg("-TERM").arg(self.pid.to_string()).status();
        let _ = tokio::time::timeout(Duration::from_secs(30), self.child.wait()).await;
    }
}

/// One MCP session over HTTP.
struct Client {
    http: reqwest::Client,
    url: String,
    session: String,
    next_id: u64,
}

impl Client {
    async fn connect(url: &str) -> Client {
        let http = reqwest::Client::builder().http1_only().pool_max_idle_per_host(4).build().expect("client");
        let initialize = json!({
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": "load", "version": "0"}},
        });
        let response = http
            .post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(initialize.to_string())
            .send()
            .await
            .expect("initialize");
        let session = response
            .headers()
            .get("mcp-session-id")
            .and_then(|value| value.to_str().ok())
            .expect("a session id")
            .to_owned();
        let _ = response.text().await;
        let mut client = Client { http, url: url.to_owned(), session, next_id: 1 };
        client.post(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;
        client
    }

    async fn post(&mut self, body: Value) -> Option<Value> {
        let response = self
            .http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-session-id", &self.session)
            .header("mcp-protocol-version", PROTOCOL)
            .body(body.to_string())
            .send()
            .await
            .ok()?;
        let text = response.text().await.ok()?;
        // An SSE stream: the JSON-RPC reply is the `data:` line that parses.
        text.lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
            .find(|value| value.get("id").is_some())
            .or_else(|| serde_json::from_str(&text).ok())
    }

    /// One `check_order` call; the decision, or `None` on any error.
    async fn check(&mut self, arguments: Value) -> Option<String> {
        let id = self.next_id;
        self.next_id += 1;
        let reply = self
            .post(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                "params": {"name": "check_order", "arguments": arguments}}))
            .await?;
        let result = reply.get("result")?;
        if result.get("isError").and_then(Value::as_bool) == Some(true) {
            return None;
        }
        result.pointer("/structuredContent/decision").and_then(Value::as_str).map(str::to_owned)
    }
}

fn cart(variant: u64) -> Value {
    json!([{
        "item": {
            "id": format!("bench-{variant}"), "brand": "Nike", "name": "Nike Pegasus 41",
            "color": "White/Black", "size": "EU 42", "final_sale": false, "delivery_days": 3,
            "units": 1, "price_cents": 12999, "currency": "USD",
        },
        "quantity": 1,
    }])
}

fn arguments(request: &str, variant: u64) -> Value {
    json!({"request": request, "cart": cart(variant), "today": TODAY})
}

fn percentile(sorted: &[Duration], fraction: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let index = ((sorted.len() as f64 - 1.0) * fraction).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}

fn millis(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

/// CPU time (user + system) of process `pid` so far, all threads.
fn cpu_time(pid: &str) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name, which is in parentheses and may hold spaces.
    let fields: Vec<&str> =
        stat.rsplit_once(')').map(|(_, rest)| rest.split_whitespace().collect()).unwrap_or_default();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after `)`.
    let ticks: u64 = [11, 12].iter().filter_map(|index| fields.get(*index)?.parse::<u64>().ok()).sum();
    // USER_HZ is 100 on Linux.
    Duration::from_millis(ticks * 10)
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|text| text.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// What a variant number becomes: a new cart each time, or always the same.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    NewRecord,
    Replay,
}

/// N clients, each checking in a loop until the shared count or the time
/// runs out.
async fn load(name: &str, data_dir: &Path, mode: Mode) {
    let server = Server::start(data_dir, &["--extractors".into(), "rules".into()]).await;
    load_on(name, vec![server], mode).await;
}

/// The load of [`load`] spread over `servers` (client i talks to server
/// i mod n, as a round-robin balancer would place its session); CPU per
/// check and peak RSS are the servers' together.
async fn load_on(name: &str, servers: Vec<Server>, mode: Mode) {
    let clients = setting("LOAD_CLIENTS", 8);
    let limit = setting("LOAD_CHECKS", 30_000);
    let seconds = setting("LOAD_SECONDS", 15);
    let urls: Vec<String> = servers.iter().map(|server| server.url.clone()).collect();
    // Warm-up: the first check extracts and caches the facts; the rest warm
    // the connections and the allocator.
    for url in &urls {
        let mut client = Client::connect(url).await;
        for variant in 0..WARM_UP {
            let variant = if mode == Mode::Replay { 0 } else { 1_000_000_000 + variant };
            client.check(arguments(REQUEST, variant)).await.expect("warm-up check");
        }
    }
    let counter = Arc::new(AtomicU64::new(0));
    let failures = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let servers_cpu = |servers: &[Server]| servers.iter().map(|server| cpu_time(&server.pid.to_string())).sum();
    let server_cpu: Duration = servers_cpu(&servers);
    let client_cpu = cpu_time("self");
    let started = Instant::now();
    let mut tasks = Vec::new();
    for index in 0..clients {
        let (counter, failures) = (Arc::clone(&counter), Arc::clone(&failures));
        let url = urls[index as usize % urls.len()].clone();
        tasks.push(tokio::spawn(async move {
            let mut client = Client::connect(&url).await;
            let mut latencies = Vec::new();
            loop {
                let number = counter.fetch_add(1, Ordering::Relaxed);
                if number >= limit || Instant::now() >= deadline {
                    break;
                }
                let variant = if mode == Mode::Replay { 0 } else { number };
                let sent = Instant::now();
                if client.check(arguments(REQUEST, variant)).await.is_none() {
                    failures.fetch_add(1, Ordering::Relaxed);
                }
                latencies.push(sent.elapsed());
            }
            latencies
        }));
    }
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.extend(task.await.expect("client task"));
    }
    let elapsed = started.elapsed();
    let server_cpu = servers_cpu(&servers).saturating_sub(server_cpu);
    let client_cpu = cpu_time("self").saturating_sub(client_cpu);
    latencies.sort();
    let peak: u64 = servers.iter().map(|server| server.memory().1).sum();
    for server in servers {
        server.stop().await;
    }
    println!(
        "{name:<16} {clients} clients  {count} checks in {secs:.2} s  {rate:.0} checks/s  p50 {p50:.2} ms  p99 {p99:.2} ms  max {max:.2} ms  failed {failed}  peak RSS {peak_mib:.1} MiB  CPU/check server {server_us:.0} µs, clients {client_us:.0} µs  load {load}",
        count = latencies.len(),
        secs = elapsed.as_secs_f64(),
        rate = latencies.len() as f64 / elapsed.as_secs_f64(),
        p50 = millis(percentile(&latencies, 0.50)),
        p99 = millis(percentile(&latencies, 0.99)),
        max = millis(percentile(&latencies, 1.0)),
        failed = failures.load(Ordering::Relaxed),
        peak_mib = peak as f64 / 1024.0,
        server_us = server_cpu.as_secs_f64() * 1e6 / latencies.len().max(1) as f64,
        client_us = client_cpu.as_secs_f64() * 1e6 / latencies.len().max(1) as f64,
        load = load_average(),
    );
}

/// Sealed checks/s with `instances` servers (issue 16): on the embedded
/// log (each instance its own data dir and chain: nothing shared; with
/// `shared_data_dir`, issue 31, one data dir and one chain for all of them,
/// as the stdio servers of several Claude windows share the default one), or
/// on one PostgreSQL database all of them share (`--store`), a fresh
/// database created through `LOAD_DATABASE_URL` and migrated by the binary.
/// With `per_instance`, each instance gets a database of its own: one head
/// row per instance, the commit path a chain per instance would have (issue
/// 16's option (b)), without its shared lookups.
async fn store_load(
    name: &str,
    work: &Path,
    instances: usize,
    database: Option<&str>,
    per_instance: bool,
    shared_data_dir: bool,
) {
    let databases = if per_instance { instances } else { 1 };
    let mut stores = Vec::new();
    if let Some(admin) = database {
        let (client, connection) =
            tokio_postgres::connect(admin, tokio_postgres::NoTls).await.expect("LOAD_DATABASE_URL");
        tokio::spawn(connection);
        for number in 0..databases {
            let database = format!("asasked_load_{}_{}_{number}", std::process::id(), name.replace(['/', '-'], "_"));
            client.batch_execute(&format!("DROP DATABASE IF EXISTS {database}")).await.expect("drop database");
            client.batch_execute(&format!("CREATE DATABASE {database}")).await.expect("create database");
            let url = format!("{}/{database}", admin.rsplit_once('/').expect("a URL with a database").0);
            let migrate = Command::new(BIN).args(["store", "migrate", "--store", &url]).output().expect("migrate");
            assert!(migrate.status.success(), "{}", String::from_utf8_lossy(&migrate.stderr));
            stores.push(vec!["--store".to_owned(), url]);
        }
    }
    let mut servers = Vec::new();
    for instance in 0..instances {
        let mut extra = vec!["--extractors".to_owned(), "rules".to_owned()];
        if let Some(store) = stores.get(instance % databases) {
            extra.extend(store.iter().cloned());
        }
        let data_dir = if shared_data_dir { name.to_owned() } else { format!("{name}-{instance}") };
        servers.push(Server::start(&work.join(data_dir.replace('/', "-")), &extra).await);
    }
    load_on(name, servers, Mode::NewRecord).await;
}

/// An OpenAI-compatible server that answers every chat completion with the
/// same facts after `delay`.
async fn fake_provider(delay: Duration) -> String {
    let mut facts = empty_facts_value();
    facts["brand"] = json!("Nike");
    facts["model"] = json!("Pegasus 41");
    facts["color"] = json!("white");
    facts["size_label"] = json!("42");
    let reply = json!({
        "id": "chatcmpl-1", "object": "chat.completion", "model": "fake",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": facts.to_string(), "refusal": null},
            "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 50, "total_tokens": 150},
    });
    let router = axum::Router::new().fallback(move || {
        let reply = reply.clone();
        async move {
            tokio::time::sleep(delay).await;
            axum::Json(reply)
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = listener.local_addr().expect("address");
    tokio::spawn(async move { axum::serve(listener, router).await });
    format!("http://{address}/v1")
}

async fn end_to_end(name: &str, work: &Path, data_dir: &Path) {
    let fast = fake_provider(FAST_PROVIDER).await;
    let slow = fake_provider(SLOW_PROVIDER).await;
    let config = work.join("extractors.toml");
    std::fs::write(
        &config,
        format!(
            "[extractors.fast]\nprovider = \"openai\"\nbase_url = \"{fast}\"\nmodel = \"fake\"\nmax_retries = 0\n\n\
             [extractors.slow]\nprovider = \"openai\"\nbase_url = \"{slow}\"\nmodel = \"fake\"\nmax_retries = 0\n"
        ),
    )
    .expect("write extractors.toml");
    let extractor_arguments =
        vec!["--extractors-config".into(), config.display().to_string(), "--extractors".into(), "fast,slow".into()];
    // The slow provider's own latency as a client sees it (its timer's
    // overshoot and one loopback round trip), to subtract too.
    let direct = reqwest::Client::new();
    let mut baseline = Vec::new();
    for _ in 0..5 {
        let sent = Instant::now();
        let response = direct.post(format!("{slow}/chat/completions")).body("{}").send().await.expect("provider");
        let _ = response.bytes().await;
        baseline.push(sent.elapsed());
    }
    baseline.sort();
    let slow_latency = percentile(&baseline, 0.5);
    let server = Server::start(data_dir, &extractor_arguments).await;
    let mut client = Client::connect(&server.url).await;
    // One untimed check opens the server's connections to both providers.
    client.check(arguments("warm-up: Nike Pegasus 41, white, size 42", 0)).await.expect("warm-up");
    let mut overheads = Vec::new();
    let mut beyond_measured = Vec::new();
    for number in 0..20 {
        let request = format!("Nike Pegasus 41, white, size 42 please (order {number})");
        let sent = Instant::now();
        let decision = client.check(arguments(&request, number)).await;
        let wall = sent.elapsed();
        assert!(decision.is_some(), "check {number} failed");
        overheads.push(wall.saturating_sub(SLOW_PROVIDER));
        beyond_measured.push(wall.saturating_sub(slow_latency));
    }
    server.stop().await;
    overheads.sort();
    beyond_measured.sort();
    println!(
        "{name:<16} 20 checks, providers 300 ms + 500 ms: wall − 500 ms  median {:.2} ms  min {:.2} ms  max {:.2} ms; \
         wall − the slow provider's measured {:.2} ms  median {:.2} ms  load {}",
        millis(percentile(&overheads, 0.5)),
        millis(percentile(&overheads, 0.0)),
        millis(percentile(&overheads, 1.0)),
        millis(slow_latency),
        millis(percentile(&beyond_measured, 0.5)),
        load_average(),
    );
}

/// `asasked serve` over stdio, spoken to as a client does: one JSON-RPC
/// message per line.
struct StdioServer {
    child: tokio::process::Child,
    stdin: tokio::process::ChildStdin,
    lines: tokio::io::Lines<BufReader<tokio::process::ChildStdout>>,
    next_id: u64,
}

impl StdioServer {
    async fn start(data_dir: &Path, extractor_arguments: &[String]) -> StdioServer {
        StdioServer::start_declaring(data_dir, extractor_arguments, json!({})).await
    }

    /// A session whose client declares `capabilities` (e.g. elicitation).
    async fn start_declaring(data_dir: &Path, extractor_arguments: &[String], capabilities: Value) -> StdioServer {
        let mut server = StdioServer::spawn(data_dir, extractor_arguments);
        server
            .request(
                "initialize",
                json!({"protocolVersion": PROTOCOL, "capabilities": capabilities, "clientInfo": {"name": "load", "version": "0"}}),
            )
            .await;
        server.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;
        server
    }

    /// A 2026-07-28 client, which sends no `initialize`: every request
    /// carries the protocol version and the client's capabilities in `_meta`.
    async fn start_stateless(data_dir: &Path, extractor_arguments: &[String]) -> StdioServer {
        StdioServer::spawn(data_dir, extractor_arguments)
    }

    /// The server process, its stderr drained, nothing sent yet.
    fn spawn(data_dir: &Path, extractor_arguments: &[String]) -> StdioServer {
        let mut child = tokio::process::Command::new(BIN)
            .args(["serve", "--catalog", "none", "--data-dir"])
            .arg(data_dir)
            .args(extractor_arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("spawn asasked serve");
        let stdin = child.stdin.take().expect("stdin");
        let lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let mut stderr = BufReader::new(child.stderr.take().expect("stderr")).lines();
        tokio::spawn(async move { while let Ok(Some(_)) = stderr.next_line().await {} });
        StdioServer { child, stdin, lines, next_id: 0 }
    }

    async fn send(&mut self, message: Value) {
        use tokio::io::AsyncWriteExt;
        let mut line = message.to_string();
        line.push('\n');
        self.stdin.write_all(line.as_bytes()).await.expect("write to the server");
        self.stdin.flush().await.expect("flush");
    }

    /// Sends one request and waits for its reply.
    async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})).await;
        loop {
            let line = tokio::time::timeout(Duration::from_secs(30), self.lines.next_line())
                .await
                .expect("no reply within 30 s")
                .expect("read stdout")
                .expect("the server closed stdout");
            if let Ok(reply) = serde_json::from_str::<Value>(&line)
                && reply.get("id") == Some(&json!(id))
            {
                return reply;
            }
        }
    }

    async fn call_tool(&mut self, name: &str, arguments: Value) -> Value {
        let reply = self.request("tools/call", json!({"name": name, "arguments": arguments})).await;
        let result = reply.get("result").unwrap_or_else(|| panic!("{name}: {reply}"));
        assert_ne!(result.get("isError").and_then(Value::as_bool), Some(true), "{name}: {result}");
        result["structuredContent"].clone()
    }

    /// Calls `name`, answering every form the server sends during the call
    /// by accepting each of its choices; returns the result and, per form,
    /// the time from writing the person's reply to the next message from the
    /// server (the next form or the result): the server's share of the
    /// round trip.
    async fn call_tool_accepting(&mut self, name: &str, arguments: Value) -> (Value, Vec<Duration>) {
        let id = self.next_id;
        self.next_id += 1;
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": name, "arguments": arguments}});
        self.send(call).await;
        let mut replied: Option<Instant> = None;
        let mut server_times = Vec::new();
        loop {
            let line = tokio::time::timeout(Duration::from_secs(30), self.lines.next_line())
                .await
                .expect("no reply within 30 s")
                .expect("read stdout")
                .expect("the server closed stdout");
            let Ok(message) = serde_json::from_str::<Value>(&line) else { continue };
            if let Some(sent) = replied.take() {
                server_times.push(sent.elapsed());
            }
            if message["method"] == "elicitation/create" {
                let fields = message["params"]["requestedSchema"]["properties"].as_object().expect("a form");
                let content: serde_json::Map<String, Value> = fields
                    .keys()
                    .filter(|field| field.as_str() != "own_words")
                    .map(|field| (field.clone(), json!("accept")))
                    .collect();
                let reply = json!({"jsonrpc": "2.0", "id": message["id"],
                    "result": {"action": "accept", "content": content}});
                self.send(reply).await;
                replied = Some(Instant::now());
            } else if message.get("id") == Some(&json!(id)) {
                let result = &message["result"];
                assert_ne!(result.get("isError").and_then(Value::as_bool), Some(true), "{name}: {result}");
                return (result["structuredContent"].clone(), server_times);
            }
        }
    }

    /// Calls `name` as a 2026-07-28 client that declared form elicitation:
    /// while the result is `input_required`, accepts every choice of the
    /// form and calls again with the reply and the state; returns the final
    /// result and the time of each retry (the server's share of a round:
    /// open the state, seal the reply, re-check).
    async fn call_tool_in_rounds(&mut self, name: &str, arguments: Value) -> (Value, Vec<Duration>) {
        let meta = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
            "io.modelcontextprotocol/clientInfo": {"name": "load", "version": "0"},
        });
        let mut params = json!({"name": name, "arguments": arguments, "_meta": meta});
        let mut round_times = Vec::new();
        loop {
            let sent = Instant::now();
            let reply = self.request("tools/call", params.clone()).await;
            if params.get("requestState").is_some() {
                round_times.push(sent.elapsed());
            }
            let result = reply.get("result").unwrap_or_else(|| panic!("{name}: {reply}")).clone();
            if result["resultType"] != "input_required" {
                assert_ne!(result.get("isError").and_then(Value::as_bool), Some(true), "{name}: {result}");
                return (result["structuredContent"].clone(), round_times);
            }
            let form = &result["inputRequests"]["ask"]["params"]["requestedSchema"]["properties"];
            let content: serde_json::Map<String, Value> = form
                .as_object()
                .expect("a form")
                .keys()
                .filter(|field| field.as_str() != "own_words")
                .map(|field| (field.clone(), json!("accept")))
                .collect();
            params["inputResponses"] = json!({"ask": {"action": "accept", "content": content}});
            params["requestState"] = result["requestState"].clone();
        }
    }

    /// Closes stdin: the server ends its session and exits.
    async fn stop(mut self) {
        drop(self.stdin);
        let _ = tokio::time::timeout(Duration::from_secs(30), self.child.wait()).await;
    }
}

/// Two loopback providers (300 ms and 500 ms) in an extractors.toml under
/// `work`; the `--extractors-config … --extractors fast,slow` arguments.
async fn slow_providers(work: &Path) -> Vec<String> {
    let fast = fake_provider(FAST_PROVIDER).await;
    let slow = fake_provider(SLOW_PROVIDER).await;
    let config = work.join("extractors.toml");
    std::fs::write(
        &config,
        format!(
            "[extractors.fast]\nprovider = \"openai\"\nbase_url = \"{fast}\"\nmodel = \"fake\"\nmax_retries = 0\n\n\
             [extractors.slow]\nprovider = \"openai\"\nbase_url = \"{slow}\"\nmodel = \"fake\"\nmax_retries = 0\n"
        ),
    )
    .expect("write extractors.toml");
    vec!["--extractors-config".into(), config.display().to_string(), "--extractors".into(), "fast,slow".into()]
}

/// `brief_order`, then `check_order` of the same request and today, over
/// stdio: the check's wall time as the agent sees it at checkout.
async fn brief_then_check(name: &str, work: &Path, data_dir: &Path) {
    let orders = setting("LOAD_BRIEF_ORDERS", 100);
    let extractor_arguments = slow_providers(work).await;
    let mut server = StdioServer::start(data_dir, &extractor_arguments).await;
    // One untimed brief and check open the server's connections to both
    // providers and warm the evidence log.
    let warm_up = "warm-up: Nike Pegasus 41, white, size 42";
    server.call_tool("brief_order", json!({"request": warm_up, "today": TODAY})).await;
    server.call_tool("check_order", arguments(warm_up, 0)).await;
    let mut briefs = Vec::new();
    let mut checks = Vec::new();
    for number in 0..orders {
        let request = format!("Nike Pegasus 41, white, size 42 please (order {number})");
        let sent = Instant::now();
        let brief = server.call_tool("brief_order", json!({"request": request, "today": TODAY})).await;
        briefs.push(sent.elapsed());
        assert!(brief["facts"].is_object(), "brief {number}: {brief}");
        let sent = Instant::now();
        let check = server.call_tool("check_order", arguments(&request, number)).await;
        checks.push(sent.elapsed());
        assert_eq!(check["decision"], "proceed", "check {number}: {check}");
    }
    server.stop().await;
    briefs.sort();
    checks.sort();
    println!(
        "{name:<16} {orders} orders over stdio, providers 300 ms + 500 ms: brief_order median {:.1} ms; \
         check_order after it  median {:.2} ms  p99 {:.2} ms  min {:.2} ms  max {:.2} ms  load {}",
        millis(percentile(&briefs, 0.5)),
        millis(percentile(&checks, 0.5)),
        millis(percentile(&checks, 0.99)),
        millis(percentile(&checks, 0.0)),
        millis(percentile(&checks, 1.0)),
        load_average(),
    );
}

/// An `ask` answered through elicitation over stdio: a client that declared
/// form elicitation accepts the form; the server's time from the person's
/// reply to the final result (it seals the answer as the next record and
/// re-checks), beside a plain sealed check for comparison.
async fn elicit_round_trip(name: &str, data_dir: &Path) {
    let orders = setting("LOAD_BRIEF_ORDERS", 100);
    let rules = ["--extractors".to_owned(), "rules".to_owned()];
    let mut server = StdioServer::start_declaring(data_dir, &rules, json!({"elicitation": {"form": {}}})).await;
    let mut plain = Vec::new();
    let mut after_reply = Vec::new();
    for number in 0..orders {
        let request = format!("Nike Pegasus 41, white, size 42 please (order {number})");
        // A plain sealed check (the facts extracted and cached here).
        let sent = Instant::now();
        let (check, forms) = server.call_tool_accepting("check_order", arguments(&request, number)).await;
        plain.push(sent.elapsed());
        assert!(check["decision"] == "proceed" && forms.is_empty(), "{check}");
        // The same request, a cart in EU 41: an ask, put to the person.
        let mut wrong_size = arguments(&request, 1_000_000 + number);
        wrong_size["cart"][0]["item"]["size"] = json!("EU 41");
        let (result, server_times) = server.call_tool_accepting("check_order", wrong_size).await;
        assert_eq!(result["decision"], "proceed", "{result}");
        assert_eq!(server_times.len(), 1, "one form");
        after_reply.extend(server_times);
    }
    server.stop().await;
    plain.sort();
    after_reply.sort();
    println!(
        "{name:<16} {orders} asks answered through elicitation over stdio (rules): server time from the reply to the \
         result  median {:.2} ms  p99 {:.2} ms; a plain sealed check  median {:.2} ms  p99 {:.2} ms  load {}",
        millis(percentile(&after_reply, 0.5)),
        millis(percentile(&after_reply, 0.99)),
        millis(percentile(&plain, 0.5)),
        millis(percentile(&plain, 0.99)),
        load_average(),
    );
}

/// The same, for a 2026-07-28 client: the ask comes back as an
/// `input_required` round and the client retries with the reply; the time
/// of the retry is the server's share.
async fn elicit_rounds(name: &str, data_dir: &Path) {
    let orders = setting("LOAD_BRIEF_ORDERS", 100);
    let rules = ["--extractors".to_owned(), "rules".to_owned()];
    let mut server = StdioServer::start_stateless(data_dir, &rules).await;
    let mut retries = Vec::new();
    for number in 0..orders {
        let request = format!("Nike Pegasus 41, white, size 42 please (order {number})");
        let (check, rounds) = server.call_tool_in_rounds("check_order", arguments(&request, number)).await;
        assert!(check["decision"] == "proceed" && rounds.is_empty(), "{check}");
        let mut wrong_size = arguments(&request, 1_000_000 + number);
        wrong_size["cart"][0]["item"]["size"] = json!("EU 41");
        let (result, rounds) = server.call_tool_in_rounds("check_order", wrong_size).await;
        assert_eq!(result["decision"], "proceed", "{result}");
        assert_eq!(rounds.len(), 1, "one round");
        retries.extend(rounds);
    }
    server.stop().await;
    retries.sort();
    println!(
        "{name:<16} {orders} asks answered in 2026-07-28 rounds over stdio (rules): the retry with the reply  median \
         {:.2} ms  p99 {:.2} ms  load {}",
        millis(percentile(&retries, 0.5)),
        millis(percentile(&retries, 0.99)),
        load_average(),
    );
}

async fn memory(data_dir: &Path) {
    let total = setting("LOAD_MEMORY_CHECKS", 100_000);
    let clients = setting("LOAD_CLIENTS", 8);
    let server = Server::start(data_dir, &["--extractors".into(), "rules".into()]).await;
    let mut client = Client::connect(&server.url).await;
    client.check(arguments(REQUEST, 0)).await.expect("first check");
    drop(client);
    let (idle, _) = server.memory();
    let mut report = format!("idle {:.1} MiB", idle as f64 / 1024.0);
    let counter = Arc::new(AtomicU64::new(1));
    let started = Instant::now();
    for stage in [10_000, 25_000, 50_000, total] {
        let stage = stage.min(total);
        let mut tasks = Vec::new();
        for _ in 0..clients {
            let (counter, url) = (Arc::clone(&counter), server.url.clone());
            tasks.push(tokio::spawn(async move {
                let mut client = Client::connect(&url).await;
                loop {
                    let number = counter.fetch_add(1, Ordering::Relaxed);
                    if number >= stage {
                        break;
                    }
                    // A distinct request each time: extraction runs and the
                    // facts cache evicts.
                    let request = format!("{REQUEST} (order {number})");
                    client.check(arguments(&request, number)).await.expect("check");
                }
            }));
        }
        for task in tasks {
            task.await.expect("client task");
        }
        counter.store(stage, Ordering::Relaxed);
        let (rss, _) = server.memory();
        report.push_str(&format!(", after {stage} {:.1} MiB", rss as f64 / 1024.0));
        if stage == total {
            break;
        }
    }
    let (_, peak) = server.memory();
    let elapsed = started.elapsed();
    server.stop().await;
    println!(
        "{:<16} RSS {report}; peak {:.1} MiB ({total} distinct requests in {:.1} s)  load {}",
        "memory",
        peak as f64 / 1024.0,
        elapsed.as_secs_f64(),
        load_average(),
    );
}

fn main() {
    // `cargo bench` passes `--bench`; anything else (`cargo test
    // --all-targets` would run this in test mode) skips the bounded but
    // minutes-long run.
    if !std::env::args().any(|argument| argument == "--bench") {
        println!("load: a benchmark; run it with `cargo bench --bench load`");
        return;
    }
    let only = std::env::var("LOAD_ONLY").unwrap_or_default();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    runtime.block_on(async {
        let disk = tempfile::Builder::new().prefix("asasked-load-").tempdir().expect("temp dir");
        let shm = tempfile::Builder::new().prefix("asasked-load-").tempdir_in("/dev/shm").expect("/dev/shm");
        println!(
            "asasked load benchmark: {BIN}; disk data dir {}, tmpfs {}",
            disk.path().display(),
            shm.path().display()
        );
        let selected = |name: &str| name.starts_with(&only) || only.starts_with(name);
        if selected("load/new/disk") {
            load("load/new/disk", &disk.path().join("new"), Mode::NewRecord).await;
        }
        if selected("load/new/tmpfs") {
            load("load/new/tmpfs", &shm.path().join("new"), Mode::NewRecord).await;
        }
        if selected("load/replay") {
            load("load/replay", &disk.path().join("replay"), Mode::Replay).await;
        }
        if selected("e2e/providers/disk") {
            end_to_end("e2e/providers/disk", disk.path(), &disk.path().join("e2e")).await;
        }
        if selected("e2e/providers/tmpfs") {
            end_to_end("e2e/providers/tmpfs", disk.path(), &shm.path().join("e2e")).await;
        }
        if selected("brief/stdio/disk") {
            brief_then_check("brief/stdio/disk", disk.path(), &disk.path().join("brief")).await;
        }
        if selected("brief/stdio/tmpfs") {
            brief_then_check("brief/stdio/tmpfs", disk.path(), &shm.path().join("brief")).await;
        }
        if selected("elicit/stdio/tmpfs") {
            elicit_round_trip("elicit/stdio/tmpfs", &shm.path().join("elicit")).await;
        }
        if selected("elicit2026/stdio/tmpfs") {
            elicit_rounds("elicit2026/stdio/tmpfs", &shm.path().join("elicit2026")).await;
        }
        let database = std::env::var("LOAD_DATABASE_URL").ok().filter(|url| !url.is_empty());
        for instances in [1, 2] {
            let name = format!("store/embedded/{instances}");
            if selected(&name) {
                store_load(&name, disk.path(), instances, None, false, false).await;
            }
            let postgres =
                [(format!("store/postgres/{instances}"), false), ("store/postgres-apart/2".to_owned(), true)];
            for (name, per_instance) in postgres.into_iter().take(instances) {
                if selected(&name) {
                    match &database {
                        Some(admin) => {
                            store_load(&name, disk.path(), instances, Some(admin), per_instance, false).await
                        }
                        None => {
                            println!("{name:<16} skipped: LOAD_DATABASE_URL is not set (scripts/postgres.sh start)")
                        }
                    }
                }
            }
        }
        for instances in [1, 4] {
            for (place, work) in [("disk", disk.path()), ("tmpfs", shm.path())] {
                let name = format!("store/shared/{place}/{instances}");
                if selected(&name) {
                    store_load(&name, work, instances, None, false, true).await;
                }
            }
        }
        if selected("memory") {
            memory(&shm.path().join("memory")).await;
        }
    });
}
