#!/usr/bin/env python3
"""Runs the local Gemma 3 270M extractor on 10 open-half rows of the
real-request dev set and scores them (issue 12 item 4).

Standard library only. Drives the built binary (`asasked extract --extractors
local --merge spec --json`), so the request goes through the same prompt,
strict-mode schema (llama.cpp turns it into a grammar) and validation as any
check. Reports, per request, whether the output validates against
extractors/facts.schema.json and, for each fact field other than `other`,
`other_optional`, `soft` and `disputed`, which values are right, wrong or
missed against the gold labels. Only open-half rows are used: the held-out
half is never read row by row (tests/extraction/README.md).

Usage: scripts/local_model_devset.py BINARY CONFIG [COUNT] (the config's
`local` table must point at the running server; scripts/local-model-devset.sh
does all of it).
"""
import json
import random
import subprocess
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEED = 20261201
FIELDS = ["brand", "brand_any", "brand_not", "model", "color", "color_any", "color_not", "size_label", "size_any",
          "level", "price_preference", "explicit_max_cents", "explicit_max_currency", "quantity",
          "needs_refundable", "deadline_days", "lines"]


def fold(value):
    if isinstance(value, str):
        text = unicodedata.normalize("NFKC", value).casefold().replace("gray", "grey")
        return " ".join(text.replace("-", " ").split())
    if isinstance(value, list):
        return sorted(json.dumps(fold(item), sort_keys=True) for item in value)
    if isinstance(value, dict):
        return {key: fold(item) for key, item in value.items() if item not in (None, False, [], "")}
    return value


def stated(value):
    return value not in (None, False, [], "")


def main() -> None:
    binary, config = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    rows = [json.loads(line) for line in (ROOT / "tests/extraction/real.jsonl").open()]
    open_rows = [row for row in rows if row["split"] == "open"]
    sample = random.Random(SEED).sample(open_rows, count)
    totals = {"requests": 0, "valid": 0, "right": 0, "wrong": 0, "missed": 0}
    for row in sample:
        command = [binary, "extract", "--extractors", "local", "--extractors-config", config, "--merge", "spec",
                   "--today", row["today"], "--request", row["request"], "--json"]
        completed = subprocess.run(command, capture_output=True, text=True)
        report = json.loads(completed.stdout)["reports"][0]
        facts, error = report.get("facts"), report.get("error")
        result = {"id": row["id"], "valid": facts is not None, "error": error, "right": [], "wrong": [], "missed": [],
                  "latency_ms": report["cost"]["latency_ms"]}
        gold = row["gold"]
        for field in FIELDS:
            want, got = gold.get(field), (facts or {}).get(field)
            if stated(got) and stated(want) and fold(got) == fold(want):
                result["right"].append(field)
            elif stated(got):
                result["wrong"].append({field: got, "gold": want})
            elif stated(want):
                result["missed"].append(field)
        totals["requests"] += 1
        totals["valid"] += result["valid"]
        for key in ("right", "wrong", "missed"):
            totals[key] += len(result[key])
        print(json.dumps(result, ensure_ascii=False), flush=True)
    print(json.dumps({"totals": totals}))


if __name__ == "__main__":
    main()
