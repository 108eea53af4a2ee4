//! `addon` (issue 29; the `words` check policy only): a cart line that is
//! an add-on rather than a product (a warranty, a protection plan,
//! insurance, a donation, a tip, gift wrap: `words::charges::addon`, which
//! reads the line's name as the add-on only when the phrase is its head,
//! never a product that merely has such a word in its name), beside at
//! least one line that is not, and not named by the request ("with gift
//! wrap", "and a 2-year warranty") blocks with `remove_item`.
//!
//! An add-on line is not one of the things asked for: `decision::run_under`
//! checks the other lines as the order and this line only here, so a
//! protection plan is reported as what it is, not as a wrong model.

use crate::cart::Cart;
use crate::facts::{Facts, FieldName};
use crate::finding::{Code, Compared, Finding, Severity, cart_path};
use crate::messages::{ItemName, Message};
use crate::words::charges::{self, Addon};

/// The add-on lines of a cart, each entry's index and the add-on its name
/// is; none when every line is one (then they are what was bought).
pub fn lines(cart: &Cart) -> Vec<(usize, Addon)> {
    let found: Vec<(usize, Addon)> = cart
        .entries
        .iter()
        .enumerate()
        .filter_map(|(index, entry)| entry.item.name.as_deref().and_then(charges::addon).map(|phrase| (index, phrase)))
        .collect();
    if found.len() == cart.entries.len() { Vec::new() } else { found }
}

pub fn findings(facts: &Facts, cart: &Cart, addons: &[(usize, Addon)]) -> Vec<Finding> {
    addons
        .iter()
        .filter(|(_, found)| !charges::addon_asked(found, &facts.asked))
        .map(|(index, found)| {
            let path = cart_path(Some(*index));
            Finding {
                id: format!("{}@{path}", Code::Addon),
                code: Code::Addon,
                severity: Severity::Block,
                field: FieldName::Other,
                line: None,
                path,
                entry: Some(*index),
                expected: Compared::Nothing,
                actual: Compared::Text(found.said.clone()),
                reason: String::new(),
                message: None,
            }
            .say(Message::Addon { item: ItemName::of(&cart.entries[*index].item) })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::{CartEntry, Item};
    use crate::words::charges::asked;

    fn cart(names: &[&str]) -> Cart {
        let entries = names
            .iter()
            .map(|name| CartEntry { item: Item { name: Some((*name).into()), ..Item::default() }, quantity: 1 })
            .collect();
        Cart { entries, shipping: None, charges: Default::default() }
    }

    #[test]
    fn an_extra_add_on_line_blocks_unless_asked_for() {
        let shoes = cart(&["Nike Pegasus 41", "2-Year Protection Plan for Footwear"]);
        let addons = lines(&shoes);
        assert_eq!(addons.len(), 1);
        assert_eq!((addons[0].0, addons[0].1.said.as_str()), (1, "Protection Plan"), "quoted as the line writes it");
        let found = findings(&Facts::default(), &shoes, &addons);
        assert_eq!((found[0].id.as_str(), found[0].severity), ("addon@$.cart[1]", Severity::Block));
        assert_eq!(
            found[0].reason,
            "The cart adds \u{201c}2-Year Protection Plan for Footwear\u{201d}, which you did not ask for."
        );
        let asked_for = Facts { asked: asked("Nike Pegasus 41 with a protection plan"), ..Facts::default() };
        assert!(findings(&asked_for, &shoes, &addons).is_empty());
        // Asked for in other words: a warranty is cover, as a protection plan is.
        let warranty = Facts { asked: asked("Nike Pegasus 41 with an extended warranty"), ..Facts::default() };
        assert!(findings(&warranty, &shoes, &addons).is_empty());
        let wrap = Facts { asked: asked("Nike Pegasus 41, gift-wrapped"), ..Facts::default() };
        assert_eq!(findings(&wrap, &shoes, &addons).len(), 1, "gift wrap is not cover");
    }

    #[test]
    fn a_product_with_the_word_or_an_add_on_alone_is_no_extra_line() {
        assert!(lines(&cart(&["SPF 50 Sun Protection Lotion", "Weekly Planner"])).is_empty());
        assert!(lines(&cart(&["AppleCare+ for iPhone 15"])).is_empty(), "bought alone, it is the order");
    }
}
