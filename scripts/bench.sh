#!/usr/bin/env bash
# Runs every speed and load figure of the project and prints them:
#   - the decision step (criterion, benches/decision.rs);
#   - checks/s, p50/p99 and peak RSS over Streamable HTTP, with the data dir
#     on disk and on tmpfs, and the replayed identical check;
#   - end to end with two loopback providers (300 ms and 500 ms);
#   - RSS idle and after 100,000 checks with distinct requests.
# Bounded: about 3 minutes on 2 cores once built. Benchmarks, never tests:
# nothing here runs under `cargo test`.
# Environment: LOAD_CLIENTS, LOAD_CHECKS, LOAD_SECONDS, LOAD_MEMORY_CHECKS,
# LOAD_DATABASE_URL (the store/postgres scenarios; skipped without it),
# LOAD_ONLY (see benches/load.rs); CRITERION_TIME (seconds per decision
# benchmark, default 3).
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
cargo bench --bench decision --bench load --no-run --quiet

echo "== decision step (criterion)"
cargo bench --quiet --bench decision -- --warm-up-time 1 --measurement-time "${CRITERION_TIME:-3}" --noplot 2>&1 \
    | grep -E 'time:|^[a-z]' | grep -v -E '^(Benchmarking|Found|Gnuplot|Warning|WARNING)' || true

echo "== load over Streamable HTTP (benches/load.rs)"
cargo bench --quiet --bench load

echo "== done; load average $(cut -d' ' -f1-3 /proc/loadavg)"
