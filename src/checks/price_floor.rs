//! `price_below_floor` (issue 28 §5; the `words` check policy only): an item
//! priced below the floor the person stated ("above $50", "over 98 pesos",
//! the lower end of "from 15 to 37").
//!
//! A floor is a condition on each item's price, the way a shop's price
//! filter is ("show me fans above 24 pesos"), never on the cart total: two
//! items at 20 pesos are not one above 24. The price compared is the price
//! of one cart unit as listed (a pack's price, not a can's). Equal passes,
//! as the limit's equal does: "above 50" and "at least 50" are told apart
//! by no one who shops. A floor in one currency says nothing about a price
//! in another, and an item without a price cannot be compared: both are
//! `unchecked`, a note that names what could not be checked, never a
//! silent pass. A cart that names no currency is compared by the number,
//! as the limit is.

use super::{SeverityRules, Source, Status, unchecked};
use crate::cart::Cart;
use crate::facts::{Facts, FieldName};
use crate::finding::{Code, Compared, Finding, Severity, cart_path};
use crate::messages::{Attribute, ItemName, Message, Money};

/// An amount in minor units with its currency when known: an item's unit
/// price or the floor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Priced<'a> {
    pub minor: u64,
    pub currency: Option<&'a str>,
}

/// The floor stated in `facts`, if any.
pub fn floor_of(facts: &Facts) -> Option<Priced<'_>> {
    facts.price_min_cents.map(|minor| Priced { minor, currency: facts.price_min_currency.as_deref() })
}

/// One item's price against the floor: below it fails, at or above it
/// passes, no price or another currency is unknown. Pure and cheap, so a
/// line's own floor can use it per candidate pair.
pub fn floor_status(unit_price: Option<Priced<'_>>, floor: Priced<'_>) -> Status {
    let Some(price) = unit_price else { return Status::Unknown };
    match (floor.currency, price.currency) {
        (Some(wanted), Some(priced)) if wanted != priced => Status::Unknown,
        _ if price.minor < floor.minor => Status::Fail,
        _ => Status::Pass,
    }
}

/// One finding per cart entry below the floor or not comparable with it,
/// in cart order.
pub fn findings(facts: &Facts, cart: &Cart, rules: &SeverityRules) -> Vec<Finding> {
    let Some(floor) = floor_of(facts) else { return Vec::new() };
    let expected = Compared::Floor { currency: floor.currency.map(str::to_owned), price_at_least_minor: floor.minor };
    let mut found = Vec::new();
    for (index, entry) in cart.entries.iter().enumerate() {
        let item = &entry.item;
        let unit_price = item.price_cents.map(|minor| Priced { minor, currency: item.currency.as_deref() });
        let name = ItemName::of(item);
        match floor_status(unit_price, floor) {
            Status::Pass => {}
            Status::Unknown => {
                let finding =
                    unchecked(FieldName::PriceMinCents, Attribute::Price, expected.clone(), name.clone(), index, None);
                found.push(match (unit_price, floor.currency) {
                    (Some(Priced { currency: Some(item_currency), .. }), Some(floor_currency)) => {
                        let mut finding = finding.say(Message::FloorInOtherCurrency {
                            floor: Money::new(floor.minor, Some(floor_currency)),
                            item_currency: item_currency.to_owned(),
                            item: name,
                        });
                        finding.actual = Compared::Currency { currency: item_currency.to_owned() };
                        finding
                    }
                    _ => finding,
                });
            }
            Status::Fail => {
                let price = unit_price.map_or(0, |price| price.minor);
                let currency = floor.currency.or(item.currency.as_deref());
                let path = cart_path(Some(index));
                found.push(
                    Finding {
                        id: format!("{}@{path}", Code::PriceBelowFloor),
                        code: Code::PriceBelowFloor,
                        severity: rules.severity(FieldName::PriceMinCents, Source::Shared),
                        field: FieldName::PriceMinCents,
                        line: None,
                        path,
                        entry: Some(index),
                        expected: expected.clone(),
                        actual: match &item.currency {
                            Some(currency) => Compared::PriceIn { currency: currency.clone(), price_minor: price },
                            None => Compared::Price { price_minor: price },
                        },
                        reason: String::new(),
                        message: None,
                    }
                    .say(Message::PriceBelowFloor {
                        floor: Money::new(floor.minor, currency),
                        price: Money::new(price, currency),
                        item: name,
                    }),
                );
            }
        }
    }
    debug_assert!(found.iter().all(|finding| finding.code != Code::Unchecked || finding.severity == Severity::Warn));
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::{CartEntry, Item};

    fn cart(prices: &[(Option<u64>, Option<&str>)]) -> Cart {
        Cart {
            entries: prices
                .iter()
                .map(|(price, currency)| CartEntry {
                    item: Item {
                        name: Some("Desk fan".into()),
                        price_cents: *price,
                        currency: currency.map(str::to_owned),
                        ..Item::default()
                    },
                    quantity: 2,
                })
                .collect(),
            shipping: None,
            charges: Default::default(),
        }
    }

    fn run(floor: u64, currency: Option<&str>, prices: &[(Option<u64>, Option<&str>)]) -> Vec<Finding> {
        let facts =
            Facts { price_min_cents: Some(floor), price_min_currency: currency.map(str::to_owned), ..Facts::default() };
        findings(&facts, &cart(prices), &SeverityRules::new(&facts))
    }

    #[test]
    fn floor_status_is_three_valued() {
        let floor = Priced { minor: 2400, currency: Some("PHP") };
        let price = |minor, currency| Some(Priced { minor, currency });
        assert_eq!(floor_status(price(2399, Some("PHP")), floor), Status::Fail);
        assert_eq!(floor_status(price(2400, Some("PHP")), floor), Status::Pass);
        assert_eq!(floor_status(price(9900, None), floor), Status::Pass);
        assert_eq!(floor_status(price(100, None), floor), Status::Fail);
        assert_eq!(floor_status(price(99_999, Some("USD")), floor), Status::Unknown);
        assert_eq!(floor_status(None, floor), Status::Unknown);
    }

    #[test]
    fn each_item_below_the_floor_blocks_not_the_total() {
        // Two fans at 20 pesos total 40, above a 24-peso floor: each is below.
        let found = run(2400, Some("PHP"), &[(Some(2000), Some("PHP")), (Some(3000), Some("PHP"))]);
        assert_eq!(found.len(), 1);
        let below = &found[0];
        assert_eq!((below.code, below.severity, below.entry), (Code::PriceBelowFloor, Severity::Block, Some(0)));
        assert_eq!(below.id, "price_below_floor@$.cart[0]");
        assert_eq!(below.reason, "Asked for something costing at least 24.00 PHP, it costs 20.00 PHP: Desk fan.");
        assert_eq!(
            serde_json::to_value(&below.expected).unwrap(),
            serde_json::json!({"price_at_least_minor": 2400, "currency": "PHP"})
        );
        assert!(run(2400, None, &[(Some(2400), Some("PHP"))]).is_empty());
    }

    #[test]
    fn another_currency_or_no_price_is_a_note_never_a_silent_pass() {
        let found = run(5000, Some("USD"), &[(Some(9000), Some("EUR")), (None, Some("USD"))]);
        let codes: Vec<_> = found.iter().map(|finding| (finding.code, finding.severity)).collect();
        assert_eq!(codes, vec![(Code::Unchecked, Severity::Warn), (Code::Unchecked, Severity::Warn)]);
        assert_eq!(
            found[0].reason,
            "Could not check the lowest price: it is 50.00 USD, and the item is priced in EUR: Desk fan."
        );
        assert_eq!(found[1].reason, "Could not check the lowest price: the store does not say its price: Desk fan.");
    }

    #[test]
    fn a_soft_floor_warns() {
        let facts = Facts {
            price_min_cents: Some(5000),
            soft: [FieldName::PriceMinCents.into()].into_iter().collect(),
            ..Facts::default()
        };
        let found = findings(&facts, &cart(&[(Some(100), None)]), &SeverityRules::new(&facts));
        assert_eq!(found[0].severity, Severity::Warn);
    }
}
