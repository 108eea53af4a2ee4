#!/usr/bin/env python3
"""Generate the sandbox store catalog (catalog/*.json).

Deterministic: a fixed seed, no network, no clock. Run from anywhere:

    python3 scripts/gen_catalog.py

Each product family below is listed by the store as one item per variant
(colour x size x pack). The families are chosen so that the hard parts the
guard must handle exist on purpose: near-identical models, brands one letter
apart, multi-colour items, Russian colour names, EU/US/UK sizes, final-sale
and slow-delivery variants, packs whose units differ from 1, and a few
attributes the store does not know (null).
"""

import json
import random
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "catalog"
SEED = 20261102

# (brand, name, level, base_price_cents, currency, colours, sizes, tags, extra)
# extra keys: units (list parallel to sizes, for packs), fast (bool), slow (bool),
#             final (probability of final sale), prefix_override
FAMILIES = {
    "running-shoes": ("shoe", [
        ("Nike", "Nike Pegasus 41", "any", 13999, "USD",
         ["White/Black", "Black/White", "Triple Black", "Blue/White"],
         ["EU 40", "EU 41", "EU 42", "EU 42,5", "EU 43", "EU 44"], ["road running", "neutral"], {}),
        ("Nike", "Nike Pegasus 40", "any", 9999, "USD",
         ["White/Black", "Black/White", "Triple Black"],
         ["EU 41", "EU 42", "EU 43", "EU 44"], ["road running", "neutral", "last season"], {"final": 0.35}),
        ("Nike", "Nike Vaporfly 3", "pro", 25999, "USD",
         ["White/Black", "Pink/Black"], ["US 9", "US 10", "US 11"], ["racing", "carbon plate"], {}),
        ("Asics", "Asics Gel-Kayano 30", "any", 15999, "USD",
         ["Black/White", "Blue/White", "Grey/Yellow"], ["US 8", "US 9", "US 10", "US 11"], ["stability", "road running"], {}),
        ("Asiks", "Asiks Gel-Kayano 30", "any", 5999, "USD",
         ["Black/White", "Blue/White"], ["US 9", "US 10"], ["stability"], {"slow": True, "final": 0.5}),
        ("Asics", "Asics Gel-Nimbus 26", "any", 15999, "USD",
         ["Black", "White/Blue"], ["UK 7", "UK 8", "UK 9"], ["cushioned", "road running"], {}),
        ("Hoka", "Hoka Clifton 9", "beginner", 14499, "USD",
         ["Black/White", "Blue/Orange", "White"], ["US 8", "US 9", "US 10"], ["cushioned", "road running"], {}),
        ("Brooks", "Brooks Ghost 16", "any", 1299000, "RUB",
         ["Чёрный", "Синий", "Белый"], ["41", "42", "43"], ["road running", "neutral"], {}),
        ("Adidas", "Adidas Adizero SL", "intermediate", 11999, "EUR",
         ["Red/White", "Black", "White/Red"], ["EU 42", "EU 42,5", "EU 43"], ["tempo", "road running"], {}),
        ("Salomon", "Salomon Speedcross 6", "any", 13999, "USD",
         ["Black", "Green/Black"], ["EU 42", "EU 43"], ["trail running", "waterproof"], {"slow": True}),
    ]),
    "tennis-rackets": ("rk", [
        ("Babolat", "Babolat Pure Drive", "intermediate", 22900, "USD",
         ["Blue", "Blue/White"], ["4 1/4", "4 3/8", "4 1/2"], ["300 g", "100 sq in"], {}),
        ("Babolat", "Babolat Pure Drive Team", "intermediate", 21900, "USD",
         ["Blue"], ["4 1/4", "4 3/8"], ["285 g", "100 sq in"], {}),
        ("Babolat", "Babolat Pure Aero", "pro", 23900, "USD",
         ["Yellow/Black", "Black/Yellow"], ["4 3/8", "4 1/2"], ["spin", "300 g"], {}),
        ("Babolat", "Babolat Evo Drive", "beginner", 12900, "EUR",
         ["White/Blue", "Blue"], ["4 1/4", "4 3/8"], ["lightweight"], {}),
        ("Wilson", "Wilson Clash 100", "intermediate", 24900, "USD",
         ["Black/White", "Red", "Green"], ["4 1/4", "4 3/8", "4 1/2"], ["arm friendly", "295 g"], {}),
        ("Wilson", "Wilson Clash 100L", "beginner", 22900, "USD",
         ["Black/White", "Red"], ["4 1/4", "4 3/8"], ["arm friendly", "280 g"], {}),
        ("Willson", "Willson Clash 100", "any", 7900, "USD",
         ["Black/White"], ["4 3/8"], ["arm friendly"], {"slow": True, "final": 1.0}),
        ("Wilson", "Wilson Pro Staff 97", "pro", 26900, "USD",
         ["Black", "Black/Red"], ["4 3/8", "4 1/2"], ["315 g", "control"], {}),
        ("Head", "Head Speed MP", "intermediate", 23900, "USD",
         ["White/Black", "Black/White"], ["4 1/4", "4 3/8", "4 1/2"], ["300 g"], {}),
        ("Heat", "Heat Speed MP", "any", 6900, "USD",
         ["White/Black"], ["4 1/4", "4 3/8"], ["300 g"], {"slow": True}),
        ("Head", "Head Ti S6", "beginner", 7999, "USD",
         ["Grey/Yellow"], ["4 1/4", "4 3/8"], ["oversize", "pre-strung"], {}),
        ("Yonex", "Yonex EZONE 98", "pro", 25900, "USD",
         ["Blue", "Синий"], ["4 1/4", "4 3/8"], ["305 g", "98 sq in"], {}),
        ("Yonex", "Yonex EZONE 100", "intermediate", 24900, "USD",
         ["Blue"], ["4 1/4", "4 3/8", "4 1/2"], ["300 g"], {}),
    ]),
    "tennis-balls": ("ball", [
        # sizes None; the "sizes" slot holds pack kinds
        ("Wilson", "Wilson US Open Extra Duty", "any", 599, "USD", ["Yellow"], ["can", "box4", "carton24"], ["hard court", "3 balls per can"], {}),
        ("Wilson", "Wilson Championship Regular Duty", "any", 449, "USD", ["Yellow"], ["can", "box4", "carton24"], ["clay court", "3 balls per can"], {}),
        ("Willson", "Willson Championship Extra Duty", "any", 249, "USD", ["Yellow"], ["can", "box4"], ["3 balls per can"], {"slow": True}),
        ("Penn", "Penn Championship Extra Duty", "any", 399, "USD", ["Yellow"], ["can", "box4", "carton24"], ["hard court", "3 balls per can"], {}),
        ("Penn", "Penn Tour Extra Duty", "any", 549, "USD", ["Yellow"], ["can", "box4"], ["hard court", "3 balls per can"], {}),
        ("Dunlop", "Dunlop ATP Championship", "any", 499, "EUR", ["Yellow"], ["can", "box4", "carton24"], ["all court", "4 balls per can"], {}),
        ("Head", "Head Tour", "any", 649, "USD", ["Yellow"], ["can", "box4", "carton24"], ["all court", "4 balls per can"], {}),
        ("Heat", "Heat Tour", "any", 299, "USD", ["Yellow"], ["can", "box4"], ["4 balls per can"], {"slow": True}),
        ("Babolat", "Babolat Gold Championship", "any", 579, "USD", ["Yellow"], ["can", "box4"], ["all court", "4 balls per can"], {}),
        ("Wilson", "Wilson Starter Orange Stage 2", "beginner", 999, "USD", ["Orange/Yellow"], ["can", "box4"], ["kids", "low compression", "3 balls per can"], {}),
        ("Wilson", "Wilson US Open Pink", "any", 699, "USD", ["Pink"], ["can", "box4"], ["3 balls per can", "charity edition"], {}),
        ("Tretorn", "Tretorn Micro X Pressureless", "any", 1899, "USD", ["Yellow"], ["can"], ["pressureless", "4 balls per can"], {}),
        ("Dunlop", "Dunlop Fort All Court", "any", 45000, "RUB", ["Жёлтый"], ["can", "box4"], ["all court", "4 balls per can"], {}),
    ]),
    "clothing": ("cl", [
        ("Nike", "Nike Dri-FIT Miler Running T-Shirt", "any", 3500, "USD", ["Black", "White", "Blue"], ["S", "M", "L", "XL"], ["running", "quick dry"], {}),
        ("Nike", "Nike Dri-FIT Miler Running Tank", "any", 3000, "USD", ["Black", "Red"], ["M", "L"], ["running"], {}),
        ("Adidas", "Adidas Own The Run Tee", "any", 3000, "EUR", ["Black/White", "Grey", "Pink"], ["Small", "Medium", "Large", "X-Large"], ["running"], {}),
        ("Adidos", "Adidos Run Tee", "any", 999, "USD", ["Black"], ["M", "L"], ["running"], {"slow": True, "final": 1.0}),
        ("Uniqlo", "Uniqlo AIRism Crew Neck T-Shirt", "any", 1490, "USD", ["White", "Black", "Grey"], ["XS", "S", "M", "L", "XL", "XXL"], ["cotton-like", "everyday"], {}),
        ("Balega", "Balega Hidden Comfort Running Socks 3-Pack", "any", 4200, "USD", ["White", "Black"], ["M", "L"], ["running", "socks", "3 pairs"], {"units": 3}),
        ("Balega", "Balega Hidden Comfort Running Socks", "any", 1500, "USD", ["White", "Black"], ["M", "L"], ["running", "socks", "single pair"], {}),
        ("Nike", "Nike Everyday Cushioned Crew Socks 6-Pack", "any", 2800, "USD", ["White", "Black", "Grey"], ["M", "L"], ["socks", "6 pairs"], {"units": 6}),
        ("Under Armour", "Under Armour Rival Fleece Hoodie", "any", 5500, "USD", ["Black", "Grey", "Red"], ["S", "M", "L", "XL"], ["fleece", "warm"], {}),
        ("Lululemon", "Lululemon Pace Breaker Short 7\"", "any", 6800, "USD", ["Black", "Blue"], ["S", "M", "L"], ["running", "liner"], {"final": 0.3}),
        ("Wilson", "Wilson Team Tennis Skirt", "any", 4500, "USD", ["White", "Black", "Pink"], ["XS", "S", "M"], ["tennis", "pockets"], {}),
        ("Uniqlo", "Uniqlo Ultra Light Down Jacket", "any", 6990, "USD", ["Black", "Чёрный", "Синий", "Красный"], ["M", "L", "XL"], ["packable", "warm"], {}),
    ]),
    "phone-cases": ("case", [
        ("Apple", "Apple iPhone 15 Silicone Case with MagSafe", "any", 4900, "USD", ["Black", "Pink", "Blue", "White"], [None], ["fits iPhone 15", "MagSafe"], {}),
        ("Apple", "Apple iPhone 15 Pro Silicone Case with MagSafe", "any", 4900, "USD", ["Black", "Blue"], [None], ["fits iPhone 15 Pro", "MagSafe"], {}),
        ("Apple", "Apple iPhone 16 Silicone Case with MagSafe", "any", 4900, "USD", ["Black", "Pink"], [None], ["fits iPhone 16", "MagSafe"], {}),
        ("Apple", "Apple iPhone 14 Silicone Case with MagSafe", "any", 2900, "USD", ["Black", "Red"], [None], ["fits iPhone 14", "MagSafe"], {"final": 0.5}),
        ("Spigen", "Spigen Ultra Hybrid iPhone 15", "any", 1599, "USD", ["Clear", "Black/Clear"], [None], ["fits iPhone 15", "clear", "slim"], {}),
        ("Spigen", "Spigen Tough Armor iPhone 15", "any", 1999, "USD", ["Black", "Grey"], [None], ["fits iPhone 15", "kickstand", "drop protection"], {}),
        ("Spigan", "Spigan Tough Armor iPhone 15", "any", 699, "USD", ["Black"], [None], ["fits iPhone 15", "kickstand"], {"slow": True, "final": 1.0}),
        ("Spigen", "Spigen Ultra Hybrid iPhone 14", "any", 1299, "USD", ["Clear"], [None], ["fits iPhone 14", "clear"], {}),
        ("OtterBox", "OtterBox Defender iPhone 15", "any", 5995, "USD", ["Black", "Blue"], [None], ["fits iPhone 15", "rugged", "drop protection"], {}),
        ("OtterBox", "OtterBox Symmetry iPhone 15", "any", 4995, "USD", ["Black", "Pink", "Clear"], [None], ["fits iPhone 15", "slim"], {}),
        ("Samsung", "Samsung Galaxy S24 Silicone Case", "any", 2999, "USD", ["Black", "Yellow", "Green"], [None], ["fits Galaxy S24"], {}),
        ("Samsung", "Samsung Galaxy S24 Ultra Silicone Case", "any", 2999, "USD", ["Black", "Grey"], [None], ["fits Galaxy S24 Ultra"], {}),
        ("Caseology", "Caseology Parallax iPhone 15", "any", 189000, "RUB", ["Чёрный", "Синий", "Зелёный"], [None], ["fits iPhone 15", "grip"], {}),
        ("Pitaka", "Pitaka MagEZ Case 4 iPhone 15", "any", 5999, "USD", ["Black/Grey"], [None], ["fits iPhone 15", "aramid fiber", "MagSafe"], {"slow": True}),
    ]),
    "headphones": ("hp", [
        ("Sony", "Sony WH-1000XM5", "any", 39999, "USD", ["Black", "Silver", "Midnight Blue"], [None], ["noise cancelling", "over-ear", "wireless"], {}),
        ("Sony", "Sony WH-1000XM4", "any", 27999, "USD", ["Black", "Silver", "Blue"], [None], ["noise cancelling", "over-ear", "wireless"], {"final": 0.4}),
        ("Sonny", "Sonny WH-1000XM5", "any", 8999, "USD", ["Black"], [None], ["over-ear", "wireless"], {"slow": True, "final": 1.0}),
        ("Sony", "Sony WF-1000XM5", "any", 29999, "USD", ["Black", "Silver"], [None], ["noise cancelling", "earbuds", "wireless"], {}),
        ("Bose", "Bose QuietComfort Ultra Headphones", "any", 42900, "USD", ["Black", "White Smoke"], [None], ["noise cancelling", "over-ear", "wireless"], {}),
        ("Bose", "Bose QuietComfort 45", "any", 27900, "USD", ["Black", "White Smoke"], [None], ["noise cancelling", "over-ear", "wireless"], {}),
        ("Bose", "Bose QuietComfort Earbuds II", "any", 24900, "EUR", ["Black", "White"], [None], ["noise cancelling", "earbuds"], {}),
        ("Apple", "Apple AirPods Pro 2", "any", 24900, "USD", ["White"], [None], ["noise cancelling", "earbuds", "USB-C"], {}),
        ("Apple", "Apple AirPods 4", "any", 12900, "USD", ["White"], [None], ["earbuds", "USB-C"], {}),
        ("Apple", "Apple AirPods Max", "any", 54900, "USD", ["Blue", "Pink", "Black", "Orange"], [None], ["noise cancelling", "over-ear"], {}),
        ("Sennheiser", "Sennheiser Momentum 4 Wireless", "any", 37999, "EUR", ["Black", "White"], [None], ["noise cancelling", "over-ear", "wireless"], {}),
        ("JBL", "JBL Tune 510BT", "any", 4999, "USD", ["Black", "Blue", "White", "Pink"], [None], ["on-ear", "wireless", "budget"], {}),
        ("JBL", "JBL Tune 520BT", "any", 5499, "USD", ["Black", "Blue", "White"], [None], ["on-ear", "wireless"], {}),
        ("Sony", "Sony WH-CH520", "any", 590000, "RUB", ["Чёрный", "Белый", "Синий"], [None], ["on-ear", "wireless"], {}),
    ]),
    "groceries": ("gr", [
        ("Lavazza", "Lavazza Super Crema Whole Bean Coffee", "any", 2499, "USD", [None], ["1 kg", "500 g"], ["coffee", "whole bean"], {"fast": True}),
        ("Illy", "Illy Classico Ground Coffee", "any", 1299, "USD", [None], ["250 g"], ["coffee", "ground"], {"fast": True}),
        ("Oatly", "Oatly Oat Milk Barista Edition", "any", 499, "USD", [None], ["1 l"], ["vegan", "dairy-free", "oat"], {"fast": True, "packs": [1, 6]}),
        ("Barilla", "Barilla Gluten Free Spaghetti", "any", 399, "USD", [None], ["340 g"], ["gluten-free", "pasta", "vegan"], {"fast": True, "packs": [1, 4]}),
        ("Barilla", "Barilla Spaghetti No. 5", "any", 199, "USD", [None], ["500 g"], ["pasta", "vegan"], {"fast": True, "packs": [1, 4]}),
        ("Justin's", "Justin's Classic Almond Butter", "any", 1199, "USD", [None], ["454 g"], ["vegan", "gluten-free"], {"fast": True}),
        ("RXBAR", "RXBAR Chocolate Sea Salt Protein Bar", "any", 299, "USD", [None], ["52 g"], ["gluten-free", "protein"], {"fast": True, "packs": [1, 12]}),
        ("Clif", "Clif Bar Chocolate Chip", "any", 179, "USD", [None], ["68 g"], ["vegan", "protein"], {"fast": True, "packs": [1, 12]}),
        ("San Pellegrino", "San Pellegrino Sparkling Water", "any", 199, "USD", [None], ["750 ml"], ["sparkling", "glass bottle"], {"fast": True, "packs": [1, 12, 24]}),
        ("Colavita", "Colavita Extra Virgin Olive Oil", "any", 1599, "USD", [None], ["1 l", "500 ml"], ["vegan", "gluten-free"], {"fast": True}),
        ("Nature Nate's", "Nature Nate's Raw Honey", "any", 1099, "USD", [None], ["907 g"], ["raw", "gluten-free"], {"fast": True}),
        ("Schär", "Schär Gluten Free Ciabatta Rolls", "any", 649, "USD", [None], ["200 g"], ["gluten-free", "bread"], {"fast": True, "packs": [1, 3]}),
        ("Alpro", "Alpro Soy Drink", "any", 18900, "RUB", [None], ["1 l"], ["vegan", "dairy-free", "soy"], {"fast": True, "packs": [1, 6]}),
        ("Lindt", "Lindt Excellence 70% Cocoa Dark Chocolate", "any", 399, "USD", [None], ["100 g"], ["vegan", "gluten-free", "chocolate"], {"fast": True, "packs": [1, 6]}),
    ]),
    "gifts": ("gift", [
        ("LEGO", "LEGO Icons Orchid 10311", "any", 4999, "USD", [None], [None], ["ages 18+", "gift wrap"], {}),
        ("LEGO", "LEGO Icons Bonsai Tree 10281", "any", 4999, "USD", [None], [None], ["ages 18+", "gift wrap"], {}),
        ("LEGO", "LEGO Technic Ferrari Daytona SP3 42143", "any", 39999, "USD", ["Red"], [None], ["ages 18+"], {"slow": True}),
        ("Yankee Candle", "Yankee Candle Vanilla Cupcake Large Jar", "any", 2999, "USD", ["White", "Pink"], [None], ["candle", "gift wrap"], {}),
        ("Diptyque", "Diptyque Baies Candle 190 g", "any", 7400, "EUR", ["Red", "Black"], [None], ["candle", "luxury", "gift wrap"], {}),
        ("Amazon", "Amazon Gift Card", "any", 5000, "USD", [None], [None], ["gift card", "digital"], {"final": 1.0, "denoms": [2500, 5000, 10000]}),
        ("Ember", "Ember Mug 2 10 oz", "any", 12995, "USD", ["Black", "White", "Red"], [None], ["smart mug", "gift wrap"], {}),
        ("Stanley", "Stanley Quencher H2.0 40 oz Tumbler", "any", 4500, "USD", ["Black", "Pink", "Blue", "Green", "Белый"], [None], ["tumbler", "gift wrap"], {}),
        ("Ferrero", "Ferrero Rocher Gift Box 24 pcs", "any", 1499, "USD", [None], [None], ["chocolate", "gift wrap"], {"final": 1.0}),
        ("Godiva", "Godiva Gold Collection 19 pcs", "any", 3995, "USD", ["Gold"], [None], ["chocolate", "gift wrap"], {"final": 1.0}),
        ("Moleskine", "Moleskine Classic Notebook Large", "any", 2295, "USD", ["Black", "Blue", "Red"], [None], ["notebook", "personalised"], {}),
        ("Jellycat", "Jellycat Bashful Bunny Medium", "any", 2800, "USD", ["Beige", "Pink", "Blue"], [None], ["plush", "kids", "gift wrap"], {}),
        ("Kindle", "Kindle Paperwhite 16 GB", "any", 15999, "USD", ["Black", "Green"], [None], ["e-reader"], {}),
    ]),
}

PACK = {"can": ("single can", 1, 1.0), "box4": ("4-can box", 4, 3.7), "carton24": ("24-can carton", 24, 20.0)}


def round_price(cents, currency):
    if currency == "RUB":
        return int(round(cents / 1000.0)) * 1000 - 100 if cents > 5000 else cents
    return int(round(cents / 100.0)) * 100 - 1


def main():
    rng = random.Random(SEED)
    OUT.mkdir(exist_ok=True)
    totals = {}
    for category, (prefix, families) in FAMILIES.items():
        items = []
        for brand, name, level, base, currency, colours, sizes, tags, extra in families:
            variants = []
            if category == "tennis-balls":
                for pack in sizes:
                    label, units, mult = PACK[pack]
                    variants.append(dict(name=f"{name}, {label}", color=colours[0], size=None, units=units,
                                         price=base * mult, tags=tags + ([label] if units > 1 else [])))
            elif "packs" in extra:
                for units in extra["packs"]:
                    nm = name if units == 1 else f"{name}, {units}-pack"
                    for size in sizes:
                        variants.append(dict(name=nm, color=colours[0], size=size, units=units,
                                             price=base * units * (1.0 if units == 1 else 0.9), tags=list(tags)))
            elif "denoms" in extra:
                for d in extra["denoms"]:
                    variants.append(dict(name=f"{name} ${d // 100}", color=None, size=None, units=1, price=d, tags=list(tags)))
            else:
                for colour in colours:
                    for size in sizes:
                        units = extra.get("units", 1)
                        price = base
                        if size in ("500 g", "500 ml"):
                            price = base * 0.55
                        variants.append(dict(name=name, color=colour, size=size, units=units, price=price, tags=list(tags)))
            for k, v in enumerate(variants):
                # Price: base with a small deterministic per-variant spread (colour markdowns).
                spread = rng.choice([1.0, 1.0, 1.0, 0.95, 0.9, 1.05])
                price = v["price"] * spread
                if "denoms" in extra:
                    price = v["price"]
                else:
                    price = round_price(price, currency)
                # Delivery: fast families 1-2 days, normal 1-5, slow families 7-21.
                if extra.get("slow"):
                    delivery = rng.choice([7, 10, 12, 14, 21])
                elif extra.get("fast"):
                    delivery = rng.choice([1, 1, 2])
                else:
                    delivery = rng.choice([1, 2, 2, 3, 3, 4, 5])
                    if k % 5 == 4:
                        delivery = rng.choice([7, 9, 12, 14])
                # Final sale: per family probability, plus every 7th variant.
                p_final = extra.get("final", 0.08)
                final = rng.random() < p_final or (k % 7 == 3)
                if category == "groceries":
                    final = True  # food cannot be returned
                item = {
                    "id": None,
                    "category": category,
                    "brand": brand,
                    "name": v["name"],
                    "color": v["color"],
                    "size": v["size"],
                    "level": level,
                    "final_sale": final,
                    "delivery_days": delivery,
                    "units": v["units"],
                    "price_cents": int(price),
                    "currency": currency,
                    "tags": v["tags"],
                }
                items.append(item)
        # A few attributes the store does not know, on purpose (deterministic positions).
        for idx in range(5, len(items), 23):
            items[idx]["delivery_days"] = None
        for idx in range(11, len(items), 29):
            items[idx]["final_sale"] = None
        for n, item in enumerate(items, 1):
            item["id"] = f"{prefix}-{n:03d}"
        lines = [json.dumps(item, ensure_ascii=False) for item in items]
        text = "[\n" + ",\n".join(lines) + "\n]\n"
        (OUT / f"{category}.json").write_text(text, encoding="utf-8")
        totals[category] = len(items)
    for c, n in totals.items():
        print(f"{c}: {n}")
    print("total:", sum(totals.values()))


if __name__ == "__main__":
    main()
