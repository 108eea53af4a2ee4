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


def priced(form, lines, currency, parts=(), extra=0.0, base=False):
    """A checkout whose totals name each part by its own type, in the order
    given: `parts` is a list of (type, label, amount) among
    `items_discount`, `discount`, `fulfillment`, `tax` and `fee`; the
    subtotal (with `items_base_amount` first when `base`) and the total are
    added, the total their sum (plus `extra`, an unexplained difference)."""
    items = round(sum(price * q for _, price, q in lines), 2)
    rows = []
    items_discount = sum(amount for kind, _, amount in parts if kind == "items_discount")
    if base:
        rows.append(("items_base_amount", "Items", items))
        rows += [part for part in parts if part[0] == "items_discount"]
    rows.append(("subtotal", "Subtotal", round(items - items_discount, 2)))
    rows += [part for part in parts if part[0] != "items_discount" or not base]
    sign = {"items_discount": -1, "discount": -1, "fulfillment": 1, "tax": 1, "fee": 1}
    total = items + sum(sign[kind] * amount for kind, _, amount in parts) + extra
    rows.append(("total", "Total", round(total, 2)))
    return (acp if form == "acp" else ucp)(lines, currency, rows)


def flat_each(lines, currency, shipping=(), tax=None):
    """A flat cart whose entries each state their own shipping (a list, one
    per entry, `None` for an entry that says nothing), the tax on the first."""
    entries = [{"name": name, "price": price, "currency": currency, "quantity": q} for name, price, q in lines]
    for entry, charge in zip(entries, shipping):
        if charge is not None:
            entry["shipping"] = charge
    if tax is not None:
        entries[0]["tax"] = tax
    return entries


# Look-alikes (open): written on 2026-12-03 by the session of issue 29's
# second round, after the held-out half's clean carts fell short (20/25
# proceeded) and before any rule was changed for them, without reading a
# held-out row. Mostly clean look-alikes of the three kinds that fell short
# (a total that adds up in each shape, a recurring word that is not a
# recurring charge or is one asked for, an add-on word that is a product's
# or an add-on asked for in other words), and a few problems of each kind
# so that a fix is seen not to let them through. The rules may be tuned on
# these.
def lookalikes():
    h = "lookalikes"
    rows = []
    T = lambda number, problem, form, language, request, cart, fx=None: row(h, "total", number, problem, form, language, request, cart, fx)
    rows += [
        T(1, False, "acp", "en", "Bose QuietComfort Ultra Earbuds under $300",
          priced("acp", [("Bose QuietComfort Ultra Earbuds, Black", 249.0, 1)], "USD",
                 [("fulfillment", "Free shipping", 0.0), ("tax", "Sales tax", 21.79)])),
        T(2, False, "ucp", "ru", "пылесос Dyson V12 до 55 000 рублей",
          priced("ucp", [("Пылесос Dyson V12 Detect Slim", 49990.0, 1)], "RUB",
                 [("discount", "Промокод OSEN", 2000.0), ("fulfillment", "Доставка курьером", 990.0)])),
        T(3, False, "flat", "en", "two packs of Duracell AA batteries under $40",
          flat_each([("Duracell Coppertop AA Batteries, 20 pack", 17.49, 2)], "USD", tax=2.8)),
        T(4, False, "acp", "en", "a Le Creuset dutch oven under $450, free shipping",
          priced("acp", [("Le Creuset Signature Round Dutch Oven, 5.5 qt", 419.95, 1)], "USD",
                 [("fulfillment", "Standard shipping", 0.0)])),
        T(5, False, "ucp", "en", "a Lodge cast iron skillet under $40 with free shipping",
          priced("ucp", [("Lodge 12 inch Cast Iron Skillet", 29.9, 1)], "USD", [("tax", "Tax", 2.39)])),
        T(6, False, "acp", "ru", "чайник Bosch до 5000 рублей, бесплатная доставка",
          priced("acp", [("Электрический чайник Bosch TWK3A011", 3290.0, 1)], "RUB",
                 [("fulfillment", "Доставка", 0.0)])),
        T(7, False, "acp", "en", "Ray-Ban Wayfarer sunglasses under $200",
          priced("acp", [("Ray-Ban Original Wayfarer Classic Sunglasses", 171.0, 1)], "USD",
                 [("items_discount", "10% off", 17.1), ("tax", "Tax", 13.47)], base=True)),
        T(8, False, "ucp", "en", "three Yankee Candle jars under $90",
          priced("ucp", [("Yankee Candle Large Jar, Balsam & Cedar", 28.99, 3)], "USD",
                 [("discount", "10% off", 8.7), ("tax", "Tax", 6.26)])),
        T(9, False, "flat", "ru", "корм Royal Canin до 6000 рублей",
          flat_each([("Сухой корм Royal Canin Indoor 27, 4 кг", 4690.0, 1)], "RUB", shipping=[350.0])),
        T(10, False, "acp", "en", "a Logitech MX Master 3S mouse and an MX Keys S keyboard, under $250 in total",
          priced("acp", [("Logitech MX Master 3S mouse", 99.99, 1), ("Logitech MX Keys S keyboard", 109.99, 1)], "USD",
                 [("fulfillment", "Shipping", 5.99), ("tax", "Tax", 16.8)])),
        T(11, False, "ucp", "ru", "наушники Sony WH-1000XM5 до 35 тысяч рублей",
          priced("ucp", [("Беспроводные наушники Sony WH-1000XM5, черные", 32990.0, 1)], "RUB",
                 [("discount", "Скидка по карте", 1500.0), ("fulfillment", "Самовывоз", 0.0)])),
        T(12, False, "acp", "en", "a Bialetti moka pot under €40",
          priced("acp", [("Bialetti Moka Express, 6 cup", 34.9, 1)], "EUR", [("fulfillment", "Versand", 4.9)])),
        T(13, False, "flat", "en", "a Kindle Paperwhite under $180",
          flat_each([("Amazon Kindle Paperwhite 16GB", 149.99, 1)], "USD", shipping=[0.0], tax=13.12)),
        T(14, False, "ucp", "en", "a YETI Rambler tumbler under $45",
          priced("ucp", [("YETI Rambler 20 oz Tumbler", 35.0, 1)], "USD",
                 [("discount", "WELCOME10", 3.5), ("fulfillment", "Ground", 6.95), ("tax", "Tax", 3.1)])),
        T(15, False, "acp", "ru", "фен Philips до 7000 рублей",
          priced("acp", [("Фен Philips BHD300/10", 3999.0, 1)], "RUB", [("tax", "НДС 20%", 799.8)])),
        T(16, False, "acp", "en", "a Hydro Flask 40 oz bottle under $55",
          priced("acp", [("Hydro Flask 40 oz Wide Mouth Bottle", 49.95, 1)], "USD", [("tax", "Tax", 5.05)])),
        T(17, False, "ucp", "en", "three Nalgene bottles under $50",
          priced("ucp", [("Nalgene Wide Mouth 32 oz Bottle", 15.99, 3)], "USD",
                 [("discount", "Buy 3, save 5%", 2.4), ("tax", "State tax", 2.45), ("tax", "County tax", 1.2)])),
        T(18, False, "flat", "en", "a Fujifilm Instax Mini 12 and two packs of film under $130",
          flat_each([("Fujifilm Instax Mini 12 Instant Camera", 79.95, 1), ("Fujifilm Instax Mini Film, 10 sheets", 14.99, 2)],
                    "USD", shipping=[4.99, 2.99])),
        T(19, False, "ucp", "ru", "два комплекта постельного белья IKEA до 8000 рублей",
          priced("ucp", [("Комплект постельного белья IKEA ÄNGSLILJA", 2999.0, 2)], "RUB",
                 [("fulfillment", "Доставка", 499.0)])),
        T(20, False, "acp", "en", "a Dualit toaster under £150",
          priced("acp", [("Dualit Classic 2 Slice Toaster", 129.99, 1)], "GBP", [("fulfillment", "Delivery", 4.99)])),
        T(21, True, "acp", "en", "Ray-Ban Wayfarer sunglasses under $200",
          priced("acp", [("Ray-Ban Original Wayfarer Classic Sunglasses", 171.0, 1)], "USD",
                 [("items_discount", "10% off", 17.1), ("tax", "Tax", 13.47)], extra=1.0, base=True)),
        T(22, True, "ucp", "ru", "пылесос Dyson V12 до 55 000 рублей",
          priced("ucp", [("Пылесос Dyson V12 Detect Slim", 49990.0, 1)], "RUB",
                 [("discount", "Промокод OSEN", 2000.0), ("fulfillment", "Доставка курьером", 990.0)], extra=2000.0)),
        T(23, True, "acp", "en", "a Logitech MX Master 3S mouse and an MX Keys S keyboard, under $200 in total",
          priced("acp", [("Logitech MX Master 3S mouse", 99.99, 1), ("Logitech MX Keys S keyboard", 89.99, 1)], "USD",
                 [("fulfillment", "Shipping", 5.99), ("tax", "Tax", 14.4)])),
    ]
    R = lambda number, problem, form, language, request, cart: row(h, "recurring", number, problem, form, language, request, cart)
    rows += [
        R(1, False, "flat", "en", "Lavazza Super Crema coffee beans",
          flat_each([("Lavazza Super Crema Whole Bean Coffee, 2.2 lb - One-time purchase (no subscription)", 21.99, 1)], "USD")),
        R(2, False, "acp", "en", "a coffee subscription, delivered every month: Peet's Major Dickason's Blend",
          checkout("acp", [("Peet's Major Dickason's Blend, 18 oz - Subscribe & Save, ships every month", 16.99, 1)], "USD")),
        R(3, False, "ucp", "ru", "ежемесячная подписка на корм Purina ONE для кошек",
          checkout("ucp", [("Корм Purina ONE для кошек, 1,5 кг — подписка, доставка раз в месяц", 890.0, 1)], "RUB")),
        R(4, False, "acp", "en", "a 2027 monthly planner",
          checkout("acp", [("Blue Sky 2027 Monthly Planner, 8.5 x 11", 14.99, 1)], "USD")),
        R(5, False, "ucp", "en", "an annual wall calendar for 2027",
          checkout("ucp", [("2027 Yearly Wall Calendar, 12 x 24", 11.99, 1)], "USD")),
        R(6, False, "flat", "ru", "витамины Now Foods Omega-3",
          flat_each([("Now Foods Omega-3, 200 капсул (разовая покупка, без подписки)", 2490.0, 1)], "RUB")),
        R(7, False, "acp", "en", "a Brita filter subscription, every 2 months",
          checkout("acp", [("Brita Standard Replacement Filters, 3 pack - auto-ship every 2 months", 17.99, 1)], "USD")),
        R(8, False, "ucp", "en", "Dollar Shave Club razors, subscribe and save every month",
          checkout("ucp", [("Dollar Shave Club 6-Blade Razor Starter Set - Subscribe and Save, billed monthly", 10.0, 1)], "USD")),
        R(9, False, "flat", "en", "Oral-B iO brush heads",
          flat_each([("Oral-B iO Replacement Brush Heads, 4 count - one-time purchase", 39.99, 1)], "USD")),
        R(10, False, "acp", "en", "a Microsoft 365 Personal subscription for a year",
          checkout("acp", [("Microsoft 365 Personal, 12-month subscription, auto-renews yearly", 99.99, 1)], "USD")),
        R(11, False, "ucp", "en", "the book Subscribed by Tien Tzuo, hardcover",
          checkout("ucp", [("Subscribed: Why the Subscription Model Will Be Your Company's Future, hardcover", 22.4, 1)], "USD")),
        R(12, False, "acp", "ru", "ежедневник недатированный А5",
          checkout("acp", [("Ежедневник недатированный А5, 160 листов, ежемесячный планинг", 790.0, 1)], "RUB")),
        R(13, False, "flat", "en", "a trial size Cetaphil cleanser",
          flat_each([("Cetaphil Gentle Skin Cleanser, Trial Size, 1 oz", 3.99, 1)], "USD")),
        R(14, False, "ucp", "en", "a Gillette Fusion5 razor",
          checkout("ucp", [("Gillette Fusion5 Razor, Free Trial Pack: 1 handle and 2 cartridges", 9.97, 1)], "USD")),
        R(15, False, "acp", "en", "a Blue Apron meal kit, weekly delivery",
          checkout("acp", [("Blue Apron 2-Serving Meal Kit - weekly subscription, renews every week", 59.94, 1)], "USD")),
        R(16, False, "ucp", "ru", "подписка на журнал National Geographic на год",
          checkout("ucp", [("Подписка на журнал National Geographic на 12 месяцев", 3600.0, 1)], "RUB")),
        R(17, False, "acp", "en", "an HP DeskJet 4155e printer",
          checkout("acp", [("HP DeskJet 4155e All-in-One Printer (Instant Ink eligible, subscription optional)", 79.99, 1)], "USD")),
        R(18, False, "ucp", "en", "the Peloton App One membership, billed monthly",
          checkout("ucp", [("Peloton App One Membership - billed monthly", 12.99, 1)], "USD")),
        R(19, False, "flat", "ru", "кофе Jardin в зёрнах, доставка каждые две недели",
          flat_each([("Кофе Jardin Espresso Stile di Milano в зёрнах, 1 кг — подписка, доставка каждые 2 недели", 1290.0, 1)], "RUB")),
        R(20, False, "acp", "ru", "фильтры Брита, автоматическая доставка раз в месяц",
          checkout("acp", [("Картриджи Brita Maxtra+, 3 шт — автодоставка раз в месяц, подписка", 1490.0, 1)], "RUB")),
        R(21, True, "acp", "en", "Lavazza Super Crema coffee beans",
          checkout("acp", [("Lavazza Super Crema Whole Bean Coffee, 2.2 lb - Subscribe & Save", 21.99, 1)], "USD")),
        R(22, True, "flat", "ru", "кофе Jardin в зёрнах, без подписки",
          flat_each([("Кофе Jardin Espresso Stile di Milano 1 кг — подписка, доставка каждые 2 недели", 1290.0, 1)], "RUB")),
        R(23, True, "ucp", "en", "a Brita filter subscription, every 2 months",
          checkout("ucp", [("Brita Standard Replacement Filters, 3 pack - auto-ship every week", 17.99, 1)], "USD")),
        R(24, True, "ucp", "en", "Microsoft 365 Personal, one year, no auto-renewal",
          checkout("ucp", [("Microsoft 365 Personal, 12-month subscription, auto-renews yearly", 99.99, 1)], "USD")),
    ]
    A = lambda number, problem, form, language, request, cart: row(h, "addon", number, problem, form, language, request, cart)
    rows += [
        A(1, False, "acp", "en", "an iPhone 15 128GB with AppleCare+",
          checkout("acp", [("Apple iPhone 15 128GB", 799.0, 1), ("AppleCare+ for iPhone 15, 2 years", 179.0, 1)], "USD")),
        A(2, False, "ucp", "ru", "телевизор Samsung 55 дюймов с расширенной гарантией",
          checkout("ucp", [("Телевизор Samsung UE55CU7100, 55 дюймов", 44990.0, 1), ("Расширенная гарантия 2 года", 3490.0, 1)], "RUB")),
        A(3, False, "flat", "ru", "набор посуды Tefal в подарочной упаковке",
          flat_each([("Набор посуды Tefal Ingenio, 10 предметов", 12990.0, 1), ("Подарочная упаковка", 290.0, 1)], "RUB")),
        A(4, False, "acp", "en", "the LEGO Icons Orchid set, gift-wrapped",
          checkout("acp", [("LEGO Icons Orchid 10311", 49.99, 1), ("Gift wrapping", 4.99, 1)], "USD")),
        A(5, False, "ucp", "en", "a Dyson V15 Detect vacuum with an extended warranty",
          checkout("ucp", [("Dyson V15 Detect Cordless Vacuum", 749.99, 1), ("3-Year Protection Plan by Allstate", 89.99, 1)], "USD")),
        A(6, False, "acp", "en", "a Sweetgreen harvest bowl, and add a $3 tip for the driver",
          checkout("acp", [("Sweetgreen Harvest Bowl", 14.95, 1), ("Tip", 3.0, 1)], "USD")),
        A(7, False, "flat", "en", "a screen protector for iPhone 15",
          flat_each([("Tempered Glass Screen Protector for iPhone 15, 2 pack", 9.99, 1)], "USD")),
        A(8, False, "ucp", "ru", "защитное стекло для iPhone 15",
          checkout("ucp", [("Защитное стекло для iPhone 15, 2 шт", 690.0, 1)], "RUB")),
        A(9, False, "acp", "en", "Coppertone sport sunscreen SPF 30",
          checkout("acp", [("Coppertone Sport Sunscreen Lotion SPF 30, water resistant protection", 9.49, 1)], "USD")),
        A(10, False, "ucp", "en", "a Samsonite carry-on spinner",
          checkout("ucp", [("Samsonite Freeform Carry-On Spinner, 10-year limited warranty", 179.99, 1)], "USD")),
        A(11, False, "flat", "en", "a Nintendo Switch OLED and a protection plan",
          flat_each([("Nintendo Switch OLED Model", 349.99, 1), ("2-Year Accident Protection Plan", 39.99, 1)], "USD")),
        A(12, False, "ucp", "en", "a KitchenAid stand mixer as a wedding gift, please gift wrap it",
          checkout("ucp", [("KitchenAid Artisan Stand Mixer, Empire Red", 449.99, 1), ("Gift Wrap", 6.99, 1)], "USD")),
        A(13, False, "acp", "ru", "букет из 15 роз с чаевыми курьеру",
          checkout("acp", [("Букет из 15 красных роз", 4500.0, 1), ("Чаевые курьеру", 200.0, 1)], "RUB")),
        A(14, False, "ucp", "en", "a Patagonia Better Sweater, with shipping insurance",
          checkout("ucp", [("Patagonia Better Sweater Fleece Jacket", 139.0, 1), ("Route Package Protection", 2.98, 1)], "USD")),
        A(15, False, "acp", "en", "a donation box for the school fair",
          checkout("acp", [("Acrylic Donation Box with Lock", 24.99, 1)], "USD")),
        A(16, False, "flat", "en", "a roll of Christmas gift wrap",
          flat_each([("Hallmark Christmas Gift Wrap, 3 rolls, 120 sq ft", 19.99, 1)], "USD")),
        A(17, False, "ucp", "ru", "iPhone 15 со страховкой от поломки",
          checkout("ucp", [("Apple iPhone 15 128 ГБ", 79990.0, 1), ("Страховка от поломки на 1 год", 4990.0, 1)], "RUB")),
        A(18, False, "acp", "en", "a JBL Flip 6 speaker with gift wrapping and a gift note",
          checkout("acp", [("JBL Flip 6 Portable Bluetooth Speaker", 129.95, 1), ("Gift wrapping service", 5.0, 1)], "USD")),
        A(19, False, "flat", "en", "a Fiskars pruning shears with replaceable tip",
          flat_each([("Fiskars Bypass Pruning Shears, replaceable tip", 24.99, 1)], "USD")),
        A(20, False, "acp", "ru", "кофемашина DeLonghi, и добавьте пожертвование в фонд",
          checkout("acp", [("Кофемашина DeLonghi Magnifica S", 39990.0, 1), ("Пожертвование в благотворительный фонд", 100.0, 1)], "RUB")),
        A(21, True, "flat", "en", "a Nintendo Switch OLED",
          flat_each([("Nintendo Switch OLED Model", 349.99, 1), ("2-Year Accident Protection Plan", 39.99, 1)], "USD")),
        A(22, True, "acp", "ru", "набор посуды Tefal",
          checkout("acp", [("Набор посуды Tefal Ingenio, 10 предметов", 12990.0, 1), ("Подарочная упаковка", 290.0, 1)], "RUB")),
        A(23, True, "ucp", "en", "a Patagonia Better Sweater",
          checkout("ucp", [("Patagonia Better Sweater Fleece Jacket", 139.0, 1), ("Route Package Protection", 2.98, 1)], "USD")),
        A(24, True, "acp", "en", "a Dyson V15 Detect vacuum with free gift wrap",
          checkout("acp", [("Dyson V15 Detect Cordless Vacuum", 749.99, 1), ("3-Year Protection Plan by Allstate", 89.99, 1)], "USD")),
    ]
    return rows


def ap2(items, currency, merchant, total=None, decimals=2):
    """An AP2 CartMandate: each display item (label, amount in currency
    units; a part of the total such as "Shipping" or a negative "Discount"
    among them), and the payment request's total (the display items' sum
    unless given)."""
    value = lambda amount: f"{amount:.{decimals}f}"
    if total is None:
        total = round(sum(amount for _, amount in items), decimals)
    return {"contents": {"merchant_name": merchant, "payment_request": {"details": {
        "display_items": [{"label": label, "amount": {"currency": currency, "value": value(amount)}} for label, amount in items],
        "total": {"label": "Total", "amount": {"currency": currency, "value": value(total)}},
    }}}}


def zero_decimals(cart):
    """A UCP or ACP checkout built in currency units, for a currency with no
    minor unit (JPY): its amounts are the units themselves."""
    for line in cart["line_items"]:
        if "unit_amount" in line:
            line["unit_amount"] //= 100
        else:
            line["item"]["price"] //= 100
    for total in cart["totals"]:
        total["amount"] //= 100
    return cart


# Look-alikes, second file (open): written on 2026-12-03 by the third
# session on issue 29, after the held-out clean carts stayed short (22/25),
# from the held-out half's description in datasets/fees/README.md and the
# open half's kinds only (no held-out row, nor the held-out part of this
# script, was read), and before any rule was changed for them. Clean
# checkouts of every kind in every shape (ACP, UCP, AP2 CartMandate, flat),
# English and Russian, USD, EUR, GBP, CAD, AUD, JPY and RUB: items whose
# names merely hold a recurring, add-on or fee word, totals that add up with
# tax, discounts, shipping and rounding, recurring deliveries and add-ons
# asked in other words; and problems worded unusually (a fee in another
# word, a renewing trial without "free trial", a total a cent or a rouble
# off), which must still be asked about.
def lookalikes2():
    h = "lookalikes2"
    rows = []
    T = lambda number, problem, form, language, request, cart, fx=None: row(h, "total", number, problem, form, language, request, cart, fx)
    rows += [
        T(1, False, "acp", "en", "Sony WH-1000XM5 headphones under $400",
          priced("acp", [("Sony WH-1000XM5 Wireless Noise Canceling Headphones, Black", 348.0, 1)], "USD",
                 [("fulfillment", "Free Standard Shipping", 0.0), ("tax", "State tax", 22.19), ("tax", "City tax", 8.7)])),
        T(2, False, "ucp", "en", "a Technivorm Moccamaster coffee maker under 300 euros",
          priced("ucp", [("Technivorm Moccamaster KBG Select Coffee Maker, Black", 269.0, 1)], "EUR",
                 [("fulfillment", "Versand (DHL)", 5.9)])),
        T(3, False, "ap2", "en", "a Garmin Forerunner 265 running watch under $500",
          ap2([("Garmin Forerunner 265 Running Smartwatch, Black", 449.99), ("Shipping", 0.0), ("Estimated tax", 37.12)],
              "USD", "Garmin")),
        T(4, False, "ap2", "ru", "электрическая зубная щётка Oral-B iO 4 до 12 000 ₽",
          ap2([("Электрическая зубная щётка Oral-B iO 4, черная", 8990.0), ("Доставка", 299.0), ("Скидка по промокоду", -500.0)],
              "RUB", "Ozon")),
        T(5, False, "flat", "en", "Dr. Martens 1460 boots in black under £180",
          flat_each([("Dr. Martens 1460 Smooth Leather Lace Up Boots, Black", 169.0, 1)], "GBP", shipping=[4.95])),
        T(6, False, "flat", "ru", "две пачки подгузников Pampers Premium Care 4 до 4000 рублей",
          flat_each([("Подгузники Pampers Premium Care 4, 52 шт", 1699.0, 2)], "RUB", shipping=[199.0])),
        T(7, False, "acp", "en", "a Lululemon yoga mat under 150 CAD",
          priced("acp", [("lululemon The Mat 5mm, Black", 128.0, 1)], "CAD", [("tax", "HST (13%)", 16.64)])),
        T(8, False, "ucp", "en", "two Stanley Quencher tumblers under $90",
          priced("ucp", [("Stanley Quencher H2.0 FlowState Tumbler, 40 oz", 45.0, 2)], "USD",
                 [("items_discount", "Buy 2, save 15%", 13.5), ("tax", "Sales tax", 6.12)], base=True)),
        T(9, False, "acp", "ru", "три пачки кофе Lavazza Qualità Oro до 4500 рублей",
          priced("acp", [("Кофе молотый Lavazza Qualità Oro, 250 г", 1399.0, 3)], "RUB", [("discount", "Скидка 5%", 209.85)])),
        T(10, False, "ucp", "en", "three Burt's Bees lip balms under $15",
          priced("ucp", [("Burt's Bees Beeswax Lip Balm, 0.15 oz", 4.49, 3)], "USD",
                 [("discount", "Buy 2, get 1 free", 4.49), ("tax", "Tax", 0.72)])),
        T(11, False, "ap2", "en", "a Bose SoundLink Flex speaker under €150",
          ap2([("Bose SoundLink Flex Bluetooth Speaker, Blue Dusk", 149.95), ("Discount (WELCOME10)", -15.0), ("Shipping", 4.99)],
              "EUR", "Bose")),
        T(12, False, "flat", "en", "a Hamilton Beach blender under $60",
          flat_each([("Hamilton Beach Power Elite Blender, 40 oz", 39.99, 1)], "USD", shipping=[5.99], tax=3.68)),
        T(13, False, "acp", "en", "a Fitbit Charge 6 for no more than $160",
          priced("acp", [("Fitbit Charge 6 Fitness Tracker, Obsidian", 149.95, 1)], "USD", [("tax", "Tax", 10.05)])),
        T(14, False, "acp", "en", "a Zojirushi rice cooker under ¥30,000",
          zero_decimals(priced("acp", [("Zojirushi NS-TSC10 Micom Rice Cooker, 5.5 cup", 24800.0, 1)], "JPY",
                               [("tax", "Consumption tax (10%)", 2480.0)]))),
        T(15, False, "ucp", "ru", "мультиварка Redmond до 10 тысяч рублей",
          priced("ucp", [("Мультиварка Redmond RMC-M90, 5 л", 7490.0, 1)], "RUB",
                 [("fulfillment", "Самовывоз из пункта выдачи", 0.0), ("tax", "НДС (включён)", 0.0)])),
        T(16, False, "ap2", "en", "a Le Creuset stovetop kettle under £120",
          ap2([("Le Creuset Traditional Stovetop Kettle, 2.1L, Volcanic", 99.0), ("Delivery", 3.95)], "GBP", "John Lewis")),
        T(17, False, "ucp", "en", "a Breville milk frother under 200 AUD",
          priced("ucp", [("Breville the Milk Cafe Frother", 179.95, 1)], "AUD",
                 [("discount", "Member discount", 10.0), ("fulfillment", "Shipping", 9.95)])),
        T(18, False, "flat", "ru", "кроссовки Adidas Samba до 120 евро",
          flat_each([("Кроссовки Adidas Samba OG, белые", 110.0, 1)], "EUR", shipping=[0.0])),
        T(19, True, "ap2", "en", "a Garmin Forerunner 265 running watch under $480",
          ap2([("Garmin Forerunner 265 Running Smartwatch, Black", 449.99), ("Shipping", 0.0), ("Estimated tax", 37.12)],
              "USD", "Garmin")),
        T(20, True, "ucp", "en", "a Technivorm Moccamaster coffee maker under 300 euros",
          priced("ucp", [("Technivorm Moccamaster KBG Select Coffee Maker, Black", 269.0, 1)], "EUR",
                 [("fulfillment", "Versand (DHL)", 5.9)], extra=0.01)),
        T(21, True, "acp", "ru", "три пачки кофе Lavazza Qualità Oro до 4500 рублей",
          priced("acp", [("Кофе молотый Lavazza Qualità Oro, 250 г", 1399.0, 3)], "RUB", [("discount", "Скидка 5%", 209.85)],
                 extra=1.0)),
    ]
    R = lambda number, problem, form, language, request, cart: row(h, "recurring", number, problem, form, language, request, cart)
    rows += [
        R(1, False, "acp", "en", "a monthly pill organizer",
          checkout("acp", [("Sukuos Monthly Pill Organizer, 31 Day, Large Compartments", 15.99, 1)], "USD")),
        R(2, False, "ucp", "en", "The Economist, yearly digital subscription",
          checkout("ucp", [("The Economist Digital, 12-month subscription, renews annually", 189.0, 1)], "USD")),
        R(3, False, "flat", "en", "Purina Pro Plan dog food, delivered every six weeks",
          flat_each([("Purina Pro Plan Adult Sensitive Skin & Stomach Dog Food, 30 lb - Autoship every 6 weeks", 71.48, 1)], "USD")),
        R(4, False, "ap2", "en", "an Xbox Game Pass Ultimate 3-month code",
          ap2([("Xbox Game Pass Ultimate, 3 Month Membership, digital code (does not renew)", 50.99)], "USD", "Microsoft Store")),
        R(5, False, "acp", "ru", "ежеквартальная доставка фильтров Brita Maxtra",
          checkout("acp", [("Картриджи Brita Maxtra Pro, 3 шт — подписка, доставка раз в 3 месяца", 1590.0, 1)], "RUB")),
        R(6, False, "ucp", "ru", "Яндекс Плюс, подписка на 3 месяца",
          checkout("ucp", [("Подписка Яндекс Плюс на 3 месяца, автопродление каждые 3 месяца", 1197.0, 1)], "RUB")),
        R(7, False, "flat", "en", "a Spotify Premium 12-month gift card",
          flat_each([("Spotify Premium 12-Month Gift Card, prepaid, no automatic renewal", 119.88, 1)], "USD")),
        R(8, False, "acp", "en", "a HelloFresh meal kit every other week",
          checkout("acp", [("HelloFresh Classic Box, 3 meals for 2 people - ships every 2 weeks, skip or cancel anytime", 71.94, 1)], "USD")),
        R(9, False, "ucp", "en", "a 2027 weekly desk calendar",
          checkout("ucp", [("AT-A-GLANCE 2027 Weekly Desk Calendar, 12 months", 12.49, 1)], "USD")),
        R(10, False, "ap2", "ru", "ежедневник на 2027 год",
          ap2([("Ежедневник датированный на 2027 год, А5, 12 месяцев", 890.0)], "RUB", "Читай-город")),
        R(11, False, "acp", "en", "Crest 3D Whitestrips",
          checkout("acp", [("Crest 3D Whitestrips Professional Effects, 20 treatments + Free Trial Size Toothpaste", 45.99, 1)], "USD")),
        R(12, False, "flat", "en", "an HP 67XL black ink cartridge",
          flat_each([("HP 67XL Black High-yield Ink Cartridge (not for use with HP Instant Ink subscription)", 34.89, 1)], "USD")),
        R(13, False, "ucp", "en", "Seventh Generation dish soap, subscribe and save",
          checkout("ucp", [("Seventh Generation Dish Liquid Soap, 3 pack - Subscribe & Save, ships every 2 months", 11.97, 1)], "USD")),
        R(14, False, "acp", "ru", "пробник духов Chanel Chance",
          checkout("acp", [("Chanel Chance Eau Tendre, пробный флакон 2 мл", 490.0, 1)], "RUB")),
        R(15, False, "ap2", "en", "a $50 Netflix gift card",
          ap2([("Netflix Gift Card $50 - no subscription required", 50.0)], "USD", "Target")),
        R(16, False, "flat", "ru", "корм для кошек Purina ONE, автодоставка каждый месяц",
          flat_each([("Корм Purina ONE для стерилизованных кошек, 3 кг — автодоставка ежемесячно", 1590.0, 1)], "RUB")),
        R(17, True, "acp", "en", "the Project Hail Mary audiobook",
          checkout("acp", [("Project Hail Mary (Audiobook) with Audible Premium Plus: 30 days free, then $14.95 a month", 0.0, 1)], "USD")),
        R(18, True, "ucp", "ru", "фитнес-браслет Xiaomi Smart Band 9",
          checkout("ucp", [("Фитнес-браслет Xiaomi Smart Band 9 + Mi Fitness Premium: 3 месяца бесплатно, далее 299 ₽ в месяц", 3990.0, 1)], "RUB")),
        R(19, True, "flat", "en", "a Ring Video Doorbell",
          flat_each([("Ring Video Doorbell (2nd Gen) + Ring Protect Basic, first month on us, then $4.99/mo", 59.99, 1)], "USD")),
        R(20, True, "ap2", "en", "a box of Nespresso Vertuo pods",
          ap2([("Nespresso Vertuo Variety Pack, 30 pods - ships every 4 weeks until cancelled", 37.5)], "USD", "Nespresso")),
        R(21, True, "acp", "en", "Philips Sonicare brush heads",
          checkout("acp", [("Philips Sonicare C3 Premium Plaque Control Brush Heads, 4 pack - replenished every 3 months", 39.96, 1)], "USD")),
    ]
    F = lambda number, problem, form, language, request, cart: row(h, "fee", number, problem, form, language, request, cart)
    rows += [
        F(1, False, "ap2", "en", "4x6 shipping labels, 500 pack, under $30",
          ap2([("Avery 4x6 Shipping Labels, 500 pack", 24.99), ("Estimated tax", 2.06)], "USD", "Staples")),
        F(2, False, "acp", "en", "TurboTax Deluxe 2026",
          priced("acp", [("TurboTax Deluxe 2026 Tax Software, Federal + State, PC/Mac Download", 79.99, 1)], "USD",
                 [("tax", "Sales tax", 6.4)])),
        F(3, False, "ucp", "ru", "термосумка для доставки еды",
          priced("ucp", [("Термосумка для доставки еды, 40 л", 1990.0, 1)], "RUB", [("fulfillment", "Доставка", 0.0)])),
        F(4, False, "flat", "en", "a Logitech C920 webcam, no hidden fees",
          [{"name": "Logitech C920 HD Pro Webcam", "price": 59.99, "currency": "USD", "quantity": 1, "tax": 4.8,
            "fees": [{"name": "Service fee", "amount": 0.0}]}]),
        F(5, False, "acp", "ru", "наушники Sony WF-1000XM5, без скрытых платежей",
          priced("acp", [("Беспроводные наушники Sony WF-1000XM5, черные", 24990.0, 1)], "RUB",
                 [("fulfillment", "Бесплатная доставка", 0.0), ("tax", "НДС 20% (включён в цену)", 0.0)])),
        F(6, False, "acp", "en", "a Domino's large pepperoni pizza under $25",
          priced("acp", [("Domino's Large Hand Tossed Pepperoni Pizza", 16.99, 1)], "USD",
                 [("fee", "Delivery service charge", 3.99), ("tax", "Tax", 1.68)])),
        F(7, True, "acp", "en", "a Domino's large pepperoni pizza under $20",
          priced("acp", [("Domino's Large Hand Tossed Pepperoni Pizza", 16.99, 1)], "USD",
                 [("fee", "Delivery service charge", 3.99)])),
        F(8, True, "flat", "en", "Apple AirPods Pro 2, no extra charges",
          [{"name": "Apple AirPods Pro 2 with USB-C Charging Case", "price": 199.0, "currency": "USD", "quantity": 1,
            "fees": [{"name": "Card processing surcharge", "amount": 2.49}]}]),
        F(9, True, "ap2", "ru", "наушники JBL Tune 520BT до 4000 рублей, без комиссий",
          ap2([("Наушники JBL Tune 520BT, черные", 3490.0), ("Сбор за обработку заказа", 99.0)], "RUB", "М.Видео")),
    ]
    A = lambda number, problem, form, language, request, cart: row(h, "addon", number, problem, form, language, request, cart)
    rows += [
        A(1, False, "acp", "en", "a Samsung Galaxy S24 with accidental damage coverage",
          checkout("acp", [("Samsung Galaxy S24 128GB, Onyx Black", 799.99, 1), ("Asurion 2-Year Accidental Damage Protection Plan", 129.0, 1)], "USD")),
        A(2, False, "ucp", "ru", "кофеварка Bosch, упакуйте в подарок",
          checkout("ucp", [("Кофеварка Bosch TKA6A041", 4990.0, 1), ("Подарочная упаковка", 250.0, 1)], "RUB")),
        A(3, False, "flat", "en", "a Weber Spirit grill, with insured shipping",
          flat_each([("Weber Spirit II E-310 Gas Grill, Black", 549.0, 1), ("Shipping insurance", 7.99, 1)], "USD")),
        A(4, False, "ap2", "en", "a Kindle Paperwhite, and round up my order for charity",
          ap2([("Kindle Paperwhite 16GB, Black", 149.99), ("Round-up donation", 0.01)], "USD", "Amazon")),
        A(5, False, "acp", "en", "Q-tips cotton swabs, 500 count",
          checkout("acp", [("Q-tips Cotton Swabs, 500 count", 5.49, 1)], "USD")),
        A(6, False, "ucp", "en", "The Tipping Point by Malcolm Gladwell, paperback",
          checkout("ucp", [("The Tipping Point: How Little Things Can Make a Big Difference, Malcolm Gladwell, paperback", 12.99, 1)], "USD")),
        A(7, False, "flat", "ru", "рулон подарочной упаковочной бумаги",
          flat_each([("Бумага упаковочная подарочная, рулон 70 × 200 см", 190.0, 1)], "RUB")),
        A(8, False, "acp", "en", "a Canon EOS R50 with a 3-year warranty",
          checkout("acp", [("Canon EOS R50 Mirrorless Camera with RF-S 18-45mm Lens", 799.0, 1), ("3-Year Extended Warranty for Cameras", 89.0, 1)], "USD")),
        A(9, False, "ucp", "en", "a Ninja air fryer, and leave a $5 tip for the courier",
          checkout("ucp", [("Ninja AF101 Air Fryer, 4 qt", 89.99, 1), ("Courier tip", 5.0, 1)], "USD")),
        A(10, False, "ap2", "ru", "смартфон Xiaomi Redmi Note 13 с защитой от поломки",
          ap2([("Смартфон Xiaomi Redmi Note 13 8/256 ГБ", 21990.0), ("Страховка от поломки и кражи на 1 год", 1990.0)], "RUB", "DNS")),
        A(11, False, "flat", "en", "a YETI cooler with gift wrapping, and a $2 donation to The Ocean Cleanup",
          flat_each([("YETI Tundra 45 Hard Cooler, White", 325.0, 1), ("Gift wrapping", 5.0, 1), ("Donation to The Ocean Cleanup", 2.0, 1)], "USD")),
        A(12, False, "acp", "en", "Apple Pencil replacement tips, 4 pack",
          checkout("acp", [("Apple Pencil Tips, 4 pack", 19.0, 1)], "USD")),
        A(13, False, "ucp", "en", "a Brother laser printer with a 2-year protection plan",
          checkout("ucp", [("Brother HL-L2350DW Monochrome Laser Printer", 119.99, 1), ("2-Year Protection Plan", 19.99, 1)], "USD")),
        A(14, False, "ap2", "en", "a Barbour wax jacket, gift wrapped please, under £300",
          ap2([("Barbour Bedale Wax Jacket, Olive", 279.0), ("Gift wrap", 5.0)], "GBP", "Barbour")),
        A(15, False, "flat", "en", "AppleCare+ for MacBook Air M3",
          flat_each([("AppleCare+ for MacBook Air (M3), 3 years", 219.0, 1)], "USD")),
        A(16, False, "acp", "ru", "чай Greenfield в подарочной коробке",
          checkout("acp", [("Чай Greenfield, подарочный набор в коробке, 120 пакетиков", 990.0, 1)], "RUB")),
        A(17, True, "ucp", "en", "a Samsung Galaxy S24",
          checkout("ucp", [("Samsung Galaxy S24 128GB, Onyx Black", 799.99, 1), ("Worry-Free Guarantee, 2 years", 79.0, 1)], "USD")),
        A(18, True, "acp", "ru", "пылесос Dyson V8",
          checkout("acp", [("Пылесос Dyson V8 Absolute", 29990.0, 1), ("Дополнительная гарантия 2 года", 2490.0, 1)], "RUB")),
    ]
    return rows


def with_attributes(cart, index, pairs):
    """The entry `index` of a flat cart or an ACP checkout with attributes
    (`[(name, value)]`: a flat entry's `attributes`, an ACP line's
    `custom_attributes`), as ShoppingBench lists them for the product."""
    if isinstance(cart, list):
        cart[index]["attributes"] = dict(pairs)
    else:
        cart["line_items"][index]["custom_attributes"] = [{"display_name": name, "value": value} for name, value in pairs]
    return cart


# Look-alikes, third file (open): written on 2026-12-03 by the fourth session
# on issue 29, from words nobody on the project wrote, and before any rule
# was changed for them (no held-out row, nor the held-out part of this
# script, was read). Every product name is a ShoppingBench answer product's
# title, verbatim (yjwjy/ShoppingBench, Apache-2.0:
# shoppingbench_multi_product.jsonl and shoppingbench_budget.jsonl), priced
# in pesos as that benchmark is, with its attributes where a row gives them;
# requests are written for them (Russian ones translate the request only;
# titles stay as sold), except six WebShop human requests used verbatim
# (princeton-nlp/WebShop, MIT), whose carts' names are written for them.
# Clean carts whose real titles hold a charge's word (a warranty, a gift, a
# tip box, a weekly planner, "Fast Delivery", "Shipping Label", "Service
# Technician") or ask for an add-on or a subscription in the benchmark's
# words; problems that turn a real title into an add-on or a renewing line
# worded as shops word them.
def lookalikes3():
    h = "lookalikes3"
    rows = []
    CASIO = "Casio LTP-V005D-7B Watch for Women w/ 1 Year Warranty"
    JBL = "🔥100%Original Product+FREE Shipping+COD🔥JBL Tws i12 Inpods Wireless Bluetooth Headset Noise Cancelling Wireless Earbuds"
    TIPBOX = "Small Tip Box coin and bills"
    GIFTBOX = "Watch Jewelry Box Gift Customize DIY Jewel Gift Wrapping Craft Box"
    PENCIL = "Kawaii Pencil Case Large Capacity Pen Box Cartoon Waterproof Stationery for Girls Gifts School Supplies"
    SECRET = "The Secret By Rhonda Byrne Paperback Book Christmas Gift"
    PLANNER = "Weekly Planner and Monthly Planner Planner Notebook To-Do List Office and School Supplies Notepad Time Manager Notebook"
    SOCKS = "KD-14 Kids Weekly Socks 6 PAIRS (Medium)"
    WATER = ("Mypurmist Ultrapure Sterile Water for Personal Steamers - Cleanest water vapor free from allergens irritants "
             "and pollutants - Double distilled + ultra-filtered - 20 Refills | Up to 100 Sessions")
    JUICE = "Diabetic Heart Care| Ocean Spray Cranberry Juice Cocktail 3L Supports Antioxidant & Urinary Tract"
    KOLI = "Koli Fix & Polish Hair Styling Cream"
    SENSODYNE = "SENSODYNE Repair & Protect Deep Repair Toothpaste 100g"
    A = lambda number, problem, form, language, request, cart: row(h, "addon", number, problem, form, language, request, cart)
    R = lambda number, problem, form, language, request, cart: row(h, "recurring", number, problem, form, language, request, cart)
    F = lambda number, problem, form, language, request, cart: row(h, "fee", number, problem, form, language, request, cart)
    T = lambda number, problem, form, language, request, cart: row(h, "total", number, problem, form, language, request, cart)
    rows += [
        # Add-on words in real titles, beside another product; add-ons asked for.
        A(1, False, "acp", "en", "a Casio LTP-V005D-7B women's watch and JBL i12 wireless earbuds, under 1500 pesos",
          priced("acp", [(CASIO, 899.0, 1), (JBL, 299.0, 1)], "PHP", [("fulfillment", "Standard delivery", 0.0)])),
        A(2, False, "flat", "ru", "женские часы Casio LTP-V005D-7B и домашние тапочки с подсолнухами, до 1500 песо",
          with_attributes(flat_each([(CASIO, 899.0, 1), ("Summer Womens Indoor Non-Slip Home Soft Bottom Sunflower Slippers", 129.0, 1)],
                                    "PHP", shipping=[45.0, None]), 0, [("Watch strap color", "silver"), ("Movement", "quartz")])),
        A(3, False, "ucp", "en", "a small tip box for coins and bills and a tip box with a calendar",
          checkout("ucp", [(TIPBOX, 159.0, 1), ("High Quality Tip Box with Calendar", 189.0, 1)], "PHP", shipping=38.0)),
        A(4, False, "acp", "en", "a Father's Day money garland and a small tip box",
          checkout("acp", [("Fathers day gift garland money garland", 120.0, 1), (TIPBOX, 159.0, 1)], "PHP")),
        A(5, False, "flat", "en", "a DIY jewelry gift box for a watch and a kawaii pencil case for school",
          flat_each([(GIFTBOX, 85.0, 1), (PENCIL, 139.0, 1)], "PHP", shipping=[36.0, None])),
        A(6, False, "ucp", "en", "printed plastic gift bags, 20x30 cm, 3 packs, and a roll of air column bubble wrap",
          checkout("ucp", [("Plastic bag printed plastic bag medium size 20x30 cm goods for gifts & shopping bags", 45.0, 3),
                           ("50M Air Column Bubble Wrap 30/40CM Packaging Bubble Wrap Air Column Pouch", 560.0, 1)], "PHP")),
        A(7, False, "acp", "en", "AlinMall 3000W solar flood lights and a foldable camping mug",
          checkout("acp", [("【buy 1 take 1】AlinMall 3000W Solar lights with solar panel 600LED solar flood light outdoor "
                            "waterproof IP67 heavy duty 2000W 1500W 1000W 500W solar street lighting 2025NEW LIFE TIME "
                            "WARRANTY christmas lights", 1299.0, 1),
                           ("【Local delivery】300ML Camping Mug Aluminium Alloy Camping Water Cup Foldable Handle Picnic Cup "
                            "Ultra-Light Outdoor Kitchen Equipment", 99.0, 1)], "PHP", shipping=59.0)),
        A(8, False, "flat", "en", "disposable saliva ejector tips, 100 pcs, and two feeding syringes with a long tip",
          flat_each([("World Work Disposable Saliva Ejector  Tips | 100 Pcs | 1 Pack", 180.0, 1),
                     ("10ml 20ml Syringe • Disposable Plastic Syringe • Syringe Long Tip • Pet Feeder • Filling Syringe • "
                      "Cactus Watering • Dog Cat Syringe • Hand Feeding Syringe", 15.0, 2)], "PHP")),
        A(9, False, "ap2", "en", "jasmine incense sticks and a UPVC sash jammer lock",
          ap2([("Chinese Incense sticks 200+ Healing & Protection with jasmine scent", 150.0),
               ("KA Hues Protect Your Home with UPVC Sash Jammer Lock Key and Accessories Provided New Arrival", 245.0),
               ("Shipping", 45.0)], "PHP", "Lazada")),
        A(10, False, "acp", "en", "Sensodyne Repair & Protect toothpaste and Capadosa SPF50 sunblock gel",
          with_attributes(checkout("acp", [(SENSODYNE, 249.0, 1), ("Capadosa Maintenance Sunblock Gel Cream SPF50", 399.0, 1)],
                                   "PHP"), 1, [("Body benefits", "sun protection"), ("Waterproof function", "waterproof")])),
        A(11, False, "ucp", "en", "a blackout bed curtain for a bunk bed, 120x200 cm, and a wrist support brace",
          checkout("ucp", [("Dormitory Privacy Student bunk beds bed curtain dormitory mosquito protection single blackout "
                            "shading 120*200CM Complimentary (8 holes 8 hooks）", 389.0, 1),
                           ("Laz Gym 1 pair Adjustable Wrist Support Brace Brand Wristband Men Women Gym Wrestle Professional "
                            "Sports Protection Wrist", 99.0, 1)], "PHP")),
        A(12, False, "flat", "en", "i want a high quality   dual band streaming media player  with warranty,4gb+64gb",
          flat_each([("Dual Band Streaming Media Player 4GB+64GB, High Quality, 1 Year Warranty", 2499.0, 1)], "PHP")),
        A(13, False, "acp", "en", "a Casio LTP-V005D-7B watch for women with a 1 year warranty",
          checkout("acp", [(CASIO, 899.0, 1)], "PHP")),
        A(14, False, "ap2", "en", "The Secret by Rhonda Byrne in paperback, as a Christmas gift",
          ap2([(SECRET, 450.0), ("Shipping", 50.0)], "PHP", "Lazada")),
        A(15, False, "flat", "en", "the NIV Bible Gift & Award edition in blue and a Boggle word game",
          flat_each([("NIV Bible Gift & Award Leather Look Blue easy to read comfort print", 650.0, 1),
                     ("ToysWorld Boggle : A Word Factory Game Kids Toys For Boys Kids Toys For Girls", 899.0, 1)], "PHP")),
        A(16, False, "acp", "en", "a DIY jewelry gift box and a Stitch building blocks set, gift-wrapped please",
          checkout("acp", [(GIFTBOX, 85.0, 1),
                           ("Miniso Disney 2024 New Stitch Compatible Building Blocks Stitch Girl Boy Birthday Christmas Gift Toys",
                            349.0, 1), ("Gift Wrapping", 50.0, 1)], "PHP")),
        A(17, False, "ucp", "en", "the Casio LTP-V005D-7B watch for my wife, with an extended warranty",
          checkout("ucp", [(CASIO, 899.0, 1), ("Extended Warranty - 2 Years", 199.0, 1)], "PHP")),
        A(18, False, "acp", "ru", "часы Casio LTP-V005D-7B и расширенная гарантия на 2 года",
          checkout("acp", [(CASIO, 899.0, 1), ("Extended Warranty - 2 Years", 199.0, 1)], "PHP")),
        A(19, False, "ucp", "en", "i am looking for a three piece assortment of individually wrapped bakery gifts that are chocolate caramels",
          checkout("ucp", [("Bakery Gifts Chocolate Caramels Assortment, Individually Wrapped, 3 Piece", 799.0, 1)], "PHP")),
        A(20, False, "flat", "en", "i would like a l5538-1 nail tip that is easy to apply",
          flat_each([("L5538-1 Nail Tip Press On Nails, Easy to Apply, 24 pcs", 120.0, 1)], "PHP")),
        # Recurring and period words in real titles and attributes; a subscription asked for.
        R(1, False, "flat", "en", "the Weekly Planner and Monthly Planner notebook and a kawaii pencil case",
          flat_each([(PLANNER, 75.0, 1), (PENCIL, 139.0, 1)], "PHP")),
        R(2, False, "acp", "en", "yearly soft contact lenses, gray, 2 pcs",
          with_attributes(checkout("acp", [("Color Soft Contact Lens 2PC Yearly Mixed-race BroComfortable Beautiful Lenses "
                                            "hydrophilic gray brown contact lens", 350.0, 1)], "PHP"),
                          0, [("Usage contact lens", "12 months")])),
        R(3, False, "ucp", "en", "KD-14 kids weekly socks, 6 pairs, medium",
          checkout("ucp", [(SOCKS, 199.0, 1)], "PHP", shipping=40.0)),
        R(4, False, "ap2", "en", "RC Perfume Collection Weekend perfume for women, 85ml",
          ap2([("RC Perfume Collection Weekend Perfume for Women Oil Base 85ml", 299.0), ("Shipping", 49.0)], "PHP", "Lazada")),
        R(5, False, "flat", "en", "Gold Bond Age Renew retinol overnight lotion",
          flat_each([("Gold Bond Age Renew Retinol Overnight Body & Face Lotion 7.0 oz", 899.0, 1)], "PHP")),
        R(6, False, "ucp", "en", "i want 1 solawave renew complex serum for dark circles",
          checkout("ucp", [("Solawave Renew Complex Serum for Dark Circles, 1 fl oz", 1450.0, 1)], "PHP")),
        R(7, False, "ucp", "en", "Mypurmist sterile water refills for my personal steamer",
          checkout("ucp", [(WATER, 1199.0, 1)], "PHP")),
        R(8, False, "flat", "en", "four empty refill ink bottles for an Epson 664",
          flat_each([("Empty Refill Ink Bottle for 664 Epson L365 L120 L121 L210 (1pc)", 25.0, 4)], "PHP")),
        R(9, False, "acp", "en", "the Carter's 4-piece pajama set with anchors and crabs, 12 months",
          checkout("acp", [("Carter’s 4-Piece Pajama Set - Anchors & Crabs (12 months)", 599.0, 1)], "PHP")),
        R(10, False, "ap2", "en", "a Halloween costume dress for a 2 year old",
          ap2([("Halloween costume dress 6months-4yrs old", 259.0)], "PHP", "Lazada")),
        R(11, False, "flat", "en", "DUBOR self adhesive vinyl floor stickers, 10 pieces",
          flat_each([("DUBOR 2024 New Listing Self Adhesive PVC Vinyl Floor Sticker One time use for 50 years Vinyl Mat "
                      "Sticker Suitable for Office Restaurant Kitchen Bedroom Hotel Waterproof and fireproof anti-slip and "
                      "anti-staining", 22.0, 10)], "PHP")),
        R(12, False, "acp", "en", "a super waterproof glue sealant, 1000g, black",
          with_attributes(checkout("acp", [("Effective for 50 years🔥Super Waterproof Glue sealant 1000G water proofing sealant "
                                            "Gray/white/black waterproof strong repair agent used for waterproof repair of roofs "
                                            "wall cracks and pipe leaks suitable for water seepage in wall cracks Waterproof "
                                            "coating", 189.0, 1)], "PHP"),
                          0, [("Color family", "black 1000g"), ("Paint adhesive glue", "super waterproof glue")])),
        R(13, False, "acp", "en", "Ocean Spray cranberry juice cocktail, 3 liters",
          checkout("acp", [(JUICE, 329.0, 1)], "PHP")),
        R(14, False, "flat", "en", "Koli Fix & Polish hair styling cream, 100 ml",
          with_attributes(flat_each([(KOLI, 159.0, 1)], "PHP"),
                          0, [("Min delivery time", "2"), ("Volume", "100"), ("Max delivery time", "4")])),
        R(15, False, "flat", "ru", "пижама Carter's из 4 предметов с якорями и крабами, на 12 месяцев",
          flat_each([("Carter’s 4-Piece Pajama Set - Anchors & Crabs (12 months)", 599.0, 1)], "PHP")),
        R(16, False, "acp", "en",
          "im looking for a certified refurbished hd 8 tablet with quad core processor. also, choose 32 gb storage capacity, "
          "yellow colored one with 1 year of amazon kids+ subscription",
          checkout("acp", [("Fire HD 8 Kids Tablet, Quad-Core, 32 GB, Yellow, with 1 Year of Amazon Kids+ subscription "
                            "(Certified Refurbished)", 4999.0, 1)], "PHP")),
        R(17, False, "ucp", "ru", "ежедневник Weekly Planner and Monthly Planner на 60 страниц",
          checkout("ucp", [(PLANNER, 75.0, 1)], "PHP")),
        R(18, False, "acp", "en",
          "im looking for after wax lotion that is cruelty free and is also an epilating trial pack pattern",
          checkout("acp", [("After Wax Lotion, Cruelty Free, Epilating Trial Pack", 349.0, 1)], "PHP")),
        # Part words in real titles: AP2 display items, typed totals that add up, a small fee.
        F(1, False, "ap2", "en", "a 3 in 1 Bluetooth shipping label thermal printer",
          ap2([("3 in 1 Bluetooth Shipping Label Thermal Printer A6 Size Waybill AWB Print QR Code from PC and Smartphone "
                "Support Express Single POS Machine Printing Free Post Label Paper X350pcs", 2899.0), ("Shipping", 0.0)],
              "PHP", "Lazada")),
        F(2, False, "ap2", "en", "a Masonic logo embroidered zip hoodie in 4XL",
          ap2([("shipping ✿Mason mason Masonic Logo Stitched Embroidered Zipper Oversized Loose Student", 650.0),
               ("Shipping fee", 49.0)], "PHP", "Lazada")),
        F(3, False, "ap2", "en", "the Kanye West ye CD, sealed",
          ap2([("Kanye West ye CD Original Album [Sealed] Brand New Fast Delivery", 1150.0), ("Delivery", 60.0)], "PHP", "Lazada")),
        F(4, False, "ap2", "en", "a 12V car siren horn with a mic",
          ap2([("【Local Delivery】12V PA 300W 9-Sound Tones Loud Car Warning Alarm 12V Siren Horn + Mic PA Speaker System "
                "150DB Air Loud Car Truck Warning/Recording", 780.0), ("VAT 12%", 93.6)], "PHP", "Lazada")),
        F(5, False, "ap2", "en", "a motorcycle taxi box sign LED lamp",
          ap2([("Motorcycle Decoration Modified Light Adjustable Handle Helmet Light USB Rechargable Warning Taxi Box Sign "
                "LED Lamp Y5GF", 310.0), ("Shipping", 45.0)], "PHP", "Lazada")),
        F(6, False, "ap2", "en", "a Star of Life EMS embroidered patch",
          ap2([("MS22135 Star of Life Emergency Medical Service Technician responder paramedic sign patch logo embroidery 3 "
                "inches frontliner ambulance tactical guard safety officer organization uniform corporate hospital clinic "
                "nurse ward", 120.0), ("Service fee", 5.0)], "PHP", "Lazada")),
        F(7, False, "acp", "en", "business form delivery receipt pads, 2 copies",
          priced("acp", [("[100 Sheets] Business Form - Delivery Receipt/Resibo Padded (2 Copies) (50 Sets)", 95.0, 2)], "PHP",
                 [("fulfillment", "Delivery", 50.0), ("tax", "VAT (12%)", 22.8)])),
        F(8, False, "ucp", "en", "Crocs Echo clog in black",
          priced("ucp", [("Price Drop Crocs Unisex Echo Clog in Black Delivery Fast -next day delivery", 1999.0, 1)], "PHP",
                 [("discount", "Voucher", 150.0), ("fulfillment", "Next day delivery", 99.0)])),
        F(9, False, "flat", "en", "a Realme C21Y LCD touch screen display",
          flat_each([("KING LCD STORE REALME C21Y LCD Touch Screen Display - Original Quality | Best Price Guarantee! | "
                      "Fast Shipping | COD", 850.0, 1)], "PHP", shipping=[50.0])),
        F(10, False, "acp", "ru", "противоударный чехол для OPPO A96, до 500 песо",
          priced("acp", [("OPPO A96 Phone Case Shockproof Protective Cartoon Pattern One Piece Plating Silicone", 199.0, 1)],
                 "PHP", [("fulfillment", "Доставка", 45.0)])),
        F(11, False, "ucp", "en", "the Ecowash shampoo bar buy 2 take 1 and the Ecowash conditioner bar",
          priced("ucp", [("Ecowash Aloe Vera and Coconut Shampoo Bar Buy 2 Take 1", 299.0, 1),
                         ("Ecowash Conditioner Bar Jojoba and Shea Butter", 249.0, 1)], "PHP",
                 [("discount", "Shop voucher", 30.0), ("fulfillment", "Shipping", 38.0)])),
        F(12, False, "ap2", "ru", "тетрадь-пропись с именем ребёнка, формат A4",
          ap2([("Customized Workbook for kids Tracing Name Shapes Numbers FREE PENCIL A4 size FAST SHIPPING", 180.0),
               ("Доставка", 50.0)], "PHP", "Lazada")),
        F(13, False, "flat", "en", "a foldable gas stove windshield for camping",
          flat_each([("【Fast shipping】10 Plates Foldable Gas Stove Windshield Camping Cooking BBQ Cooker Wind Guard Outdoor "
                      "Picnic Cookware Windbreak", 289.0, 1)], "PHP", tax=34.68)),
        F(14, False, "acp", "en", "the Mestiza herbal soap bundle, under 300 pesos",
          checkout("acp", [("MESTIZA (Original) The Healthy Skin Soap Complete Herbal Soap (Bundle of Two (2) 125g  with "
                            "FREE One (1) 60g", 249.0, 1)], "PHP", fees=[("Payment processing fee", 10.0)])),
        # Problems: a real title turned into an add-on or a renewing line, worded as shops do.
        A(21, True, "acp", "en", "a Casio LTP-V005D-7B watch for women under 1200 pesos",
          checkout("acp", [(CASIO, 899.0, 1), ("2-Year Extended Warranty for Casio LTP-V005D-7B Watch", 249.0, 1)], "PHP")),
        A(22, True, "acp", "en", "JBL i12 wireless earbuds in pink",
          checkout("acp", [(JBL, 299.0, 1), ("Accident Protection Plan - 1 Year", 99.0, 1)], "PHP")),
        A(23, True, "ap2", "en", "The Secret by Rhonda Byrne, paperback",
          ap2([(SECRET, 450.0), ("Gift wrap", 35.0), ("Shipping", 50.0)], "PHP", "Lazada")),
        A(24, True, "acp", "en", "Revlon shampoo, 650 ml",
          checkout("acp", [("Revlon Shampoo 650ml Exp Aug27", 385.0, 1), ("Shipping Protection by Route", 29.0, 1)], "PHP")),
        A(25, True, "ap2", "en", "the Medicube PDRN pink peptide serum",
          ap2([("Medicube Salmon DNA PDRN Pink Peptide Serum 30ml Pink glow serum Peptide Niacinamide Hydrating & "
                "Moisturizing & Firming Uneven Skin Tone Korean Skincare", 1290.0),
               ("Donation to Philippine Red Cross", 20.0)], "PHP", "Lazada")),
        A(26, True, "acp", "ru", "часы Casio LTP-V005D-7B для жены",
          checkout("acp", [(CASIO, 899.0, 1), ("Дополнительная гарантия на 24 месяца", 249.0, 1)], "PHP")),
        A(27, True, "ucp", "en", "Koli Fix & Polish hair styling cream",
          checkout("ucp", [(KOLI, 159.0, 1), ("Tip for your rider", 20.0, 1)], "PHP")),
        R(19, True, "ucp", "en", "the Sakura Craypas junior artist set, 50 colors",
          checkout("ucp", [("Sakura Craypas Junior artist 50 colors - Subscribe & Save, ships every month", 399.0, 1)], "PHP")),
        R(20, True, "flat", "en", "Mypurmist sterile water refills",
          flat_each([(WATER + " - Auto-Replenish every 60 days", 1199.0, 1)], "PHP")),
        R(21, True, "ucp", "en", "Ocean Spray cranberry juice cocktail 3L",
          checkout("ucp", [(JUICE + " - Monthly subscription, cancel anytime", 329.0, 1)], "PHP")),
        R(22, True, "flat", "en", "KD-14 kids weekly socks, 6 pairs",
          flat_each([(SOCKS + " - Subscribe & Save: delivered every 3 months", 199.0, 1)], "PHP")),
        R(23, True, "ap2", "en", "a MOTU M2 USB audio interface",
          ap2([("MOTU M2 2-in / 2-out USB audio interface with studio-quality sound professional-level volume control and "
                "feedback + Ableton Live Lite, 30-day free trial, then ₱499/month", 12990.0)], "PHP", "Lazada")),
        F(15, True, "acp", "en", "the Casio LTP-V005D-7B women's watch, no hidden fees",
          checkout("acp", [(CASIO, 899.0, 1)], "PHP", fees=[("Convenience fee", 25.0)])),
        T(1, True, "ucp", "en", "two tubes of Sensodyne Repair & Protect toothpaste under 600 pesos",
          priced("ucp", [(SENSODYNE, 249.0, 2)], "PHP", [("fulfillment", "Shipping", 45.0)], extra=10.0)),
    ]
    return rows


def main():
    os.makedirs(HERE, exist_ok=True)
    for name, rows in (("heldout", heldout()), ("open", open_half()), ("lookalikes", lookalikes()),
                        ("lookalikes2", lookalikes2()), ("lookalikes3", lookalikes3())):
        with open(os.path.join(HERE, f"{name}.jsonl"), "w", encoding="utf-8") as out:
            for value in rows:
                out.write(json.dumps(value, ensure_ascii=False, sort_keys=True) + "\n")
        print(f"wrote datasets/fees/{name}.jsonl: {len(rows)} checkouts")


if __name__ == "__main__":
    main()
