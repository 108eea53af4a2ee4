//! `quantity`: the units in the cart, counted the way the person counts
//! (cans, not packs: quantity × units), differ from the stated quantity, more
//! or fewer. Without lines the whole cart is counted; with lines, each line.
//! A count that is one of the candidate counts (`quantity_any`) passes.
//! Under the `words` policy, a cart of one unit of one item passes too when
//! the item's name states the count asked as what it holds ("KD-14 Kids
//! Weekly Socks 6 PAIRS" for "6 pairs", "Pack of 6"): agents and shops seldom
//! state `units`, and a title that says the count is the person's count.

use super::{SeverityRules, Source, Target, unchecked};
use crate::cart::{Cart, CartEntry, Item};
use crate::facts::FieldName;
use crate::finding::{Code, Compared, Finding, cart_path};
use crate::messages::{Attribute, Counted, ItemName, Message};
use crate::words::class::COUNT_WORDS;

/// Units of the person's counting in one entry; `None` if the item does not
/// say how many units one cart unit holds. The bounds in `cart` keep the
/// product far from overflow; `checked_mul` keeps that a fact, not a hope.
pub fn entry_units(item: &Item, quantity: u64) -> Option<u64> {
    item.units.and_then(|units| units.checked_mul(quantity))
}

fn describe(entry: &CartEntry) -> Counted {
    Counted { quantity: entry.quantity, name: ItemName::of(&entry.item), units: entry.item.units }
}

/// The counts an item's name states as what one cart unit holds: a number
/// before a `@pack-count` word ("6 PAIRS", "10pcs", "12-Pack", "6 шт") or
/// after a `@pack-of` word and "of" ("Pack of 6", "Set of 4";
/// `extractors/words/count-words.txt`).
pub fn pack_counts(name: &str) -> Vec<u64> {
    let mut words: Vec<String> = Vec::new();
    for word in crate::normalize::words(name) {
        // "10pcs" is "10" and "pcs", as "10 pcs" is.
        let digits = word.chars().take_while(char::is_ascii_digit).count();
        if digits > 0 && digits < word.len() && word[digits..].chars().all(char::is_alphabetic) {
            words.push(word[..digits].to_owned());
            words.push(word[digits..].to_owned());
        } else {
            words.push(word);
        }
    }
    let number = |word: &str| -> Option<u64> {
        if word.is_empty() || !word.chars().all(|character| character.is_ascii_digit()) {
            return None;
        }
        word.parse().ok()
    };
    let mut counts = Vec::new();
    for (at, word) in words.iter().enumerate() {
        if let Some(count) = number(word)
            && words.get(at + 1).is_some_and(|next| COUNT_WORDS.has_mark(next, "pack-count"))
        {
            counts.push(count);
        }
        if COUNT_WORDS.has_mark(word, "pack-of")
            && words.get(at + 1).is_some_and(|next| next == "of")
            && let Some(count) = words.get(at + 2).and_then(|next| number(next))
        {
            counts.push(count);
        }
    }
    counts
}

/// Whether the cart is one unit of one item whose name states a count asked
/// as what it holds ([`pack_counts`]).
fn one_pack_of_the_count(target: &Target, cart: &Cart) -> bool {
    let [entry] = cart.entries.as_slice() else { return false };
    entry.quantity == 1
        && entry.item.units == Some(1)
        && entry
            .item
            .name
            .as_deref()
            .is_some_and(|name| pack_counts(name).into_iter().any(|count| count > 1 && target.quantity_fits(count)))
}

/// The whole-cart quantity check (no lines); `read_packs` under the `words`
/// policy only (`one_pack_of_the_count`).
pub fn cart_findings(target: &Target, cart: &Cart, rules: &SeverityRules, read_packs: bool) -> Option<Finding> {
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
    if target.quantity_fits(total) || (read_packs && one_pack_of_the_count(target, cart)) {
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
        cart_findings(&Target::shared(&facts), &cart(entries), &SeverityRules::new(&facts), true)
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
        let run = |entries: &[(Option<u64>, u64)]| cart_findings(&Target::shared(&facts), &cart(entries), &rules, true);
        assert_eq!(run(&[(Some(3), 2)]), None, "two packs of three is six, a candidate");
        assert_eq!(run(&[(Some(1), 2)]), None);
        let none = run(&[(Some(1), 4)]).unwrap();
        assert_eq!((none.code, none.severity), (Code::Quantity, Severity::Block));
        assert_eq!(none.expected, Compared::AnyCount { any_of: vec![2, 6] });
        assert_eq!(none.reason, "Asked for 2 or 6, the cart has 4: 4 × Dunlop ATP balls.");
        let disputed = Facts { disputed: [FieldName::Quantity.into()].into_iter().collect(), ..facts.clone() };
        let relaxed =
            cart_findings(&Target::shared(&disputed), &cart(&[(Some(1), 4)]), &SeverityRules::new(&disputed), true)
                .unwrap();
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

    #[test]
    fn a_title_that_states_the_count_asked_is_the_person_s_count() {
        // lookalikes3-recurring-03 (datasets/fees): a ShoppingBench title.
        assert_eq!(pack_counts("KD-14 Kids Weekly Socks 6 PAIRS (Medium)"), vec![6]);
        assert_eq!(pack_counts("Gel Pens, Pack of 12, 10pcs refills"), vec![12, 10]);
        assert_eq!(pack_counts("Носки мужские 5 пар"), vec![5]);
        assert!(pack_counts("Nike Pegasus 41 size 42").is_empty() && pack_counts("iPhone 15 Pro case").is_empty());
        let socks = |quantity: u64, units: Option<u64>| Cart {
            shipping: None,
            charges: Default::default(),
            entries: vec![CartEntry {
                item: Item { name: Some("KD-14 Kids Weekly Socks 6 PAIRS (Medium)".into()), units, ..Item::default() },
                quantity,
            }],
        };
        let facts = |wanted: u64| Facts { quantity: Some(wanted), ..Facts::default() };
        let check = |wanted: u64, cart: &Cart, read_packs: bool| {
            cart_findings(&Target::shared(&facts(wanted)), cart, &SeverityRules::new(&facts(wanted)), read_packs)
        };
        assert_eq!(check(6, &socks(1, Some(1)), true), None, "one pack of 6 pairs is 6 pairs");
        assert_eq!(check(6, &socks(1, Some(1)), false).unwrap().code, Code::Quantity, "not under `spec`");
        assert_eq!(check(6, &socks(6, Some(1)), true), None, "six of them, as before");
        assert_eq!(check(2, &socks(1, Some(1)), true).unwrap().code, Code::Quantity, "2 packs asked, 1 in the cart");
        assert_eq!(check(12, &socks(2, Some(1)), true).unwrap().code, Code::Quantity, "only one unit of one item");
        assert_eq!(check(6, &socks(1, Some(3)), true).unwrap().code, Code::Quantity, "stated units stand");
    }
}
