#!/usr/bin/env bash
# The CPU of sealed checks in one `asasked serve --http` process, by callgrind
# (instruction counts: repeatable on a loaded machine), or its CPU time:
#   scripts/profile_sealed_check.sh BINARY OUT_PREFIX [WARM_UP] [CHECKS]
#   NATIVE=1 scripts/profile_sealed_check.sh BINARY OUT_PREFIX [WARM_UP] [CHECKS]
# The load of benches/load.rs `load/new` (one request, the `rules`
# extractor, a new cart item id per check, so every check seals a new record;
# data dir on tmpfs), from one sequential client (scripts/mcp_http_checks.py).
# Under callgrind, only the last CHECKS checks are counted; divide
# OUT_PREFIX.callgrind's totals by CHECKS (callgrind_annotate --inclusive=yes).
# Valgrind's CPU has no SHA-NI or ADX: SHA-256 and Ed25519 run their portable
# code there and count several times what they cost natively.
set -euo pipefail
BIN=$1; OUT=$2; WARM=${3:-50}; CHECKS=${4:-200}
DRIVE="$(dirname "$0")/mcp_http_checks.py"
DATA=$(mktemp -d /dev/shm/asasked-profile-XXXX)
trap 'rm -rf "$DATA"' EXIT
if [ -n "${NATIVE:-}" ]; then
    "$BIN" serve --http 127.0.0.1:0 --catalog none --data-dir "$DATA" --extractors rules 2> "$OUT.stderr" &
else
    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$OUT.callgrind" \
        "$BIN" serve --http 127.0.0.1:0 --catalog none --data-dir "$DATA" --extractors rules 2> "$OUT.stderr" &
fi
SERVER=$!
URL=
for _ in $(seq 1 120); do
    URL=$(sed -n 's/.*serving MCP at //p' "$OUT.stderr" | head -n 1)
    [ -n "$URL" ] && break
    sleep 1
done
python3 "$DRIVE" "$URL" "$WARM" 0
if [ -n "${NATIVE:-}" ]; then
    BEFORE=$(awk '{print $14 + $15}' "/proc/$SERVER/stat")
    python3 "$DRIVE" "$URL" "$CHECKS" "$WARM"
    AFTER=$(awk '{print $14 + $15}' "/proc/$SERVER/stat")
    echo "server CPU per check: $(( (AFTER - BEFORE) * 10000 / CHECKS )) µs ($CHECKS checks; load average $(cut -d' ' -f1-3 /proc/loadavg))"
else
    callgrind_control -i on "$SERVER" > /dev/null
    python3 "$DRIVE" "$URL" "$CHECKS" "$WARM"
    callgrind_control -i off "$SERVER" > /dev/null
fi
kill -TERM "$SERVER"
wait "$SERVER" || true
