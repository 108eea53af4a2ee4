//! `other`: free-text requirements the guard cannot check against an item.
//! Each must-have (`other`) is put to the person (block, unless soft or
//! disputed); each nice-to-have (`other_optional`) is a note.

use super::{SeverityRules, Source};
use crate::cart::Cart;
use crate::facts::{Facts, FieldName};
use crate::finding::{Code, Compared, Finding, Severity};
use crate::messages::{ItemName, Message};

pub fn findings(facts: &Facts, cart: &Cart, rules: &SeverityRules) -> Vec<Finding> {
    let names: Vec<ItemName> = cart.entries.iter().map(|entry| ItemName::of(&entry.item)).collect();
    // One finding per requirement, on the whole cart: nothing in an item
    // can show that it meets free text.
    let finding = |field: FieldName, index: usize, text: &String, severity: Severity, message: Message| {
        Finding {
            id: format!("{}[{index}]@$.cart", field.as_str()),
            code: Code::Other,
            severity,
            field,
            line: None,
            path: "$.cart".to_owned(),
            entry: None,
            expected: Compared::Text(text.clone()),
            actual: Compared::Nothing,
            reason: String::new(),
            message: None,
        }
        .say(message)
    };
    let must = facts.other.iter().enumerate().map(|(index, text)| {
        let severity = rules.severity(FieldName::Other, Source::Shared);
        finding(FieldName::Other, index, text, severity, Message::Other { text: text.clone(), items: names.clone() })
    });
    let optional = facts.other_optional.iter().enumerate().map(|(index, text)| {
        let message = Message::OtherOptional { text: text.clone(), items: names.clone() };
        finding(FieldName::OtherOptional, index, text, Severity::Warn, message)
    });
    must.chain(optional).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::{CartEntry, Item};

    #[test]
    fn must_haves_block_and_nice_to_haves_warn() {
        let facts =
            Facts { other: vec!["gluten-free".into()], other_optional: vec!["gift wrap".into()], ..Facts::default() };
        let cart = Cart {
            entries: vec![CartEntry { item: Item { name: Some("Crackers".into()), ..Item::default() }, quantity: 1 }],
        };
        let found = findings(&facts, &cart, &SeverityRules::new(&facts));
        let severities: Vec<_> = found.iter().map(|finding| (finding.id.as_str(), finding.severity)).collect();
        assert_eq!(
            severities,
            vec![("other[0]@$.cart", Severity::Block), ("other_optional[0]@$.cart", Severity::Warn)]
        );
        // Issue 13: in the agent's voice, as the question is, not "the guard".
        assert_eq!(
            found[0].reason,
            "Asked for \u{201c}gluten-free\u{201d}, which I cannot check against the item: Crackers."
        );
        let disputed = Facts { disputed: [FieldName::Other.into()].into(), ..facts };
        assert_eq!(findings(&disputed, &cart, &SeverityRules::new(&disputed))[0].severity, Severity::Warn);
    }
}
