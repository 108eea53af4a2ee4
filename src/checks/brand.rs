//! `brand`: the item's brand is not the brand the person chose, nor one of
//! the other brands they accept (`brand_any`).
//!
//! An item that gives no brand is of the brand its name begins with: stores
//! and agents write "Nike Pegasus 41" and leave the brand field out. Whole
//! folded words only, so "Nikes" and "Nikon D750" are not Nike; a brand the
//! name only mentions later ("Case for Apple iPhone") is not the item's.

use super::{Detail, PreparedItem, Status, Target, Text};
use crate::finding::Compared;
use crate::messages::{ItemName, Message};

pub fn status(target: &Target, item: &PreparedItem) -> Status {
    let Some(wanted) = &target.brand else { return Status::Pass };
    match &item.brand {
        None if std::iter::once(wanted).chain(&target.brand_any).any(|brand| name_begins_with(item, brand)) => {
            Status::Pass
        }
        None => Status::Unknown,
        Some(brand) if *brand == wanted.folded => Status::Pass,
        Some(brand) if target.brand_any.iter().any(|other| *brand == other.folded) => Status::Pass,
        Some(_) => Status::Fail,
    }
}

/// Whether the item's name begins with `brand`'s words, compared folded and
/// whole: the brand an item without a brand field is read as.
pub fn name_begins_with(item: &PreparedItem, brand: &Text) -> bool {
    !brand.words.is_empty() && item.name_sequence.starts_with(&brand.words)
}

pub fn detail(target: &Target, item: &PreparedItem) -> Detail {
    let first = target.brand.as_ref().map(|brand| brand.raw.as_str()).unwrap_or_default();
    let accepted: Vec<&str> =
        std::iter::once(first).chain(target.brand_any.iter().map(|brand| brand.raw.as_str())).collect();
    let look_alike = target.brand.as_ref().is_some_and(|brand| item.brand_skeleton.as_deref() == Some(&brand.skeleton));
    let expected = Compared::any_text(&accepted);
    let message = Message::Brand {
        wanted: accepted.iter().map(|brand| (*brand).to_owned()).collect(),
        actual: item.item.brand.clone(),
        look_alike,
        item: ItemName::of(item.item),
    };
    Detail { expected, actual: Compared::text_or_nothing(item.item.brand.as_deref()), message }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::Item;
    use crate::facts::Facts;

    fn check(wanted: &str, brand: Option<&str>) -> Status {
        check_named(wanted, brand, None)
    }

    fn check_named(wanted: &str, brand: Option<&str>, name: Option<&str>) -> Status {
        let target = Target::shared(&Facts { brand: Some(wanted.into()), ..Facts::default() });
        let item = Item { brand: brand.map(Into::into), name: name.map(Into::into), ..Item::default() };
        status(&target, &PreparedItem::new(&item))
    }

    #[test]
    fn without_a_brand_field_the_name_s_first_words_are_the_brand() {
        assert_eq!(check_named("Nike", None, Some("Nike Pegasus 41")), Status::Pass);
        assert_eq!(check_named("NIKE", None, Some("nike pegasus 41")), Status::Pass, "folded");
        assert_eq!(check_named("New Balance", None, Some("New Balance 990v6")), Status::Pass);
        assert_eq!(check_named("Coca-Cola", None, Some("Coca Cola Zero, 12 cans")), Status::Pass);
        assert_eq!(check_named("Nike", None, Some("ＮＩＫＥ Air Max")), Status::Pass, "width folded");
        assert_eq!(check_named("Адидас", None, Some("адидас Кроссовки")), Status::Pass);
        assert_eq!(check_named("Nike", None, Some("Nikes for running")), Status::Unknown, "whole words");
        assert_eq!(check_named("Nike", None, Some("Nikon D750")), Status::Unknown);
        assert_eq!(check_named("Apple", None, Some("Case for Apple iPhone 15")), Status::Unknown, "only at the start");
        assert_eq!(check_named("New Balance", None, Some("New Nike Pegasus")), Status::Unknown);
        assert_eq!(check_named("Nike", None, None), Status::Unknown);
        // A brand field, when given, is the brand: the name does not overrule it.
        assert_eq!(check_named("Nike", Some("Adidas"), Some("Nike-style runner")), Status::Fail);
        // Any of the accepted brands will do.
        let facts = Facts { brand: Some("Nike".into()), brand_any: vec!["Asics".into()], ..Facts::default() };
        let item = Item { name: Some("ASICS Gel-Kayano 31".into()), ..Item::default() };
        assert_eq!(status(&Target::shared(&facts), &PreparedItem::new(&item)), Status::Pass);
    }

    #[test]
    fn brand_compares_folded() {
        assert_eq!(check("Nike", Some("NIKE")), Status::Pass);
        assert_eq!(check("Nike", Some("ＮＩＫＥ")), Status::Pass);
        assert_eq!(check("Nike", Some("Adidas")), Status::Fail);
        assert_eq!(check("Wilson", Some("Willson")), Status::Fail);
        assert_eq!(check("Nike", None), Status::Unknown);
        assert_eq!(check("Nike", Some("N\u{0456}ke")), Status::Fail, "a look-alike is another brand");
    }

    #[test]
    fn a_look_alike_brand_says_so() {
        let target = Target::shared(&Facts { brand: Some("Nike".into()), ..Facts::default() });
        let item = Item { brand: Some("N\u{0456}ke".into()), name: Some("Shoe".into()), ..Item::default() };
        assert!(detail(&target, &PreparedItem::new(&item)).message.to_string().contains("only looks like it"));
    }
}
