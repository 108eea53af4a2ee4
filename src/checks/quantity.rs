//! `quantity`: the units in the cart, counted the way the person counts
//! (cans, not packs: quantity × units), differ from the stated quantity, more
//! or fewer. Without lines the whole cart is counted; with lines, each line.
//! A count that is one of the candidate counts (`quantity_any`) passes.

use super::{SeverityRules, Source, Target, unchecked};
use crate::cart::{Cart, CartEntry, Item};
use crate::facts::FieldName;
use crate::finding::{Code, Compared, Finding, cart_path};
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
    target.quantity?;
    let expected = Compared::any_count(&target.quantities());
    let mut total: u64 = 0;
    for (index, entry) in cart.entries.iter().enumerate() {
        match entry_units(&entry.item, entry.quantity).and_then(|units| total.checked_add(units)) {
            Some(sum) => total = sum,
            None => {
                return Some(unchecked(
                    FieldName::Quantity,
                    Attribute::Units,
                    expected,
                    ItemName::of(&entry.item),
                    index,
                    None,
                ));
            }
        }
    }
    if target.quantity_fits(total) {
        return None;
    }
    let entries: Vec<Counted> = cart.entries.iter().map(describe).collect();
    Some(
        Finding {
            id: "quantity@$.cart".to_owned(),
            code: Code::Quantity,
            severity: target.quantity_severity(rules),
            field: FieldName::Quantity,
            line: None,
            path: "$.cart".to_owned(),
            entry: None,
            expected,
            actual: Compared::Count(total),
            reason: String::new(),
            message: None,
        }
        .say(Message::Quantity { wanted: target.quantities(), actual: total, entries }),
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
    let expected = Compared::any_count(&target.quantities());
    let Some(units) = entry_units(&entry.item, entry.quantity) else {
        return Some(unchecked(
            FieldName::Quantity,
            Attribute::Units,
            expected,
            ItemName::of(&entry.item),
            index,
            line,
        ));
    };
    if target.quantity_fits(units) {
        return None;
    }
    Some(
        Finding {
            id: format!("quantity@{path}"),
            code: Code::Quantity,
            severity: target.quantity_severity(rules),
            field: FieldName::Quantity,
            line,
            path,
            entry: Some(index),
            expected,
            actual: Compared::Count(units),
            reason: String::new(),
            message: None,
        }
        .say(Message::Quantity { wanted: target.quantities(), actual: units, entries: vec![describe(entry)] }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::Facts;
    use crate::finding::Severity;

    fn cart(entries: &[(Option<u64>, u64)]) -> Cart {
        Cart {
            shipping: None,
            charges: Default::default(),
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
        assert_eq!(
            (more.code, more.severity, more.actual.clone()),
            (Code::Quantity, Severity::Block, Compared::Count(8))
        );
        assert_eq!(more.reason, "Asked for 4, the cart has 8: 2 × Dunlop ATP balls (4 each).");
        assert_eq!(run(4, &[(Some(1), 3)]).unwrap().code, Code::Quantity, "fewer is a finding too");
        assert_eq!(run(4, &[(None, 4)]).unwrap().code, Code::Unchecked);
    }

    #[test]
    fn candidate_counts_pass_one_and_block_on_none_even_when_soft() {
        let facts = Facts {
            quantity: Some(2),
            quantity_any: vec![6],
            soft: [FieldName::Quantity.into()].into_iter().collect(),
            ..Facts::default()
        };
        let rules = SeverityRules::new(&facts);
        let run = |entries: &[(Option<u64>, u64)]| cart_findings(&Target::shared(&facts), &cart(entries), &rules);
        assert_eq!(run(&[(Some(3), 2)]), None, "two packs of three is six, a candidate");
        assert_eq!(run(&[(Some(1), 2)]), None);
        let none = run(&[(Some(1), 4)]).unwrap();
        assert_eq!((none.code, none.severity), (Code::Quantity, Severity::Block));
        assert_eq!(none.expected, Compared::AnyCount { any_of: vec![2, 6] });
        assert_eq!(none.reason, "Asked for 2 or 6, the cart has 4: 4 × Dunlop ATP balls.");
        let disputed = Facts { disputed: [FieldName::Quantity.into()].into_iter().collect(), ..facts.clone() };
        let relaxed =
            cart_findings(&Target::shared(&disputed), &cart(&[(Some(1), 4)]), &SeverityRules::new(&disputed)).unwrap();
        assert_eq!(relaxed.severity, Severity::Warn, "a dispute still relaxes, as for every alternative");
    }

    #[test]
    fn a_lines_own_candidates_pass_one_and_block_on_none() {
        let facts = Facts {
            lines: vec![crate::facts::Line { quantity: Some(1), quantity_any: vec![2], ..Default::default() }],
            ..Facts::default()
        };
        let rules = SeverityRules::new(&facts);
        let target = Target::shared(&facts).for_line(0, &facts.lines[0]);
        let entry = |quantity| CartEntry { item: Item { units: Some(1), ..Item::default() }, quantity };
        assert_eq!(entry_finding(&target, &entry(2), 0, &rules), None);
        let none = entry_finding(&target, &entry(3), 0, &rules).unwrap();
        assert_eq!(
            (none.expected.clone(), none.severity, none.line),
            (Compared::AnyCount { any_of: vec![1, 2] }, Severity::Block, Some(0))
        );
    }

    #[test]
    fn a_lines_own_quantity_replaces_the_candidates() {
        let facts = Facts { quantity: Some(2), quantity_any: vec![6], ..Facts::default() };
        let target =
            Target::shared(&facts).for_line(0, &crate::facts::Line { quantity: Some(1), ..Default::default() });
        let entry = CartEntry { item: Item { units: Some(1), ..Item::default() }, quantity: 6 };
        let finding = entry_finding(&target, &entry, 0, &SeverityRules::new(&facts)).unwrap();
        assert_eq!((finding.expected.clone(), finding.severity), (Compared::Count(1), Severity::Block));
    }
}
