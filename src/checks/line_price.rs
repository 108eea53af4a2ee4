//! `line-price`: of several products, the price the person said for one
//! of them ("a bento box priced from 42 to 83 PHP") is a condition on that
//! line's item, each, not on the order: at most `lines[i].explicit_max_cents`
//! (code `explicit-max`), at least `lines[i].price_min_cents` (code
//! `price_below_floor`, [`floor_status`]). An item outside fails; one
//! without a price, or priced in another currency than the one said, cannot
//! be checked (a note, as for the shared limit and floor: the guard has no
//! exchange rate).

use super::price_floor::{Priced, floor_status};
use super::{Detail, PreparedItem, Status, Target};
use crate::finding::Compared;
use crate::messages::{ItemName, Message, Money};

pub fn status(target: &Target, item: &PreparedItem) -> Status {
    let Some(max) = &target.unit_max else { return Status::Pass };
    let Some(price) = item.item.price_cents else { return Status::Unknown };
    match (&max.currency, &item.item.currency) {
        (Some(said), Some(priced)) if said != priced => Status::Unknown,
        _ if price > max.cents => Status::Fail,
        _ => Status::Pass,
    }
}

pub fn detail(target: &Target, item: &PreparedItem) -> Detail {
    let (cents, currency) = target.unit_max.as_ref().map_or((0, None), |max| (max.cents, max.currency.clone()));
    let priced = item.item.currency.clone().or_else(|| currency.clone());
    let price = item.item.price_cents.unwrap_or_default();
    Detail {
        expected: Compared::Limit { total_at_most_minor: cents },
        actual: Compared::Total { currency: item.item.currency.clone(), total_minor: item.item.price_cents },
        message: Message::ItemPriceOver {
            max: Money::new(cents, currency.as_deref()),
            price: Money::new(price, priced.as_deref()),
            item: ItemName::of(item.item),
        },
    }
}

/// The line's floor against the item's price each.
pub fn floor(target: &Target, item: &PreparedItem) -> Status {
    let Some(min) = &target.unit_min else { return Status::Pass };
    let price = item.item.price_cents.map(|minor| Priced { minor, currency: item.item.currency.as_deref() });
    floor_status(price, Priced { minor: min.cents, currency: min.currency.as_deref() })
}

pub fn floor_detail(target: &Target, item: &PreparedItem) -> Detail {
    let (cents, currency) = target.unit_min.as_ref().map_or((0, None), |min| (min.cents, min.currency.clone()));
    let priced = item.item.currency.clone().or_else(|| currency.clone());
    Detail {
        expected: Compared::Floor { currency: currency.clone(), price_at_least_minor: cents },
        actual: Compared::Total { currency: item.item.currency.clone(), total_minor: item.item.price_cents },
        message: Message::PriceBelowFloor {
            floor: Money::new(cents, currency.as_deref()),
            price: Money::new(item.item.price_cents.unwrap_or_default(), priced.as_deref()),
            item: ItemName::of(item.item),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::Item;
    use crate::facts::{Facts, Line};

    fn check(max: u64, currency: Option<&str>, price: Option<u64>, priced: Option<&str>) -> Status {
        let line = Line {
            explicit_max_cents: Some(max),
            explicit_max_currency: currency.map(str::to_owned),
            ..Line::default()
        };
        let facts = Facts { lines: vec![line.clone()], ..Facts::default() };
        let target = Target::shared(&facts).for_line(0, &line);
        let item = Item { price_cents: price, currency: priced.map(str::to_owned), ..Item::default() };
        status(&target, &PreparedItem::new(&item))
    }

    #[test]
    fn a_dearer_item_fails_an_equal_one_passes_and_another_currency_is_unknown() {
        assert_eq!(check(8_300, Some("PHP"), Some(9_000), Some("PHP")), Status::Fail);
        assert_eq!(check(8_300, Some("PHP"), Some(8_300), Some("PHP")), Status::Pass);
        assert_eq!(check(8_300, None, Some(8_000), Some("PHP")), Status::Pass);
        assert_eq!(check(8_300, Some("PHP"), Some(100), Some("USD")), Status::Unknown);
        assert_eq!(check(8_300, Some("PHP"), None, None), Status::Unknown);
    }

    #[test]
    fn a_cheaper_item_than_the_line_s_floor_fails() {
        let line = Line { price_min_cents: Some(2_400), price_min_currency: Some("PHP".into()), ..Line::default() };
        let facts = Facts { lines: vec![line.clone()], ..Facts::default() };
        let target = Target::shared(&facts).for_line(0, &line);
        let cheap = Item { price_cents: Some(2_000), currency: Some("PHP".into()), ..Item::default() };
        let fine = Item { price_cents: Some(2_400), currency: Some("PHP".into()), ..Item::default() };
        assert_eq!(floor(&target, &PreparedItem::new(&cheap)), Status::Fail);
        assert_eq!(floor(&target, &PreparedItem::new(&fine)), Status::Pass);
    }
}
