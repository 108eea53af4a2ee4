#!/usr/bin/env python3
"""Decision-level report on the item-words dev set (issue 28 §9; standard library only).

    cargo build && python3 scripts/item_report.py [--set multi|budget] [--shape acp|flat] [--reasons]
                                                  [--halves open,heldout] [--dump FILE]

Runs the built binary (`target/debug/asasked check --request … --cart … --json`,
a fixed --today, a temporary --data-dir, the offline default extractors: the
hosted providers' key variables are removed from its environment) on every
cart of datasets/items/ (scripts/item_devset.py), and prints per half and per
kind:

- right carts asked for any reason (share and count);
- wrong products caught for a reason the right cart of the same task does not
  share: a blocking finding (code, field) on the wrong cart that is absent
  from the right cart's blocking findings; and, finer, by (code, field, path,
  expected), so that a free-text requirement (`other`) the wrong item
  contradicts counts even when the right cart asks about another one;
- wrong attributes caught, by the same rule;
- near misses (written by hand): right carts asked, wrong carts caught.

`--set budget` runs the second set (budget_open.jsonl, budget_heldout.jsonl:
ShoppingBench's budget requests) instead of the multi-product one; the near
misses go with the multi set only, and the totals are the same.

`--reasons` adds, for the open half only, a histogram of the blocking
findings right carts were asked for (code and field, and the most frequent
free-text requirements). Held-out rows are never printed one by one: only
their totals. `--dump FILE` (open half only) writes each cart's outcome as a JSON
line, so two builds' runs can be compared cart by cart. Progress goes to stderr.

Flat carts carry the issue 28 item fields (`attributes`), which a build that
does not know them refuses ("unknown item attribute"); such a cart is run
again without those fields, and the report counts how many were.
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ITEMS = ROOT / "datasets" / "items"
HOSTED_KEYS = ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "ASASKED_DATABASE_URL")
# The flat item keys every build reads (src/cart.rs); others are issue 28's.
FLAT_KEYS = {"id", "brand", "name", "color", "size", "level", "final_sale", "delivery_days", "units", "price_cents",
             "currency", "sku", "merchant", "price", "quantity", "returnable"}


class Runner:
    def __init__(self, binary, today, extractors, scratch):
        self.binary = binary
        self.today = today
        self.extractors = extractors
        self.scratch = scratch
        self.local = threading.local()
        self.env = {key: value for key, value in os.environ.items() if key not in HOSTED_KEYS}
        self.counter = 0
        self.lock = threading.Lock()

    def data_dir(self):
        # One evidence log per worker: two processes never append to one log.
        if not hasattr(self.local, "dir"):
            self.local.dir = tempfile.mkdtemp(prefix="data-", dir=self.scratch)
        return self.local.dir

    def check(self, request, cart):
        with self.lock:
            self.counter += 1
            cart_path = Path(self.scratch) / f"cart-{self.counter}.json"
        cart_path.write_text(json.dumps(cart, ensure_ascii=False), encoding="utf-8")
        command = [self.binary, "check", "--request", "@" + request if request.startswith("@") else request,
                   "--cart", str(cart_path), "--today", self.today, "--data-dir", self.data_dir(), "--json"]
        if self.extractors:
            command += ["--extractors", self.extractors]
        done = subprocess.run(command, capture_output=True, text=True, env=self.env)
        cart_path.unlink()
        # Every check reads the whole evidence log it appends to; a log of one
        # record per check keeps the run linear. The receipt keys stay.
        (Path(self.data_dir()) / "evidence.jsonl").unlink(missing_ok=True)
        if done.returncode not in (0, 1):
            return {"error": done.stderr.strip() or f"exit {done.returncode}"}
        return json.loads(done.stdout)


def blocking(result, fine=False):
    """The blocking findings' (code, field), or with `fine` (code, field, path, expected)."""
    return {(finding["code"], finding.get("field"))
            + ((finding.get("path"), json.dumps(finding.get("expected"), ensure_ascii=False)) if fine else ())
            for finding in result.get("findings", []) if finding.get("severity") == "block"}


def run_cart(runner, shape, request, each):
    """One cart's outcome: decision, blocking (code, field) set, other texts, fallback flag, error."""
    cart = each[shape]
    result = runner.check(request, cart)
    fallback = False
    if shape == "flat" and "unknown item attribute" in result.get("error", ""):
        cart = [{key: value for key, value in item.items() if key in FLAT_KEYS} for item in cart]
        result = runner.check(request, cart)
        fallback = True
    if "error" in result:
        return {"error": result["error"], "fallback": fallback}
    findings = [f for f in result.get("findings", []) if f.get("severity") == "block"]
    return {"decision": result["decision"], "blocking": sorted(blocking(result), key=str),
            "fine": sorted(blocking(result, fine=True), key=str), "fallback": fallback,
            "other": [f.get("expected") for f in findings if f["code"] == "other"]}


def load(name):
    path = ITEMS / name
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def share(part, whole):
    return f"{part / whole:6.1%} ({part}/{whole})" if whole else "     - (0/0)"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=str(ROOT / "target" / "debug" / "asasked"))
    parser.add_argument("--shape", choices=["acp", "flat"], default="acp")
    parser.add_argument("--set", choices=["multi", "budget"], default="multi",
                        help="the multi-product set (open.jsonl, heldout.jsonl, near misses) or the budget set")
    parser.add_argument("--halves", default="open,heldout")
    parser.add_argument("--today", default="2026-11-02")
    parser.add_argument("--extractors", default=None, help="default: the binary's offline default (no keys)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--reasons", action="store_true", help="histogram of why open right carts were asked")
    parser.add_argument("--no-near", action="store_true", help="leave the near misses out")
    parser.add_argument("--limit", type=int, default=None, help="the first N tasks of each file only (a quick try)")
    parser.add_argument("--dump", default=None, metavar="FILE",
                        help="write each open cart's outcome as a JSON line (task id, kind, decision, blocking "
                             "findings), to compare two builds; refused with the held-out half")
    args = parser.parse_args()
    halves = [half for half in args.halves.split(",") if half]
    if not set(halves) <= {"open", "heldout"}:
        parser.error("--halves: open and/or heldout")
    if args.dump and "heldout" in halves:
        parser.error("--dump prints rows one by one: --halves open only")
    # The near misses are written once, beside the multi-product set.
    near = [] if args.no_near or args.set != "multi" else load("near_misses.jsonl")[: args.limit]
    prefix = "budget_" if args.set == "budget" else ""
    jobs = []  # (half, source, task index, cart index)
    data = {}
    for half in halves:
        data[half] = load(f"{prefix}{half}.jsonl")[: args.limit]
        jobs += [(half, "bench", t, c) for t, task in enumerate(data[half]) for c in range(len(task["carts"]))]
        jobs += [(half, "near", t, c) for t, task in enumerate(near) if task["split"] == half
                 for c in range(len(task["carts"]))]
    with tempfile.TemporaryDirectory(prefix="item-report-") as scratch:
        runner = Runner(args.binary, args.today, args.extractors, scratch)
        outcomes = {}
        finished = 0

        def work(job):
            half, source, task_index, cart_index = job
            task = (data[half] if source == "bench" else near)[task_index]
            return job, run_cart(runner, args.shape, task["request"], task["carts"][cart_index])

        with ThreadPoolExecutor(max_workers=args.workers) as pool:
            for job, outcome in pool.map(work, jobs):
                outcomes[job] = outcome
                finished += 1
                if finished % 100 == 0 or finished == len(jobs):
                    print(f"{finished}/{len(jobs)} carts", file=sys.stderr, flush=True)
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as out:
            for (half, source, task_index, cart_index), outcome in sorted(outcomes.items()):
                task = (data[half] if source == "bench" else near)[task_index]
                row = {"task": task.get("id", task_index), "source": source, "cart": cart_index,
                       "kind": task["carts"][cart_index]["kind"], **outcome}
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"set {args.set}; shape {args.shape}; today {args.today}; extractors {args.extractors or 'offline default'}; "
          f"binary {Path(args.binary).name}")
    reasons = collections.Counter()
    other_texts = collections.Counter()
    asked_tasks_only_other = 0
    for half in halves:
        for source, tasks in (("bench", data[half]), ("near", near)):
            if not tasks:
                continue
            counts = collections.defaultdict(lambda: [0, 0])  # kind -> [hits, total]
            fine = collections.Counter()  # kind -> hits by (code, field, path, expected)
            errors = fallbacks = 0
            for task_index, task in enumerate(tasks):
                if source == "near" and task["split"] != half:
                    continue
                results = [outcomes[(half, source, task_index, c)] for c in range(len(task["carts"]))]
                errors += sum(1 for r in results if "error" in r)
                fallbacks += sum(1 for r in results if r.get("fallback"))
                right = next(r for r, each in zip(results, task["carts"]) if each["kind"] == "right")
                right_blocking = {tuple(key) for key in right.get("blocking", [])}
                right_fine = {tuple(key) for key in right.get("fine", [])}
                for result, each in zip(results, task["carts"]):
                    if "error" in result:
                        continue
                    kind = each["kind"]
                    if kind == "right":
                        asked = result["decision"] != "proceed"
                        counts[kind][0] += asked
                        if half == "open" and asked:
                            keys = {tuple(key) for key in result["blocking"]}
                            reasons.update(f"{code} ({field})" for code, field in keys)
                            other_texts.update(text for text in result["other"] if text)
                            asked_tasks_only_other += keys == {("other", "other")}
                    elif "error" not in right:
                        counts[kind][0] += bool({tuple(key) for key in result["blocking"]} - right_blocking)
                        fine[kind] += bool({tuple(key) for key in result["fine"]} - right_fine)
                    else:
                        continue
                    counts[kind][1] += 1
            label = ("ShoppingBench" + (" budget" if args.set == "budget" else "")) if source == "bench" \
                else "near misses"
            print(f"\n{half}, {label}: {sum(1 for t in tasks if source == 'bench' or t['split'] == half)} tasks"
                  + (f"; {errors} carts failed" if errors else "")
                  + (f"; {fallbacks} flat carts run without the issue 28 fields" if fallbacks else ""))
            names = {"right": "right carts asked (any reason)",
                     "wrong_product": "wrong products caught (own reason)",
                     "wrong_attribute": "wrong attributes caught (own reason)",
                     "near_miss": "near misses caught (own reason)"}
            for kind in ("right", "wrong_product", "wrong_attribute", "near_miss"):
                if counts[kind][1] or kind in {"right"}:
                    finer = "" if kind == "right" else f"   finer: {share(fine[kind], counts[kind][1])}"
                    print(f"  {names[kind]:<38} {share(*counts[kind])}{finer}")
            if errors and half == "open":
                first = next(outcomes[job]["error"] for job in outcomes
                             if job[0] == "open" and "error" in outcomes[job])
                print(f"  first error: {first[:300]}")
    if args.reasons and "open" in halves:
        print(f"\nwhy right carts were asked, open half ({'ShoppingBench and near misses' if near else 'ShoppingBench'}): "
              "blocking findings")
        for reason, count in reasons.most_common(15):
            print(f"  {count:4d}  {reason}")
        print(f"  asked only for free text (other): {asked_tasks_only_other}")
        print("most frequent free-text requirements asked about:")
        for text, count in other_texts.most_common(20):
            print(f"  {count:4d}  {text}")


if __name__ == "__main__":
    main()
