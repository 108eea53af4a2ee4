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
  real      datasets/real (synthetic carts for the dev set, scripts/devset_carts.py):
            the file is what the generator writes; one task per dev-set row, same id,
            split by the dev set's hash rule; carts of inline items (catalog item
            shape, task-local ids `<task id>/...` that are not catalog ids, category
            `devset`; the answer items of the several-product rows may have a null
            brand or level and an `attributes` object, and their carts state their
            shipping), >= 1 right cart, wrong carts with valid block codes. Its labels
            are NOT recomputed with refguard.py: refguard reads only the FORMAT.md
            facts, and the dev-set gold uses the issue 11 extensions (brand_any,
            color_any, size_any, color_not, explicit_max_currency; code
            color-excluded). They are checked against the engine instead, by
            `cargo test --lib the_dev_set_carts_hold_their_labels_under_gold` and
            scripts/crosscheck_engine.py.
  items     datasets/items (the item-words dev set of issue 28, scripts/item_devset.py):
            open.jsonl and heldout.jsonl hold the tasks of their half by the dev
            set's hash rule, ids unique; each task has one right cart, one
            wrong_product cart per answer product and wrong_attribute carts with
            the attribute changed; every cart is an ACP CheckoutSession with one
            line per product and a flat cart of as many items; near_misses.jsonl
            has >= 40 rows in English and Russian, each with a right and a wrong
            cart; when ../shared/data is there, the files are what the generator
            writes. budget_open.jsonl and budget_heldout.jsonl (the second set,
            from the budget requests) are checked the same way, with 1 to 4
            products a task and `sbbudget-` ids.
            Only shapes are checked here: the labels are the construction's.
Exit code 0 only if everything passes.
"""

import collections
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
import refguard  # noqa: E402
import devset_carts  # noqa: E402
import devset_pool  # noqa: E402
import item_devset  # noqa: E402

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


# The answer items of datasets/real's several-product rows (scripts/devset_carts.py):
# what the benchmark does not say (a brand at times, the level) is null, and its
# other options and attributes are an `attributes` object of names and strings.
ANSWER_ITEM_FIELDS = dict(ITEM_FIELDS, brand=(str, type(None)), level=(str, type(None)))


def check_item_fields(item, where, fields=ITEM_FIELDS, attributes=False):
    """Every field of a catalog item present with its type, and no other
    (`attributes`, where allowed, optional)."""
    for field, typ in fields.items():
        if field not in item:
            err(f"{where}: missing field {field}")
        elif not isinstance(item[field], typ) or (typ is int and isinstance(item[field], bool)):
            err(f"{where}: field {field} has type {type(item[field]).__name__}")
    known = set(fields) | ({"attributes"} if attributes else set())
    if set(item) - known:
        err(f"{where}: unknown fields {sorted(set(item) - known)}")
    if "attributes" in item and attributes:
        named = item["attributes"]
        if not isinstance(named, dict) or not named or not all(
                isinstance(k, str) and k and isinstance(v, str) and v for k, v in named.items()):
            err(f"{where}: attributes is not an object of names and strings")


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
            check_item_fields(item, where)
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


REAL_TASK_KEYS = {"id", "split", "request", "lang", "today", "gold", "carts", "expect_ask_on_right", "note"}


def check_real(catalog):
    path = ROOT / "datasets" / "real" / "tasks.jsonl"
    text = path.read_text(encoding="utf-8")
    if text != devset_carts.build():
        err("real: datasets/real/tasks.jsonl is not what scripts/devset_carts.py writes; run it")
    rows = [json.loads(line) for source in devset_carts.SOURCES
            for line in source.read_text(encoding="utf-8").splitlines() if line.strip()]
    tasks = [json.loads(line) for line in text.splitlines() if line.strip()]
    if [t.get("id") for t in tasks] != [r["id"] for r in rows]:
        err("real: task ids are not the dev-set row ids in order")
    splits = {"open": 0, "heldout": 0}
    carts = {"right": 0, "wrong": 0}
    for t in tasks:
        tid = t.get("id")
        if set(t) - REAL_TASK_KEYS:
            err(f"{tid}: unknown fields {sorted(set(t) - REAL_TASK_KEYS)}")
        split = t.get("split")
        if split != devset_carts.split_of(tid):
            err(f"{tid}: split {split}, the dev set's hash rule says {devset_carts.split_of(tid)}")
        else:
            splits[split] += 1
        gold = t.get("gold", {})
        must_other = bool(gold.get("other")) and "other" not in gold.get("soft", [])
        if must_other != (t.get("expect_ask_on_right") == ["other"]):
            err(f"{tid}: expect_ask_on_right {t.get('expect_ask_on_right')} with gold other {gold.get('other')}")
        rights = [c for c in t.get("carts", []) if c.get("label") == "right"]
        if len(rights) != 1:
            err(f"{tid}: {len(rights)} right carts, want 1")
        for c in t.get("carts", []):
            label = c.get("label")
            if label not in carts:
                err(f"{tid}: bad cart label {label}")
                continue
            carts[label] += 1
            codes = c.get("codes")
            if label == "wrong" and (not codes or set(codes) - BLOCK_CODES - {"color-excluded"} or "other" in codes):
                err(f"{tid}: wrong cart needs valid codes (never 'other'), has {codes}")
            if label == "right" and codes:
                err(f"{tid}: right cart with codes {codes}")
            if set(c) - {"label", "items", "codes", "shipping"}:
                err(f"{tid}: unknown cart fields {sorted(set(c) - {'label', 'items', 'codes', 'shipping'})}")
            if "shipping" in c:
                shipping = c["shipping"]
                if t.get("note") != devset_carts.REAL_NOTE:
                    err(f"{tid}: only the answer products' carts state their shipping")
                elif (not isinstance(shipping, dict) or set(shipping) != {"price_cents", "currency"}
                      or not isinstance(shipping["price_cents"], int) or isinstance(shipping["price_cents"], bool)
                      or shipping["price_cents"] < 0 or not re.fullmatch(r"[A-Z]{3}", str(shipping["currency"]))):
                    err(f"{tid}: shipping is not {{price_cents, currency}}: {shipping}")
            for entry in c.get("items", []):
                item = entry.get("item")
                if set(entry) != {"item", "quantity"} or not isinstance(item, dict):
                    err(f"{tid}: a cart entry is not {{item, quantity}}")
                    continue
                if not isinstance(entry["quantity"], int) or entry["quantity"] < 1:
                    err(f"{tid}: bad quantity {entry['quantity']}")
                if t.get("note") == devset_carts.REAL_NOTE:
                    check_item_fields(item, f"{tid}: item", ANSWER_ITEM_FIELDS, attributes=True)
                else:
                    check_item_fields(item, f"{tid}: item")
                if not str(item.get("id", "")).startswith(f"{tid}/") or item.get("id") in catalog:
                    err(f"{tid}: item id {item.get('id')} is not task-local")
                if item.get("category") != devset_carts.CATEGORY:
                    err(f"{tid}: item category {item.get('category')}, want {devset_carts.CATEGORY}")
    return len(tasks), splits, carts


ITEM_TASK_KEYS = {"id", "split", "source", "request", "lang", "today", "products", "carts"}
ITEM_CART_KEYS = {"right": {"name", "kind", "acp", "flat"},
                  "wrong_product": {"name", "kind", "acp", "flat", "line", "replaced_by", "adjusted", "differs"},
                  "wrong_attribute": {"name", "kind", "acp", "flat", "line", "attribute", "from", "to"}}
ITEM_ATTRIBUTES = {"colour", "size", "number_unit", "material"}


def check_item_cart(where, each, lines):
    """An ACP CheckoutSession of `lines` line items (name and price each) and a flat cart as long."""
    acp, flat = each.get("acp"), each.get("flat")
    if not isinstance(acp, dict) or acp.get("status") != "ready_for_payment" or not acp.get("currency"):
        err(f"{where}: acp is not a ready_for_payment CheckoutSession with a currency")
        return
    items = acp.get("line_items")
    if not isinstance(items, list) or len(items) != lines:
        err(f"{where}: acp has {len(items) if isinstance(items, list) else 'no'} line items, want {lines}")
        return
    for index, line in enumerate(items):
        if not (isinstance(line.get("name"), str) and line["name"] and isinstance(line.get("unit_amount"), int)
                and line.get("quantity") == 1 and isinstance(line.get("item", {}).get("id"), str)):
            err(f"{where}: acp line_items[{index}] needs name, unit_amount, quantity 1 and item.id")
        for option in line.get("variant_options", []):
            if set(option) != {"name", "value"} or not all(isinstance(v, str) for v in option.values()):
                err(f"{where}: acp line_items[{index}].variant_options entry is not {{name, value}} strings")
        for attribute in line.get("custom_attributes", []):
            if set(attribute) != {"display_name", "value"} or not all(isinstance(v, str) for v in attribute.values()):
                err(f"{where}: acp line_items[{index}].custom_attributes entry is not {{display_name, value}} strings")
    total = sum(line["unit_amount"] for line in items if isinstance(line.get("unit_amount"), int))
    stated = [t.get("amount") for t in acp.get("totals", []) if t.get("type") == "total"]
    if stated != [total]:
        err(f"{where}: acp total {stated}, the lines add up to {total}")
    if not isinstance(flat, list) or len(flat) != lines or not all(
            isinstance(item, dict) and item.get("name") and item.get("quantity") == 1 and item.get("price")
            for item in flat):
        err(f"{where}: flat is not a list of {lines} items with name, price and quantity 1")


def check_items():
    """datasets/items: shapes, splits and, when the source is here, freshness."""
    folder = ROOT / "datasets" / "items"
    if item_devset.SOURCE.exists() and item_devset.BUDGET_SOURCE.exists():
        files = item_devset.build()
        for name, text in files.items():
            if (folder / name).read_text(encoding="utf-8") != text:
                err(f"items: datasets/items/{name} is not what scripts/item_devset.py writes; run it")
    counts = {}
    ids = set()
    # (file, its half, the tasks' id prefix, the fewest products a task names)
    sets = [("open", "open", "sbmulti-", 2), ("heldout", "heldout", "sbmulti-", 2),
            ("budget_open", "open", "sbbudget-", 1), ("budget_heldout", "heldout", "sbbudget-", 1)]
    for name, half, prefix, fewest in sets:
        tasks = [json.loads(line) for line in (folder / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()]
        kinds = collections.Counter()
        for task in tasks:
            tid = task.get("id")
            if tid in ids:
                err(f"items: id {tid} twice")
            ids.add(tid)
            if set(task) != ITEM_TASK_KEYS:
                err(f"items {tid}: fields {sorted(task)}, want {sorted(ITEM_TASK_KEYS)}")
                continue
            if not str(tid).startswith(prefix):
                err(f"items {tid}: in {name}.jsonl, want an id {prefix}NNN")
            if task["split"] != half or devset_pool.split(tid) != half:
                err(f"items {tid}: in {name}.jsonl with split {task['split']}, the hash rule says {devset_pool.split(tid)}")
            lines = len(task["products"])
            if not fewest <= lines <= 4:
                err(f"items {tid}: {lines} products, want {fewest} to 4")
            carts = task["carts"]
            if not carts or carts[0].get("kind") != "right" or sum(c.get("kind") == "right" for c in carts) != 1:
                err(f"items {tid}: the first cart and only it must be the right cart")
            if sorted(c.get("line") for c in carts if c.get("kind") == "wrong_product") != list(range(lines)):
                err(f"items {tid}: want one wrong_product cart per product")
            for each in carts:
                kind = each.get("kind")
                where = f"items {tid} cart {each.get('name')}"
                if kind not in ITEM_CART_KEYS or set(each) != ITEM_CART_KEYS[kind]:
                    err(f"{where}: kind {kind} with fields {sorted(each)}")
                    continue
                kinds[kind] += 1
                if kind == "wrong_attribute" and (each["attribute"] not in ITEM_ATTRIBUTES or each["from"] == each["to"]):
                    err(f"{where}: attribute {each['attribute']} from {each['from']!r} to {each['to']!r}")
                check_item_cart(where, each, lines)
        counts[name] = (len(tasks), kinds)
    near = [json.loads(line) for line in (folder / "near_misses.jsonl").read_text(encoding="utf-8").splitlines()]
    if len(near) < 40 or {row.get("lang") for row in near} != {"en", "ru"}:
        err(f"items: {len(near)} near misses in {sorted({row.get('lang') for row in near})}, want >= 40 in en and ru")
    for row in near:
        nid = row.get("id")
        if row.get("split") != devset_pool.split(str(nid)):
            err(f"items {nid}: split {row.get('split')}, the hash rule says {devset_pool.split(str(nid))}")
        if [c.get("kind") for c in row.get("carts", [])] != ["right", "near_miss"]:
            err(f"items {nid}: want a right and a near_miss cart")
            continue
        for each in row["carts"]:
            check_item_cart(f"items {nid} cart {each.get('name')}", each, 1)
    return counts, len(near)


def main():
    catalog, by_cat = load_catalog()
    if len(catalog) < 300 or len(by_cat) < 8:
        err(f"catalog: {len(catalog)} items in {len(by_cat)} categories, want >= 300 in >= 8")
    print("catalog:", len(catalog), "items;", ", ".join(f"{c} {len(v)}" for c, v in sorted(by_cat.items())))
    for name, minimum in (("v1", 120), ("v2", 60)):
        n, splits, ru = check_dataset(name, catalog, by_cat, minimum)
        print(f"{name}: {n} tasks, open {splits['open']}, heldout {splits['heldout']}, Russian {ru} ({ru / max(1, n):.0%})")
    n, splits, carts = check_real(catalog)
    print(f"real: {n} tasks, open {splits['open']}, heldout {splits['heldout']}, "
          f"{carts['right']} right and {carts['wrong']} wrong carts (labels checked against the engine, not refguard)")
    counts, near = check_items()
    print("items: " + "; ".join(f"{half} {n} tasks ({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))})"
                                for half, (n, kinds) in counts.items()) + f"; {near} near misses")
    for e in errors:
        print("FAIL", e)
    print("OK" if not errors else f"{len(errors)} problems")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
