#!/usr/bin/env bash
# Sealed checks on several `asasked serve --http` processes sharing one data
# folder on the disk (/tmp), without building the load benchmark:
#   scripts/shared_folder_checks.sh BINARY PROCESSES CLIENTS CHECKS_PER_CLIENT
# The servers start one after another (each waits for the one before to
# serve); CLIENTS sequential clients (scripts/mcp_http_checks.py, the
# `load/new` load: one request, a new cart item per check), client i on
# server i mod PROCESSES, after 20 untimed checks per server. Prints checks/s
# and the servers' CPU (user + system, all of them) per check, then verifies
# the shared chain. The Python clients share the cores and are slower than
# benches/load.rs's: compare binaries within one run, not with its figures.
set -euo pipefail
BIN=$1; N=$2; CLIENTS=$3; PER=$4
DRIVE="$(dirname "$0")/mcp_http_checks.py"
DATA=$(mktemp -d /tmp/asasked-shared-XXXX)
trap 'kill $(cat "$DATA/pids") 2>/dev/null; rm -rf "$DATA"' EXIT
URLS=()
for i in $(seq 1 $N); do
  "$BIN" serve --http 127.0.0.1:0 --catalog none --data-dir "$DATA/data" --extractors rules 2> "$DATA/s$i.err" &
  echo $! >> "$DATA/pids"
  for _ in $(seq 1 240); do u=$(sed -n 's/.*serving MCP at //p' "$DATA/s$i.err" | head -n1); [ -n "$u" ] && break; sleep 0.5; done
  URLS+=("$u")
done
# warm-up: 20 checks per server
for i in $(seq 0 $((N-1))); do python3 $DRIVE "${URLS[$i]}" 20 $((900000 + i*100)) > /dev/null; done
cpu() { local t=0; for p in $(cat $DATA/pids); do t=$((t + $(awk '{print $14 + $15}' /proc/$p/stat))); done; echo $t; }
BEFORE=$(cpu); START=$(date +%s.%N)
for c in $(seq 0 $((CLIENTS-1))); do python3 $DRIVE "${URLS[$((c % N))]}" $PER $((c*100000)) > /dev/null & done
wait $(jobs -p | tail -n $CLIENTS) 2>/dev/null || true
END=$(date +%s.%N); AFTER=$(cpu)
TOTAL=$((CLIENTS*PER))
python3 -c "import sys; t=$END-$START; print(f'$(basename $BIN) processes=$N clients=$CLIENTS checks=$TOTAL: {($TOTAL)/t:.0f} checks/s, server CPU per check {($AFTER-$BEFORE)*10000/$TOTAL:.0f} us, load average $(cut -d' ' -f1 /proc/loadavg)')"
"$BIN" evidence verify --data-dir "$DATA/data" 2>&1 | head -n1
