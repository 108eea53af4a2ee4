#!/usr/bin/env bash
# Records hosted providers' extractor outputs for a dataset, so later replays
# and comparisons can use them offline as `replay:DIR` (no keys, no cost):
#
#   scripts/record-providers.sh [DATASET]      # default datasets/v1
#
# For each provider whose API key is set, runs one replay with that provider
# and the offline `rules` extractor, recording every raw output under
# DATASET/recorded/<provider>/ (for example datasets/v1/recorded/claude):
#
#   asasked replay datasets/v1 --extractors claude,rules --record datasets/v1/recorded/claude
#
# Providers without a key are skipped with a note; with no key at all the
# script does nothing and exits 0. NOTE: the `--record DIR` option and the
# `claude`/`openai` extractors are being built on other branches; until they
# are merged, this script fails at its first recording with "unexpected
# argument '--record'" or "unknown extractor".
#
# Uses $ASASKED if set, else builds and uses the release binary.
set -euo pipefail
cd "$(dirname "$0")/.."

DATASET="${1:-datasets/v1}"
if [[ -z "${ASASKED:-}" ]]; then
  cargo build --release --quiet
  ASASKED="${CARGO_TARGET_DIR:-target}/release/asasked"
fi

# provider name in --extractors : the environment variable holding its key
providers=("claude:ANTHROPIC_API_KEY" "openai:OPENAI_API_KEY")

recorded=0
for entry in "${providers[@]}"; do
  provider="${entry%%:*}"
  key="${entry#*:}"
  if [[ -z "${!key:-}" ]]; then
    echo "note: $key is not set; skipping $provider" >&2
    continue
  fi
  out="$DATASET/recorded/$provider"
  mkdir -p "$out"
  "$ASASKED" replay "$DATASET" --split all --extractors "$provider,rules" --record "$out" --report "$out/REPLAY.md"
  recorded=$((recorded + 1))
done
echo "recorded $recorded provider(s) for $DATASET" >&2
