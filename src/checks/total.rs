//! `total-mismatch` (issue 29; the `words` check policy only): the total a
//! checkout states is not the sum of its parts. The parts are the items'
//! subtotal as stated (else the items' prices times their quantities, less
//! the stated item discounts), less the order's discounts, plus shipping,
//! tax and every fee the checkout states. A difference either way blocks,
//! naming the amounts: what will be paid is not what the checkout shows.
//!
//! Runs only when the checkout states a total and every part can be had in
//! its currency (each item priced, one currency), and only for a checkout
//! that names its totals by type (UCP, ACP): an AP2 payment request's total
//! may hold shipping and tax its display items leave out.

use super::explicit_max::items_total;
use crate::cart::Cart;
use crate::facts::FieldName;
use crate::finding::{Code, Compared, Finding, Severity};
use crate::messages::{Message, Money};

/// The sum of the parts a checkout states beside its total; `None` when a
/// part cannot be had.
pub fn parts(cart: &Cart) -> Option<u64> {
    let charges = &cart.charges;
    let currency = charges.currency.as_deref();
    let base = match charges.subtotal {
        Some(subtotal) => subtotal,
        None => {
            let (items, items_currency) = items_total(cart)?;
            if items_currency.is_some() && currency.is_some() && items_currency.as_deref() != currency {
                return None;
            }
            items.saturating_sub(charges.items_discount.unwrap_or(0))
        }
    };
    let shipping = cart.shipping.as_ref().map_or(0, |shipping| shipping.minor);
    let added =
        base.checked_add(shipping)?.checked_add(charges.tax.unwrap_or(0))?.checked_add(charges.fees_total()?)?;
    Some(added.saturating_sub(charges.discount.unwrap_or(0)))
}

pub fn findings(cart: &Cart) -> Option<Finding> {
    if !cart.charges.itemised {
        return None;
    }
    let stated = cart.charges.total?;
    let parts = parts(cart)?;
    if parts == stated {
        return None;
    }
    let currency = cart.charges.currency.clone();
    Some(
        Finding {
            id: format!("{}@$.cart", Code::TotalMismatch),
            code: Code::TotalMismatch,
            severity: Severity::Block,
            field: FieldName::Other,
            line: None,
            path: "$.cart".to_owned(),
            entry: None,
            expected: Compared::Total { currency: currency.clone(), total_minor: Some(parts) },
            actual: Compared::Total { currency: currency.clone(), total_minor: Some(stated) },
            reason: String::new(),
            message: None,
        }
        .say(Message::TotalMismatch {
            stated: Money::new(stated, currency.as_deref()),
            parts: Money::new(parts, currency.as_deref()),
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::{CartEntry, Charges, Fee, Item, Shipping};

    fn cart(price: u64, charges: Charges, shipping: Option<u64>) -> Cart {
        let item = Item {
            name: Some("Lamp".into()),
            price_cents: Some(price),
            currency: Some("USD".into()),
            ..Item::default()
        };
        Cart {
            entries: vec![CartEntry { item, quantity: 2 }],
            shipping: shipping.map(|minor| Shipping { minor, currency: Some("USD".into()) }),
            charges: Charges { currency: Some("USD".into()), itemised: true, ..charges },
        }
    }

    #[test]
    fn a_total_that_is_its_parts_passes_whatever_parts_it_names() {
        let fee = Fee { label: "Service fee".into(), minor: 150 };
        let stated = Charges {
            total: Some(2_000 + 500 + 160 + 150 - 300),
            tax: Some(160),
            discount: Some(300),
            fees: vec![fee],
            ..Charges::default()
        };
        assert_eq!(findings(&cart(1_000, stated, Some(500))), None);
        // A stated subtotal stands for the items (line discounts inside it).
        let subtotal = Charges { total: Some(1_900), subtotal: Some(1_900), ..Charges::default() };
        assert_eq!(findings(&cart(1_000, subtotal, None)), None);
        let items_discount = Charges { total: Some(1_800), items_discount: Some(200), ..Charges::default() };
        assert_eq!(findings(&cart(1_000, items_discount, None)), None);
        // No total stated: nothing to compare.
        assert_eq!(findings(&cart(1_000, Charges { tax: Some(5), ..Charges::default() }, None)), None);
    }

    #[test]
    fn an_unexplained_difference_blocks_naming_the_amounts() {
        let more =
            findings(&cart(1_000, Charges { total: Some(2_999), tax: Some(100), ..Charges::default() }, None)).unwrap();
        assert_eq!((more.code, more.severity), (Code::TotalMismatch, Severity::Block));
        assert_eq!(
            more.reason,
            "The checkout's total is 29.99 USD, 8.99 USD more than its parts add up to (21.00 USD): the difference is not explained."
        );
        let less = findings(&cart(1_000, Charges { total: Some(1_500), ..Charges::default() }, None)).unwrap();
        assert!(less.reason.contains("5.00 USD less"), "{}", less.reason);
    }
}
