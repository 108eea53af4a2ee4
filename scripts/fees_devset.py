#!/usr/bin/env python3
"""Writes datasets/fees/{open,heldout}.jsonl: the dev set of issue 29.

Each row is one checkout (ACP CheckoutSession, UCP checkout or a flat list,
English or Russian) with the person's request, an optional exchange rate
(`fx`), the kind of problem it is about (`total`, `fx`, `fee`, `recurring`,
`addon`) and whether one problem of that kind was inserted (`problem`:
true, expected `ask`) or it is a clean look-alike (`problem`: false,
expected `proceed`). The two halves are written from disjoint hand-written
pools (other products, prices, fee labels, add-on names and phrasings), so
nothing of the held-out half is seen while the rules are tuned on the open
half. Standard library only; deterministic (no randomness).

    python3 scripts/fees_devset.py      # rewrites both files
"""
import json
import os

TODAY = "2026-11-02"
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "datasets", "fees")


def minor(amount):
    return int(round(amount * 100))


def acp(lines, currency, totals):
    return {
        "id": "cs_1", "status": "ready_for_payment", "currency": currency.lower(),
        "line_items": [
            {"id": f"li_{i}", "item": {"id": f"item_{i}"}, "quantity": q, "name": name, "unit_amount": minor(price)}
            for i, (name, price, q) in enumerate(lines)
        ],
        "totals": [{"type": kind, "display_text": label, "amount": minor(amount)} for kind, label, amount in totals],
        "fulfillment_options": [], "messages": [], "links": [], "capabilities": {},
    }


def ucp(lines, currency, totals):
    return {
        "ucp": {"version": "2026-04-08"}, "id": "chk_1", "status": "ready_for_complete", "currency": currency,
        "line_items": [
            {"id": f"li_{i}", "item": {"id": f"sku_{i}", "title": name, "price": minor(price)}, "quantity": q}
            for i, (name, price, q) in enumerate(lines)
        ],
        "totals": [{"type": kind, "display_text": label, "amount": minor(amount)} for kind, label, amount in totals],
    }


def flat(lines, currency, shipping=None, tax=None, fees=None):
    entries = [{"name": name, "price": price, "currency": currency, "quantity": q} for name, price, q in lines]
    if shipping is not None:
        entries[0]["shipping"] = shipping
    if tax is not None:
        entries[0]["tax"] = tax
    if fees:
        entries[0]["fees"] = [{"name": label, "amount": amount} for label, amount in fees]
    return entries


def totals_of(lines, shipping=0.0, tax=0.0, fees=(), discount=0.0, extra=0.0):
    """The typed totals of a checkout: parts, and a total that adds them up
    (plus `extra`, an unexplained difference, when a problem is inserted)."""
    items = round(sum(price * q for _, price, q in lines), 2)
    rows = [("subtotal", "Subtotal", items)]
    if discount:
        rows.append(("discount", "Discount", discount))
    if shipping:
        rows.append(("fulfillment", "Shipping", shipping))
    if tax:
        rows.append(("tax", "Tax", tax))
    for label, amount in fees:
        rows.append(("fee", label, amount))
    total = round(items - discount + shipping + tax + sum(amount for _, amount in fees) + extra, 2)
    rows.append(("total", "Total", total))
    return rows


def checkout(form, lines, currency, shipping=0.0, tax=0.0, fees=(), discount=0.0, extra=0.0):
    if form == "flat":
        assert not discount and not extra, "a flat cart states no total"
        return flat(lines, currency, shipping or None, tax or None, list(fees) or None)
    totals = totals_of(lines, shipping, tax, fees, discount, extra)
    return (acp if form == "acp" else ucp)(lines, currency, totals)


def row(half, kind, number, problem, form, language, request, cart, fx=None):
    value = {
        "id": f"{half}-{kind}-{number:02d}", "kind": kind, "problem": problem, "expected": "ask" if problem else "proceed",
        "format": form, "language": language, "today": TODAY, "request": request, "cart": cart,
    }
    if fx:
        value["fx"] = fx
    return value


def rate(source, target, value, date="2026-11-01"):
    return [{"from": source, "to": target, "rate": value, "date": date}]


# Held-out half: written first, before any rule was tuned; never tuned on.
def heldout():
    h = "heldout"
    rows = []
    # total: an unexplained difference, or what is paid past the limit.
    rows += [
        row(h, "total", 1, True, "acp", "en", "a Bodum Chambord French press under $60",
            checkout("acp", [("Bodum Chambord French Press 8-cup", 44.95, 1)], "USD", tax=3.6, extra=7.0)),
        row(h, "total", 2, True, "ucp", "ru", "френч-пресс Bodum до 5000 рублей",
            checkout("ucp", [("Френч-пресс Bodum Chambord 1 л", 3990.0, 1)], "RUB", shipping=290.0, extra=450.0)),
        row(h, "total", 3, True, "flat", "en", "a Lodge cast iron skillet, 12 inch, under $50",
            checkout("flat", [("Lodge 12 inch Cast Iron Skillet", 44.0, 1)], "USD", shipping=6.99, tax=3.52)),
        row(h, "total", 4, True, "acp", "ru", "чайник Bosch до 4000 рублей",
            checkout("acp", [("Чайник Bosch TWK 3A011", 3590.0, 1)], "RUB", shipping=490.0)),
        row(h, "total", 5, True, "ucp", "en", "a Yeti Rambler tumbler under $40",
            checkout("ucp", [("YETI Rambler 20 oz Tumbler", 35.0, 1)], "USD", tax=2.8, extra=-3.0)),
    ]
    rows += [
        row(h, "total", 6, False, "acp", "en", "a Bodum Chambord French press under $60",
            checkout("acp", [("Bodum Chambord French Press 8-cup", 44.95, 1)], "USD", tax=3.6, discount=5.0)),
        row(h, "total", 7, False, "ucp", "ru", "френч-пресс Bodum до 5000 рублей",
            checkout("ucp", [("Френч-пресс Bodum Chambord 1 л", 3990.0, 1)], "RUB", shipping=290.0)),
        row(h, "total", 8, False, "flat", "en", "a Lodge cast iron skillet, 12 inch, under $50",
            checkout("flat", [("Lodge 12 inch Cast Iron Skillet", 39.0, 1)], "USD", tax=3.12)),
        row(h, "total", 9, False, "acp", "ru", "чайник Bosch до 4000 рублей",
            checkout("acp", [("Чайник Bosch TWK 3A011", 3190.0, 1)], "RUB", shipping=490.0, discount=200.0)),
        row(h, "total", 10, False, "ucp", "en", "two Yeti Rambler tumblers under $90",
            checkout("ucp", [("YETI Rambler 20 oz Tumbler", 35.0, 2)], "USD", tax=5.6)),
    ]
    # fx: a limit in another currency.
    rows += [
        row(h, "fx", 1, True, "flat", "en", "a Le Creuset dutch oven under €300",
            checkout("flat", [("Le Creuset Signature Dutch Oven 5.5 qt", 420.0, 1)], "USD")),
        row(h, "fx", 2, True, "acp", "ru", "пылесос Dyson до 30000 рублей",
            checkout("acp", [("Пылесос Dyson V8 Absolute", 399.0, 1)], "USD"), rate("USD", "RUB", "81.5")),
        row(h, "fx", 3, True, "ucp", "en", "a Garmin Forerunner 265 under £350",
            checkout("ucp", [("Garmin Forerunner 265", 449.99, 1)], "USD")),
        row(h, "fx", 4, True, "flat", "ru", "наушники Sony до 200 евро",
            checkout("flat", [("Наушники Sony WH-1000XM5", 24990.0, 1)], "RUB")),
        row(h, "fx", 5, True, "acp", "en", "a Le Creuset dutch oven under €300",
            checkout("acp", [("Le Creuset Signature Dutch Oven 5.5 qt", 420.0, 1)], "USD"), rate("EUR", "USD", "1.08")),
    ]
    rows += [
        row(h, "fx", 6, False, "flat", "en", "a Le Creuset dutch oven under €300",
            checkout("flat", [("Le Creuset Signature Dutch Oven 5.5 qt", 299.0, 1)], "USD"), rate("USD", "EUR", "0.93")),
        row(h, "fx", 7, False, "acp", "ru", "пылесос Dyson до 30000 рублей",
            checkout("acp", [("Пылесос Dyson V8 Absolute", 299.0, 1)], "USD"), rate("USD", "RUB", "81.5")),
        row(h, "fx", 8, False, "ucp", "en", "a Garmin Forerunner 265 under $500",
            checkout("ucp", [("Garmin Forerunner 265", 449.99, 1)], "USD")),
        row(h, "fx", 9, False, "flat", "ru", "наушники Sony до 300 евро",
            checkout("flat", [("Наушники Sony WH-1000XM5", 24990.0, 1)], "RUB"), rate("EUR", "RUB", "92.4")),
        row(h, "fx", 10, False, "acp", "en", "a Garmin Forerunner 265 under £350",
            checkout("acp", [("Garmin Forerunner 265", 399.0, 1)], "USD"), rate("GBP", "USD", "1.27")),
    ]
    # fee: past the limit, or no extra charges asked.
    rows += [
        row(h, "fee", 1, True, "acp", "en", "a Lumineers concert t-shirt under $40",
            checkout("acp", [("The Lumineers Tour T-Shirt", 35.0, 1)], "USD", fees=[("Convenience fee", 7.5)])),
        row(h, "fee", 2, True, "ucp", "ru", "термос Stanley до 3500 рублей, без скрытых сборов",
            checkout("ucp", [("Термос Stanley Classic 1 л", 2990.0, 1)], "RUB", fees=[("Сервисный сбор", 99.0)])),
        row(h, "fee", 3, True, "flat", "en", "an Anker power bank, no hidden charges",
            checkout("flat", [("Anker PowerCore 10000 power bank", 25.99, 1)], "USD", fees=[("Handling fee", 1.99)])),
        row(h, "fee", 4, True, "acp", "ru", "рюкзак Xiaomi до 2000 рублей",
            checkout("acp", [("Рюкзак Xiaomi Mi Casual Daypack", 1890.0, 1)], "RUB", fees=[("Комиссия за оплату", 150.0)])),
        row(h, "fee", 5, True, "ucp", "en", "a Moleskine weekly notebook under $30, without extra fees",
            checkout("ucp", [("Moleskine Classic Notebook, large", 24.95, 1)], "USD", fees=[("Service fee", 1.0)])),
    ]
    rows += [
        row(h, "fee", 6, False, "acp", "en", "a Lumineers concert t-shirt under $40",
            checkout("acp", [("The Lumineers Tour T-Shirt", 30.0, 1)], "USD", fees=[("Convenience fee", 2.5)])),
        row(h, "fee", 7, False, "ucp", "ru", "термос Stanley до 3500 рублей, без скрытых сборов",
            checkout("ucp", [("Термос Stanley Classic 1 л", 2990.0, 1)], "RUB", shipping=200.0)),
        row(h, "fee", 8, False, "flat", "en", "an Anker power bank, no hidden charges",
            checkout("flat", [("Anker PowerCore 10000 power bank", 25.99, 1)], "USD", tax=2.08)),
        row(h, "fee", 9, False, "acp", "ru", "рюкзак Xiaomi до 2000 рублей",
            checkout("acp", [("Рюкзак Xiaomi Mi Casual Daypack", 1790.0, 1)], "RUB", fees=[("Сервисный сбор", 49.0)])),
        row(h, "fee", 10, False, "ucp", "en", "a Moleskine notebook under $30",
            checkout("ucp", [("Moleskine Classic Notebook, large", 24.95, 1)], "USD", tax=2.0)),
    ]
    # recurring: a subscription or a trial not asked, or another period.
    rows += [
        row(h, "recurring", 1, True, "flat", "en", "Oral-B toothbrush heads, 4 pack",
            checkout("flat", [("Oral-B CrossAction toothbrush heads, 4 pack - Subscribe & Save", 19.99, 1)], "USD")),
        row(h, "recurring", 2, True, "acp", "ru", "корм для кошек Purina Pro Plan 3 кг",
            checkout("acp", [("Корм для кошек Purina Pro Plan 3 кг, подписка с автопродлением", 2490.0, 1)], "RUB")),
        row(h, "recurring", 3, True, "ucp", "en", "a Kindle Paperwhite",
            checkout("ucp", [("Kindle Paperwhite with Kindle Unlimited free trial, then $11.99/month", 149.99, 1)], "USD")),
        row(h, "recurring", 4, True, "acp", "en", "a monthly delivery of Purina cat food",
            checkout("acp", [("Purina Pro Plan cat food, auto-ship every week, billed weekly", 24.99, 1)], "USD")),
        row(h, "recurring", 5, True, "flat", "ru", "фильтр для воды Брита",
            checkout("flat", [("Фильтр для воды Brita Maxtra, автопродление раз в месяц", 990.0, 1)], "RUB")),
    ]
    rows += [
        row(h, "recurring", 6, False, "flat", "en", "Oral-B toothbrush heads, 4 pack",
            checkout("flat", [("Oral-B CrossAction toothbrush heads, 4 pack", 19.99, 1)], "USD")),
        row(h, "recurring", 7, False, "acp", "ru", "подписка на корм для кошек Purina, ежемесячная доставка",
            checkout("acp", [("Корм для кошек Purina Pro Plan 3 кг, подписка, доставка каждый месяц", 2490.0, 1)], "RUB")),
        row(h, "recurring", 8, False, "ucp", "en", "a Moleskine monthly planner 2027",
            checkout("ucp", [("Moleskine 2027 Monthly Planner, large", 22.95, 1)], "USD")),
        row(h, "recurring", 9, False, "acp", "en", "a monthly delivery of Purina cat food",
            checkout("acp", [("Purina Pro Plan cat food, Subscribe & Save, delivered every month", 24.99, 1)], "USD")),
        row(h, "recurring", 10, False, "flat", "ru", "фильтр для воды Брита",
            checkout("flat", [("Фильтр для воды Brita Maxtra+, 3 шт", 990.0, 1)], "RUB")),
    ]
    # addon: an extra add-on line not asked for.
    rows += [
        row(h, "addon", 1, True, "acp", "en", "a Samsung 55 inch TV",
            checkout("acp", [("Samsung 55\" Crystal UHD TV", 449.99, 1), ("Allstate 3-Year TV Protection Plan", 59.99, 1)], "USD")),
        row(h, "addon", 2, True, "ucp", "ru", "пылесос Dyson V8",
            checkout("ucp", [("Пылесос Dyson V8 Absolute", 32990.0, 1), ("Расширенная гарантия 2 года", 2990.0, 1)], "RUB")),
        row(h, "addon", 3, True, "flat", "en", "a Lego Technic set",
            checkout("flat", [("LEGO Technic Porsche 911 set", 169.99, 1), ("Gift Wrapping Service", 4.99, 1)], "USD")),
        row(h, "addon", 4, True, "acp", "en", "Sweetgreen salad bowl delivery",
            checkout("acp", [("Sweetgreen Harvest Bowl salad", 14.95, 1), ("Courier tip", 3.0, 1)], "USD")),
        row(h, "addon", 5, True, "ucp", "ru", "чемодан Samsonite",
            checkout("ucp", [("Чемодан Samsonite S'Cure 69 см", 15990.0, 1), ("Страховка багажа на 1 год", 990.0, 1)], "RUB")),
    ]
    rows += [
        row(h, "addon", 6, False, "acp", "en", "a Samsung 55 inch TV with a 3 year protection plan",
            checkout("acp", [("Samsung 55\" Crystal UHD TV", 449.99, 1), ("Allstate 3-Year TV Protection Plan", 59.99, 1)], "USD")),
        row(h, "addon", 7, False, "ucp", "ru", "защитное стекло для iPhone 15",
            checkout("ucp", [("Защитное стекло для iPhone 15", 990.0, 1)], "RUB")),
        row(h, "addon", 8, False, "flat", "en", "a Lego Technic set, gift wrapped please",
            checkout("flat", [("LEGO Technic Porsche 911 set", 169.99, 1), ("Gift Wrapping Service", 4.99, 1)], "USD")),
        row(h, "addon", 9, False, "acp", "en", "a Neutrogena sunscreen SPF 50",
            checkout("acp", [("Neutrogena Ultra Sheer Sunscreen SPF 50 sun protection lotion", 10.97, 1)], "USD")),
        row(h, "addon", 10, False, "ucp", "ru", "ежедневник Moleskine",
            checkout("ucp", [("Ежедневник Moleskine Weekly Planner", 2290.0, 1)], "RUB")),
    ]
    return rows


# Open half: the rules may be tuned on these.
def open_half():
    h = "open"
    rows = []
    rows += [
        row(h, "total", 1, True, "acp", "en", "Nike Pegasus 41 under 200 dollars",
            checkout("acp", [("Nike Pegasus 41", 129.99, 1)], "USD", shipping=10.0, extra=12.0)),
        row(h, "total", 2, True, "ucp", "ru", "кроссовки Nike Pegasus 41 до 15000 рублей",
            checkout("ucp", [("Кроссовки Nike Pegasus 41", 12990.0, 1)], "RUB", tax=0.0, extra=990.0)),
        row(h, "total", 3, True, "flat", "en", "a KitchenAid hand mixer under $60",
            checkout("flat", [("KitchenAid 5-Speed Hand Mixer", 54.99, 1)], "USD", shipping=5.99, tax=4.4)),
        row(h, "total", 4, True, "acp", "ru", "блендер Philips до 6000 рублей",
            checkout("acp", [("Блендер Philips HR2041", 5490.0, 1)], "RUB", shipping=690.0)),
        row(h, "total", 5, True, "ucp", "en", "a Hydro Flask bottle under $50",
            checkout("ucp", [("Hydro Flask 32 oz Wide Mouth Bottle", 44.95, 1)], "USD", tax=3.6, extra=-5.0)),
    ]
    rows += [
        row(h, "total", 6, False, "acp", "en", "Nike Pegasus 41 under 200 dollars",
            checkout("acp", [("Nike Pegasus 41", 129.99, 1)], "USD", shipping=10.0, tax=11.2, discount=13.0)),
        row(h, "total", 7, False, "ucp", "ru", "кроссовки Nike Pegasus 41 до 15000 рублей",
            checkout("ucp", [("Кроссовки Nike Pegasus 41", 12990.0, 1)], "RUB", shipping=390.0)),
        row(h, "total", 8, False, "flat", "en", "a KitchenAid hand mixer under $60",
            checkout("flat", [("KitchenAid 5-Speed Hand Mixer", 49.99, 1)], "USD", tax=4.0)),
        row(h, "total", 9, False, "acp", "ru", "блендер Philips до 6000 рублей",
            checkout("acp", [("Блендер Philips HR2041", 4990.0, 1)], "RUB", shipping=690.0)),
        row(h, "total", 10, False, "ucp", "en", "two Hydro Flask bottles under $100",
            checkout("ucp", [("Hydro Flask 32 oz Wide Mouth Bottle", 44.95, 2)], "USD", tax=7.2)),
    ]
    rows += [
        row(h, "fx", 1, True, "flat", "en", "red KitchenAid mixer under €400",
            checkout("flat", [("KitchenAid Artisan Stand Mixer, red", 900.0, 1)], "USD")),
        row(h, "fx", 2, True, "acp", "ru", "кофемашина DeLonghi до 50000 рублей",
            checkout("acp", [("Кофемашина DeLonghi Magnifica S", 699.0, 1)], "USD"), rate("USD", "RUB", "80.2")),
        row(h, "fx", 3, True, "ucp", "en", "Sony WH-1000XM5 headphones under £250",
            checkout("ucp", [("Sony WH-1000XM5 headphones", 399.99, 1)], "USD")),
        row(h, "fx", 4, True, "flat", "ru", "кроссовки Nike до 100 долларов",
            checkout("flat", [("Кроссовки Nike Revolution 7", 12990.0, 1)], "RUB")),
        row(h, "fx", 5, True, "acp", "en", "red KitchenAid mixer under €400",
            checkout("acp", [("KitchenAid Artisan Stand Mixer, red", 499.0, 1)], "USD"), rate("USD", "EUR", "0.92")),
    ]
    rows += [
        row(h, "fx", 6, False, "flat", "en", "red KitchenAid mixer under €400",
            checkout("flat", [("KitchenAid Artisan Stand Mixer, red", 399.0, 1)], "USD"), rate("USD", "EUR", "0.92")),
        row(h, "fx", 7, False, "acp", "ru", "кофемашина DeLonghi до 50000 рублей",
            checkout("acp", [("Кофемашина DeLonghi Magnifica S", 549.0, 1)], "USD"), rate("USD", "RUB", "80.2")),
        row(h, "fx", 8, False, "ucp", "en", "Sony WH-1000XM5 headphones under $400",
            checkout("ucp", [("Sony WH-1000XM5 headphones", 399.99, 1)], "USD")),
        row(h, "fx", 9, False, "flat", "ru", "кроссовки Nike до 200 долларов",
            checkout("flat", [("Кроссовки Nike Revolution 7", 12990.0, 1)], "RUB"), rate("RUB", "USD", "0.0123")),
        row(h, "fx", 10, False, "acp", "en", "Sony WH-1000XM5 headphones under £350",
            checkout("acp", [("Sony WH-1000XM5 headphones", 399.99, 1)], "USD"), rate("GBP", "USD", "1.26")),
    ]
    rows += [
        row(h, "fee", 1, True, "acp", "en", "a Taylor Swift tour hoodie under $70",
            checkout("acp", [("Taylor Swift Eras Tour Hoodie", 65.0, 1)], "USD", fees=[("Service fee", 9.5)])),
        row(h, "fee", 2, True, "ucp", "ru", "кофе Lavazza в зёрнах до 2000 рублей, без комиссии",
            checkout("ucp", [("Кофе в зёрнах Lavazza Qualita Oro 1 кг", 1890.0, 1)], "RUB", fees=[("Сервисный сбор", 49.0)])),
        row(h, "fee", 3, True, "flat", "en", "a Logitech mouse, no extra fees please",
            checkout("flat", [("Logitech MX Master 3S mouse", 99.99, 1)], "USD", fees=[("Processing fee", 2.99)])),
        row(h, "fee", 4, True, "acp", "ru", "наушники JBL до 5000 рублей",
            checkout("acp", [("Наушники JBL Tune 520BT", 4790.0, 1)], "RUB", fees=[("Сервисный сбор", 299.0)])),
        row(h, "fee", 5, True, "ucp", "en", "a Logitech keyboard under $100, no service fee",
            checkout("ucp", [("Logitech MX Keys S keyboard", 89.99, 1)], "USD", fees=[("Service fee", 3.0)])),
    ]
    rows += [
        row(h, "fee", 6, False, "acp", "en", "a Taylor Swift tour hoodie under $70",
            checkout("acp", [("Taylor Swift Eras Tour Hoodie", 60.0, 1)], "USD", fees=[("Service fee", 3.5)])),
        row(h, "fee", 7, False, "ucp", "ru", "кофе Lavazza в зёрнах до 2000 рублей, без комиссии",
            checkout("ucp", [("Кофе в зёрнах Lavazza Qualita Oro 1 кг", 1890.0, 1)], "RUB")),
        row(h, "fee", 8, False, "flat", "en", "a Logitech mouse, no extra fees please",
            checkout("flat", [("Logitech MX Master 3S mouse", 99.99, 1)], "USD", shipping=0.0, tax=8.0)),
        row(h, "fee", 9, False, "acp", "ru", "наушники JBL до 5000 рублей",
            checkout("acp", [("Наушники JBL Tune 520BT", 4590.0, 1)], "RUB", fees=[("Сервисный сбор", 99.0)])),
        row(h, "fee", 10, False, "ucp", "en", "a Logitech keyboard under $100",
            checkout("ucp", [("Logitech MX Keys S keyboard", 89.99, 1)], "USD", tax=7.2)),
    ]
    rows += [
        row(h, "recurring", 1, True, "flat", "en", "Nike Pegasus 41 in black, size 42, under 200 dollars",
            checkout("flat", [("Nike Pegasus 41 - Subscribe & Save: auto-renews monthly", 129.99, 1)], "USD")),
        row(h, "recurring", 2, True, "acp", "ru", "кофе Lavazza в зёрнах 1 кг",
            checkout("acp", [("Кофе Lavazza в зёрнах 1 кг — подписка, автопродление", 1890.0, 1)], "RUB")),
        row(h, "recurring", 3, True, "ucp", "en", "an Apple TV 4K",
            checkout("ucp", [("Apple TV 4K with Apple TV+ free trial, then $9.99/month", 129.0, 1)], "USD")),
        row(h, "recurring", 4, True, "acp", "en", "a monthly delivery of Lavazza coffee beans",
            checkout("acp", [("Lavazza Super Crema coffee beans, billed weekly", 21.99, 1)], "USD")),
        row(h, "recurring", 5, True, "flat", "ru", "витамины Solgar",
            checkout("flat", [("Витамины Solgar D3, ежемесячное списание по подписке", 1490.0, 1)], "RUB")),
    ]
    rows += [
        row(h, "recurring", 6, False, "flat", "en", "Nike Pegasus 41 in black, size 42, under 200 dollars",
            checkout("flat", [("Nike Pegasus 41", 129.99, 1)], "USD")),
        row(h, "recurring", 7, False, "acp", "ru", "подписка на кофе Lavazza, каждый месяц",
            checkout("acp", [("Кофе Lavazza в зёрнах 1 кг — подписка, доставка каждый месяц", 1890.0, 1)], "RUB")),
        row(h, "recurring", 8, False, "ucp", "en", "a weekly planner",
            checkout("ucp", [("Weekly Planner 2027, undated", 12.99, 1)], "USD")),
        row(h, "recurring", 9, False, "acp", "en", "a monthly delivery of Lavazza coffee beans",
            checkout("acp", [("Lavazza Super Crema coffee beans - Subscribe & Save, monthly", 21.99, 1)], "USD")),
        row(h, "recurring", 10, False, "flat", "ru", "витамины Solgar",
            checkout("flat", [("Витамины Solgar D3, 60 капсул", 1490.0, 1)], "RUB")),
    ]
    rows += [
        row(h, "addon", 1, True, "acp", "en", "Nike Pegasus 41 in black, size 42",
            checkout("acp", [("Nike Pegasus 41", 129.99, 1), ("2-Year Protection Plan for Footwear", 14.99, 1)], "USD")),
        row(h, "addon", 2, True, "ucp", "ru", "кофемашина DeLonghi",
            checkout("ucp", [("Кофемашина DeLonghi Magnifica S", 39990.0, 1), ("Дополнительная гарантия 3 года", 3990.0, 1)], "RUB")),
        row(h, "addon", 3, True, "flat", "en", "a red KitchenAid mixer",
            checkout("flat", [("KitchenAid Artisan Stand Mixer, red", 399.0, 1), ("Gift wrap", 5.99, 1)], "USD")),
        row(h, "addon", 4, True, "acp", "en", "a Chipotle burrito bowl",
            checkout("acp", [("Chipotle burrito bowl", 11.5, 1), ("Driver tip", 2.0, 1), ("Round-up donation", 0.5, 1)], "USD")),
        row(h, "addon", 5, True, "ucp", "ru", "iPhone 15 128 ГБ",
            checkout("ucp", [("Apple iPhone 15 128 ГБ", 79990.0, 1), ("Страховка от поломки на 1 год", 4990.0, 1)], "RUB")),
    ]
    rows += [
        row(h, "addon", 6, False, "acp", "en", "Nike Pegasus 41 in black, size 42, with a protection plan",
            checkout("acp", [("Nike Pegasus 41", 129.99, 1), ("2-Year Protection Plan for Footwear", 14.99, 1)], "USD")),
        row(h, "addon", 7, False, "ucp", "ru", "солнцезащитный крем SPF 50",
            checkout("ucp", [("Солнцезащитный крем La Roche-Posay SPF 50, защита от солнца", 1990.0, 1)], "RUB")),
        row(h, "addon", 8, False, "flat", "en", "a red KitchenAid mixer with gift wrap",
            checkout("flat", [("KitchenAid Artisan Stand Mixer, red", 399.0, 1), ("Gift wrap", 5.99, 1)], "USD")),
        row(h, "addon", 9, False, "acp", "en", "SPF 50 sun protection lotion",
            checkout("acp", [("Banana Boat SPF 50 Sun Protection Lotion", 9.99, 1)], "USD")),
        row(h, "addon", 10, False, "ucp", "en", "a weekly planner",
            checkout("ucp", [("Moleskine Weekly Planner 2027", 21.95, 1)], "USD")),
    ]
    return rows


def main():
    os.makedirs(HERE, exist_ok=True)
    for name, rows in (("heldout", heldout()), ("open", open_half())):
        with open(os.path.join(HERE, f"{name}.jsonl"), "w", encoding="utf-8") as out:
            for value in rows:
                out.write(json.dumps(value, ensure_ascii=False, sort_keys=True) + "\n")
        print(f"wrote datasets/fees/{name}.jsonl: {len(rows)} checkouts")


if __name__ == "__main__":
    main()
