#!/usr/bin/env python3
"""Cross-check dataset labels against the engine (standard library only).

    cargo build && python3 scripts/crosscheck_engine.py [target/debug/asasked]

(.ci/run runs it on the debug build the tests made; any build of asasked will do.)

Turns every cart of datasets/v1, v2 and real into a conformance case (FORMAT.md:
facts = gold, cart with full catalog items, allowed_items = the task's category;
for datasets/real, whose carts hold inline items, the task's inline items), runs
`asasked conform --json` once, and compares the engine's block codes with the
labels: right carts must proceed (or block only on `other` where
expect_ask_on_right says so), wrong carts must block on exactly their codes.
Prints every disagreement; exit 0 if there is none.
"""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BINARY = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "target" / "debug" / "asasked")

catalog, by_cat = {}, {}
for path in sorted(p for p in (ROOT / "catalog").glob("*.json") if not p.name.endswith(".schema.json")):
    for item in json.loads(path.read_text(encoding="utf-8")):
        catalog[item["id"]] = item
        by_cat.setdefault(item["category"], []).append(item)


def engine_item(item):
    return {k: item[k] for k in ("id", "brand", "name", "color", "size", "level", "final_sale",
                                 "delivery_days", "units", "price_cents", "currency")}


def entry_item(entry):
    """A cart entry's item: a catalog id looked up, or an inline item."""
    return engine_item(entry["item"] if "item" in entry else catalog[entry["id"]])


def inline_items(task):
    seen = {}
    for cart in task["carts"]:
        for entry in cart["items"]:
            if "item" in entry:
                seen.setdefault(entry["item"]["id"], engine_item(entry["item"]))
    return list(seen.values())


cases, expected, hidden = [], {}, set()
for name in ("v1", "v2", "real"):
    for line in (ROOT / "datasets" / name / "tasks.jsonl").read_text(encoding="utf-8").splitlines():
        task = json.loads(line)
        allowed = [engine_item(i) for i in by_cat.get(task.get("category"), [])] + inline_items(task)
        extra = set(task.get("expect_ask_on_right", []))
        for n, cart in enumerate(task["carts"]):
            cid = f"{task['id']}#{n}"
            block = set(cart.get("codes", [])) | extra
            cases.append({
                "id": cid,
                "facts": task["gold"],
                "cart": [{"item": entry_item(i), "quantity": i["quantity"]} for i in cart["items"]],
                "allowed_items": allowed,
                "expected": {"decision": "ask" if block else "proceed", "block": sorted(block), "warn": []},
            })
            # Held-out rows of the dev set are counted, never shown.
            held_out = name == "real" and task["split"] == "heldout"
            expected[cid] = (cart["label"], block, "(held out)" if held_out else task["request"])
            if held_out:
                hidden.add(cid)

with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as f:
    for c in cases:
        f.write(json.dumps(c, ensure_ascii=False) + "\n")
    case_file = f.name

out = subprocess.run([BINARY, "conform", "--json", case_file], capture_output=True, text=True)
disagree = 0
seen = set()
for line in out.stdout.splitlines():
    try:
        r = json.loads(line)
    except json.JSONDecodeError:
        continue
    cid = r.get("id")
    if cid not in expected:
        continue
    seen.add(cid)
    label, block, request = expected[cid]
    if "error" in r:
        disagree += 1
        print(f"ERROR {'(held-out dev-set row)' if cid in hidden else cid}: {r['error']}")
        continue
    got = set(r.get("block", []))
    if got != block:
        disagree += 1
        print(f"DISAGREE {'(held-out dev-set row)' if cid in hidden else cid} ({label}): labelled {sorted(block)}, engine {sorted(got)}  | {request[:70]}")
missing = set(expected) - seen
for cid in sorted(missing):
    print(f"NO RESULT {'(held-out dev-set row)' if cid in hidden else cid}")
print(f"{len(cases)} carts, {disagree} disagreements, {len(missing)} without a result")
if out.returncode not in (0, 1) and not seen:
    print(out.stderr[:2000])
sys.exit(0 if disagree == 0 and not missing else 1)
