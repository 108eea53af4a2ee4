#!/usr/bin/env python3
"""Draws the seeded sample of real requests for tests/extraction/real.jsonl.

Standard library only. Reads ../shared/data/ (WebShop human goals, the two
ShoppingBench sets) and prints the unlabelled rows: 200 WebShop goals, 60
ShoppingBench budget queries and 40 ShoppingBench multi-product queries, drawn
with random.Random(20261130) in that order. The split is a hash of the id, so
it does not depend on the order of the file: sha256(id)[:8] odd -> heldout.
"""
import hashlib
import json
import random
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"


def split(identifier: str) -> str:
    return "heldout" if int(hashlib.sha256(identifier.encode()).hexdigest()[:8], 16) % 2 == 1 else "open"


def main() -> None:
    data = Path(sys.argv[1]) if len(sys.argv) > 1 else DATA
    rng = random.Random(20261130)
    web = json.loads((data / "webshop_human_requests.json").read_text())
    budget = [json.loads(line) for line in (data / "shoppingbench_budget.jsonl").open()]
    multi = [json.loads(line) for line in (data / "shoppingbench_multi_product.jsonl").open()]
    rows = []
    for index in sorted(rng.sample(range(len(web)), 200)):
        rows.append((f"webshop-{index:05d}", "webshop", web[index]))
    for index in sorted(rng.sample(range(len(budget)), 60)):
        rows.append((f"sbbudget-{index:03d}", "shoppingbench-budget", budget[index]["query"]))
    for index in sorted(rng.sample(range(len(multi)), 40)):
        rows.append((f"sbmulti-{index:03d}", "shoppingbench-multi", multi[index]["query"]))
    for identifier, source, request in rows:
        row = {"id": identifier, "source": source, "lang": "en", "split": split(identifier), "today": "2026-11-02", "request": request}
        print(json.dumps(row, ensure_ascii=False))


if __name__ == "__main__":
    main()
