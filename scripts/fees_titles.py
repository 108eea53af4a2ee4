#!/usr/bin/env python3
"""Real product titles as clean carts (issue 29): how many of them the guard
reads as a charge beyond the items. Standard library only.

    python3 scripts/fees_titles.py [--binary target/debug/asasked] [--show] [--jobs 2]

Every answer product of ShoppingBench (`$SHARED_DATA`, default
/work/shared/data: shoppingbench_multi_product.jsonl and
shoppingbench_budget.jsonl; its title, `sku_options` and `attributes`) and
every right cart of the item dev set's open half (datasets/items/open.jsonl,
the same benchmark's titles as ACP and flat carts) is checked as a clean
cart for the request that names it (the benchmark's own query):

- `one-item`: each product alone, a flat cart and an ACP CheckoutSession,
  with its row's query;
- `whole`: each row's answer products together (a flat cart), with its query,
  so that a title read as an add-on line beside a product shows;
- `items-open`: the item dev set's open right carts as they are (ACP and flat).

Nobody on the project wrote these titles, and every cart is one the person
asked for, so every finding of code `recurring`, `addon`, `fee`,
`total-mismatch` or `limit-currency` is a false one. Prices are not the
benchmark's (it gives ranges): each product is priced 100 PHP, except the
item dev set's own carts; a price finding is not counted here. The report
prints, per source, the carts checked and those with a finding of charges,
with `--show` each such title and finding.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SHARED = os.environ.get("SHARED_DATA", "/work/shared/data")
CHARGES = {"recurring", "addon", "fee", "total-mismatch", "limit-currency"}
TODAY = "2026-11-02"


def label(key):
    return key.replace("_", " ").capitalize()


def values(listed):
    """ShoppingBench's `[{name: value or [values]}]` as (Name, value) pairs."""
    pairs = []
    for entry in listed or []:
        for key, value in entry.items():
            if isinstance(value, list):
                value = ", ".join(str(one) for one in value)
            pairs.append((label(key), str(value)))
    return pairs


def products(row):
    found = []
    for product in row.get("reward", []):
        title = product["title"][0] if isinstance(product["title"], list) else product["title"]
        found.append({
            "id": str(product.get("product_id", "")),
            "title": title,
            "options": values(product.get("sku_options")),
            "attributes": values(product.get("attributes")),
        })
    return found


def flat(items):
    cart = []
    for item in items:
        entry = {"id": item["id"], "name": item["title"], "price": "100.00", "currency": "PHP", "quantity": 1}
        attributes = dict(item["options"] + item["attributes"])
        if attributes:
            entry["attributes"] = attributes
        cart.append(entry)
    return cart


def acp(items):
    lines = []
    for index, item in enumerate(items):
        line = {"id": f"li_{index}", "item": {"id": item["id"] or f"item_{index}"}, "name": item["title"],
                "quantity": 1, "unit_amount": 10000}
        if item["options"]:
            line["variant_options"] = [{"name": name, "value": value} for name, value in item["options"]]
        if item["attributes"]:
            line["custom_attributes"] = [{"display_name": name, "value": value} for name, value in item["attributes"]]
        lines.append(line)
    total = 10000 * len(items)
    return {"id": "cs_titles", "status": "ready_for_payment", "currency": "php", "line_items": lines,
            "totals": [{"type": "subtotal", "display_text": "Subtotal", "amount": total},
                       {"type": "total", "display_text": "Total", "amount": total}]}


def cases():
    """(source, request, cart, titles) for every cart checked."""
    found = []
    for name in ["shoppingbench_multi_product.jsonl", "shoppingbench_budget.jsonl"]:
        with open(os.path.join(SHARED, name), encoding="utf-8") as rows:
            for row in map(json.loads, rows):
                items = products(row)
                for item in items:
                    found.append(("one-item flat", row["query"], flat([item]), [item["title"]]))
                    found.append(("one-item acp", row["query"], acp([item]), [item["title"]]))
                if len(items) > 1:
                    found.append(("whole flat", row["query"], flat(items), [item["title"] for item in items]))
    with open(os.path.join(ROOT, "datasets", "items", "open.jsonl"), encoding="utf-8") as rows:
        for row in map(json.loads, rows):
            for cart in row["carts"]:
                if cart["kind"] != "right":
                    continue
                titles = [product["title"] for product in row["products"]]
                for shape in ["acp", "flat"]:
                    if shape in cart:
                        found.append((f"items-open {shape}", row["request"], cart[shape], titles))
    return found


def check(binary, request, cart, folder):
    path = os.path.join(folder, "cart.json")
    with open(path, "w", encoding="utf-8") as out:
        json.dump(cart, out, ensure_ascii=False)
    command = [binary, "check", "--request", request, "--cart", path, "--today", TODAY, "--extractors", "rules",
               "--catalog", "none", "--json", "--data-dir", os.path.join(folder, "data")]
    environment = {key: value for key, value in os.environ.items() if not key.endswith("_API_KEY")}
    done = subprocess.run(command, capture_output=True, text=True, env=environment)
    if done.returncode not in (0, 1):
        return None
    return [finding for finding in json.loads(done.stdout)["findings"] if finding["code"] in CHARGES]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, "target", "debug", "asasked"))
    parser.add_argument("--show", action="store_true")
    parser.add_argument("--jobs", type=int, default=2)
    arguments = parser.parse_args()
    every = cases()
    local = threading.local()
    with tempfile.TemporaryDirectory() as root:
        def run(case):
            if not hasattr(local, "folder"):
                local.folder = tempfile.mkdtemp(dir=root)
            return check(arguments.binary, case[1], case[2], local.folder)

        with ThreadPoolExecutor(max_workers=arguments.jobs) as pool:
            results = list(pool.map(run, every))
    tally = {}
    for (source, request, cart, titles), findings in zip(every, results):
        counts = tally.setdefault(source, [0, 0, 0])
        counts[0] += 1
        counts[1] += findings is None
        if findings:
            counts[2] += 1
            if arguments.show:
                print(f"{source}: {' | '.join(titles)}")
                for finding in findings:
                    print(f"    {finding['code']} ({finding['severity']}): {finding['reason']}")
    print(f"{'source':<20} {'carts':>6} {'errors':>7} {'with a charge finding':>22}")
    for source in sorted(tally):
        carts, errors, flagged = tally[source]
        print(f"{source:<20} {carts:>6} {errors:>7} {flagged:>22}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
