#!/usr/bin/env python3
"""Check catalog/ and datasets/ (standard library only).

    python3 scripts/check_datasets.py

Checks:
  catalog   one item object per line, ids unique, category = file stem, field types;
  datasets  every cart item id exists in the catalog; every task has >= 1 right and
            >= 3 wrong carts; codes are valid FORMAT.md block codes; gold uses only
            FORMAT.md fact fields (no `disputed`); `split` is open/heldout half and
            half, interleaved; v2 has >= 20% Russian requests; a task whose gold has
            a must-have `other` carries expect_ask_on_right ["other"] and is in v2;
  labels    recomputed with scripts/refguard.py (the reference reading of
            /work/notes/semantics.md): right carts raise no block code (besides
            `other` where expected), wrong carts raise exactly their codes.
Exit code 0 only if everything passes.
"""

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
import refguard  # noqa: E402

BLOCK_CODES = {"brand", "brand-excluded", "model", "color", "size", "level", "refund", "deadline", "price",
               "explicit-max", "quantity", "other", "missing", "extra", "lines"}
FACT_FIELDS = {"brand", "brand_not", "model", "color", "size_label", "level", "price_preference",
               "explicit_max_cents", "quantity", "needs_refundable", "deadline_days", "lines", "other",
               "other_optional", "soft"}
LINE_FIELDS = {"model", "color", "size_label", "quantity"}
ITEM_FIELDS = {"id": str, "category": str, "brand": str, "name": str, "color": (str, type(None)),
               "size": (str, type(None)), "level": str, "final_sale": (bool, type(None)),
               "delivery_days": (int, type(None)), "units": int, "price_cents": int, "currency": str,
               "tags": list}
CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)

errors = []


def err(msg):
    errors.append(msg)


def load_catalog():
    catalog, by_cat = {}, {}
    for path in sorted(p for p in (ROOT / "catalog").glob("*.json") if not p.name.endswith(".schema.json")):
        lines = path.read_text(encoding="utf-8").splitlines()
        if lines[0].strip() != "[" or lines[-1].strip() != "]":
            err(f"{path.name}: must open with '[' and close with ']' on their own lines")
        for n, line in enumerate(lines[1:-1], 2):
            text = line.rstrip().rstrip(",")
            try:
                item = json.loads(text)
            except json.JSONDecodeError as e:
                err(f"{path.name}:{n}: not one JSON object per line: {e}")
                continue
            where = f"{path.name}:{n}"
            for field, typ in ITEM_FIELDS.items():
                if field not in item:
                    err(f"{where}: missing field {field}")
                elif not isinstance(item[field], typ) or (typ is int and isinstance(item[field], bool)):
                    err(f"{where}: field {field} has type {type(item[field]).__name__}")
            if set(item) - set(ITEM_FIELDS):
                err(f"{where}: unknown fields {sorted(set(item) - set(ITEM_FIELDS))}")
            if item.get("category") != path.stem:
                err(f"{where}: category {item.get('category')} != file stem {path.stem}")
            if item.get("level") not in ("beginner", "intermediate", "pro", "any"):
                err(f"{where}: bad level {item.get('level')}")
            if item.get("id") in catalog:
                err(f"{where}: duplicate id {item['id']}")
            catalog[item["id"]] = item
            by_cat.setdefault(path.stem, []).append(item)
        json.loads(path.read_text(encoding="utf-8"))  # the whole file is valid JSON too
    return catalog, by_cat


def check_gold(tid, gold):
    for k in gold:
        if k not in FACT_FIELDS:
            err(f"{tid}: gold has field {k!r} not in FORMAT.md facts" + (" (disputed is not gold)" if k == "disputed" else ""))
    for line in gold.get("lines", []):
        if set(line) - LINE_FIELDS:
            err(f"{tid}: line has unknown fields {sorted(set(line) - LINE_FIELDS)}")
    if gold.get("level") not in (None, "beginner", "intermediate", "pro"):
        err(f"{tid}: bad level {gold.get('level')}")
    if gold.get("price_preference") not in (None, "cheap", "premium"):
        err(f"{tid}: bad price_preference")
    for k in ("explicit_max_cents", "quantity", "deadline_days"):
        if k in gold and (not isinstance(gold[k], int) or isinstance(gold[k], bool)):
            err(f"{tid}: {k} must be an integer")
    for f in gold.get("soft", []):
        if f not in FACT_FIELDS and not f.startswith("lines["):
            err(f"{tid}: soft names unknown field {f}")


def check_dataset(name, catalog, by_cat, min_tasks):
    path = ROOT / "datasets" / name / "tasks.jsonl"
    tasks = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if len(tasks) < min_tasks:
        err(f"{name}: {len(tasks)} tasks, want >= {min_tasks}")
    ids = set()
    splits = {"open": 0, "heldout": 0}
    russian = 0
    for n, t in enumerate(tasks):
        tid = t.get("id", f"{name}#{n}")
        if tid in ids:
            err(f"{tid}: duplicate task id")
        ids.add(tid)
        for k in ("id", "split", "category", "request", "today", "gold", "carts"):
            if k not in t:
                err(f"{tid}: missing {k}")
        split = t.get("split")
        if split not in splits:
            err(f"{tid}: bad split {split}")
        else:
            splits[split] += 1
            want = "open" if n % 2 == 0 else "heldout"
            if split != want:
                err(f"{tid}: split {split}, the interleaving rule says {want}")
        if CYRILLIC.search(t.get("request", "")):
            russian += 1
        gold = t.get("gold", {})
        check_gold(tid, gold)
        must_other = bool(gold.get("other"))
        if must_other and t.get("expect_ask_on_right") != ["other"]:
            err(f"{tid}: gold has a must-have other but no expect_ask_on_right ['other']")
        if must_other and name == "v1":
            err(f"{tid}: v1 task with a must-have other")
        if not must_other and t.get("expect_ask_on_right"):
            err(f"{tid}: expect_ask_on_right without gold other")
        carts = t.get("carts", [])
        rights = [c for c in carts if c.get("label") == "right"]
        wrongs = [c for c in carts if c.get("label") == "wrong"]
        if len(rights) < 1 or len(wrongs) < 3:
            err(f"{tid}: {len(rights)} right and {len(wrongs)} wrong carts")
        for c in carts:
            if c.get("label") not in ("right", "wrong"):
                err(f"{tid}: bad cart label {c.get('label')}")
            entries = []
            for it in c.get("items", []):
                if it["id"] not in catalog:
                    err(f"{tid}: unknown item id {it['id']}")
                    break
                if catalog[it["id"]]["category"] != t.get("category"):
                    err(f"{tid}: item {it['id']} is not in category {t.get('category')}")
                entries.append({"item": catalog[it["id"]], "quantity": it["quantity"]})
            else:
                codes = c.get("codes")
                if c["label"] == "wrong":
                    if not codes or set(codes) - BLOCK_CODES:
                        err(f"{tid}: wrong cart needs valid codes, has {codes}")
                    if codes and "other" in codes:
                        err(f"{tid}: 'other' must not be listed in codes")
                elif codes:
                    err(f"{tid}: right cart with codes {codes}")
                try:
                    got = refguard.block_codes(gold, entries, by_cat.get(t.get("category"), []))
                except refguard.Ambiguous as e:
                    err(f"{tid}: cart {[i['id'] for i in c['items']]} is ambiguous under the semantics: {e}")
                    continue
                expected = set(codes or []) | ({"other"} if must_other else set())
                if got != expected:
                    err(f"{tid}: cart {[(i['id'], i['quantity']) for i in c['items']]} labelled {sorted(expected)}, "
                        f"reference computes {sorted(got)}")
    if abs(splits["open"] - splits["heldout"]) > 1:
        err(f"{name}: splits not half/half: {splits}")
    share = russian / max(1, len(tasks))
    if name == "v2" and share < 0.20:
        err(f"v2: Russian share {share:.0%} < 20%")
    return len(tasks), splits, russian


def main():
    catalog, by_cat = load_catalog()
    if len(catalog) < 300 or len(by_cat) < 8:
        err(f"catalog: {len(catalog)} items in {len(by_cat)} categories, want >= 300 in >= 8")
    print("catalog:", len(catalog), "items;", ", ".join(f"{c} {len(v)}" for c, v in sorted(by_cat.items())))
    for name, minimum in (("v1", 120), ("v2", 60)):
        n, splits, ru = check_dataset(name, catalog, by_cat, minimum)
        print(f"{name}: {n} tasks, open {splits['open']}, heldout {splits['heldout']}, Russian {ru} ({ru / max(1, n):.0%})")
    for e in errors:
        print("FAIL", e)
    print("OK" if not errors else f"{len(errors)} problems")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
