#!/usr/bin/env python3
"""Prints what `rules` fills on requests from ../shared/data/ that are NOT in
any batch of the dev set, tests/extraction/real.jsonl … real5.jsonl (neither half, nor the same text), for reading
by hand: how the parser's precision rules were checked on phrasings outside
the dev set without looking at its held-out half.

Standard library only. Usage:
  scripts/unlabelled_requests.py BINARY SEED WEBSHOP BUDGET MULTI
e.g. `scripts/unlabelled_requests.py target/debug/asasked 1 300 0 0`.
Each line: the source id, the facts other than `other`/`other_optional`
(under --merge spec, rules alone), and the request.
"""
import json
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"


def main() -> None:
    binary, seed = sys.argv[1], int(sys.argv[2])
    counts = [int(value) for value in sys.argv[3:6]]
    # Every batch, so no held-out half is ever printed.
    real = [json.loads(line) for name in ("real.jsonl", "real2.jsonl", "real3.jsonl", "real4.jsonl", "real5.jsonl")
            for line in (ROOT / "tests/extraction" / name).open()]
    ids = {row["id"] for row in real}
    texts = {row["request"].strip().lower() for row in real}
    web = json.loads((DATA / "webshop_human_requests.json").read_text())
    budget = [json.loads(line)["query"] for line in (DATA / "shoppingbench_budget.jsonl").open()]
    multi = [json.loads(line)["query"] for line in (DATA / "shoppingbench_multi_product.jsonl").open()]
    rng = random.Random(seed)
    rows = []
    for pool, count, pattern in [(web, counts[0], "webshop-%05d"), (budget, counts[1], "sbbudget-%03d"),
                                 (multi, counts[2], "sbmulti-%03d")]:
        candidates = [index for index in range(len(pool))
                      if pattern % index not in ids and pool[index].strip().lower() not in texts]
        rows.extend((pattern % index, pool[index]) for index in rng.sample(candidates, count))
    for identifier, text in rows:
        command = [binary, "extract", "--extractors", "rules", "--today", "2026-11-02", "--merge", "spec",
                   "--request", text, "--json"]
        merged = json.loads(subprocess.run(command, capture_output=True, text=True).stdout)["merged"]
        # Older builds wrapped the facts in {"Ok": …}.
        merged = merged.get("Ok", merged)
        facts = {key: value for key, value in merged.items()
                 if value not in (None, False, []) and key not in ("other", "other_optional")}
        if facts:
            print(identifier, json.dumps(facts, ensure_ascii=False), "||", " ".join(text.split()))


if __name__ == "__main__":
    main()
