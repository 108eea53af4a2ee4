#!/usr/bin/env python3
"""Synthetic carts for the real-request dev set (standard library only).

    python3 scripts/devset_carts.py          # writes datasets/real/tasks.jsonl
    python3 scripts/devset_carts.py --check  # exit 1 if the file is not what it would write

The dev set (tests/extraction/real.jsonl … real5.jsonl) holds verbatim requests
with hand-labelled gold facts but no carts, so `asasked compare` could not say
what an extractor's errors do to the guard's decisions on it. This script
turns every row into a task of the dataset format (datasets/README.md) whose
carts are built from the gold facts alone:

- one `right` cart: an item that satisfies every gold fact (the gold brand,
  colour, size, model words, level, a price under the limit in its currency,
  refundable, delivered on the deadline day, the stated quantity; for `lines`
  one item per line);
- one `wrong` cart per checkable stated fact, each the right cart with exactly
  that fact violated (another brand; an excluded brand; another colour not
  among the accepted ones; an excluded colour; another size; another level;
  a total over the limit; quantity + 1; delivery a day after the deadline;
  final sale; a name without the model's words; a dearer twin of the right
  item for "cheap"; a line missing), with `codes` = the block codes that
  violation raises under the gold facts (the codes of src/checks/).

A fact is checkable when its violation blocks: not in `soft` (a soft brand,
colour or size with alternatives still blocks, as SeverityRules::severity_of
does). `premium`, `other_optional` and soft facts get no wrong cart. A must-have
`other` is asked on every cart: `expect_ask_on_right: ["other"]`, never in
`codes`. A row with no checkable fact gets its right cart only (it still
measures right carts stopped by invented facts).

Items are inline (`{"item": {...}, "quantity": q}`), in the catalog item shape
with a task-local id (`<row id>/right`, `<row id>/color`, ...) and category
`devset`: these products are not in the sandbox store, and they never join the
catalog, so the `rules` extractor (whose brand vocabulary comes from the
catalog) does not learn the gold brands from them. Synthetic item names are
the gold brand and model only; no other item text carries a fact (the
several-product rows, below, carry the benchmark's own words instead).

The Rust test `the_dev_set_carts_hold_their_labels_under_gold`
(src/sandbox/replay.rs) checks under the `gold` extractor that every right
cart blocks on nothing beyond expect_ask_on_right and every wrong cart on
exactly codes + expect_ask_on_right. A violation the guard could not see with
these items would be left out by a rule here, with its reason, never by
weakening that test; none is needed at present (one was a generator bug:
"Medium" as "another size" for "M", which normalize::Size reads as the same
size, now avoided by OTHER_LETTER_SIZES).

Real carts for the several-product rows (since 2026-12-03, issue 28). The 70
rows whose id starts with `sbmulti-` are ShoppingBench requests naming 2-4
products. A one-item synthetic cart for them is what no real agent would
send, and a guard that assigns items to the products a request names stops
it for `missing` lines. Their carts are built instead from the item dev set
(datasets/items/{open,heldout}.jsonl, scripts/item_devset.py), which holds the
same requests under the same ids and split: the right cart is its right cart,
one item per answer product (quantity 1), each read from that cart's flat form
into the catalog item shape: `name` the benchmark's title, `brand` where the
answer gives one (else null: the guard reads a brand the name begins with),
`color` and `size` the SKU options, `attributes` every other option and
attribute (with the shop services), the price in PHP, `delivery_days` the days
from `today` to the session's delivery date, one unit; `level` and
`final_sale` null, as the benchmark does not say them. The data has no
description or category, so none is written; the category is `devset` as for
every item here. Each of these carts states the session's shipping charge
(`shipping`: `{"price_cents": 0, "currency": "PHP"}`), which an item of the
catalog shape cannot carry: without it, free shipping asked would be asked
about on every such cart, as on a checkout that does not say its shipping. The wrong carts are built from that right cart as above,
each with one gold fact violated on the item the fact is read on: for a
colour or size (shared facts, checked on every item), the first item whose
colour or size is the stated one, else the first item.

Where the benchmark's answer differs from the label, the label stands and the
row keeps its synthetic carts. Rule (`real_cart_holds`): a row's real cart is
used only when every stated gold fact is one this script can compare with the
answer items exactly and each item holds it: a free-text fact (`other`,
`other_optional`, no item check under guard.md §5), `premium`, or a colour or
size (with `color_any`, `size_any`, `color_not`), which each item either does
not state or states as one accepted value, never an excluded one (compared
case-insensitively, stricter than normalize). Any other stated fact (brand,
model, lines, quantity, price, delivery, refund, level) keeps the synthetic
carts. The number of rows with real carts and of rows kept synthetic is
printed per half; no row is named.

Deterministic: rows in file order (real.jsonl … real5.jsonl), no clock,
no randomness. The split is copied from the row and checked against the dev
set's rule (heldout iff int(sha256(id)[:8], 16) is odd). Rows are processed
mechanically; nothing is printed about any row.
"""

import datetime
import hashlib
import json
import re
import sys
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [ROOT / "tests" / "extraction" / name for name in ("real.jsonl", "real2.jsonl", "real3.jsonl", "real4.jsonl", "real5.jsonl")]
OUT = ROOT / "datasets" / "real" / "tasks.jsonl"
NOTE = "synthetic carts from gold"
REAL_NOTE = "carts of the benchmark's answer products (datasets/items)"
# The several-product rows and the item dev set that holds their answer products.
REAL_PREFIX = "sbmulti-"
ITEM_SOURCES = [ROOT / "datasets" / "items" / name for name in ("open.jsonl", "heldout.jsonl")]
# Gold facts no item check reads under guard.md §5 (a free-text must is asked
# on every cart), and the colour and size facts compared with the answer items.
FREE_TEXT_FACTS = {"other", "other_optional", "soft"}
COMPARED_FACTS = {"color", "color_any", "color_not", "size_label", "size_any"}
CATEGORY = "devset"

# Colours for "another colour": the first whose words the request's accepted
# and excluded colours do not use.
OTHER_COLOURS = ["purple", "orange", "brown", "green", "yellow", "pink", "red", "blue", "white", "black"]
# Brands for "another brand": invented, so no extractor or catalog knows them.
OTHER_BRANDS = ["Quolvex", "Zandrik"]
# Attributes the gold leaves open get fixed values, as a real product has
# some colour and size: a fact an extractor invents is then compared with a
# value (and may stop a right cart), not left `unchecked`.
NEUTRAL_BRAND = "Plainmark"
NEUTRAL_COLOURS = ["beige", "taupe"]  # the first the request neither says nor excludes
NEUTRAL_SIZE = "One Size"
# Letter sizes for "another size" when the stated size has no number, each
# with the spellings normalize::Size reads as the same size.
OTHER_LETTER_SIZES = {"Medium": {"m", "med", "medium"}, "Small": {"s", "sm", "small"}}
OTHER_LEVEL = {"beginner": "pro", "intermediate": "beginner", "pro": "beginner"}
DEFAULT_PRICE_MINOR = 2000
DEFAULT_DELIVERY_DAYS = 2

def answer_items():
    """Per item dev set task id: its right cart as items of the catalog shape
    (without ids), from the flat form, with the ACP session's delivery, and
    the session's shipping charge."""
    carts = {}
    for source in ITEM_SOURCES:
        for text in source.read_text(encoding="utf-8").splitlines():
            if not text.strip():
                continue
            task = json.loads(text)
            (right,) = [cart for cart in task["carts"] if cart["kind"] == "right"]
            session = right["acp"]
            (selected,) = session["selected_fulfillment_options"]
            (option,) = [o for o in session["fulfillment_options"] if o["id"] == selected["option_id"]]
            delivery = datetime.date.fromisoformat(option["latest_delivery_time"][:10])
            days = (delivery - datetime.date.fromisoformat(task["today"])).days
            (charge,) = [total["amount"] for total in option["totals"] if total["type"] == "total"]
            shipping = {"price_cents": charge, "currency": session["currency"].upper()}
            items = []
            for entry in right["flat"]:
                if entry["quantity"] != 1:
                    raise ValueError(f"{task['id']}: an answer product bought more than once")
                item = {
                    "category": CATEGORY,
                    "brand": entry.get("brand"),
                    "name": entry["name"],
                    "color": entry.get("color"),
                    "size": entry.get("size"),
                    "level": None,
                    "final_sale": None,
                    "delivery_days": days,
                    "units": 1,
                    "price_cents": int(Decimal(entry["price"]) * 100),
                    "currency": entry["currency"],
                    "tags": [],
                }
                if entry.get("attributes"):
                    item["attributes"] = entry["attributes"]
                items.append(item)
            carts[task["id"]] = (task["split"], task["request"], items, shipping)
    return carts


def stated(gold):
    return {field for field, value in gold.items() if value not in (None, False, "", [])}


def holds(value, accepted, excluded):
    """An item's colour or size holds the gold: unstated, or an accepted
    value and no excluded one (case-insensitive)."""
    if value is None:
        return True
    folded = value.casefold()
    return (not accepted or folded in accepted) and folded not in excluded


def real_cart_holds(gold, items):
    """Whether the answer items can be the row's right cart (the docstring's rule)."""
    facts = stated(gold) - FREE_TEXT_FACTS
    if gold.get("price_preference") == "premium":
        facts.discard("price_preference")
    if facts - COMPARED_FACTS:
        return False
    colours = {c.casefold() for c in [gold.get("color")] + gold.get("color_any", []) if c}
    no_colours = {c.casefold() for c in gold.get("color_not", [])}
    sizes = {s.casefold() for s in [gold.get("size_label")] + gold.get("size_any", []) if s}
    return all(holds(item["color"], colours, no_colours) and holds(item["size"], sizes, set()) for item in items)


def split_of(row_id):
    return "heldout" if int(hashlib.sha256(row_id.encode("utf-8")).hexdigest()[:8], 16) % 2 else "open"


def folded_words(text):
    return set(re.findall(r"\w+", text.casefold()))


def blocking(gold, field, alternatives=()):
    """Whether violating `field` blocks: not soft, or soft with alternatives."""
    if field not in gold.get("soft", []):
        return True
    return any(gold.get(key) for key in alternatives)


def other_colour(colours):
    used = set()
    for colour in colours:
        used |= folded_words(colour)
    for candidate in OTHER_COLOURS:
        if candidate not in used:
            return candidate
    raise ValueError("no other colour")


def other_size(size):
    match = re.search(r"\d+", size)
    if match:
        number = int(match.group()) + 1
        return size[: match.start()] + str(number) + size[match.end():]
    words = folded_words(size)
    for candidate, spellings in OTHER_LETTER_SIZES.items():
        if not words & spellings:
            return candidate
    raise ValueError("no other size")


def other_brand(gold):
    taken = {b.casefold() for b in [gold.get("brand") or ""] + gold.get("brand_any", []) + gold.get("brand_not", [])}
    return next(b for b in OTHER_BRANDS if b.casefold() not in taken)


class Row:
    def __init__(self, row, answers):
        self.row = row
        self.id = row["id"]
        self.gold = row["gold"]
        gold = self.gold
        # The answer items of a several-product row, when they hold the gold.
        self.real = None
        self.shipping = None
        if self.id.startswith(REAL_PREFIX):
            if self.id not in answers:
                raise ValueError(f"{self.id}: not in the item dev set")
            split, request, items, shipping = answers[self.id]
            if split != split_of(self.id) or request != row["request"]:
                raise ValueError(f"{self.id}: the item dev set's task has another split or request")
            if real_cart_holds(gold, items):
                self.real = [dict(id=f"{self.id}/right{n + 1}", **item) for n, item in enumerate(items)]
                self.shipping = shipping
        self.lines = gold.get("lines", [])
        self.currency = gold.get("explicit_max_currency") or ("RUB" if row["lang"] == "ru" else "USD")
        counts = [line.get("quantity") or 1 for line in self.lines] or [gold.get("quantity") or 1]
        self.total_units = sum(counts)
        limit = gold.get("explicit_max_cents")
        self.price = max(1, limit // (4 * self.total_units)) if limit else DEFAULT_PRICE_MINOR
        said = folded_words(row["request"])
        for excluded in self.gold.get("color_not", []):
            said |= folded_words(excluded)
        self.neutral_colour = next(c for c in NEUTRAL_COLOURS if c not in said)

    def item(self, suffix, line=None, **changes):
        gold = self.gold
        line = line or {}
        brand = gold.get("brand") or NEUTRAL_BRAND
        model = line.get("model") or gold.get("model")
        colour = line.get("color") or gold.get("color") or self.neutral_colour
        size = line.get("size_label") or gold.get("size_label") or NEUTRAL_SIZE
        item = {
            "id": f"{self.id}/{suffix}",
            "category": CATEGORY,
            "brand": brand,
            "name": " ".join(part for part in (brand, model) if part),
            "color": colour,
            "size": size,
            "level": gold.get("level") or "any",
            "final_sale": False,
            "delivery_days": gold["deadline_days"] if gold.get("deadline_days") is not None else DEFAULT_DELIVERY_DAYS,
            "units": 1,
            "price_cents": self.price,
            "currency": self.currency,
            "tags": [],
        }
        item.update(changes)
        return item

    def right_entries(self):
        if self.real:
            return [{"item": dict(item), "quantity": 1} for item in self.real]
        if self.lines:
            return [{"item": self.item(f"right{n + 1}", line), "quantity": line.get("quantity") or 1}
                    for n, line in enumerate(self.lines)]
        return [{"item": self.item("right"), "quantity": self.gold.get("quantity") or 1}]

    def right_cart(self):
        cart = {"label": "right", "items": self.right_entries()}
        if self.shipping is not None:
            cart["shipping"] = self.shipping
        return cart

    def real_target(self, field):
        """The answer item a shared colour or size fact is violated on: the
        first that states the accepted value, else the first."""
        values = {v.casefold() for v in [self.gold.get(field)] + self.gold.get(f"{field}_any", []) if v}
        key = {"color": "color", "size_label": "size"}[field]
        return next((n for n, item in enumerate(self.real) if (item[key] or "").casefold() in values), 0)

    def wrong(self, name, codes, first=None, quantity=None, drop_last=False, field=None):
        """The right cart with the first entry replaced (or its quantity
        changed, or the last line dropped); for answer items, the item
        `field` is read on changed."""
        entries = self.right_entries()
        if self.real:
            if first is None or field is None or quantity is not None or drop_last:
                raise ValueError(f"{self.id}: {name} is not violated on an answer item")
            target = self.real_target(field)
            entries[target] = {"item": dict(self.real[target], id=f"{self.id}/{name}", **first), "quantity": 1}
            cart = {"label": "wrong", "items": entries, "shipping": self.shipping, "codes": sorted(codes)}
            return {"name": name, "cart": cart}
        if first is not None:
            line = self.lines[0] if self.lines else None
            entries[0] = {"item": self.item(name, line, **first), "quantity": entries[0]["quantity"]}
        if quantity is not None:
            entries[0] = dict(entries[0], quantity=quantity)
        if drop_last:
            entries = entries[:-1]
        return {"name": name, "cart": {"label": "wrong", "items": entries, "codes": sorted(codes)}}

    def wrongs(self):
        gold = self.gold
        cheap = gold.get("price_preference") == "cheap" and not self.lines and blocking(gold, "price_preference")
        line0 = self.lines[0] if self.lines else {}
        out = []
        brand = gold.get("brand")
        if brand and blocking(gold, "brand", ("brand_any",)):
            out.append(self.wrong("brand", {"brand"}, first={"brand": other_brand(gold),
                                                            "name": " ".join(p for p in (other_brand(gold), line0.get("model") or gold.get("model")) if p)}))
        if gold.get("brand_not") and blocking(gold, "brand_not"):
            excluded = gold["brand_not"][0]
            codes = {"brand-excluded"}
            accepted = {b.casefold() for b in [brand or ""] + gold.get("brand_any", [])}
            if brand and excluded.casefold() not in accepted and blocking(gold, "brand", ("brand_any",)):
                codes.add("brand")
            out.append(self.wrong("brand_not", codes, first={
                "brand": excluded, "name": " ".join(p for p in (excluded, line0.get("model") or gold.get("model")) if p)}))
        model = line0.get("model") or gold.get("model")
        if model and blocking(gold, "model"):
            out.append(self.wrong("model", {"model"}, first={"name": f"{brand or NEUTRAL_BRAND} Standard"}))
        colour = line0.get("color") or gold.get("color")
        accepted_colours = [colour] + ([] if line0.get("color") else gold.get("color_any", [])) if colour else []
        excluded_colours = gold.get("color_not", [])
        if colour and blocking(gold, "color", ("color_any",)):
            out.append(self.wrong("color", {"color"}, field="color",
                                  first={"color": other_colour(accepted_colours + excluded_colours)}))
        if excluded_colours and blocking(gold, "color_not"):
            codes = {"color-excluded"}
            if colour and blocking(gold, "color", ("color_any",)):
                codes.add("color")
            out.append(self.wrong("color_not", codes, field="color", first={"color": excluded_colours[0]}))
        size = line0.get("size_label") or gold.get("size_label")
        if size and blocking(gold, "size_label", ("size_any",)):
            accepted = [size] + ([] if line0.get("size_label") else gold.get("size_any", []))
            wrong_size = other_size(size)
            while any(wrong_size.casefold() == a.casefold() for a in accepted):
                wrong_size = other_size(wrong_size)
            out.append(self.wrong("size", {"size"}, field="size_label", first={"size": wrong_size}))
        if gold.get("level") and blocking(gold, "level"):
            out.append(self.wrong("level", {"level"}, first={"level": OTHER_LEVEL[gold["level"]]}))
        if gold.get("needs_refundable") and blocking(gold, "needs_refundable"):
            out.append(self.wrong("refund", {"refund"}, first={"final_sale": True}))
        if gold.get("deadline_days") is not None and blocking(gold, "deadline_days"):
            out.append(self.wrong("deadline", {"deadline"}, first={"delivery_days": gold["deadline_days"] + 1}))
        if gold.get("explicit_max_cents") is not None and blocking(gold, "explicit_max_cents"):
            codes = {"explicit-max"} | ({"price"} if cheap else set())
            out.append(self.wrong("explicit_max", codes, first={"price_cents": gold["explicit_max_cents"] + 1}))
        quantity = line0.get("quantity") if self.lines else gold.get("quantity")
        if quantity is not None and blocking(gold, "lines[0].quantity" if self.lines else "quantity"):
            out.append(self.wrong("quantity", {"quantity"}, quantity=quantity + 1))
        if cheap:
            out.append(self.wrong("price", {"price"}, first={"price_cents": self.price * 2}))
        if len(self.lines) > 1:
            out.append(self.wrong("lines", {"missing"}, drop_last=True))
        return [w["cart"] for w in out]

    def task(self):
        row, gold = self.row, self.gold
        split = split_of(self.id)
        if row.get("split") not in (None, split):
            raise ValueError(f"{self.id}: the row's split disagrees with the hash rule")
        other_must = bool(gold.get("other")) and "other" not in gold.get("soft", [])
        task = {
            "id": self.id,
            "split": split,
            "request": row["request"],
            "lang": row["lang"],
            "today": row["today"],
            "gold": gold,
            "carts": [self.right_cart()] + self.wrongs(),
        }
        if other_must:
            task["expect_ask_on_right"] = ["other"]
        task["note"] = REAL_NOTE if self.real else NOTE
        return task


def rows():
    answers = answer_items()
    for source in SOURCES:
        for text in source.read_text(encoding="utf-8").splitlines():
            if text.strip():
                yield Row(json.loads(text), answers)


def build():
    return "\n".join(json.dumps(row.task(), ensure_ascii=False) for row in rows()) + "\n"


def main():
    text = build()
    if "--check" in sys.argv[1:]:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT.relative_to(ROOT)} is not what scripts/devset_carts.py writes; run it")
            sys.exit(1)
        return
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    tasks = [json.loads(line) for line in text.splitlines()]
    wrong = sum(1 for t in tasks for c in t["carts"] if c["label"] == "wrong")
    only_right = sum(1 for t in tasks if len(t["carts"]) == 1)
    print(f"wrote {OUT.relative_to(ROOT)}: {len(tasks)} tasks, {len(tasks)} right and {wrong} wrong carts; "
          f"{only_right} tasks with no checkable fact have a right cart only")
    # Counts per half only: no row is named.
    for split in ("open", "heldout"):
        several = [row for row in rows() if row.id.startswith(REAL_PREFIX) and split_of(row.id) == split]
        real = sum(1 for row in several if row.real)
        print(f"{split}: {len(several)} several-product rows, {real} with the answer products' carts, "
              f"{len(several) - real} kept synthetic (the answer does not hold the gold)")


if __name__ == "__main__":
    main()
