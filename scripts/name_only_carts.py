#!/usr/bin/env python3
"""Carts that carry only a name, checked by two builds (standard library only).

    python3 scripts/name_only_carts.py OLD_BINARY NEW_BINARY

Every cart of datasets/v1, v2 and real, with each item's `brand` removed (as
WebShop-style carts and many agents send them), is checked against the task's
gold facts with `asasked conform --json` by both builds. Prints per dataset (the
dev set per half) the right carts asked, the wrong carts missed and the carts
with an `unchecked` note, before -> after. Held-out rows are counted, never
shown. Written for issue 28's brand read from the item's name.
"""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KEYS = ("id", "brand", "name", "color", "size", "level", "final_sale", "delivery_days", "units",
        "price_cents", "currency")

catalog = {}
for path in sorted(p for p in (ROOT / "catalog").glob("*.json") if not p.name.endswith(".schema.json")):
    for item in json.loads(path.read_text(encoding="utf-8")):
        catalog[item["id"]] = item


def name_only(item):
    out = {key: item[key] for key in KEYS}
    out["brand"] = None
    return out


cases, meta = [], {}
for name in ("v1", "v2", "real"):
    for line in (ROOT / "datasets" / name / "tasks.jsonl").read_text(encoding="utf-8").splitlines():
        task = json.loads(line)
        dataset = f"real-{task['split']}" if name == "real" else name
        for n, cart in enumerate(task["carts"]):
            cid = f"{task['id']}#{n}"
            entries = [{"item": name_only(e["item"] if "item" in e else catalog[e["id"]]), "quantity": e["quantity"]}
                       for e in cart["items"]]
            cases.append({"id": cid, "facts": task["gold"], "cart": entries,
                          "expected": {"decision": "proceed", "block": [], "warn": []}})
            meta[cid] = (dataset, cart["label"])

with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as f:
    for case in cases:
        f.write(json.dumps(case, ensure_ascii=False) + "\n")
    case_file = f.name


def run(binary):
    out = subprocess.run([binary, "conform", "--json", case_file], capture_output=True, text=True)
    results = {}
    for line in out.stdout.splitlines():
        try:
            result = json.loads(line)
        except json.JSONDecodeError:
            continue
        if result.get("id") in meta:
            results[result["id"]] = result
    missing = set(meta) - set(results)
    if missing:
        sys.exit(f"{binary}: no result for {len(missing)} carts\n{out.stderr[:2000]}")
    return results


builds = [run(sys.argv[1]), run(sys.argv[2])]
stats = {}
for cid, (dataset, label) in meta.items():
    row = stats.setdefault(dataset, {"right": 0, "wrong": 0, "asked": [0, 0], "missed": [0, 0], "unchecked": [0, 0]})
    row[label] += 1
    for k, results in enumerate(builds):
        asked = results[cid].get("decision") == "ask"
        row["asked"][k] += label == "right" and asked
        row["missed"][k] += label == "wrong" and not asked
        row["unchecked"][k] += "unchecked" in results[cid].get("warn", [])
for dataset, row in sorted(stats.items()):
    print(f"{dataset}: right carts asked {row['asked'][0]} -> {row['asked'][1]} of {row['right']}; "
          f"wrong carts missed {row['missed'][0]} -> {row['missed'][1]} of {row['wrong']}; "
          f"carts with an unchecked note {row['unchecked'][0]} -> {row['unchecked'][1]}")
