//! `free-shipping` (issue 28 §5; the `words` check policy only): the person
//! asked for free shipping or delivery, and the cart charges for it, or does
//! not say what it charges.
//!
//! The cart says it by a flat item's `shipping` price or a UCP or ACP
//! checkout's `fulfillment` total (`cart::Cart::shipping`). A positive
//! charge blocks, naming it; a charge of 0 passes; so does a UCP or ACP
//! checkout whose stated total is exactly its typed parts with no shipping
//! among them (issue 29: what is paid holds none); a cart that states
//! nothing blocks as unknown: the person asked for something the guard
//! cannot see, so they are asked, never passed over in silence.

use super::{SeverityRules, Source};
use crate::cart::Cart;
use crate::facts::{Facts, FieldName};
use crate::finding::{Code, Compared, Finding};
use crate::messages::{Message, Money};

pub fn findings(facts: &Facts, cart: &Cart, rules: &SeverityRules) -> Option<Finding> {
    if !facts.free_shipping {
        return None;
    }
    let (actual, message) = match &cart.shipping {
        Some(shipping) if shipping.minor == 0 => return None,
        Some(shipping) => (
            Compared::Shipping { currency: shipping.currency.clone(), shipping_minor: shipping.minor },
            Message::ShippingCharged { shipping: Money::new(shipping.minor, shipping.currency.as_deref()) },
        ),
        // A checkout whose stated total is its typed parts without any
        // shipping charges none (issue 29): what is paid holds no shipping.
        None if cart.charges.itemised
            && super::total::parts(cart).is_some_and(|parts| Some(parts) == cart.charges.total) =>
        {
            return None;
        }
        None => (Compared::Nothing, Message::ShippingUnknown),
    };
    Some(
        Finding {
            id: format!("{}@$.cart", Code::FreeShipping),
            code: Code::FreeShipping,
            severity: rules.severity(FieldName::FreeShipping, Source::Shared),
            field: FieldName::FreeShipping,
            line: None,
            path: "$.cart".to_owned(),
            entry: None,
            expected: Compared::Shipping { currency: None, shipping_minor: 0 },
            actual,
            reason: String::new(),
            message: None,
        }
        .say(message),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::{CartEntry, Item, Shipping};
    use crate::finding::Severity;

    fn run(shipping: Option<u64>) -> Option<Finding> {
        let facts = Facts { free_shipping: true, ..Facts::default() };
        let cart = Cart {
            entries: vec![CartEntry { item: Item { name: Some("Lamp".into()), ..Item::default() }, quantity: 1 }],
            shipping: shipping.map(|minor| Shipping { minor, currency: Some("USD".into()) }),
            charges: Default::default(),
        };
        findings(&facts, &cart, &SeverityRules::new(&facts))
    }

    #[test]
    fn a_charge_blocks_naming_it_and_nothing_charged_passes() {
        let charged = run(Some(499)).unwrap();
        assert_eq!((charged.code, charged.severity), (Code::FreeShipping, Severity::Block));
        assert_eq!(charged.reason, "Asked for free shipping, the cart charges 4.99 USD for shipping.");
        assert_eq!(run(Some(0)), None);
    }

    #[test]
    fn a_cart_that_does_not_say_asks_the_person() {
        let unknown = run(None).unwrap();
        assert_eq!((unknown.severity, &unknown.actual), (Severity::Block, &Compared::Nothing));
        assert_eq!(unknown.reason, "Asked for free shipping, and the cart does not say what shipping costs.");
        let facts = Facts::default();
        let cart = Cart { entries: Vec::new(), shipping: None, charges: Default::default() };
        assert_eq!(findings(&facts, &cart, &SeverityRules::new(&facts)), None);
    }

    #[test]
    fn issue_29_a_stated_total_that_is_its_parts_without_shipping_charges_none() {
        let facts = Facts { free_shipping: true, ..Facts::default() };
        let item = Item {
            name: Some("Skillet".into()),
            price_cents: Some(2_990),
            currency: Some("USD".into()),
            ..Item::default()
        };
        let charges = |total: u64| crate::cart::Charges {
            currency: Some("USD".into()),
            total: Some(total),
            tax: Some(239),
            itemised: true,
            ..crate::cart::Charges::default()
        };
        let cart = |total: u64| Cart {
            entries: vec![CartEntry { item: item.clone(), quantity: 1 }],
            shipping: None,
            charges: charges(total),
        };
        assert_eq!(findings(&facts, &cart(3_229), &SeverityRules::new(&facts)), None);
        // A total above its parts may hold shipping it does not name.
        assert_eq!(
            findings(&facts, &cart(3_729), &SeverityRules::new(&facts)).unwrap().reason,
            "Asked for free shipping, and the cart does not say what shipping costs."
        );
    }
}
