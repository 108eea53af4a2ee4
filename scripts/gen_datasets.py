#!/usr/bin/env python3
"""Generate datasets/v1/tasks.jsonl and datasets/v2/tasks.jsonl.

Deterministic (fixed seeds, no network, no clock). Requires catalog/ (run
scripts/gen_catalog.py first).

v1: template requests built from a seed item of the catalog; the gold facts are
    the facts the template put into the words, nothing else.
v2: hand-written requests (scripts/v2_tasks.py) with hand-written gold.

Carts, for both: the right cart is the seed item (v1) or the best item that
satisfies every gold fact (v2); wrong carts are near misses generated around the
right cart (a neighbouring variant, another quantity, a dropped or extra line)
and labelled with the block codes computed by scripts/refguard.py, the
reference reading of /work/notes/semantics.md. Carts whose codes depend on an
unsettled reading of the semantics (refguard.Ambiguous) are never used.
"""

import datetime
import hashlib
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import refguard  # noqa: E402
from v2_tasks import V2  # noqa: E402

ROOT = HERE.parent
CATALOG = {}
BY_CAT = {}
for path in sorted(p for p in (ROOT / "catalog").glob("*.json") if not p.name.endswith(".schema.json")):
    for item in json.loads(path.read_text(encoding="utf-8")):
        CATALOG[item["id"]] = item
        BY_CAT.setdefault(item["category"], []).append(item)

KNOCKOFF = {"Asiks", "Willson", "Heat", "Sonny", "Spigan", "Adidos"}
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
RU_WEEKDAYS_TO = ["к понедельнику", "ко вторнику", "к среде", "к четвергу", "к пятнице", "к субботе", "к воскресенью"]


def stable(s):
    return int(hashlib.sha256(s.encode()).hexdigest()[:12], 16)


def base_name(item):
    n = item["name"]
    for suffix in (", single can", ", 4-can box", ", 24-can carton"):
        if n.endswith(suffix):
            n = n[: -len(suffix)]
    if ", " in n and n.rsplit(", ", 1)[1].endswith("-pack"):
        n = n.rsplit(", ", 1)[0]
    if n.startswith("Amazon Gift Card"):
        n = "Amazon Gift Card"
    return n


# base name -> (model as a person names it, without brand; noun phrases)
MODEL = {
    "Nike Pegasus 41": ("Pegasus 41", ["running shoes", "runners", "sneakers"]),
    "Nike Pegasus 40": ("Pegasus 40", ["running shoes", "runners"]),
    "Nike Vaporfly 3": ("Vaporfly 3", ["racing shoes", "running shoes"]),
    "Asics Gel-Kayano 30": ("Gel-Kayano 30", ["running shoes", "stability shoes"]),
    "Asics Gel-Nimbus 26": ("Gel-Nimbus 26", ["running shoes"]),
    "Hoka Clifton 9": ("Clifton 9", ["running shoes", "runners"]),
    "Brooks Ghost 16": ("Ghost 16", ["running shoes", "trainers"]),
    "Adidas Adizero SL": ("Adizero SL", ["running shoes", "sneakers"]),
    "Salomon Speedcross 6": ("Speedcross 6", ["trail shoes"]),
    "Babolat Pure Drive": ("Pure Drive", ["racket", "racquet"]),
    "Babolat Pure Drive Team": ("Pure Drive Team", ["racket"]),
    "Babolat Pure Aero": ("Pure Aero", ["racket", "racquet"]),
    "Babolat Evo Drive": ("Evo Drive", ["racket"]),
    "Wilson Clash 100": ("Clash 100", ["racket", "racquet"]),
    "Wilson Clash 100L": ("Clash 100L", ["racket"]),
    "Wilson Pro Staff 97": ("Pro Staff 97", ["racket", "racquet"]),
    "Head Speed MP": ("Speed MP", ["racket", "racquet"]),
    "Head Ti S6": ("Ti S6", ["racket"]),
    "Yonex EZONE 98": ("EZONE 98", ["racket", "racquet"]),
    "Yonex EZONE 100": ("EZONE 100", ["racket"]),
    "Wilson US Open Extra Duty": ("US Open Extra Duty", ["balls", "tennis balls"]),
    "Wilson Championship Regular Duty": ("Championship Regular Duty", ["balls"]),
    "Penn Championship Extra Duty": ("Championship Extra Duty", ["balls", "tennis balls"]),
    "Penn Tour Extra Duty": ("Tour Extra Duty", ["balls"]),
    "Dunlop ATP Championship": ("ATP Championship", ["balls", "tennis balls"]),
    "Head Tour": ("Tour", ["balls", "tennis balls"]),
    "Babolat Gold Championship": ("Gold Championship", ["balls"]),
    "Wilson Starter Orange Stage 2": ("Starter Orange", ["balls"]),
    "Wilson US Open Pink": ("US Open Pink", ["balls"]),
    "Tretorn Micro X Pressureless": ("Micro X", ["balls", "tennis balls"]),
    "Nike Dri-FIT Miler Running T-Shirt": ("Miler", ["running t-shirt", "running tee"]),
    "Nike Dri-FIT Miler Running Tank": ("Miler Tank", ["running tank"]),
    "Adidas Own The Run Tee": ("Own The Run", ["tee", "running shirt"]),
    "Uniqlo AIRism Crew Neck T-Shirt": ("AIRism", ["t-shirt", "crew neck tee"]),
    "Balega Hidden Comfort Running Socks 3-Pack": ("Hidden Comfort", ["running socks"]),
    "Balega Hidden Comfort Running Socks": ("Hidden Comfort", ["running socks"]),
    "Nike Everyday Cushioned Crew Socks 6-Pack": ("Everyday Cushioned", ["crew socks"]),
    "Under Armour Rival Fleece Hoodie": ("Rival Fleece", ["hoodie"]),
    "Lululemon Pace Breaker Short 7\"": ("Pace Breaker", ["shorts", "running shorts"]),
    "Wilson Team Tennis Skirt": ("Team", ["tennis skirt"]),
    "Uniqlo Ultra Light Down Jacket": ("Ultra Light Down", ["down jacket", "puffer"]),
    "Apple iPhone 15 Silicone Case with MagSafe": ("iPhone 15 Silicone Case", ["case"]),
    "Apple iPhone 15 Pro Silicone Case with MagSafe": ("iPhone 15 Pro Silicone Case", ["case"]),
    "Apple iPhone 16 Silicone Case with MagSafe": ("iPhone 16 Silicone Case", ["case"]),
    "Apple iPhone 14 Silicone Case with MagSafe": ("iPhone 14 Silicone Case", ["case"]),
    "Spigen Ultra Hybrid iPhone 15": ("Ultra Hybrid iPhone 15", ["case"]),
    "Spigen Tough Armor iPhone 15": ("Tough Armor iPhone 15", ["case"]),
    "Spigen Ultra Hybrid iPhone 14": ("Ultra Hybrid iPhone 14", ["case"]),
    "OtterBox Defender iPhone 15": ("Defender iPhone 15", ["case", "phone case"]),
    "OtterBox Symmetry iPhone 15": ("Symmetry iPhone 15", ["case"]),
    "Samsung Galaxy S24 Silicone Case": ("Galaxy S24 Silicone Case", ["case"]),
    "Samsung Galaxy S24 Ultra Silicone Case": ("Galaxy S24 Ultra Silicone Case", ["case"]),
    "Caseology Parallax iPhone 15": ("Parallax iPhone 15", ["case"]),
    "Pitaka MagEZ Case 4 iPhone 15": ("MagEZ Case 4 iPhone 15", ["case"]),
    "Sony WH-1000XM5": ("WH-1000XM5", ["headphones"]),
    "Sony WH-1000XM4": ("WH-1000XM4", ["headphones"]),
    "Sony WF-1000XM5": ("WF-1000XM5", ["earbuds"]),
    "Bose QuietComfort Ultra Headphones": ("QuietComfort Ultra", ["headphones"]),
    "Bose QuietComfort 45": ("QuietComfort 45", ["headphones"]),
    "Bose QuietComfort Earbuds II": ("QuietComfort Earbuds II", ["earbuds"]),
    "Apple AirPods Pro 2": ("AirPods Pro 2", ["earbuds"]),
    "Apple AirPods 4": ("AirPods 4", ["earbuds"]),
    "Apple AirPods Max": ("AirPods Max", ["headphones"]),
    "Sennheiser Momentum 4 Wireless": ("Momentum 4", ["headphones"]),
    "JBL Tune 510BT": ("Tune 510BT", ["headphones", "on-ear headphones"]),
    "JBL Tune 520BT": ("Tune 520BT", ["headphones"]),
    "Sony WH-CH520": ("WH-CH520", ["headphones"]),
    "Lavazza Super Crema Whole Bean Coffee": ("Super Crema", ["coffee beans", "whole bean coffee"]),
    "Illy Classico Ground Coffee": ("Classico", ["ground coffee"]),
    "Oatly Oat Milk Barista Edition": ("Barista Edition", ["oat milk"]),
    "Barilla Gluten Free Spaghetti": ("Gluten Free Spaghetti", ["spaghetti"]),
    "Barilla Spaghetti No. 5": ("Spaghetti No. 5", ["spaghetti", "pasta"]),
    "Justin's Classic Almond Butter": ("Classic Almond Butter", ["almond butter"]),
    "RXBAR Chocolate Sea Salt Protein Bar": ("Chocolate Sea Salt", ["protein bars"]),
    "Clif Bar Chocolate Chip": ("Chocolate Chip", ["clif bars", "energy bars"]),
    "San Pellegrino Sparkling Water": ("Sparkling Water", ["sparkling water"]),
    "Colavita Extra Virgin Olive Oil": ("Extra Virgin", ["olive oil"]),
    "Nature Nate's Raw Honey": ("Raw Honey", ["honey"]),
    "Schär Gluten Free Ciabatta Rolls": ("Ciabatta", ["rolls", "ciabatta rolls"]),
    "Alpro Soy Drink": ("Soy Drink", ["soy milk"]),
    "Lindt Excellence 70% Cocoa Dark Chocolate": ("Excellence 70%", ["dark chocolate"]),
    "LEGO Icons Orchid 10311": ("Orchid", ["set", "LEGO set"]),
    "LEGO Icons Bonsai Tree 10281": ("Bonsai Tree", ["set"]),
    "LEGO Technic Ferrari Daytona SP3 42143": ("Ferrari Daytona SP3", ["set"]),
    "Yankee Candle Vanilla Cupcake Large Jar": ("Vanilla Cupcake", ["candle"]),
    "Diptyque Baies Candle 190 g": ("Baies", ["candle"]),
    "Amazon Gift Card": ("Gift Card", ["gift card"]),
    "Ember Mug 2 10 oz": ("Mug 2", ["mug", "smart mug"]),
    "Stanley Quencher H2.0 40 oz Tumbler": ("Quencher", ["tumbler"]),
    "Ferrero Rocher Gift Box 24 pcs": ("Rocher Gift Box", ["chocolates"]),
    "Godiva Gold Collection 19 pcs": ("Gold Collection", ["chocolates"]),
    "Moleskine Classic Notebook Large": ("Classic Notebook", ["notebook"]),
    "Jellycat Bashful Bunny Medium": ("Bashful Bunny", ["plush bunny"]),
    "Kindle Paperwhite 16 GB": ("Paperwhite", ["e-reader"]),
}


# Models that are also the name of a kind of product: used only together with the brand.
GENERIC_MODELS = {"Sparkling Water", "Soy Drink", "Raw Honey", "Extra Virgin", "Ciabatta", "Gift Card",
                  "Classic Notebook", "Classic Almond Butter", "Chocolate Chip", "Tour"}

# ----------------------------------------------------------------------------
# carts


def mk(entries):
    return [{"item": CATALOG[i], "quantity": q} for i, q in entries]


def codes_of(gold, entries, category):
    try:
        return refguard.block_codes(gold, mk(entries), BY_CAT[category])
    except refguard.Ambiguous:
        return None


def warns_of(gold, entries, category):
    try:
        return refguard.warn_codes(gold, mk(entries), BY_CAT[category])
    except refguard.Ambiguous:
        return None


def quantity_for(item, wanted):
    if wanted is None:
        return 1
    if item["units"] and wanted % item["units"] == 0:
        return wanted // item["units"]
    return None


def line_gold(gold, line):
    g = {k: v for k, v in gold.items() if k != "lines"}
    g.update({k: v for k, v in line.items() if v is not None})
    return g


def find_right(gold, category, prefer=None, tags=None, currency=None):
    """Right carts: list of entry lists with no block code, best first.

    tags / currency restrict the items a right cart may hold, for facts the
    guard cannot check itself (free text, the currency of a stated limit).
    """
    items = [it for it in BY_CAT[category]
             if (not tags or all(t in it["tags"] for t in tags)) and (not currency or it["currency"] == currency)]
    if gold.get("lines"):
        entries = []
        for line in gold["lines"]:
            g = line_gold(gold, line)
            g.pop("explicit_max_cents", None)
            g.pop("price_preference", None)
            g.pop("other", None)
            cands = []
            for it in items:
                q = quantity_for(it, g.get("quantity"))
                if q is None or any(it["id"] == e[0] for e in entries):
                    continue
                c = codes_of(g, [(it["id"], q)], category)
                w = warns_of(g, [(it["id"], q)], category)
                if c == set() and w is not None:
                    cands.append((len(w), it["units"] != 1, it["price_cents"], it["id"], q))
            if not cands:
                return []
            cands.sort()
            entries.append((cands[0][3], cands[0][4]))
        c = codes_of(gold, entries, category)
        return [entries] if c is not None and c <= {"other"} else []
    cands = []
    for it in items:
        for q in {quantity_for(it, gold.get("quantity")), 1 if gold.get("quantity") is None else None} - {None}:
            e = [(it["id"], q)]
            c = codes_of(gold, e, category)
            w = warns_of(gold, e, category)
            if c is not None and c <= {"other"} and w is not None:
                w = w - {"other"}
                key = (0 if prefer and it["id"] == prefer else 1, len(w), it["units"] != 1,
                       it["price_cents"] if gold.get("price_preference") == "cheap" else stable(it["id"]), it["id"])
                cands.append((key, e))
    cands.sort()
    return [e for _, e in cands]


def distance(a, b):
    d = 0
    for f in ("brand", "color", "size", "units", "final_sale"):
        d += a.get(f) != b.get(f)
    d += 2 * (base_name(a) != base_name(b))
    d += (a.get("delivery_days") or 0) != (b.get("delivery_days") or 0)
    return d


def wrong_carts(gold, right, category, rng, want=5):
    items = BY_CAT[category]
    cands = []
    for i, (rid, q) in enumerate(right):
        orig = CATALOG[rid]
        for it in items:
            if it["id"] == rid:
                continue
            qs = {q}
            if gold.get("lines"):
                lq = gold["lines"][min(i, len(gold["lines"]) - 1)].get("quantity") or gold.get("quantity")
            else:
                lq = gold.get("quantity")
            if lq and it["units"] and (q * orig["units"]) % it["units"] == 0 and it["units"] != orig["units"]:
                qs.add(max(1, (q * orig["units"]) // it["units"]))
            for qq in qs:
                e = list(right)
                e[i] = (it["id"], qq)
                cands.append((distance(orig, it), e))
        for qq in (q + 1, q * 2, q - 1, q * 3):
            if qq >= 1 and qq != q:
                e = list(right)
                e[i] = (rid, qq)
                cands.append((1, e))
        if len(right) > 1:
            e = right[:i] + right[i + 1:]
            cands.append((1, e))
    if gold.get("lines"):
        for it in items:
            if all(it["id"] != r[0] for r in right):
                near = min(distance(CATALOG[r[0]], it) for r in right)
                cands.append((near + 1, right + [(it["id"], 1)]))
    scored = []
    seen = set()
    for dist, e in cands:
        key = tuple(e)
        if key in seen or len({i for i, _ in e}) != len(e):
            continue
        seen.add(key)
        c = codes_of(gold, e, category)
        if not c:
            continue
        c = c - {"other"}
        if not c:
            continue
        scored.append((len(c), dist, stable(json.dumps(e)), sorted(c), e))
    scored.sort(key=lambda s: (s[0] > 2, s[0], s[1], s[2]))
    chosen, sets = [], set()
    for n, dist, _, c, e in scored:
        if n == 1 and tuple(c) not in sets and dist <= 4:
            chosen.append((c, e))
            sets.add(tuple(c))
    # A stated fact with no near miss yet: take a farther item that misses only that fact.
    for n, dist, _, c, e in scored:
        if n == 1 and tuple(c) not in sets:
            chosen.append((c, e))
            sets.add(tuple(c))
    for n, dist, _, c, e in scored:
        if len(chosen) >= want:
            break
        if n == 2 and tuple(c) not in sets and dist <= 4:
            chosen.append((c, e))
            sets.add(tuple(c))
    # Still short: allow a second cart with an already used single code (another near miss).
    for n, dist, _, c, e in scored:
        if len(chosen) >= 3:
            break
        if n <= 2 and all(e != x[1] for x in chosen):
            chosen.append((c, e))
    return chosen[:want + 1]


def cart_json(label, entries, codes=None):
    d = {"label": label, "items": [{"id": i, "quantity": q} for i, q in entries]}
    if codes is not None:
        d["codes"] = codes
    return d


def build_carts(gold, category, rng, prefer=None, extra_right=True, tags=None, currency=None):
    rights = find_right(gold, category, prefer, tags, currency)
    if not rights:
        return None
    right = rights[0]
    carts = [cart_json("right", right)]
    if extra_right and not gold.get("lines"):
        # A second right cart when it is instructive: other pack size for the same count,
        # or a variant that only differs in a soft field.
        for e in rights[1:]:
            it, r0 = CATALOG[e[0][0]], CATALOG[right[0][0]]
            w = warns_of(gold, e, category) or set()
            near_price = gold.get("price_preference") == "cheap" and it["currency"] == r0["currency"]
            if base_name(it) != base_name(r0) and not near_price:
                continue
            if it["units"] != r0["units"] or (gold.get("soft") and (w - {"other", "unchecked"})) or near_price:
                carts.append(cart_json("right", e))
                break
    wrongs = wrong_carts(gold, right, category, rng)
    if len(wrongs) < 3:
        return None
    for c, e in wrongs:
        carts.append(cart_json("wrong", e, c))
    return carts


# ----------------------------------------------------------------------------
# v1 templates

OPEN = ["i need", "I'm looking for", "can you get me", "please order", "buy me", "I want", "find me",
        "looking for", "could you order", "get me", "i would like", "pls find", "hey, I need", "order me"]
REFUND = ["need to be able to return them if they don't fit", "make sure I can send it back if it's wrong",
          "only if it's returnable", "no final sale stuff please, I might return it",
          "it has to be refundable", "must be exchangeable in case it's not right"]
HYPER = ["money is no object", "I'd pay anything for it honestly", "price doesn't matter", "whatever it costs"]
CHEAP = ["the cheapest you can find", "as cheap as possible", "something cheap", "cheapest option pls",
         "go for the lowest price"]


def money(cents, currency):
    amount = cents // 100
    if currency == "USD":
        return f"${amount}"
    if currency == "EUR":
        return f"{amount} euros"
    return f"{amount} rubles"


def colour_word(item):
    if not item.get("color"):
        return None
    first = refguard.first_colour(item["color"])
    ws = [w for w in refguard.colour_words(first) if w in refguard.COLOUR_WORDS]
    return ws[0] if len(ws) == 1 else None


def size_spoken(item, rng):
    s = item.get("size")
    if not s:
        return None, None
    sys_, rest = refguard.size_key(s)
    if item["category"] == "tennis-rackets":
        return s, rng.choice([f"grip {s}", f"{s} grip", f"grip size {s}"])
    if item["category"] == "groceries":
        return s, s
    if sys_ == "eu":
        label = rng.choice([rest, s.replace(",", "."), rest])
        return label, rng.choice([f"size {label}", f"in {label}", f"size {label}"])
    if sys_ in ("us", "uk"):
        label = s
        return label, rng.choice([f"size {label}", f"in a {label}", f"{label}"])
    label = rest.upper() if len(rest) <= 3 else s
    if len(s) <= 2:
        return label, rng.choice([f"size {label}", f"in {label}", f"size {s.lower()}"])
    return label, rng.choice([f"size {label}", f"in {s.lower()}", f"size {s}"])


def deadline_for(today, min_days, rng):
    # a weekday named deadline that the seed item meets
    options = []
    for d in range(max(1, min_days), 7):
        options.append(d)
    if not options:
        return None
    d = rng.choice(options)
    wd = (today.weekday() + d) % 7
    return d, WEEKDAYS[wd]


PLANS = {
    "running-shoes": [["model", "size"], ["brand", "model", "color", "size"], ["model", "size", "refund"],
                      ["model", "color", "size", "deadline"], ["brand", "size", "max"], ["model", "size", "quantity"],
                      ["brand", "color", "size", "cheap"], ["model", "size", "hyper"], ["model", "color", "size", "max"],
                      ["brand", "model", "size", "refund"], ["model", "level", "size"]],
    "tennis-rackets": [["model", "size"], ["brand", "model", "size", "level"], ["model", "size", "refund"],
                       ["model", "color", "size"], ["brand", "level", "max"], ["model", "size", "deadline"],
                       ["brand", "model", "size", "hyper"], ["brand", "level", "size", "cheap"]],
    "tennis-balls": [["model", "quantity"], ["brand", "quantity"], ["brand", "model", "quantity", "deadline"],
                     ["quantity", "cheap"], ["brand", "quantity", "max"], ["model", "quantity", "refund"]],
    "clothing": [["model", "color", "size"], ["brand", "model", "size"], ["brand", "color", "size", "refund"],
                 ["model", "size", "quantity"], ["model", "color", "size", "deadline"], ["brand", "size", "max"]],
    "phone-cases": [["model", "color"], ["brand", "model", "color"], ["model", "refund"],
                    ["model", "color", "deadline"], ["model", "max"], ["brand", "model", "color", "optional"]],
    "headphones": [["model", "color"], ["brand", "model"], ["model", "color", "refund"], ["model", "max"],
                   ["brand", "model", "color", "deadline"], ["model", "hyper", "color"], ["brand", "cheap", "color"]],
    "groceries": [["model", "quantity"], ["brand", "model", "size"], ["model", "quantity", "deadline"],
                  ["brand", "quantity", "max"], ["model", "size", "quantity"]],
    "gifts": [["model", "deadline"], ["brand", "model", "color"], ["model", "refund", "deadline"],
              ["model", "max", "optional"], ["brand", "model", "deadline"], ["model", "color", "refund"]],
}


def v1_task(category, n, rng):
    items = [it for it in BY_CAT[category] if it["brand"] not in KNOCKOFF and base_name(it) in MODEL
             and it["final_sale"] is not None and it["delivery_days"] is not None]
    for attempt in range(200):
        seed = rng.choice(items)
        plan = list(rng.choice(PLANS[category]))
        model, nouns = MODEL[base_name(seed)]
        noun = rng.choice(nouns)
        today = datetime.date(2026, 1, 5) + datetime.timedelta(days=rng.randrange(0, 340))
        gold, bits, tail = {}, [], []
        brand_said = "brand" in plan or ("model" in plan and rng.random() < 0.6)
        ok = True
        if "model" in plan and model in GENERIC_MODELS:
            brand_said = True  # "Sparkling Water" alone is a kind, not a model; with the brand it names the product
        if "brand" in plan or brand_said:
            gold["brand"] = seed["brand"]
        if "model" in plan:
            gold["model"] = model
        if "color" in plan:
            cw = colour_word(seed)
            if not cw:
                ok = False
            else:
                gold["color"] = cw
        size_phrase = None
        if "size" in plan:
            label, size_phrase = size_spoken(seed, rng)
            if not label:
                ok = False
            else:
                gold["size_label"] = label
        if "level" in plan:
            if seed["level"] == "any":
                ok = False
            else:
                gold["level"] = seed["level"]
        qty_phrase = None
        if "quantity" in plan:
            if category == "tennis-balls":
                q = seed["units"] * rng.choice([1, 1, 2])
                if q == 1:
                    qty_phrase = rng.choice(["one can of", "a single can of", "1 can of"])
                else:
                    qty_phrase = rng.choice([f"{q} cans of", f"{q} cans of", f"{q} tins of"])
            elif category == "running-shoes":
                q = rng.choice([1, 1, 2])
                qty_phrase = "a pair of" if q == 1 else "two pairs of"
            elif category == "groceries":
                q = seed["units"] * rng.choice([1, 2])
                unit_word = {"Oatly": "cartons", "Alpro": "cartons", "San Pellegrino": "bottles", "RXBAR": "bars",
                             "Clif": "bars", "Barilla": "boxes", "Schär": "bags", "Lindt": "bars"}.get(seed["brand"], "packs")
                qty_phrase = f"{q} {unit_word} of" if q > 1 else f"one {unit_word[:-1]} of"
            else:
                q = seed["units"] * rng.choice([1, 2])
                if "socks" in noun:
                    qty_phrase = f"{q} pairs of"
                else:
                    qty_phrase = f"{q}" if q > 1 else "one"
            gold["quantity"] = q
        if "refund" in plan:
            if seed["final_sale"]:
                ok = False
            gold["needs_refundable"] = True
            tail.append(rng.choice(REFUND))
        if "deadline" in plan:
            dl = deadline_for(today, seed["delivery_days"], rng)
            if not dl:
                ok = False
            else:
                days, wd = dl
                gold["deadline_days"] = days
                tail.append(rng.choice([f"need it by {wd}", f"has to arrive by {wd}", f"it must be here by {wd}",
                                        f"by {wd} at the latest", f"for {wd}, latest"]))
        if "max" in plan:
            total = seed["price_cents"] * (quantity_for(seed, gold.get("quantity")) or 1)
            step = 1000 if total < 10000 else 5000
            limit = (total // step + 1) * step
            gold["explicit_max_cents"] = limit
            tail.append(rng.choice([f"under {money(limit, seed['currency'])}", f"budget {money(limit, seed['currency'])} max",
                                    f"don't spend more than {money(limit, seed['currency'])}",
                                    f"no more than {money(limit, seed['currency'])} total"]))
        if "cheap" in plan:
            if seed["currency"] != "USD":
                ok = False  # the price check compares within one currency; keep cheap tasks in USD
            gold["price_preference"] = "cheap"
            tail.append(rng.choice(CHEAP))
        if "hyper" in plan:
            tail.append(rng.choice(HYPER))
        if "optional" in plan:
            opt = rng.choice(["gift wrap", "a gift receipt"])
            gold["other_optional"] = [f"{opt}"]
            tail.append(rng.choice([f"{opt} would be nice but not a must", f"if they do {opt} that's a bonus",
                                    f"{opt} if possible, not required"]))
        if not ok:
            continue
        # Render.
        name_words = []
        if "color" in gold:
            name_words.append(gold["color"])
        if "brand" in gold and "model" in gold:
            name_words.append(f"{seed['brand']} {model}")
        elif "model" in gold:
            name_words.append(model)
        elif "brand" in gold:
            name_words.append(seed["brand"])
        if "level" in gold:
            lvl = {"beginner": ["beginner", "beginner-friendly"], "intermediate": ["intermediate"],
                   "pro": ["pro-level", "advanced, pro level"]}[gold["level"]]
            name_words.insert(0, rng.choice(lvl))
        noun_used = noun if not ("model" in gold and rng.random() < 0.3 and category not in ("tennis-balls", "groceries", "gifts")) else ""
        said = set(refguard.words(" ".join(name_words)))
        if set(refguard.words(noun)) & said:
            noun_used = ""
        plural = (noun_used or model).endswith("s") or category in ("running-shoes",)
        article = rng.choice(["some", "the"] if plural else ["a", "the"])
        first = (name_words[0] if name_words else noun_used or "x")[0].lower()
        if article == "a" and first in "aeio":
            article = "an"
        core = " ".join(w for w in ([qty_phrase] if qty_phrase else [article if category not in ("tennis-balls", "groceries") else ""]) + name_words + [noun_used] if w)
        if size_phrase:
            core += f" {size_phrase}"
        text = f"{rng.choice(OPEN)} {core}"
        if tail:
            text += ", " + ", ".join(tail)
        if rng.random() < 0.3:
            text = text.lower()
        if rng.random() < 0.5:
            text = text[0].upper() + text[1:]
        text = text.replace("  ", " ")
        carts = build_carts(gold, category, rng, prefer=seed["id"])
        if not carts:
            continue
        return {"category": category, "request": text, "today": today.isoformat(), "gold": gold, "carts": carts}
    raise SystemExit(f"v1: could not build a task for {category}")


def typo(text, rng, gold):
    # one adjacent swap in a longer word that carries no fact, for a few requests
    protected = " ".join(str(v) for v in gold.values()).lower()
    ws = text.split(" ")
    idx = [i for i, w in enumerate(ws) if len(w) > 5 and w.isalpha() and w.lower() not in protected]
    if not idx:
        return text
    i = rng.choice(idx)
    w = ws[i]
    j = rng.randrange(1, len(w) - 2)
    ws[i] = w[:j] + w[j + 1] + w[j] + w[j + 2:]
    return " ".join(ws)


def gen_v1():
    rng = random.Random(11)
    tasks = []
    cats = ["running-shoes", "tennis-rackets", "tennis-balls", "clothing", "phone-cases", "headphones", "groceries", "gifts"]
    per = {"running-shoes": 20, "tennis-rackets": 18, "tennis-balls": 16, "clothing": 16, "phone-cases": 14,
           "headphones": 16, "groceries": 12, "gifts": 16}
    seen = set()
    for cat in cats:
        k = 0
        while k < per[cat]:
            t = v1_task(cat, k, rng)
            key = json.dumps(t["gold"], sort_keys=True)
            if t["request"] in seen or key in seen:
                continue
            seen.add(t["request"])
            seen.add(key)
            if rng.random() < 0.1:
                t["request"] = typo(t["request"], rng, t["gold"])
            tasks.append(t)
            k += 1
    order = sorted(range(len(tasks)), key=lambda i: stable(f"v1-{i}"))
    out = []
    for n, i in enumerate(order, 1):
        t = tasks[i]
        out.append(finish(t, f"v1-{n:03d}", n))
    return out


def finish(t, tid, n):
    d = {"id": tid, "split": "open" if n % 2 == 1 else "heldout", "category": t["category"],
         "request": t["request"], "lang": t.get("lang", "en"), "today": t["today"], "gold": t["gold"]}
    if t.get("derived_from"):
        d["derived_from"] = t["derived_from"]
    if t.get("note"):
        d["note"] = t["note"]
    if t["gold"].get("other"):
        d["expect_ask_on_right"] = ["other"]
    d["carts"] = t["carts"]
    return d


def gen_v2():
    rng = random.Random(22)
    out = []
    problems = []
    for n, spec in enumerate(V2, 1):
        gold = spec["gold"]
        carts = build_carts(gold, spec["category"], rng, prefer=spec.get("prefer"),
                            tags=spec.get("right_tags"), currency=spec.get("right_currency"))
        if carts is None:
            problems.append(f"v2 #{n}: no right cart or fewer than 3 wrong carts: {spec['request'][:60]}")
            continue
        if spec.get("extra_carts"):
            for c in spec["extra_carts"]:
                entries = [(x["id"], x["quantity"]) for x in c["items"]]
                codes = codes_of(gold, entries, spec["category"])
                assert codes is not None, (n, c)
                codes = sorted(codes - {"other"})
                label = "right" if not codes else "wrong"
                carts.append(cart_json(label, entries, codes if codes else None))
        t = dict(spec)
        t["carts"] = carts
        out.append(finish(t, f"v2-{len(out) + 1:03d}", len(out) + 1))
    return out, problems


def main():
    v1 = gen_v1()
    v2, problems = gen_v2()
    for p in problems:
        print("PROBLEM", p)
    for name, tasks in (("v1", v1), ("v2", v2)):
        d = ROOT / "datasets" / name
        d.mkdir(parents=True, exist_ok=True)
        with open(d / "tasks.jsonl", "w", encoding="utf-8") as f:
            for t in tasks:
                f.write(json.dumps(t, ensure_ascii=False) + "\n")
        print(name, len(tasks))
    if problems:
        sys.exit(1)


if __name__ == "__main__":
    main()
