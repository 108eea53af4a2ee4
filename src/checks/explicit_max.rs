//! `explicit-max`: the cart total is above the stated spending limit (equal
//! is within it). A limit is compared only with a total in one currency, and,
//! when the person named the limit's currency (`explicit_max_currency`, an
//! extension), only with a total in that currency: 3000 roubles say nothing
//! about a cart of 40 dollars. A cart that names no currency is compared as
//! guard.md does, by the number.

use super::{SeverityRules, Source, unchecked};
use crate::cart::Cart;
use crate::facts::{Facts, FieldName};
use crate::finding::{Code, Compared, Finding, Severity};
use crate::messages::{Attribute, ItemName, Message, Money};

pub fn findings(facts: &Facts, cart: &Cart, rules: &SeverityRules) -> Option<Finding> {
    let max = facts.explicit_max_cents?;
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

/// The finding for a total above the limit; `None`: beyond u64.
fn above(max: u64, total: Option<u64>, currency: Option<&str>, rules: &SeverityRules) -> Finding {
    Finding {
        id: "explicit-max@$.cart".to_owned(),
        code: Code::ExplicitMax,
        severity: rules.severity(FieldName::ExplicitMaxCents, Source::Shared),
        field: FieldName::ExplicitMaxCents,
        line: None,
        path: "$.cart".to_owned(),
        entry: None,
        expected: Compared::Limit { total_at_most_minor: max },
        actual: Compared::Total { currency: currency.map(str::to_owned), total_minor: total },
        reason: String::new(),
        message: None,
    }
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
            entries: entries
                .iter()
                .map(|(price, currency, quantity)| CartEntry {
                    item: Item { price_cents: *price, currency: Some(currency.to_string()), ..Item::default() },
                    quantity: *quantity,
                })
                .collect(),
        };
        findings(&facts, &cart, &SeverityRules::new(&facts))
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
            let cart = Cart { shipping: None, entries: vec![CartEntry { item, quantity: 1 }] };
            findings(&facts, &cart, &SeverityRules::new(&facts))
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

    #[test]
    fn a_total_beyond_u64_blocks() {
        let over = run(30000, &[(Some(u64::MAX / 2), "USD", 1), (Some(u64::MAX / 2), "USD", 3)]).unwrap();
        assert_eq!((over.code, over.severity), (Code::ExplicitMax, crate::finding::Severity::Block));
        assert!(matches!(over.actual, Compared::Total { total_minor: None, .. }));
        assert!(over.reason.contains("the cart totals more than"), "{}", over.reason);
    }
}
