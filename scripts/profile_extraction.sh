#!/usr/bin/env bash
# The instructions of one warm `RulesExtractor::parse` call (or of one
# `ground` call), by callgrind on a criterion bench binary: repeatable on a
# loaded machine, where the criterion medians are not.
#   scripts/profile_extraction.sh BENCH_BINARY FILTER OUT.callgrind [FUNCTION]
# e.g. scripts/profile_extraction.sh target/release/deps/extraction-HASH '^longest' /tmp/longest.callgrind
#      scripts/profile_extraction.sh target/release/deps/ground-HASH 'every fact$' /tmp/ground.callgrind asasked::extract::ground::ground
# Counters are zeroed on entering FUNCTION and dumped on leaving it, so each
# dump is one call; the third call's dump is kept (the first calls build the
# lazy word classes and the product lexicon). Read it with
#   callgrind_annotate --inclusive=yes OUT.callgrind
#   callgrind_annotate --inclusive=yes --tree=calling OUT.callgrind   # each part's callees
set -euo pipefail
BIN=$1; FILTER=$2; OUT=$3; FUNCTION=${4:-asasked::extract::rules::RulesExtractor::parse}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
(cd "$DIR" && valgrind --tool=callgrind --callgrind-out-file="$DIR/dump" \
    "--zero-before=$FUNCTION" "--dump-after=$FUNCTION" \
    "$BIN" --bench "$FILTER" --warm-up-time 0.01 --measurement-time 0.01 --sample-size 10 --noplot \
    > "$DIR/log" 2>&1)
THIRD=$(cd "$DIR" && ls dump.* | sort -t. -k2 -n | sed -n 3p)
cp "$DIR/$THIRD" "$OUT"
grep '^totals' "$OUT"
