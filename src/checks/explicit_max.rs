//! `explicit-max`: the cart total is above the stated spending limit (equal
//! is within it). A limit is compared only with a total in one currency, and,
//! when the person named the limit's currency (`explicit_max_currency`, an
//! extension), only with a total in that currency: 3000 roubles say nothing
//! about a cart of 40 dollars. A cart that names no currency is compared as
//! guard.md does, by the number.
//!
//! Under the default `words` policy (issue 29) the limit is compared with
//! what the person pays: the total the checkout states, else the items with
//! the shipping, tax and fees the cart states, less its discounts
//! ([`paid`]). A limit in another currency is compared through an exchange
//! rate the caller gave (`fx`), and without one it asks, naming both
//! amounts (`limit-currency`): a limit that cannot be compared is not a
//! pass. Under `spec` it is guard.md's: items only, another currency a note.

use super::{CheckPolicy, SeverityRules, Source, unchecked};
use crate::cart::Cart;
use crate::facts::{Facts, FieldName};
use crate::finding::{Code, Compared, Finding, Severity};
use crate::messages::{Attribute, ItemName, Message, Money};

/// What a cart costs: its items, and what the person pays in all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paid {
    /// The items' prices times their quantities (`None`: a price unknown,
    /// two currencies, or beyond u64).
    pub items: Option<u64>,
    /// What will be paid: the stated total, else the items with what the
    /// cart states beside them.
    pub paid: u64,
    pub currency: Option<String>,
}

/// The items' total in their one currency; `None` when a price is unknown,
/// the items are in two currencies, or the sum is beyond u64.
pub fn items_total(cart: &Cart) -> Option<(u64, Option<String>)> {
    let mut total: u64 = 0;
    let mut currency: Option<&str> = None;
    for entry in &cart.entries {
        let price = entry.item.price_cents?;
        match (currency, entry.item.currency.as_deref()) {
            (Some(seen), Some(this)) if seen != this => return None,
            (None, Some(this)) => currency = Some(this),
            _ => {}
        }
        total = total.checked_add(price.checked_mul(entry.quantity)?)?;
    }
    Some((total, currency.map(str::to_owned)))
}

/// Whether two currencies can be added: the same, or one of them unnamed.
fn same(left: Option<&str>, right: Option<&str>) -> bool {
    left.is_none() || right.is_none() || left == right
}

/// What the person pays (issue 29): the checkout's stated total; else the
/// items, with the shipping, tax and fees the cart states added and its
/// discounts taken off. `None` when it cannot be had in one currency.
pub fn paid(cart: &Cart) -> Option<Paid> {
    let charges = &cart.charges;
    let items = items_total(cart);
    if let Some(total) = charges.total {
        let currency = charges.currency.clone().or_else(|| items.as_ref().and_then(|(_, currency)| currency.clone()));
        let items_in = items.filter(|(_, items_currency)| same(items_currency.as_deref(), currency.as_deref()));
        return Some(Paid { items: items_in.map(|(sum, _)| sum), paid: total, currency });
    }
    let (items_sum, currency) = items?;
    if !same(charges.currency.as_deref(), currency.as_deref()) {
        return None;
    }
    let mut paid = items_sum;
    if let Some(shipping) = &cart.shipping {
        if !same(shipping.currency.as_deref(), currency.as_deref()) {
            return None;
        }
        paid = paid.checked_add(shipping.minor)?;
    }
    paid = paid.checked_add(charges.tax.unwrap_or(0))?.checked_add(charges.fees_total()?)?;
    let discounts = charges.discount.unwrap_or(0).checked_add(charges.items_discount.unwrap_or(0))?;
    let currency = currency.or_else(|| charges.currency.clone());
    Some(Paid { items: Some(items_sum), paid: paid.saturating_sub(discounts), currency })
}

pub fn findings(facts: &Facts, cart: &Cart, rules: &SeverityRules, policy: CheckPolicy) -> Option<Finding> {
    let max = facts.explicit_max_cents?;
    if policy == CheckPolicy::Words
        && let Some(finding) = paid_findings(facts, max, cart, rules)
    {
        return finding;
    }
    let mut total: u64 = 0;
    let mut currency: Option<&str> = None;
    for (index, entry) in cart.entries.iter().enumerate() {
        let name = ItemName::of(&entry.item);
        let Some(price) = entry.item.price_cents else {
            return Some(unchecked(
                FieldName::ExplicitMaxCents,
                Attribute::Price,
                Compared::Count(max),
                name,
                index,
                None,
            ));
        };
        match (currency, entry.item.currency.as_deref()) {
            (Some(seen), Some(this)) if seen != this => {
                let finding = unchecked(
                    FieldName::ExplicitMaxCents,
                    Attribute::Price,
                    Compared::Count(max),
                    name.clone(),
                    index,
                    None,
                );
                return Some(finding.say(Message::MixedCurrencies {
                    seen: seen.to_owned(),
                    other: this.to_owned(),
                    item: name,
                }));
            }
            (None, Some(this)) => currency = Some(this),
            _ => {}
        }
        // The bounds keep one entry's cost inside u64, but not a whole cart's
        // (19 entries at the bounds already overflow). A total past u64 is
        // past every limit: it blocks like any other excess, never a note.
        match price.checked_mul(entry.quantity).and_then(|cost| total.checked_add(cost)) {
            Some(sum) => total = sum,
            None => return Some(above(max, None, currency, rules)),
        }
    }
    if let (Some(limit_currency), Some(cart_currency)) = (facts.explicit_max_currency.as_deref(), currency)
        && limit_currency != cart_currency
    {
        return Some(other_currency(max, limit_currency, cart_currency, cart));
    }
    if total <= max {
        return None;
    }
    Some(above(max, Some(total), currency, rules))
}

/// The `words` policy's comparison of the limit with what is paid, when
/// the cart states more than its items (a total, shipping, tax, fees or
/// discounts) or the limit is in another currency; `None` to leave the
/// comparison to guard.md's rule (items only, the same as what is paid).
fn paid_findings(facts: &Facts, max: u64, cart: &Cart, rules: &SeverityRules) -> Option<Option<Finding>> {
    let charges_stated =
        !cart.charges.states_nothing() || cart.shipping.as_ref().is_some_and(|shipping| shipping.minor > 0);
    let paid = paid(cart)?;
    let limit_currency = facts.explicit_max_currency.as_deref();
    let other_currency = match (limit_currency, paid.currency.as_deref()) {
        (Some(limit), Some(cart_currency)) if limit != cart_currency => Some((limit, cart_currency)),
        _ => None,
    };
    if let Some((limit, cart_currency)) = other_currency {
        let rate = cart
            .charges
            .rates
            .iter()
            .find_map(|rate| rate.between(paid.paid, cart_currency, limit).map(|converted| (rate, converted)));
        return Some(match rate {
            Some((_, converted)) if converted <= max => None,
            Some((rate, converted)) => Some(
                over_the_limit(
                    rules,
                    Compared::LimitIn { currency: limit.to_owned(), total_at_most_minor: max },
                    Compared::Total { currency: Some(limit.to_owned()), total_minor: Some(converted) },
                )
                .say(Message::ConvertedAboveLimit {
                    max: Money::new(max, Some(limit)),
                    paid: Money::new(paid.paid, Some(cart_currency)),
                    converted: Money::new(converted, Some(limit)),
                    rate: format!("1 {} = {} {}", rate.from, rate.rate, rate.to),
                    date: rate.date,
                }),
            ),
            None => Some(
                Finding {
                    id: format!("{}@$.cart", Code::LimitCurrency),
                    code: Code::LimitCurrency,
                    severity: rules.severity(FieldName::ExplicitMaxCents, Source::Shared),
                    field: FieldName::ExplicitMaxCents,
                    line: None,
                    path: "$.cart".to_owned(),
                    entry: None,
                    expected: Compared::LimitIn { currency: limit.to_owned(), total_at_most_minor: max },
                    actual: Compared::Total { currency: Some(cart_currency.to_owned()), total_minor: Some(paid.paid) },
                    reason: String::new(),
                    message: None,
                }
                .say(Message::LimitCurrencyUnknown {
                    max: Money::new(max, Some(limit)),
                    paid: Money::new(paid.paid, Some(cart_currency)),
                }),
            ),
        });
    }
    if !charges_stated {
        return None;
    }
    if paid.paid <= max {
        return Some(None);
    }
    let currency = paid.currency.as_deref();
    let mut finding = above(max, Some(paid.paid), currency, rules);
    if let Some(items) = paid.items.filter(|items| *items != paid.paid) {
        finding = finding.say(Message::PaidAboveLimit {
            max: Money::new(max, currency),
            paid: Money::new(paid.paid, currency),
            items: Money::new(items, currency),
        });
    }
    Some(Some(finding))
}

/// The limit is in one currency and the cart in another: not comparable
/// without a rate the guard does not have, so the person sees it (warn).
fn other_currency(max: u64, limit_currency: &str, cart_currency: &str, cart: &Cart) -> Finding {
    let names: Vec<ItemName> = cart.entries.iter().map(|entry| ItemName::of(&entry.item)).collect();
    Finding {
        id: "unchecked.explicit_max_cents@$.cart".to_owned(),
        code: Code::Unchecked,
        severity: Severity::Warn,
        field: FieldName::ExplicitMaxCents,
        line: None,
        path: "$.cart".to_owned(),
        entry: None,
        expected: Compared::LimitIn { currency: limit_currency.to_owned(), total_at_most_minor: max },
        actual: Compared::Currency { currency: cart_currency.to_owned() },
        reason: String::new(),
        message: None,
    }
    .say(Message::LimitInOtherCurrency {
        max: Money::new(max, Some(limit_currency)),
        cart_currency: cart_currency.to_owned(),
        items: names,
    })
}

/// The cart's `explicit-max` finding, before its message.
fn over_the_limit(rules: &SeverityRules, expected: Compared, actual: Compared) -> Finding {
    Finding {
        id: "explicit-max@$.cart".to_owned(),
        code: Code::ExplicitMax,
        severity: rules.severity(FieldName::ExplicitMaxCents, Source::Shared),
        field: FieldName::ExplicitMaxCents,
        line: None,
        path: "$.cart".to_owned(),
        entry: None,
        expected,
        actual,
        reason: String::new(),
        message: None,
    }
}

/// The finding for a total above the limit; `None`: beyond u64.
fn above(max: u64, total: Option<u64>, currency: Option<&str>, rules: &SeverityRules) -> Finding {
    over_the_limit(
        rules,
        Compared::Limit { total_at_most_minor: max },
        Compared::Total { currency: currency.map(str::to_owned), total_minor: total },
    )
    .say(Message::ExplicitMax {
        max: Money::new(max, currency),
        total: Money::new(total.unwrap_or(u64::MAX), currency),
        beyond: total.is_none(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::{CartEntry, Item};

    fn run(max: u64, entries: &[(Option<u64>, &str, u64)]) -> Option<Finding> {
        let facts = Facts { explicit_max_cents: Some(max), ..Facts::default() };
        let cart = Cart {
            shipping: None,
            charges: Default::default(),
            entries: entries
                .iter()
                .map(|(price, currency, quantity)| CartEntry {
                    item: Item { price_cents: *price, currency: Some(currency.to_string()), ..Item::default() },
                    quantity: *quantity,
                })
                .collect(),
        };
        findings(&facts, &cart, &SeverityRules::new(&facts), CheckPolicy::Spec)
    }

    #[test]
    fn the_total_is_compared_and_equal_is_fine() {
        assert_eq!(run(12000, &[(Some(6000), "USD", 2)]), None);
        let over = run(12000, &[(Some(6001), "USD", 2)]).unwrap();
        assert_eq!(over.code, Code::ExplicitMax);
        assert_eq!(over.reason, "Asked to spend at most 120.00 USD, the cart totals 120.02 USD.");
        assert_eq!(run(12000, &[(None, "USD", 1)]).unwrap().code, Code::Unchecked);
        assert_eq!(run(12000, &[(Some(1), "USD", 1), (Some(1), "EUR", 1)]).unwrap().code, Code::Unchecked);
    }

    #[test]
    fn a_limit_in_one_currency_is_never_compared_with_a_total_in_another() {
        let run_in = |limit_currency: Option<&str>, currency: Option<&str>, price: u64| {
            let facts = Facts {
                explicit_max_cents: Some(300_000),
                explicit_max_currency: limit_currency.map(str::to_owned),
                ..Facts::default()
            };
            let item = Item { price_cents: Some(price), currency: currency.map(str::to_owned), ..Item::default() };
            let cart =
                Cart { shipping: None, charges: Default::default(), entries: vec![CartEntry { item, quantity: 1 }] };
            findings(&facts, &cart, &SeverityRules::new(&facts), CheckPolicy::Spec)
        };
        // 3000 roubles against 40 dollars: neither "within" nor "above".
        let unchecked = run_in(Some("RUB"), Some("USD"), 4_000).unwrap();
        assert_eq!((unchecked.code, unchecked.severity), (Code::Unchecked, Severity::Warn));
        assert!(unchecked.reason.contains("3000.00 RUB") && unchecked.reason.contains("USD"), "{}", unchecked.reason);
        // The same currency is compared as before, and so is a cart with none.
        assert_eq!(run_in(Some("RUB"), Some("RUB"), 400_000).unwrap().code, Code::ExplicitMax);
        assert_eq!(run_in(Some("RUB"), Some("RUB"), 200_000), None);
        assert_eq!(run_in(Some("RUB"), None, 400_000).unwrap().code, Code::ExplicitMax);
        assert_eq!(run_in(None, Some("USD"), 400_000).unwrap().code, Code::ExplicitMax);
    }

    fn words(facts: &Facts, cart: &Cart) -> Option<Finding> {
        findings(facts, cart, &SeverityRules::new(facts), CheckPolicy::Words)
    }

    fn cart_of(price: u64, currency: &str, charges: crate::cart::Charges) -> Cart {
        let item = Item {
            name: Some("Mixer".into()),
            price_cents: Some(price),
            currency: Some(currency.into()),
            ..Item::default()
        };
        Cart { entries: vec![CartEntry { item, quantity: 1 }], shipping: None, charges }
    }

    #[test]
    fn issue_29_the_limit_is_compared_with_what_is_paid() {
        let facts =
            Facts { explicit_max_cents: Some(20_000), explicit_max_currency: Some("USD".into()), ..Facts::default() };
        let taxed = crate::cart::Charges { currency: Some("USD".into()), tax: Some(1_600), ..Default::default() };
        let over = words(&facts, &cart_of(19_900, "USD", taxed.clone())).unwrap();
        assert_eq!((over.code, over.severity), (Code::ExplicitMax, Severity::Block));
        assert_eq!(
            over.reason,
            "Asked to spend at most 200.00 USD; the checkout charges 215.00 USD in all, 199.00 USD of it for the items."
        );
        // guard.md's rule (`spec`) compares the items alone.
        assert_eq!(
            findings(&facts, &cart_of(19_900, "USD", taxed), &SeverityRules::new(&facts), CheckPolicy::Spec),
            None
        );
        // A stated total is what is paid, discounts and all.
        let stated = crate::cart::Charges {
            currency: Some("USD".into()),
            total: Some(19_500),
            discount: Some(1_000),
            ..Default::default()
        };
        assert_eq!(words(&facts, &cart_of(20_500, "USD", stated)), None);
    }

    #[test]
    fn issue_29_a_limit_in_another_currency_asks_unless_a_rate_is_given() {
        let facts =
            Facts { explicit_max_cents: Some(40_000), explicit_max_currency: Some("EUR".into()), ..Facts::default() };
        let asked = words(&facts, &cart_of(90_000, "USD", Default::default())).unwrap();
        assert_eq!((asked.code, asked.severity), (Code::LimitCurrency, Severity::Block));
        assert!(asked.reason.contains("400.00 EUR") && asked.reason.contains("900.00 USD"), "{}", asked.reason);
        let rate = |text: &str| crate::cart::ExchangeRate::parse_spec(text, "--fx").unwrap();
        let with_rate = |spec: &str, price: u64| {
            words(
                &facts,
                &cart_of(price, "USD", crate::cart::Charges { rates: vec![rate(spec)], ..Default::default() }),
            )
        };
        let over = with_rate("USD:EUR=0.92@2026-11-01", 90_000).unwrap();
        assert_eq!((over.code, over.severity), (Code::ExplicitMax, Severity::Block));
        assert!(over.reason.contains("828.00 EUR") && over.reason.contains("1 USD = 0.92 EUR"), "{}", over.reason);
        assert_eq!(with_rate("USD:EUR=0.92@2026-11-01", 40_000), None, "368.00 EUR is within 400.00 EUR");
        assert_eq!(with_rate("EUR:USD=1.25@2026-11-01", 50_000), None, "the rate is read either way");
        assert_eq!(
            with_rate("GBP:EUR=1.15@2026-11-01", 100).unwrap().code,
            Code::LimitCurrency,
            "a rate of other currencies"
        );
        // A soft limit only warns.
        let soft =
            Facts { soft: [crate::facts::FieldRef::Shared(FieldName::ExplicitMaxCents)].into(), ..facts.clone() };
        assert_eq!(words(&soft, &cart_of(90_000, "USD", Default::default())).unwrap().severity, Severity::Warn);
    }

    #[test]
    fn a_total_beyond_u64_blocks() {
        let over = run(30000, &[(Some(u64::MAX / 2), "USD", 1), (Some(u64::MAX / 2), "USD", 3)]).unwrap();
        assert_eq!((over.code, over.severity), (Code::ExplicitMax, crate::finding::Severity::Block));
        assert!(matches!(over.actual, Compared::Total { total_minor: None, .. }));
        assert!(over.reason.contains("the cart totals more than"), "{}", over.reason);
    }
}
