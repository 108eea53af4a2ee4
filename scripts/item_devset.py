#!/usr/bin/env python3
"""The item-words dev set of issue 28 §9 (standard library only).

    python3 scripts/item_devset.py          # writes datasets/items/{open,heldout,near_misses}.jsonl
                                            # and datasets/items/budget_{open,heldout}.jsonl
    python3 scripts/item_devset.py --check  # exit 1 if the files are not what it would write

Source: ../shared/data/shoppingbench_multi_product.jsonl (ShoppingBench,
Apache-2.0): 250 real requests naming 2-4 products each, with the benchmark's
answer per product (title, SKU options, attributes, price range, shop
services). Every request becomes one task `sbmulti-NNN` (NNN = its line, from
0) with carts of the answer products as items carrying those words:

- `right`: every answer product, one line each, priced inside its range;
- `wrong_product`: for each answer product in turn, the cart with that product
  replaced by another product of the file that is a different kind of thing
  (its title shares no content word with any answer title of the task), with
  the replaced product's price and colour/size options. Candidates are ranked
  by how many of brand, colour and size they have natively equal to the
  replaced product; `adjusted` lists the options set from the replaced
  product, `differs` what still differs (brand, or a size the candidate has no
  option for);
- `wrong_attribute`: for each answer product, up to two carts (colour, size,
  a number with a unit, a material, in that order of preference), each the
  right cart with that one attribute changed wherever the item says it
  (options, attributes, title), to a value the request does not use.

Each cart is written as an ACP CheckoutSession (`acp`) and as a flat cart
(`flat`). Splits: `heldout` iff int(sha256(id)[:8], 16) is odd
(devset_pool.split, the rule of the extraction dev set); open and held-out
tasks go to separate files. The held-out file is read only as a whole, by
scripts/item_report.py, which prints its totals and never a row.

A second set, from words no one tuned the item check on:
../shared/data/shoppingbench_budget.jsonl (the same benchmark, Apache-2.0):
250 requests naming 1-4 products, each ending in a paragraph on a budget and a
voucher. Built by the same code: tasks `sbbudget-NNN`, the request's first
paragraph verbatim (the budget and voucher paragraph is dropped: this set
measures the item's words), each product priced at the benchmark's
`price_after_voucher` split evenly over the answer products (whole pesos,
rounded down), so the right cart fits the budget even before the voucher;
replacement candidates for wrong products come from the answer products of
both files. Written to datasets/items/budget_{open,heldout}.jsonl, same split
rule.

Near misses are written by hand below (NEAR_MISSES, English and Russian):
an accessory, complement, part or consumable in place of the thing asked for,
each with a right and a wrong cart, in datasets/items/near_misses.jsonl with
the same split rule on their ids.

Deterministic: no clock, no randomness; ties are broken by sha256.
"""

import datetime
import hashlib
import os
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import devset_pool  # noqa: E402

ROOT = devset_pool.ROOT
# ../shared/data beside the repo; SHARED_DATA names it for a checkout elsewhere (a worktree).
SHARED = Path(os.environ.get("SHARED_DATA", devset_pool.DATA))
SOURCE = SHARED / "shoppingbench_multi_product.jsonl"
# The second set's source: the same benchmark's budget requests (never used for the item check's tuning).
BUDGET_SOURCE = SHARED / "shoppingbench_budget.jsonl"
# How every budget request ends: the budget and the voucher's rules, dropped from the set's request.
BUDGET_PARAGRAPH = "My budget is only `"
OUT = ROOT / "datasets" / "items"
TODAY = "2026-11-02"
DELIVERY_DAYS = 5
CURRENCY = "PHP"
# The benchmark's shop services (`service`) as Lazada's product page shows them, carried as one attribute of the
# line: what the answer's offer has is part of its words. `freeShipping` is also the carts' free shipping option.
SERVICES_NAME = "Shop services"
SERVICE_NAMES = {"official": "LazMall", "COD": "Cash on Delivery", "flashsale": "LazFlash", "freeShipping": "Free Shipping"}
# A product without a price range: a fixed, ordinary price (pesos).
DEFAULT_PRICE = 199

COLOUR_KEYS = {"color_family", "color", "color family", "colour", "colors", "color_text", "颜色"}
SIZE_KEYS = {"size", "sizes", "size_wear", "ring_size", "glove_size", "size(cm)", "size_baby_clothing", "尺码"}
COLOURS = ["black", "white", "red", "blue", "green", "pink", "yellow", "purple", "orange", "grey", "brown", "beige"]
LETTER_SIZES = {"xxs": "xs", "xs": "s", "s": "m", "m": "l", "l": "xl", "xl": "xxl", "xxl": "3xl", "2xl": "3xl",
                "3xl": "4xl", "4xl": "5xl", "5xl": "6xl", "6xl": "7xl", "7xl": "8xl", "8xl": "7xl",
                "small": "large", "medium": "large", "large": "medium", "x-large": "small"}
MATERIALS = {"leather": "canvas", "pu leather": "canvas", "canvas": "leather", "cotton": "polyester",
             "polyester": "cotton", "nylon": "cotton", "silk": "polyester", "wool": "acrylic", "linen": "polyester",
             "denim": "polyester", "plastic": "metal", "metal": "plastic", "stainless steel": "plastic",
             "steel": "plastic", "wood": "plastic", "wooden": "plastic", "glass": "plastic", "rubber": "plastic",
             "silicone": "plastic", "ceramic": "plastic", "bamboo": "plastic", "aluminum": "plastic",
             "aluminium": "plastic", "alloy": "plastic", "brass": "plastic", "acrylic": "glass", "spandex": "cotton",
             "rayon": "cotton", "velvet": "cotton", "suede": "canvas", "pu": "canvas", "mesh": "leather",
             "iron": "plastic", "copper": "plastic", "paper": "plastic", "fabric": "plastic", "chiffon": "cotton"}
UNITS = r"mah|ml|liters?|litres?|l|grams?|g|kg|w|v|cm|mm|inch(?:es)?|oz|gb|tb|pcs|pc|hz|m"
# A number with its unit, not the end of a range ("18-24m", "0-10kg").
NUMBER_UNIT = re.compile(rf"(?<![\w.\-])(\d+(?:\.\d+)?)\s?({UNITS})\b", re.IGNORECASE)
# Words of a title that do not say what kind of thing it is.
GENERIC = set("""
new original high quality set pcs pc piece pieces for and with the of in on to a an by from men mens women womens
unisex kids baby adult style fashion free size sizes big small large mini pro plus max ultra super best hot sale
portable premium genuine official store shop brand authentic cheap item items product products color colour colors
black white red blue green pink yellow purple orange grey gray brown beige gold silver multi one two 100 all
type series model version edition design designs made quality durable good 2023 2024 2025 waterproof
outdoor indoor home use daily casual""".split())


def words(text):
    return re.findall(r"[^\W_]+", text.casefold())


def content_words(text):
    return {word for word in words(text) if len(word) >= 3 and word not in GENERIC and not word.isdigit()}


def stable(*parts):
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()


def humanise(key):
    key = re.sub(r"^(fa|m|w)_", "", key)
    return key.replace("_", " ").strip().capitalize()


def price_of(product):
    """A price inside the product's range, in whole pesos."""
    for constraint in product.get("price", []):
        if "between" in constraint:
            low, high = constraint["between"]
            return (low + high) // 2 if high is not None else low + 1
        if "greater than" in constraint:
            low = constraint["greater than"][0]
            return low * 5 // 4 + 1
    return DEFAULT_PRICE


class Product:
    """An answer product as item data: title, options, attributes, brand, price."""

    def __init__(self, raw):
        self.id = raw["product_id"]
        self.title = raw["title"][0]
        self.options = {}
        for option in raw.get("sku_options", []):
            self.options.update(option)
        self.attributes = {}
        for attribute in raw.get("attributes", []):
            for key, values in attribute.items():
                self.attributes[key] = ", ".join(str(value) for value in values)
        self.price = price_of(raw)
        self.services = list(raw.get("service", []))

    @property
    def shop_services(self):
        """The offer's services as the marketplace's page names them (`SERVICE_NAMES`), or None."""
        names = [SERVICE_NAMES[service] for service in self.services if service in SERVICE_NAMES]
        return ", ".join(names) or None

    def copy(self):
        clone = Product.__new__(Product)
        clone.__dict__ = {**self.__dict__, "options": dict(self.options), "attributes": dict(self.attributes)}
        return clone

    def option(self, keys):
        return next(((key, value) for key, value in self.options.items() if key.casefold() in keys), (None, None))

    @property
    def colour(self):
        return self.option(COLOUR_KEYS)[1]

    @property
    def size(self):
        return self.option(SIZE_KEYS)[1]

    @property
    def brand(self):
        value = self.attributes.get("brand")
        if not value:
            return None
        # The title's own spelling of the brand when it has one.
        match = re.search(re.escape(value), self.title, re.IGNORECASE)
        return match.group(0) if match else value

    def describe(self):
        """The item's words, for the task row."""
        row = {"product_id": self.id, "title": self.title, "options": self.options, "attributes": self.attributes,
               "price": self.price}
        if self.services:
            row["services"] = self.services
        return row

    def acp_line(self, index):
        variant_options = []
        for key, value in self.options.items():
            name = "Color" if key.casefold() in COLOUR_KEYS else "Size" if key.casefold() in SIZE_KEYS else humanise(key)
            variant_options.append({"name": name, "value": value})
        custom_attributes = [{"display_name": humanise(key), "value": value if key != "brand" else self.brand}
                             for key, value in self.attributes.items()]
        if self.shop_services:
            custom_attributes.append({"display_name": SERVICES_NAME, "value": self.shop_services})
        amount = self.price * 100
        line = {"id": f"line_item_{index + 1}", "item": {"id": self.id, "name": self.title, "unit_amount": amount},
                "quantity": 1, "name": self.title, "unit_amount": amount, "product_id": self.id}
        if variant_options:
            line["variant_options"] = variant_options
        if custom_attributes:
            line["custom_attributes"] = custom_attributes
        line["totals"] = [{"type": "items_base_amount", "display_text": "Base Amount", "amount": amount},
                          {"type": "total", "display_text": "Total", "amount": amount}]
        return line

    def flat_item(self):
        item = {"id": self.id, "name": self.title}
        if self.brand:
            item["brand"] = self.brand
        if self.colour:
            item["color"] = self.colour
        if self.size:
            item["size"] = self.size
        item.update({"price": f"{self.price}.00", "currency": CURRENCY, "quantity": 1})
        attributes = {humanise(key): value for key, value in self.options.items()
                      if key.casefold() not in COLOUR_KEYS | SIZE_KEYS}
        attributes.update({humanise(key): value for key, value in self.attributes.items() if key != "brand"})
        if self.shop_services:
            attributes[SERVICES_NAME] = self.shop_services
        if attributes:
            item["attributes"] = attributes
        return item


def acp_session(session_id, products):
    lines = [product.acp_line(index) for index, product in enumerate(products)]
    base = sum(line["unit_amount"] for line in lines)
    latest = datetime.date.fromisoformat(TODAY) + datetime.timedelta(days=DELIVERY_DAYS)
    return {
        "id": session_id,
        "status": "ready_for_payment",
        "currency": CURRENCY.lower(),
        "line_items": lines,
        "fulfillment_options": [{"type": "shipping", "id": "fulfillment_option_standard", "title": "Standard",
                                 "latest_delivery_time": f"{latest.isoformat()}T18:00:00Z",
                                 "totals": [{"type": "total", "display_text": "Shipping", "amount": 0}]}],
        "selected_fulfillment_options": [{"type": "shipping", "option_id": "fulfillment_option_standard"}],
        "totals": [{"type": "items_base_amount", "display_text": "Item(s) total", "amount": base},
                   {"type": "subtotal", "display_text": "Subtotal", "amount": base},
                   {"type": "fulfillment", "display_text": "Shipping", "amount": 0},
                   {"type": "total", "display_text": "Total", "amount": base}],
        "messages": [],
        "links": [],
    }


def cart(task_id, name, kind, products, **extra):
    return {"name": name, "kind": kind, **extra, "acp": acp_session(f"cs_{task_id}_{name}", products),
            "flat": [product.flat_item() for product in products]}


# ---------------------------------------------------------------- wrong products


def replacement(task_id, line, products, pool, task_words):
    """Another product of the file, a different kind of thing, closest in brand, colour and size."""
    replaced = products[line]
    task_ids = {product.id for product in products}
    best = None
    wanted = [(value or "").casefold() for value in (replaced.brand, replaced.colour, replaced.size)]
    for candidate, kind_words, own in pool:
        if candidate.id in task_ids or kind_words & task_words:
            continue
        same = sum(1 for mine, theirs in zip(wanted, own) if mine and mine == theirs)
        if best is not None and -same > best[0][0]:
            continue
        key = (-same, stable(task_id, str(line), candidate.id))
        if best is None or key < best[0]:
            best = (key, candidate)
    wrong = best[1].copy()
    wrong.price = replaced.price
    wrong.services = list(replaced.services)  # the offer's services are not what a wrong cart gets wrong
    adjusted, differs = [], []
    for keys, label in ((COLOUR_KEYS, "colour"), (SIZE_KEYS, "size")):
        key, value = replaced.option(keys)
        if value is None:
            continue
        own_key, own_value = wrong.option(keys)
        if own_value is not None and own_value.casefold() == value.casefold():
            continue
        if label == "size" and own_key is None:
            differs.append("size")  # a size the candidate's kind has no option for is not invented
            continue
        if own_key is not None:
            del wrong.options[own_key]
        wrong.options[key] = value
        adjusted.append(label)
    if (replaced.brand or "").casefold() != (wrong.brand or "").casefold():
        differs.append("brand")
    return wrong, adjusted, differs


# ---------------------------------------------------------------- wrong attributes


def spelled_like(old, new):
    if old.isupper():
        return new.upper()
    if old[:1].isupper():
        return new[:1].upper() + new[1:]
    return new


def replace_words(text, old, new):
    """`text` with every whole-word `old` (any case) replaced by `new` in its case."""
    pattern = re.compile(rf"(?<![^\W_]){re.escape(old)}(?![^\W_])", re.IGNORECASE)
    return pattern.sub(lambda match: spelled_like(match.group(0), new), text)


def normalised(text):
    return re.sub(r"[\s:_\-]+", "", text.casefold())


def changed(product, kind, old, new, where_keys):
    """The product with `old` replaced by `new` in the given option/attribute keys and the title."""
    wrong = product.copy()
    for key in where_keys:
        if key in wrong.options:
            wrong.options[key] = replace_words(wrong.options[key], old, new)
        if key in wrong.attributes:
            wrong.attributes[key] = replace_words(wrong.attributes[key], old, new)
    wrong.title = replace_words(wrong.title, old, new)
    return wrong


def attribute_changes(product, query):
    """Up to one change per kind, each (kind, from, to, wrong product)."""
    query_words = set(words(query))
    query_flat = normalised(query)
    out = []
    key, colour = product.option(COLOUR_KEYS)
    if colour:
        if any(word in COLOURS for word in words(colour)):
            allowed = [c for c in COLOURS if c not in query_words and c not in words(colour)]
            new = min(allowed, key=lambda c: stable(product.id, c))
            wrong = product.copy()
            wrong.options[key] = new
            for word in words(colour):
                wrong.title = replace_words(wrong.title, word, new) if word in COLOURS else wrong.title
            wrong.title = replace_words(wrong.title, colour, new)
            out.append(("colour", colour, new, wrong))
        elif re.search(r"\d", colour) and normalised(colour) in query_flat:
            number = re.findall(r"\d+", colour)[-1]
            new = re.sub(rf"{number}(?!.*\d)", str(int(number) + 1).zfill(len(number)), colour)
            wrong = product.copy()
            wrong.options[key] = new
            out.append(("colour", colour, new, wrong))
    key, size = product.option(SIZE_KEYS)
    if size:
        prefix, colon, rest = size.rpartition(":")
        bare = rest.strip()
        prefix += colon + rest[: len(rest) - len(rest.lstrip())]  # "eu: 36" keeps its space
        new_bare = None
        if bare.casefold() in LETTER_SIZES:
            new_bare = LETTER_SIZES[bare.casefold()]
        elif re.fullmatch(r"\d+(\.\d+)?", bare):
            number = float(bare) + 2 if "." in bare else int(bare) + 2
            while str(number) in query_words:
                number += 2
            new_bare = str(number)
        if new_bare:
            new = prefix + new_bare
            wrong = product.copy()
            wrong.options[key] = new
            out.append(("size", size, new, wrong))
    seen = set()
    for text in [*product.options.values(), *product.attributes.values(), product.title]:
        for match in NUMBER_UNIT.finditer(text):
            number, unit = match.group(1), match.group(2)
            said = re.search(rf"(?<![\d.]){re.escape(number)}\s?-?{re.escape(unit)}\b", query, re.IGNORECASE)
            if not said or (number, unit.casefold()) in seen:
                continue
            seen.add((number, unit.casefold()))
            new_number = str(int(number) * 2) if number.isdigit() else str(float(number) * 2)
            pattern = re.compile(rf"(?<![\w.]){re.escape(number)}(\s?)({re.escape(unit)})\b", re.IGNORECASE)
            wrong = product.copy()
            swap = lambda found: f"{new_number}{found.group(1)}{found.group(2)}"  # noqa: E731
            wrong.options = {k: pattern.sub(swap, v) for k, v in wrong.options.items()}
            wrong.attributes = {k: pattern.sub(swap, v) for k, v in wrong.attributes.items()}
            wrong.title = pattern.sub(swap, wrong.title)
            out.append(("number_unit", match.group(0), f"{new_number}{match.group(0)[len(number):]}", wrong))
            break
        if seen:
            break
    for key, value in product.attributes.items():
        if "material" not in key:
            continue
        old = next((m for m in sorted(MATERIALS, key=len, reverse=True)
                    if re.search(rf"(?<![^\W_]){re.escape(m)}(?![^\W_])", value.casefold())), None)
        if old is None or old not in query.casefold():
            continue
        new = MATERIALS[old]
        if new in query_words:
            new = next(m for m in ("polyester", "cotton", "plastic", "paper", "glass") if m not in query_words and m != old)
        out.append(("material", old, new, changed(product, "material", old, new, [key])))
        break
    return out


# ---------------------------------------------------------------- tasks


def language(text):
    letters = [c for c in text if c.isalpha()]
    cyrillic = sum(1 for c in letters if "а" <= c.casefold() <= "я" or c.casefold() == "ё")
    return "ru" if letters and cyrillic * 4 >= len(letters) else "en"


def read_rows(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def answer_pool(*files):
    """Every answer product of these files' rows once (the first seen), with its title's content words and its
    brand, colour and size folded: the wrong products' candidates."""
    pool, seen = [], set()
    for rows in files:
        for row in rows:
            for raw in row["reward"]:
                if raw["product_id"] not in seen:
                    seen.add(raw["product_id"])
                    product = Product(raw)
                    own = [(value or "").casefold() for value in (product.brand, product.colour, product.size)]
                    pool.append((product, content_words(product.title), own))
    return pool


def multi_task(row):
    """A multi-product row's request and answer products, priced inside their ranges (`price_of`)."""
    return row["query"], [Product(raw) for raw in row["reward"]]


def budget_request(query):
    """A budget row's first paragraph: what it asks for, without the budget and voucher paragraph after it."""
    request, _, rest = query.partition("\n\n")
    if not rest.startswith(BUDGET_PARAGRAPH):
        raise ValueError(f"a budget request that does not end in its budget paragraph: {query[-120:]!r}")
    return request


def budget_task(row):
    """A budget row's request (`budget_request`) and answer products, each priced at the benchmark's price after
    the voucher split evenly (whole pesos, rounded down): the right cart costs no more than the budget, voucher
    or not. The file has no price ranges, and its requests' first paragraphs state no price."""
    products = [Product(raw) for raw in row["reward"]]
    price = int(row["voucher"]["price_after_voucher"]) // len(products)
    for product in products:
        product.price = price
    return budget_request(row["query"]), products


def tasks(prefix, source, rows, pool, read):
    """One task per row, `<prefix>-NNN`: its request and products by `read`, and the right, wrong-product and
    wrong-attribute carts."""
    out = []
    for number, row in enumerate(rows):
        task_id = f"{prefix}-{number:03d}"
        request, products = read(row)
        task_words = set().union(*(content_words(product.title) for product in products))
        carts = [cart(task_id, "right", "right", products)]
        for line in range(len(products)):
            wrong, adjusted, differs = replacement(task_id, line, products, pool, task_words)
            swapped = products[:line] + [wrong] + products[line + 1:]
            carts.append(cart(task_id, f"product{line + 1}", "wrong_product", swapped, line=line,
                              replaced_by=wrong.id, adjusted=adjusted, differs=differs))
        for line, product in enumerate(products):
            for kind, old, new, wrong in attribute_changes(product, request)[:2]:
                swapped = products[:line] + [wrong] + products[line + 1:]
                carts.append(cart(task_id, f"{kind}{line + 1}", "wrong_attribute", swapped, line=line,
                                  attribute=kind, **{"from": old, "to": new}))
        out.append({"id": task_id, "split": devset_pool.split(task_id), "source": f"{source.name}:{number + 1}",
                    "request": request, "lang": language(request), "today": TODAY,
                    "products": [product.describe() for product in products], "carts": carts})
    return out


def multi_tasks():
    rows = read_rows(SOURCE)
    return tasks("sbmulti", SOURCE, rows, answer_pool(rows), multi_task)


def budget_tasks():
    """The second set: candidates for a wrong product are the answer products of both files."""
    rows = read_rows(BUDGET_SOURCE)
    return tasks("sbbudget", BUDGET_SOURCE, rows, answer_pool(rows, read_rows(SOURCE)), budget_task)


# ---------------------------------------------------------------- near misses

def N(lang, kind, request, right, wrong):
    return {"lang": lang, "kind": kind, "request": request, "right": right, "wrong": wrong}


def I(name, price, **attributes):  # noqa: E743
    """A near-miss item: name, price in currency units, and any of brand/color/size/description/category/attributes."""
    return {"name": name, "price": price, **attributes}


NEAR_MISSES = [
    # English: accessories, complements, parts and consumables in place of the thing.
    N("en", "accessory", "black Nike running shoes size 42 under 100 dollars",
      I("Nike Pegasus 41 Road Running Shoes", 89.99, brand="Nike", color="Black", size="42", category="Running Shoes"),
      I("Nike Everyday Cushioned Crew Socks", 19.99, brand="Nike", color="Black", size="42", category="Socks")),
    N("en", "accessory", "running shoes for my marathon training, size 10",
      I("Brooks Ghost 16 Running Shoes", 139.95, brand="Brooks", size="10", color="Grey"),
      I("Running Shoe Bag with Ventilated Compartment", 24.99, size="One Size", color="Grey")),
    N("en", "accessory", "an iPhone 15 with 128GB, blue",
      I("Apple iPhone 15 128GB", 799.0, brand="Apple", color="Blue", attributes={"Storage": "128GB"}),
      I("Silicone Case for iPhone 15", 49.0, brand="Apple", color="Blue", attributes={"Compatible model": "iPhone 15"})),
    N("en", "complement", "The Hobbit by J.R.R. Tolkien, paperback",
      I("The Hobbit", 12.99, brand="Mariner Books", attributes={"Author": "J.R.R. Tolkien", "Format": "Paperback"}),
      I("Study Guide: The Hobbit by J.R.R. Tolkien", 9.99, brand="SparkNotes", attributes={"Format": "Paperback"})),
    N("en", "consumable", "5W-30 full synthetic motor oil, 5 quart jug",
      I("Mobil 1 Advanced Full Synthetic Motor Oil 5W-30, 5 Quart", 28.99, brand="Mobil 1", size="5 qt"),
      I("Lucas Oil Stabilizer Additive for 5W-30 Motor Oil", 14.99, brand="Lucas Oil", size="5 qt")),
    N("en", "accessory", "a Canon EOS R50 mirrorless camera",
      I("Canon EOS R50 Mirrorless Camera Body", 679.0, brand="Canon", color="Black"),
      I("Camera Bag for Canon EOS R50", 39.99, color="Black")),
    N("en", "part", "a Dyson V11 cordless vacuum cleaner",
      I("Dyson V11 Cordless Vacuum Cleaner", 569.99, brand="Dyson"),
      I("Replacement Battery for Dyson V11 Vacuum", 59.99)),
    N("en", "consumable", "an HP DeskJet 2855e printer",
      I("HP DeskJet 2855e All-in-One Wireless Printer", 79.99, brand="HP", color="White"),
      I("HP 67 Black Ink Cartridge for DeskJet 2855e", 19.99, brand="HP")),
    N("en", "accessory", "a 27 inch Dell monitor, 4K",
      I("Dell S2721Q 27 Inch 4K UHD Monitor", 299.99, brand="Dell", size="27 inch"),
      I("Monitor Arm Mount for 27 inch Dell Monitors", 39.99, size="27 inch")),
    N("en", "accessory", "an acoustic guitar for a beginner, full size",
      I("Yamaha FG800 Acoustic Guitar", 219.99, brand="Yamaha", size="Full size"),
      I("Acoustic Guitar Strings, Light Gauge", 7.99, brand="Yamaha")),
    N("en", "complement", "a queen size mattress, memory foam",
      I("Zinus 12 Inch Green Tea Memory Foam Mattress, Queen", 289.0, brand="Zinus", size="Queen",
        attributes={"Material": "Memory foam"}),
      I("Waterproof Mattress Protector, Queen Size", 29.99, size="Queen")),
    N("en", "accessory", "a PlayStation 5 console, disc edition",
      I("Sony PlayStation 5 Console Disc Edition", 499.99, brand="Sony", color="White"),
      I("DualSense Charging Station for PlayStation 5", 29.99, brand="Sony", color="White")),
    N("en", "complement", "a 12 inch cast iron skillet",
      I("Lodge 12 Inch Cast Iron Skillet", 34.99, brand="Lodge", size="12 inch", attributes={"Material": "Cast iron"}),
      I("Silicone Hot Handle Holder for 12 Inch Cast Iron Skillet", 9.99, brand="Lodge", size="12 inch")),
    N("en", "part", "an electric toothbrush, Oral-B",
      I("Oral-B Pro 1000 Rechargeable Electric Toothbrush", 49.99, brand="Oral-B", color="White"),
      I("Oral-B Replacement Toothbrush Heads, 4 Count", 24.99, brand="Oral-B", color="White")),
    N("en", "accessory", "a Samsung Galaxy Tab S9 tablet",
      I("Samsung Galaxy Tab S9 11 inch 128GB Tablet", 799.99, brand="Samsung", color="Graphite"),
      I("Screen Protector for Samsung Galaxy Tab S9", 12.99, brand="Samsung")),
    N("en", "complement", "a Nespresso Vertuo coffee machine",
      I("Nespresso Vertuo Next Coffee and Espresso Machine", 159.0, brand="Nespresso", color="Black"),
      I("Nespresso Vertuo Coffee Pods, Variety Pack of 30", 39.0, brand="Nespresso")),
    N("en", "accessory", "a road bike helmet, size M",
      I("Giro Register MIPS Bike Helmet", 69.95, brand="Giro", size="M", color="Black"),
      I("Helmet Mount for Bike Lights", 14.95, brand="Giro", size="M", color="Black")),
    N("en", "part", "a 20V cordless drill from DeWalt",
      I("DEWALT 20V MAX Cordless Drill Driver Kit", 99.0, brand="DeWalt", color="Yellow"),
      I("DEWALT 20V MAX Lithium Ion Battery Pack", 69.0, brand="DeWalt", color="Yellow")),
    N("en", "accessory", "a yoga mat, 6mm thick, purple",
      I("Gaiam Essentials Yoga Mat 6mm", 24.98, brand="Gaiam", color="Purple", attributes={"Thickness": "6mm"}),
      I("Yoga Mat Carrying Strap", 9.98, brand="Gaiam", color="Purple")),
    N("en", "consumable", "a Brita water filter pitcher, 10 cup",
      I("Brita Large 10 Cup Water Filter Pitcher", 34.99, brand="Brita", color="White"),
      I("Brita Standard Replacement Filters for Pitchers, 3 Pack", 17.99, brand="Brita", color="White")),
    N("en", "complement", "a king size duvet, all season",
      I("Linenspa All Season Down Alternative Duvet, King", 39.99, brand="Linenspa", size="King", color="White"),
      I("Duvet Cover Set, King", 39.99, brand="Linenspa", size="King", color="White")),
    N("en", "part", "a KitchenAid stand mixer, 5 quart, red",
      I("KitchenAid Artisan 5 Quart Tilt-Head Stand Mixer", 449.99, brand="KitchenAid", color="Red", size="5 qt"),
      I("Bowl for KitchenAid 5 Quart Tilt-Head Stand Mixer", 49.99, brand="KitchenAid", color="Red", size="5 qt")),
    N("en", "accessory", "Apple AirPods Pro 2nd generation",
      I("Apple AirPods Pro (2nd Generation) with MagSafe Charging Case", 249.0, brand="Apple", color="White"),
      I("Protective Case Cover for AirPods Pro 2nd Generation", 12.99, color="White")),
    N("en", "complement", "a tennis racket for an intermediate player",
      I("Wilson Clash 100 Tennis Racket", 249.0, brand="Wilson", size="Grip 3"),
      I("Wilson Pro Overgrip for Tennis Racket, 3 Pack", 9.99, brand="Wilson", size="Grip 3")),
    # Russian.
    N("ru", "accessory", "Нужен iPhone 15 на 128 ГБ, синий",
      I("Смартфон Apple iPhone 15 128 ГБ", 79990, brand="Apple", color="Синий", currency="RUB"),
      I("Чехол для iPhone 15 силиконовый", 1990, brand="Apple", color="Синий", currency="RUB")),
    N("ru", "accessory", "кроссовки для бега Nike, 42 размер, чёрные",
      I("Кроссовки беговые Nike Pegasus 41", 12990, brand="Nike", color="Чёрный", size="42", currency="RUB"),
      I("Носки спортивные Nike Everyday, 3 пары", 1490, brand="Nike", color="Чёрный", size="42", currency="RUB")),
    N("ru", "accessory", "беговые кроссовки Asics 43 размера",
      I("Кроссовки Asics Gel-Kayano 30", 15990, brand="Asics", size="43", currency="RUB"),
      I("Сумка для кроссовок Asics", 2490, brand="Asics", size="43", currency="RUB")),
    N("ru", "consumable", "моторное масло 5W-30 синтетика, 4 литра",
      I("Масло моторное Shell Helix Ultra 5W-30 синтетическое 4 л", 3890, brand="Shell", size="4 л", currency="RUB"),
      I("Присадка в моторное масло Liqui Moly", 1290, brand="Liqui Moly", size="4 л", currency="RUB")),
    N("ru", "complement", "книга «Мастер и Маргарита» Булгакова",
      I("Булгаков М. А. Мастер и Маргарита", 590, brand="АСТ", currency="RUB"),
      I("Сочинение по роману «Мастер и Маргарита»: пособие для школьников", 290, brand="АСТ", currency="RUB")),
    N("ru", "accessory", "ноутбук MacBook Air 13 M2",
      I("Ноутбук Apple MacBook Air 13 M2 8/256 ГБ", 99990, brand="Apple", color="Серый", currency="RUB"),
      I("Чехол-накладка для MacBook Air 13 M2", 1990, color="Серый", currency="RUB")),
    N("ru", "part", "робот-пылесос Xiaomi",
      I("Робот-пылесос Xiaomi Robot Vacuum S10", 19990, brand="Xiaomi", color="Белый", currency="RUB"),
      I("Набор щёток для робота-пылесоса Xiaomi S10", 990, brand="Xiaomi", color="Белый", currency="RUB")),
    N("ru", "consumable", "принтер Canon PIXMA струйный",
      I("Принтер струйный Canon PIXMA G3420", 17990, brand="Canon", color="Чёрный", currency="RUB"),
      I("Чернила для принтера Canon PIXMA GI-41, 4 цвета", 2490, brand="Canon", currency="RUB")),
    N("ru", "accessory", "электрогитара для начинающего",
      I("Электрогитара Yamaha Pacifica 012", 27990, brand="Yamaha", color="Красный", currency="RUB"),
      I("Ремень для электрогитары", 990, color="Красный", currency="RUB")),
    N("ru", "complement", "матрас 160x200, ортопедический",
      I("Матрас ортопедический Askona Balance 160x200", 24990, brand="Askona", size="160x200", currency="RUB"),
      I("Наматрасник непромокаемый 160x200", 2490, brand="Askona", size="160x200", currency="RUB")),
    N("ru", "accessory", "игровая приставка PlayStation 5",
      I("Игровая приставка Sony PlayStation 5", 54990, brand="Sony", color="Белый", currency="RUB"),
      I("Зарядная станция для геймпадов PlayStation 5", 2990, brand="Sony", color="Белый", currency="RUB")),
    N("ru", "complement", "чугунная сковорода 28 см",
      I("Сковорода чугунная Биол 28 см", 2490, brand="Биол", size="28 см", currency="RUB"),
      I("Крышка стеклянная для сковороды 28 см", 790, brand="Биол", size="28 см", currency="RUB")),
    N("ru", "part", "электрическая зубная щётка Oral-B",
      I("Электрическая зубная щётка Oral-B Vitality Pro", 3490, brand="Oral-B", color="Синий", currency="RUB"),
      I("Насадки для электрической зубной щётки Oral-B, 4 шт", 1990, brand="Oral-B", color="Синий", currency="RUB")),
    N("ru", "accessory", "планшет Samsung Galaxy Tab S9",
      I("Планшет Samsung Galaxy Tab S9 128 ГБ", 69990, brand="Samsung", color="Графитовый", currency="RUB"),
      I("Защитное стекло для Samsung Galaxy Tab S9", 790, brand="Samsung", currency="RUB")),
    N("ru", "complement", "кофемашина капсульная Nespresso",
      I("Кофемашина капсульная Nespresso Vertuo Next", 15990, brand="Nespresso", color="Чёрный", currency="RUB"),
      I("Капсулы для кофемашины Nespresso Vertuo, 30 шт", 3490, brand="Nespresso", currency="RUB")),
    N("ru", "accessory", "велосипедный шлем, размер M",
      I("Шлем велосипедный Giro Register MIPS", 6990, brand="Giro", size="M", color="Чёрный", currency="RUB"),
      I("Фонарь на шлем велосипедный", 1490, size="M", color="Чёрный", currency="RUB")),
    N("ru", "part", "аккумуляторная дрель-шуруповёрт Makita 18 В",
      I("Дрель-шуруповёрт аккумуляторная Makita DDF485Z 18 В", 10990, brand="Makita", currency="RUB"),
      I("Аккумулятор Makita BL1830B 18 В", 6990, brand="Makita", currency="RUB")),
    N("ru", "accessory", "коврик для йоги фиолетовый",
      I("Коврик для йоги Demix 6 мм", 1990, brand="Demix", color="Фиолетовый", currency="RUB"),
      I("Ремень-стяжка для коврика для йоги", 490, brand="Demix", color="Фиолетовый", currency="RUB")),
    N("ru", "consumable", "фильтр-кувшин Брита",
      I("Фильтр-кувшин Brita Marella 2,4 л", 1490, brand="Brita", color="Белый", currency="RUB"),
      I("Картридж сменный Brita Maxtra+, 3 шт", 1490, brand="Brita", currency="RUB")),
    N("ru", "complement", "одеяло двуспальное всесезонное",
      I("Одеяло всесезонное двуспальное 172x205", 2990, size="172x205", color="Белый", currency="RUB"),
      I("Пододеяльник двуспальный 172x205", 1490, size="172x205", color="Белый", currency="RUB")),
    N("ru", "accessory", "наушники AirPods Pro 2",
      I("Наушники Apple AirPods Pro 2", 22990, brand="Apple", color="Белый", currency="RUB"),
      I("Чехол для наушников AirPods Pro 2", 690, color="Белый", currency="RUB")),
]


def near_miss_carts(near_id, item, label):
    """An item as an ACP session with one line and as a flat cart."""
    currency = item.get("currency", "USD")
    minor = round(item["price"] * 100)
    variant_options = [{"name": name, "value": item[key]} for key, name in (("color", "Color"), ("size", "Size"))
                       if key in item]
    custom_attributes = ([{"display_name": "Brand", "value": item["brand"]}] if "brand" in item else []) + [
        {"display_name": name, "value": value} for name, value in item.get("attributes", {}).items()]
    line = {"id": "line_item_1", "item": {"id": f"{near_id}/{label}", "name": item["name"], "unit_amount": minor},
            "quantity": 1, "name": item["name"], "unit_amount": minor}
    for key in ("description", "category"):
        if key in item:
            line[key] = item[key]
    if variant_options:
        line["variant_options"] = variant_options
    if custom_attributes:
        line["custom_attributes"] = custom_attributes
    latest = datetime.date.fromisoformat(TODAY) + datetime.timedelta(days=DELIVERY_DAYS)
    acp = {"id": f"cs_{near_id}_{label}", "status": "ready_for_payment", "currency": currency.lower(),
           "line_items": [line],
           "fulfillment_options": [{"type": "shipping", "id": "fulfillment_option_standard", "title": "Standard",
                                    "latest_delivery_time": f"{latest.isoformat()}T18:00:00Z",
                                    "totals": [{"type": "total", "display_text": "Shipping", "amount": 0}]}],
           "selected_fulfillment_options": [{"type": "shipping", "option_id": "fulfillment_option_standard"}],
           "totals": [{"type": "items_base_amount", "display_text": "Item(s) total", "amount": minor},
                      {"type": "total", "display_text": "Total", "amount": minor}],
           "messages": [], "links": []}
    flat = {"id": f"{near_id}/{label}", "name": item["name"]}
    for key in ("brand", "color", "size", "description", "category"):
        if key in item:
            flat[key] = item[key]
    flat.update({"price": f"{minor // 100}.{minor % 100:02d}", "currency": currency, "quantity": 1})
    if item.get("attributes"):
        flat["attributes"] = item["attributes"]
    return {"acp": acp, "flat": [flat]}


def near_misses():
    out = []
    for number, near in enumerate(NEAR_MISSES, 1):
        near_id = f"near-{number:03d}"
        out.append({"id": near_id, "split": devset_pool.split(near_id), "lang": near["lang"], "kind": near["kind"],
                    "request": near["request"], "today": TODAY,
                    "carts": [{"name": "right", "kind": "right", **near_miss_carts(near_id, near["right"], "right")},
                              {"name": "wrong", "kind": "near_miss", **near_miss_carts(near_id, near["wrong"], "wrong")}]})
    return out


def render(rows):
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def build():
    """The files' texts by name."""
    files = {}
    for prefix, all_tasks in (("", multi_tasks()), ("budget_", budget_tasks())):
        for half in ("open", "heldout"):
            files[f"{prefix}{half}.jsonl"] = render(task for task in all_tasks if task["split"] == half)
    files["near_misses.jsonl"] = render(near_misses())
    return files


def main():
    files = build()
    if "--check" in sys.argv[1:]:
        stale = [name for name, text in files.items()
                 if not (OUT / name).exists() or (OUT / name).read_text(encoding="utf-8") != text]
        if stale:
            print(f"datasets/items/{', '.join(stale)} not what scripts/item_devset.py writes; run it")
            sys.exit(1)
        return
    OUT.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (OUT / name).write_text(text, encoding="utf-8")
    for name, text in files.items():
        rows = [json.loads(line) for line in text.splitlines()]
        kinds = {}
        for row in rows:
            for each in row["carts"]:
                kinds[each["kind"]] = kinds.get(each["kind"], 0) + 1
        print(f"wrote datasets/items/{name}: {len(rows)} tasks; "
              + ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items())))


if __name__ == "__main__":
    main()
