#!/usr/bin/env bash
# Issue 12 item 4: the local Gemma 3 270M path on 10 open-half dev-set rows.
# Starts the model server (scripts/local-model.sh; weights under .cache/,
# never committed), builds asasked, points the `local` extractor at the
# server and prints one JSON line per request and the totals
# (scripts/local_model_devset.py). Usage: scripts/local-model-devset.sh [COUNT]
# (env: PORT, default 8080; TIMEOUT_MS, the local extractor's timeout per
# request, default the config's 120000; above 145000 it also lengthens the
# check's deadline). Stops the server it started on exit.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
port="${PORT:-8080}"
PORT="$port" scripts/local-model.sh start >&2
trap 'scripts/local-model.sh stop' EXIT
cargo build --quiet
target="${CARGO_TARGET_DIR:-$root/target}"
binary="$(mktemp -d)/asasked"
cp "$target/debug/asasked" "$binary"
config="$(dirname "$binary")/extractors.toml"
sed -e "s|http://127.0.0.1:8080/v1|http://127.0.0.1:$port/v1|" \
  -e "s|^timeout_ms = 120000|timeout_ms = ${TIMEOUT_MS:-120000}|" extractors/extractors.toml >"$config"
python3 scripts/local_model_devset.py "$binary" "$config" "${1:-10}"
