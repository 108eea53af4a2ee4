//! `explicit-max`: the cart total is above the stated spending limit (equal
//! is within it). A limit is compared only with a total in one currency.

use serde_json::json;

use super::{Code, Finding, SeverityRules, Source, entry_path, money, unchecked};
use crate::cart::Cart;
use crate::facts::{Facts, FieldName};

pub fn findings(facts: &Facts, cart: &Cart, rules: &SeverityRules) -> Option<Finding> {
    let max = facts.explicit_max_cents?;
    let mut total: u64 = 0;
    let mut currency: Option<&str> = None;
    for (index, entry) in cart.entries.iter().enumerate() {
        let name = entry.item.display_name();
        let Some(price) = entry.item.price_cents else {
            return Some(unchecked(FieldName::ExplicitMaxCents, "price", json!(max), &name, entry_path(index), None));
        };
        match (currency, entry.item.currency.as_deref()) {
            (Some(seen), Some(this)) if seen != this => {
                let mut finding =
                    unchecked(FieldName::ExplicitMaxCents, "price", json!(max), &name, entry_path(index), None);
                finding.reason =
                    format!("Could not check the spending limit: the cart mixes {seen} and {this}: {name}.");
                return Some(finding);
            }
            (None, Some(this)) => currency = Some(this),
            _ => {}
        }
        // Bounded inputs make overflow impossible; checked arithmetic keeps it so.
        match price.checked_mul(entry.quantity).and_then(|cost| total.checked_add(cost)) {
            Some(sum) => total = sum,
            None => {
                let mut finding =
                    unchecked(FieldName::ExplicitMaxCents, "price", json!(max), &name, entry_path(index), None);
                finding.reason = "Could not check the spending limit: the cart total is out of range.".to_owned();
                return Some(finding);
            }
        }
    }
    if total <= max {
        return None;
    }
    Some(Finding {
        id: "explicit-max@$.cart".to_owned(),
        code: Code::ExplicitMax,
        severity: rules.severity(FieldName::ExplicitMaxCents, Source::Shared),
        field: FieldName::ExplicitMaxCents,
        line: None,
        path: "$.cart".to_owned(),
        expected: json!({ "total_at_most_minor": max }),
        actual: json!({ "total_minor": total, "currency": currency }),
        reason: format!("Asked to spend at most {}, the cart totals {}.", money(max, currency), money(total, currency)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::{CartEntry, Item};

    fn run(max: u64, entries: &[(Option<u64>, &str, u64)]) -> Option<Finding> {
        let facts = Facts { explicit_max_cents: Some(max), ..Facts::default() };
        let cart = Cart {
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
}
