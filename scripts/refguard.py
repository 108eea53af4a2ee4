"""Reference evaluator of the guard's checks, for labelling and checking datasets.

Standard library only. It follows /work/notes/semantics.md (guard.md §5) and
returns the set of BLOCK codes for (facts, cart, allowed_items). It is not the
engine: it exists so that dataset labels are computed the same way every time
and can be compared with the engine's output. Where the written semantics leave
room for two readings, it follows the engine (price per unit of the person's
counting; an alternative with an unchecked attribute does not fit), or, where
the answer would depend on a tie-break, `block_codes` raises Ambiguous and the
dataset generator does not use the cart (a line tie between "assign with a
finding" and "missing + extra"; item colours with no known colour word).
"""

import itertools
import re
import unicodedata

COLOUR_WORDS = {
    "black": ["black", "чёрный", "черный", "чёрная", "черная", "чёрные", "черные", "чёрное", "черное"],
    "white": ["white", "белый", "белая", "белые", "белое"],
    "blue": ["blue", "синий", "синяя", "синие", "синее"],
    "red": ["red", "красный", "красная", "красные", "красное"],
    "green": ["green", "зелёный", "зеленый", "зелёная", "зеленая", "зелёные", "зеленые"],
    "grey": ["grey", "gray", "серый", "серая", "серые", "серое"],
    "yellow": ["yellow", "жёлтый", "желтый", "жёлтая", "желтая", "жёлтые", "желтые"],
    "pink": ["pink", "розовый", "розовая", "розовые"],
    "orange": ["orange", "оранжевый", "оранжевая", "оранжевые"],
}
COLOUR = {w: canon for canon, words in COLOUR_WORDS.items() for w in words}

SPELLED = {
    "extra small": "xs", "x-small": "xs", "x small": "xs", "xsmall": "xs",
    "small": "s", "medium": "m", "large": "l",
    "extra large": "xl", "x-large": "xl", "x large": "xl", "xlarge": "xl",
    "xx-large": "xxl", "xx large": "xxl", "2xl": "xxl", "xxlarge": "xxl",
}
FILLER = {"size", "sz", "размер"}
SYSTEMS = {"eu", "us", "uk"}


def norm(text):
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def words(text):
    return [w for w in re.split(r"[^\w]+|_", norm(text)) if w]


def colour_words(text):
    return {COLOUR.get(w, w) for w in words(text)}


def first_colour(item_colour):
    return item_colour.split("/")[0]


def size_key(text):
    s = norm(text).replace(",", ".")
    toks = [t for t in s.split() if t not in FILLER]
    system = None
    if toks and toks[0] in SYSTEMS:
        system, toks = toks[0], toks[1:]
    rest = " ".join(toks)
    rest = SPELLED.get(rest, rest)
    return system, rest


def size_equal(item_size, stated):
    a_sys, a = size_key(item_size)
    b_sys, b = size_key(stated)
    if a_sys and b_sys and a_sys != b_sys:
        return False
    return a == b


def name_begins_with(name, brand):
    """An item without a brand is of the brand its name begins with (whole
    folded words: "Nikes" and "Nikon D750" are not Nike; docs/semantics.md)."""
    brand_words = words(brand)
    return bool(name) and bool(brand_words) and words(name)[:len(brand_words)] == brand_words


class Ambiguous(Exception):
    pass


def item_findings(facts, item, quantity, with_quantity=True, shared_only=False):
    """Findings of one cart entry: list of (code, field)."""
    out = []

    def attr(name):
        return item.get(name)

    brand = facts.get("brand")
    if brand:
        if attr("brand") is None:
            if not name_begins_with(attr("name"), brand):
                out.append(("unchecked", "brand"))
        elif norm(attr("brand")) != norm(brand):
            out.append(("brand", "brand"))
    for excluded in facts.get("brand_not") or []:
        if attr("brand") is not None and norm(attr("brand")) == norm(excluded):
            out.append(("brand-excluded", "brand_not"))
        elif attr("brand") is None and name_begins_with(attr("name"), excluded):
            out.append(("brand-excluded", "brand_not"))
    level = facts.get("level")
    if level:
        if attr("level") is None:
            out.append(("unchecked", "level"))
        elif attr("level") != level and attr("level") != "any":
            out.append(("level", "level"))
    if facts.get("needs_refundable"):
        if attr("final_sale") is None:
            out.append(("unchecked", "needs_refundable"))
        elif attr("final_sale"):
            out.append(("refund", "needs_refundable"))
    deadline = facts.get("deadline_days")
    if deadline is not None:
        if attr("delivery_days") is None:
            out.append(("unchecked", "deadline_days"))
        elif attr("delivery_days") > deadline:
            out.append(("deadline", "deadline_days"))
    if shared_only:
        return out
    model = facts.get("model")
    if model:
        if attr("name") is None:
            out.append(("unchecked", "model"))
        else:
            drop = set(words(brand or "")) | set(words(attr("brand") or ""))
            need = [w for w in words(model) if w not in drop]
            have = set(words(attr("name")))
            if not all(w in have for w in need):
                out.append(("model", "model"))
    colour = facts.get("color")
    if colour:
        if attr("color") is None:
            out.append(("unchecked", "color"))
        else:
            first = colour_words(first_colour(attr("color")))
            if not any(w in COLOUR_WORDS for w in first):
                raise Ambiguous("item colour has no known colour word: " + attr("color"))
            need = {w for w in colour_words(colour) if w in COLOUR_WORDS}
            if not need:
                raise Ambiguous("stated colour has no known colour word: " + colour)
            if not need <= first:
                out.append(("color", "color"))
    size = facts.get("size_label")
    if size:
        if attr("size") is None:
            out.append(("unchecked", "size_label"))
        elif not size_equal(attr("size"), size):
            out.append(("size", "size_label"))
    if with_quantity and facts.get("quantity") is not None:
        if attr("units") is None:
            out.append(("unchecked", "quantity"))
        elif quantity * attr("units") != facts["quantity"]:
            out.append(("quantity", "quantity"))
    return out


def severity(field, facts):
    soft = set(facts.get("soft") or [])
    disputed = set(facts.get("disputed") or [])
    return "warn" if (field in soft or field in disputed) else "block"


def cart_level(facts, cart, allowed):
    out = []
    limit = facts.get("explicit_max_cents")
    if limit is not None:
        prices = [e["item"].get("price_cents") for e in cart]
        currencies = {e["item"].get("currency") for e in cart}
        if any(p is None for p in prices) or len(currencies) != 1:
            out.append(("unchecked", "explicit_max_cents"))
        elif sum(e["item"]["price_cents"] * e["quantity"] for e in cart) > limit:
            out.append(("explicit-max", "explicit_max_cents"))
    if facts.get("price_preference") == "cheap" and len(cart) == 1:
        entry = cart[0]
        item = entry["item"]
        strict, loose = False, False
        for alt in allowed:
            if alt["id"] == item["id"] or alt.get("currency") != item.get("currency"):
                continue
            if alt.get("price_cents") is None or item.get("price_cents") is None:
                continue
            # "per unit" = per unit of the person's counting when both items give units
            # (the engine's reading of semantics.md; a 4-can box is compared per can).
            alt_units, item_units = alt.get("units"), item.get("units")
            if not (alt_units and item_units):
                alt_units = item_units = 1
            if not alt["price_cents"] * item_units * 100 < item["price_cents"] * alt_units * 85:
                continue
            alt_cart = [{"item": alt, "quantity": entry["quantity"]}]
            found = all_entry_findings(facts, alt_cart)
            found += [f for f in cart_level_no_price(facts, alt_cart)]
            relevant = [f for f in found if f[0] != "other"]
            if not relevant:
                strict = loose = True
            elif all(code == "unchecked" for code, _ in relevant):
                loose = True
        # An alternative with an unchecked attribute does not fit ("no finding at all"),
        # as the engine reads it; `loose` is kept to document the other reading.
        if strict:
            out.append(("price", "price_preference"))
    for _ in facts.get("other") or []:
        out.append(("other", "other"))
    for _ in facts.get("other_optional") or []:
        out.append(("other", "other_optional"))
    return out


def cart_level_no_price(facts, cart):
    f = dict(facts)
    f.pop("price_preference", None)
    f.pop("other", None)
    return cart_level(f, cart, [])


def all_entry_findings(facts, cart):
    if facts.get("lines"):
        return lines_findings(facts, cart)[0]
    out = []
    for e in cart:
        out += item_findings(facts, e["item"], e["quantity"], with_quantity=False)
    if facts.get("quantity") is not None:
        units = [e["item"].get("units") for e in cart]
        if any(u is None for u in units):
            out.append(("unchecked", "quantity"))
        elif sum(e["quantity"] * e["item"]["units"] for e in cart) != facts["quantity"]:
            out.append(("quantity", "quantity"))
    return out


def line_facts(facts, line):
    eff = {k: v for k, v in facts.items() if k != "lines"}
    for k in ("model", "color", "size_label", "quantity"):
        if line.get(k) is not None:
            eff[k] = line[k]
    return eff


def lines_findings(facts, cart):
    """Best assignment of cart entries to lines. Returns (findings, ambiguous)."""
    lines = facts["lines"]
    n_entries = len(cart)
    best = None
    results = []
    # assignment: for each line, an entry index or None; one-to-one.
    slots = list(range(n_entries)) + [None] * len(lines)
    seen = set()
    for perm in itertools.permutations(slots, len(lines)):
        key = perm
        if key in seen:
            continue
        seen.add(key)
        findings = []
        for li, ei in enumerate(perm):
            if ei is None:
                findings.append(("missing", "lines"))
                continue
            eff = line_facts(facts, lines[li])
            for code, field in item_findings(eff, cart[ei]["item"], cart[ei]["quantity"]):
                if field in ("model", "color", "size_label", "quantity") and lines[li].get(field) is not None:
                    field = f"lines[{li}].{field}"
                findings.append((code, field))
        used = {ei for ei in perm if ei is not None}
        # The cost counts blocking findings of the assigned pairs, missing lines and
        # extra entries; the shared-only findings of an extra entry are reported but
        # not part of the cost (semantics.md "Lines").
        cost_findings = list(findings)
        for ei in range(n_entries):
            if ei not in used:
                findings.append(("extra", "lines"))
                cost_findings.append(("extra", "lines"))
                findings += item_findings(facts, cart[ei]["item"], cart[ei]["quantity"], shared_only=True)
        blocks = sum(1 for c, f in cost_findings if c not in ("unchecked",) and line_severity(c, f, facts) == "block")
        warns = len(cost_findings) - blocks
        results.append(((blocks, warns), findings))
    min_key = min(r[0][0] for r in results)
    top = [r for r in results if r[0][0] == min_key]
    code_sets = {frozenset(c for c, f in fs if c != "unchecked" and line_severity(c, f, facts) == "block") for _, fs in top}
    ambiguous = len(code_sets) > 1
    best = min(top, key=lambda r: r[0][1])
    return best[1], ambiguous


def line_severity(code, field, facts):
    if code == "missing":
        return "block"
    if field == "other_optional":
        return "warn"
    soft = set(facts.get("soft") or [])
    if field.startswith("lines["):
        if field in soft or field.split(".")[-1] in soft:
            return "warn"
        return "block"
    return severity(field, facts)


def block_codes(facts, cart, allowed):
    """Set of block codes. Raises Ambiguous when the semantics leave room."""
    if facts.get("lines"):
        findings, ambiguous = lines_findings(facts, cart)
        if ambiguous:
            raise Ambiguous("several best line assignments with different codes")
        findings = findings + cart_level(facts, cart, allowed)
    else:
        findings = all_entry_findings(facts, cart) + cart_level(facts, cart, allowed)
    codes = set()
    for code, field in findings:
        if code == "unchecked":
            continue
        if line_severity(code, field, facts) == "block":
            codes.add(code)
    return codes


def warn_codes(facts, cart, allowed):
    if facts.get("lines"):
        findings, _ = lines_findings(facts, cart)
        findings = findings + cart_level(facts, cart, allowed)
    else:
        findings = all_entry_findings(facts, cart) + cart_level(facts, cart, allowed)
    return {code for code, field in findings if code == "unchecked" or line_severity(code, field, facts) == "warn"}
