#!/usr/bin/env python3
"""Draws the English rows of tests/extraction/real2.jsonl, the dev set's second batch
(unlabelled rows, JSON lines on stdout; the labelled file keeps this order).

Standard library only. Same files and id patterns as main/scripts/sample_real_requests.py:
100 WebShop goals, 30 ShoppingBench budget queries, 30 ShoppingBench multi-product
queries, drawn with random.Random(20261202) in that order, each sorted by index,
excluding every id already in tests/extraction/real.jsonl and every request whose
stripped, lower-cased text equals one already there.
"""
import hashlib
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
REAL = ROOT / "tests" / "extraction" / "real.jsonl"


def split(identifier: str) -> str:
    return "heldout" if int(hashlib.sha256(identifier.encode()).hexdigest()[:8], 16) % 2 == 1 else "open"


def main() -> None:
    data = Path(sys.argv[1]) if len(sys.argv) > 1 else DATA
    existing = [json.loads(line) for line in REAL.open() if line.strip()]
    seen_ids = {r["id"] for r in existing}
    seen_texts = {r["request"].strip().lower() for r in existing}
    rng = random.Random(20261202)
    web = json.loads((data / "webshop_human_requests.json").read_text())
    budget = [json.loads(line) for line in (data / "shoppingbench_budget.jsonl").open()]
    multi = [json.loads(line) for line in (data / "shoppingbench_multi_product.jsonl").open()]
    sources = [
        (web, 100, "webshop-{:05d}", "webshop", lambda x: x),
        (budget, 30, "sbbudget-{:03d}", "shoppingbench-budget", lambda x: x["query"]),
        (multi, 30, "sbmulti-{:03d}", "shoppingbench-multi", lambda x: x["query"]),
    ]
    rows = []
    for items, count, pattern, source, text in sources:
        eligible = [
            i for i in range(len(items))
            if pattern.format(i) not in seen_ids and text(items[i]).strip().lower() not in seen_texts
        ]
        for index in sorted(rng.sample(eligible, count)):
            identifier = pattern.format(index)
            rows.append({"id": identifier, "source": source, "lang": "en", "split": split(identifier),
                         "today": "2026-11-02", "request": text(items[index])})
    for row in rows:
        print(json.dumps(row, ensure_ascii=False))


if __name__ == "__main__":
    main()
