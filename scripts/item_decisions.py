#!/usr/bin/env python3
"""Every dev-set cart's whole answer, one JSON line each, to compare two builds (standard library only).

    python3 scripts/item_decisions.py BINARY OUT.jsonl
    python3 scripts/item_decisions.py OLD_BINARY old.jsonl && python3 scripts/item_decisions.py NEW_BINARY new.jsonl
    diff old.jsonl new.jsonl

Runs the open half's carts as `scripts/item_report.py --halves open` runs
them (the ShoppingBench tasks and the near misses of the open half, ACP
shape, today 2026-11-02, the offline default extractors) through
`BINARY check --json` and writes each answer with its keys sorted:
decision, findings, reasons, notes, question, facts, record id, ACF and ACP
objects. What depends on the clock or a fresh key is left out (the
conformity object's `issued_at` and `expires_at`, and a `proceed`'s signed
`receipt`), so a change that must not change any decision (a speed-up)
leaves the two files equal. The held-out half is left out: its rows are
never written one by one.
"""

import argparse
import json
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import item_report  # noqa: E402


def stable(result):
    """The answer without what the clock or a fresh key decides."""
    result.pop("receipt", None)
    conformity = result.get("acf", {}).get("com.provecart.conformity", {})
    conformity.pop("issued_at", None)
    conformity.pop("expires_at", None)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary")
    parser.add_argument("out")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    near = item_report.load("near_misses.jsonl")
    jobs = [(task["request"], cart["acp"]) for task in item_report.load("open.jsonl") for cart in task["carts"]]
    jobs += [(task["request"], cart["acp"]) for task in near if task["split"] == "open" for cart in task["carts"]]
    with tempfile.TemporaryDirectory(prefix="item-decisions-") as scratch:
        runner = item_report.Runner(args.binary, "2026-11-02", None, scratch)
        with ThreadPoolExecutor(max_workers=args.workers) as pool:
            results = list(pool.map(lambda job: stable(runner.check(*job)), jobs))
    with open(args.out, "w", encoding="utf-8") as out:
        for result in results:
            out.write(json.dumps(result, ensure_ascii=False, sort_keys=True) + "\n")
    print(f"{len(results)} carts written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
