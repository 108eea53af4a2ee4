//! `recurring` (issue 29; the `words` check policy only): an item whose own
//! words say its charge recurs ("Subscribe & Save", "auto-renews", "billed
//! monthly", "подписка", "автопродление") or that it is a trial turning
//! paid ("free trial, then $9.99/month") blocks unless the request asked
//! for a recurring delivery or a subscription (`words::charges::asked`);
//! one asked for with a period ("a monthly delivery of …") blocks when the
//! item names another period. The item's words: its name, description,
//! category, variant options and attributes (UCP and ACP carry no field
//! for a recurring charge; their words are read).

use crate::cart::{Cart, Item};
use crate::facts::{Facts, FieldName};
use crate::finding::{Code, Compared, Finding, Severity, cart_path};
use crate::messages::{ItemName, Message};
use crate::words::charges::{self, Recurring};

/// The item's texts its charge is read from: its name, description,
/// category, variant options and attributes.
pub fn texts(item: &Item) -> Vec<String> {
    let words = &item.words;
    let named = |named: &crate::cart::NamedValue| format!("{}: {}", named.name, named.value);
    item.name
        .iter()
        .chain(words.description.iter())
        .chain(words.category.iter())
        .cloned()
        .chain(words.options.iter().map(named))
        .chain(words.attributes.iter().map(named))
        .collect()
}

/// What the item's words say of a recurring charge, from the first of its
/// texts that says one; the period from any of them when that one names none.
pub fn of_item(item: &Item) -> Option<Recurring> {
    let texts = texts(item);
    let mut found = texts.iter().find_map(|text| charges::recurring(text))?;
    if found.period.is_none() {
        found.period = texts.iter().find_map(|text| charges::period(&charges::tokens(text)));
    }
    Some(found)
}

pub fn findings(facts: &Facts, cart: &Cart) -> Vec<Finding> {
    cart.entries
        .iter()
        .enumerate()
        .filter_map(|(index, entry)| {
            let found = of_item(&entry.item)?;
            let item = ItemName::of(&entry.item);
            let message = match facts.asked.recurring {
                None => Message::Recurring { said: found.said.clone(), trial: found.trial, item },
                Some(Some(wanted)) => match found.period {
                    Some(period) if period != wanted => Message::RecurringPeriod { wanted, found: period, item },
                    _ => return None,
                },
                Some(None) => return None,
            };
            let path = cart_path(Some(index));
            Some(
                Finding {
                    id: format!("{}@{path}", Code::Recurring),
                    code: Code::Recurring,
                    severity: Severity::Block,
                    field: FieldName::Other,
                    line: None,
                    path,
                    entry: Some(index),
                    expected: Compared::Nothing,
                    actual: Compared::Text(found.said),
                    reason: String::new(),
                    message: None,
                }
                .say(message),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::{CartEntry, ItemWords, NamedValue};
    use crate::words::charges::asked;

    fn cart(name: &str, words: ItemWords) -> Cart {
        let item = Item { name: Some(name.into()), words, ..Item::default() };
        Cart { entries: vec![CartEntry { item, quantity: 1 }], shipping: None, charges: Default::default() }
    }

    #[test]
    fn a_subscription_not_asked_for_blocks_quoting_its_words() {
        let facts = Facts { asked: asked("Nike Pegasus 41 in black, size 42, under 200 dollars"), ..Facts::default() };
        let found =
            findings(&facts, &cart("Nike Pegasus 41 - Subscribe & Save: auto-renews monthly", ItemWords::default()));
        assert_eq!((found.len(), found[0].severity, found[0].id.as_str()), (1, Severity::Block, "recurring@$.cart[0]"));
        assert_eq!(
            found[0].reason,
            "\u{201c}Nike Pegasus 41 - Subscribe & Save: auto-renews monthly\u{201d} is a recurring charge (\u{201c}Subscribe & Save\u{201d}), which you did not ask for."
        );
        let attributes = ItemWords {
            attributes: vec![NamedValue::new("Billing", "Free trial, then $9.99/month")],
            ..ItemWords::default()
        };
        let trial = findings(&facts, &cart("Streaming box", attributes));
        assert!(trial[0].reason.contains("a trial that turns into a paid charge"), "{}", trial[0].reason);
        assert!(findings(&facts, &cart("Nike Pegasus 41", ItemWords::default())).is_empty());
    }

    #[test]
    fn one_asked_for_passes_unless_its_period_is_another() {
        let monthly = Facts { asked: asked("a monthly delivery of Lavazza coffee beans"), ..Facts::default() };
        let item = "Lavazza Super Crema beans - Subscribe & Save, delivered every month";
        assert!(findings(&monthly, &cart(item, ItemWords::default())).is_empty());
        let weekly = findings(&monthly, &cart("Lavazza beans, billed weekly", ItemWords::default()));
        assert_eq!(
            weekly[0].reason,
            "You asked for a monthly delivery; \u{201c}Lavazza beans, billed weekly\u{201d} renews every week."
        );
        let any = Facts { asked: asked("Lavazza beans on subscription"), ..Facts::default() };
        assert!(findings(&any, &cart("Lavazza beans, billed weekly", ItemWords::default())).is_empty());
    }
}
