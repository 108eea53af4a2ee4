//! `price`: the person asked for something cheap, the cart holds one entry,
//! and an allowed item that fits every stated fact costs more than 15% less.
//!
//! A heuristic by design (guard.md §9): "cheap" is only compared within items
//! that fit everything else, with a fixed threshold, so a cheaper item of the
//! wrong colour never makes the cart look expensive.

use super::{ItemRule, PreparedItem, SeverityRules, Source, Status, Target, unchecked};
use crate::cart::{Cart, Item};
use crate::checks::quantity::entry_units;
use crate::facts::{Facts, FieldName, PricePreference};
use crate::finding::{Code, Compared, Finding, cart_path};
use crate::messages::{Attribute, ItemName, Message, Money};

/// "More than 15% cheaper": `alternative < 0.85 × cart`, in integers.
const THRESHOLD_PERCENT: u128 = 85;

pub fn findings(
    facts: &Facts,
    cart: &Cart,
    allowed: &[Item],
    entry_targets: &[Option<Target>],
    rules: &SeverityRules,
) -> Option<Finding> {
    if facts.price_preference != Some(PricePreference::Cheap) || cart.entries.len() != 1 {
        return None;
    }
    let entry = &cart.entries[0];
    let name = ItemName::of(&entry.item);
    let Some(price) = entry.item.price_cents else {
        return Some(unchecked(
            FieldName::PricePreference,
            Attribute::Price,
            Compared::Text("cheap".to_owned()),
            name,
            0,
            None,
        ));
    };
    let shared;
    let target = match entry_targets.first().and_then(Option::as_ref) {
        Some(target) => target,
        None => {
            shared = Target::shared(facts);
            &shared
        }
    };
    let cheapest = allowed
        .iter()
        .filter(|alternative| !same_item(alternative, &entry.item))
        // The integer comparison first: it rules out most items before any
        // text of theirs is normalised.
        .filter(|alternative| is_much_cheaper(alternative, &entry.item, price))
        .filter(|alternative| fits(facts, target, alternative, entry.quantity, entry.item.currency.as_deref()))
        .min_by(|left, right| compare_per_unit(left, right))?;
    let alternative_price = cheapest.price_cents?;
    let currency = entry.item.currency.as_deref();
    Some(
        Finding {
            id: "price@$.cart[0]".to_owned(),
            code: Code::Price,
            severity: rules.severity(FieldName::PricePreference, Source::Shared),
            field: FieldName::PricePreference,
            line: target.line,
            path: cart_path(Some(0)),
            entry: Some(0),
            expected: Compared::CheaperItem {
                cheaper_item: cheapest.id.clone().unwrap_or_else(|| cheapest.display_name()),
                price_minor: alternative_price,
            },
            actual: Compared::Price { price_minor: price },
            reason: String::new(),
            message: None,
        }
        .say(Message::Price {
            cheaper: ItemName::of(cheapest),
            cheaper_price: Money::new(alternative_price, currency),
            price: Money::new(price, currency),
            item: name,
        }),
    )
}

fn same_item(left: &Item, right: &Item) -> bool {
    match (&left.id, &right.id) {
        (Some(left_id), Some(right_id)) => left_id == right_id,
        _ => left == right,
    }
}

/// Whether `alternative` would raise no finding at all in place of the cart's
/// entry, with the same quantity.
fn fits(facts: &Facts, target: &Target, alternative: &Item, quantity: u64, currency: Option<&str>) -> bool {
    if alternative.currency.as_deref() != currency {
        return false;
    }
    let Some(price) = alternative.price_cents else { return false };
    let prepared = PreparedItem::new(alternative);
    if ItemRule::ALL.into_iter().any(|rule| rule.status(target, &prepared) != Status::Pass) {
        return false;
    }
    if let Some(wanted) = target.quantity
        && entry_units(alternative, quantity) != Some(wanted.units)
    {
        return false;
    }
    match facts.explicit_max_cents {
        Some(max) => price.checked_mul(quantity).is_some_and(|total| total <= max),
        None => true,
    }
}

/// Compares per unit of the person's counting when both items say how many
/// units a cart unit holds, else per cart unit.
fn is_much_cheaper(alternative: &Item, item: &Item, price: u64) -> bool {
    let Some(alternative_price) = alternative.price_cents else { return false };
    let (alternative_units, item_units) = match (alternative.units, item.units) {
        (Some(alternative_units), Some(item_units)) => (u128::from(alternative_units), u128::from(item_units)),
        _ => (1, 1),
    };
    u128::from(alternative_price) * item_units * 100 < u128::from(price) * alternative_units * THRESHOLD_PERCENT
}

/// Orders items by price per unit without division (cross-multiplied);
/// `min_by` keeps the first of equal items, so ties follow the allowed list.
fn compare_per_unit(left: &Item, right: &Item) -> std::cmp::Ordering {
    let price = |item: &Item| u128::from(item.price_cents.unwrap_or(u64::MAX));
    let units = |item: &Item| u128::from(item.units.unwrap_or(1).max(1));
    (price(left) * units(right)).cmp(&(price(right) * units(left)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::CartEntry;

    fn item(id: &str, colour: &str, price: u64) -> Item {
        Item {
            id: Some(id.into()),
            name: Some(format!("Racket {id}")),
            color: Some(colour.into()),
            price_cents: Some(price),
            currency: Some("EUR".into()),
            units: Some(1),
            ..Item::default()
        }
    }

    fn run(cart_items: Vec<Item>, allowed: Vec<Item>) -> Option<Finding> {
        let facts =
            Facts { color: Some("blue".into()), price_preference: Some(PricePreference::Cheap), ..Facts::default() };
        let cart = Cart {
            shipping: None,
            charges: Default::default(),
            entries: cart_items.into_iter().map(|item| CartEntry { item, quantity: 1 }).collect(),
        };
        findings(&facts, &cart, &allowed, &[], &SeverityRules::new(&facts))
    }

    #[test]
    fn a_much_cheaper_fitting_item_is_a_finding() {
        let chosen = item("a", "Blue", 10000);
        let finding = run(vec![chosen.clone()], vec![chosen.clone(), item("b", "Blue", 8499)]).unwrap();
        assert_eq!(finding.code, Code::Price);
        assert!(finding.reason.contains("84.99 EUR against 100.00 EUR"), "{}", finding.reason);
        assert_eq!(run(vec![chosen.clone()], vec![item("b", "Blue", 8500)]), None, "exactly 15% is not more than 15%");
        assert_eq!(
            run(vec![chosen.clone()], vec![item("b", "Red", 5000)]),
            None,
            "a cheaper wrong colour does not fit"
        );
        assert_eq!(run(vec![chosen.clone()], vec![]), None, "no allowed items: only the cart's own");
        assert_eq!(
            run(vec![chosen.clone(), item("c", "Blue", 9000)], vec![item("b", "Blue", 10)]),
            None,
            "two entries"
        );
    }
}
