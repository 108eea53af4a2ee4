#!/usr/bin/env bash
# Compares the offline extractor pairs on v1, v2 and the real-request dev set
# (datasets/real: the dev set's requests and gold with carts made by
# scripts/devset_carts.py: synthetic, but the benchmark's answer products for
# the several-product rows) and writes reports/compare/<dataset>/compare.{md,json,svg}:
# per-field accuracy against the gold facts, disputes per pair, and the
# decision effect on the labelled carts (wrong carts missed, right carts
# stopped, extra questions). The dev set is written per half,
# reports/compare/real-open and reports/compare/real-heldout (held-out
# figures are aggregates; its rows are never read one by one).
#
# Pairs: gold with two seeds of noisy (the merge rules against one noisy
# extractor), two noisy seeds together, and, when this build knows `rules`,
# rules alone against gold and against noisy. No network, no keys.
#
#   scripts/compare-offline.sh            # v1 and v2 all tasks, the dev set per half
#   SPLIT=open scripts/compare-offline.sh
#
# Uses $ASASKED if set, else builds and uses the release binary.
set -euo pipefail
cd "$(dirname "$0")/.."

SPLIT="${SPLIT:-all}"
if [[ -z "${ASASKED:-}" ]]; then
  cargo build --release --quiet
  ASASKED="${CARGO_TARGET_DIR:-target}/release/asasked"
fi

pairs=(--pair gold,noisy:1:0.2 --pair gold,noisy:2:0.2 --pair noisy:1:0.2,noisy:2:0.2)
if "$ASASKED" replay datasets/v1 --extractors rules --split open --json >/dev/null 2>&1; then
  pairs+=(--pair rules,gold --pair rules,noisy:1:0.2 --pair gold,rules)
else
  echo "note: this build has no 'rules' extractor; comparing gold and noisy only" >&2
fi

for dataset in v1 v2; do
  "$ASASKED" compare "datasets/$dataset" "${pairs[@]}" --split "$SPLIT" --out "reports/compare/$dataset" >/dev/null
  echo "wrote reports/compare/$dataset/compare.{md,json,svg}" >&2
done
for half in open heldout; do
  "$ASASKED" compare datasets/real "${pairs[@]}" --split "$half" --out "reports/compare/real-$half" >/dev/null
  echo "wrote reports/compare/real-$half/compare.{md,json,svg}" >&2
done
