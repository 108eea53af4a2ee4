//! `quantity`: the units in the cart, counted the way the person counts
//! (cans, not packs: quantity × units), differ from the stated quantity, more
//! or fewer. Without lines the whole cart is counted; with lines, each line.

use serde_json::json;

use super::{SeverityRules, Source, Target, unchecked};
use crate::cart::{Cart, CartEntry, Item};
use crate::facts::FieldName;
use crate::finding::{Code, Finding, cart_path};
use crate::messages::{Attribute, Counted, ItemName, Message};

/// Units of the person's counting in one entry; `None` if the item does not
/// say how many units one cart unit holds. The bounds in `cart` keep the
/// product far from overflow; `checked_mul` keeps that a fact, not a hope.
pub fn entry_units(item: &Item, quantity: u64) -> Option<u64> {
    item.units.and_then(|units| units.checked_mul(quantity))
}

fn describe(entry: &CartEntry) -> Counted {
    Counted { quantity: entry.quantity, name: ItemName::of(&entry.item), units: entry.item.units }
}

/// The whole-cart quantity check (no lines).
pub fn cart_findings(target: &Target, cart: &Cart, rules: &SeverityRules) -> Option<Finding> {
    let wanted = target.quantity?;
    let mut total: u64 = 0;
    for (index, entry) in cart.entries.iter().enumerate() {
        match entry_units(&entry.item, entry.quantity).and_then(|units| total.checked_add(units)) {
            Some(sum) => total = sum,
            None => {
                return Some(unchecked(
                    FieldName::Quantity,
                    Attribute::Units,
                    json!(wanted.units),
                    ItemName::of(&entry.item),
                    index,
                    None,
                ));
            }
        }
    }
    if total == wanted.units {
        return None;
    }
    let entries: Vec<Counted> = cart.entries.iter().map(describe).collect();
    Some(
        Finding {
            id: "quantity@$.cart".to_owned(),
            code: Code::Quantity,
            severity: rules.severity(FieldName::Quantity, Source::Shared),
            field: FieldName::Quantity,
            line: None,
            path: "$.cart".to_owned(),
            entry: None,
            expected: json!(wanted.units),
            actual: json!(total),
            reason: String::new(),
            message: None,
        }
        .say(Message::Quantity { wanted: wanted.units, actual: total, entries }),
    )
}

/// The per-line quantity check of one assigned entry.
pub fn entry_finding(target: &Target, entry: &CartEntry, index: usize, rules: &SeverityRules) -> Option<Finding> {
    let wanted = target.quantity?;
    let line = match wanted.source {
        Source::Line(line) => Some(line),
        Source::Shared => target.line,
    };
    let path = cart_path(Some(index));
    let Some(units) = entry_units(&entry.item, entry.quantity) else {
        return Some(unchecked(
            FieldName::Quantity,
            Attribute::Units,
            json!(wanted.units),
            ItemName::of(&entry.item),
            index,
            line,
        ));
    };
    if units == wanted.units {
        return None;
    }
    Some(
        Finding {
            id: format!("quantity@{path}"),
            code: Code::Quantity,
            severity: rules.severity(FieldName::Quantity, wanted.source),
            field: FieldName::Quantity,
            line,
            path,
            entry: Some(index),
            expected: json!(wanted.units),
            actual: json!(units),
            reason: String::new(),
            message: None,
        }
        .say(Message::Quantity { wanted: wanted.units, actual: units, entries: vec![describe(entry)] }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::Facts;
    use crate::finding::Severity;

    fn cart(entries: &[(Option<u64>, u64)]) -> Cart {
        Cart {
            entries: entries
                .iter()
                .map(|(units, quantity)| CartEntry {
                    item: Item { name: Some("Dunlop ATP balls".into()), units: *units, ..Item::default() },
                    quantity: *quantity,
                })
                .collect(),
        }
    }

    fn run(wanted: u64, entries: &[(Option<u64>, u64)]) -> Option<Finding> {
        let facts = Facts { quantity: Some(wanted), ..Facts::default() };
        cart_findings(&Target::shared(&facts), &cart(entries), &SeverityRules::new(&facts))
    }

    #[test]
    fn units_are_counted_as_the_person_counts() {
        assert_eq!(run(4, &[(Some(4), 1)]), None, "one 4-can box is four cans");
        assert_eq!(run(4, &[(Some(1), 4)]), None);
        assert_eq!(run(4, &[(Some(1), 2), (Some(2), 1)]), None);
        let more = run(4, &[(Some(4), 2)]).unwrap();
        assert_eq!((more.code, more.severity, more.actual.clone()), (Code::Quantity, Severity::Block, json!(8)));
        assert_eq!(more.reason, "Asked for 4, the cart has 8: 2 × Dunlop ATP balls (4 each).");
        assert_eq!(run(4, &[(Some(1), 3)]).unwrap().code, Code::Quantity, "fewer is a finding too");
        assert_eq!(run(4, &[(None, 4)]).unwrap().code, Code::Unchecked);
    }
}
