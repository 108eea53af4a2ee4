//! `other`: free-text requirements. Each must-have (`other`) is put to the
//! person (block, unless soft or disputed); each nice-to-have
//! (`other_optional`) is a note. Under [`CheckPolicy::Words`] a must-have
//! that one item's own words say (`words::requirement`) is a note quoting
//! them instead of a question: the person already asked for what the item
//! says it is.

use super::{CheckPolicy, SeverityRules, Source};
use crate::cart::{Cart, Item};
use crate::facts::{Facts, FieldName};
use crate::finding::{Code, Compared, Finding, Severity};
use crate::messages::{ItemName, Message};
use crate::words::requirement;

pub fn findings(facts: &Facts, cart: &Cart, rules: &SeverityRules, policy: CheckPolicy) -> Vec<Finding> {
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
        if policy == CheckPolicy::Words
            && let Some((item, said)) = cart
                .entries
                .iter()
                .find_map(|entry| requirement::said(text, &item_texts(&entry.item)).map(|said| (&entry.item, said)))
        {
            let message = Message::OtherSaid { text: text.clone(), said: said.quote.clone(), item: ItemName::of(item) };
            let mut note = finding(FieldName::Other, index, text, Severity::Warn, message);
            note.actual = Compared::Text(said.quote);
            return note;
        }
        let severity = rules.severity(FieldName::Other, Source::Shared);
        finding(FieldName::Other, index, text, severity, Message::Other { text: text.clone(), items: names.clone() })
    });
    let optional = facts.other_optional.iter().enumerate().map(|(index, text)| {
        let message = Message::OtherOptional { text: text.clone(), items: names.clone() };
        finding(FieldName::OtherOptional, index, text, Severity::Warn, message)
    });
    must.chain(optional).collect()
}

/// The texts of an item that can say what a requirement asks: its name,
/// the attributes the guard reads, and the item's own words (description,
/// category, options and attributes with their names, tags).
pub fn item_texts(item: &Item) -> Vec<&str> {
    let words = &item.words;
    [&item.name, &item.brand, &item.color, &item.size, &words.description, &words.category]
        .into_iter()
        .filter_map(|text| text.as_deref())
        .chain(
            words.options.iter().chain(&words.attributes).flat_map(|named| [named.name.as_str(), named.value.as_str()]),
        )
        .chain(words.tags.iter().map(String::as_str))
        .collect()
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
            shipping: None,
            entries: vec![CartEntry { item: Item { name: Some("Crackers".into()), ..Item::default() }, quantity: 1 }],
        };
        let found = findings(&facts, &cart, &SeverityRules::new(&facts), CheckPolicy::Spec);
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
        assert_eq!(
            findings(&disputed, &cart, &SeverityRules::new(&disputed), CheckPolicy::Spec)[0].severity,
            Severity::Warn
        );
    }

    #[test]
    fn a_requirement_the_items_words_say_is_a_note_unless_under_spec() {
        let facts = Facts { other: vec!["made of denim".into(), "organic".into()], ..Facts::default() };
        let item = Item { name: Some("Women's High Waist Straight Denim Jeans".into()), ..Item::default() };
        let cart = Cart { shipping: None, entries: vec![CartEntry { item, quantity: 1 }] };
        let rules = SeverityRules::new(&facts);
        let found = findings(&facts, &cart, &rules, CheckPolicy::Words);
        let severities: Vec<_> = found.iter().map(|finding| finding.severity).collect();
        assert_eq!(severities, vec![Severity::Warn, Severity::Block], "denim is said, organic is not");
        assert_eq!(
            found[0].reason,
            "\u{201c}made of denim\u{201d}: the item says \u{201c}Denim\u{201d} (Women's High Waist Straight Denim Jeans)."
        );
        assert_eq!(found[0].actual, Compared::Text("Denim".into()));
        let spec = findings(&facts, &cart, &rules, CheckPolicy::Spec);
        assert!(spec.iter().all(|finding| finding.severity == Severity::Block));
    }
}
