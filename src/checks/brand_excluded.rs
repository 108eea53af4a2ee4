//! `brand-excluded`: the item's brand is one the person excluded. An item
//! that gives no brand is of the brand its name begins with (as in
//! `brand`): "anything but Nike" blocks "Nike Pegasus 41".

use super::brand::name_begins_with;
use super::{Detail, PreparedItem, Status, Target, Text};
use crate::finding::Compared;
use crate::messages::{ItemName, Message};

pub fn status(target: &Target, item: &PreparedItem) -> Status {
    if target.brand_not.is_empty() {
        return Status::Pass;
    }
    match &item.brand {
        None if name_brand(target, item).is_some() => Status::Fail,
        None => Status::Unknown,
        // A look-alike of an excluded brand is excluded too: otherwise "Nіke"
        // with a Cyrillic і would pass "anything but Nike" silently.
        Some(brand)
            if target.brand_not.iter().any(|excluded| {
                excluded.folded == *brand || item.brand_skeleton.as_deref() == Some(&excluded.skeleton)
            }) =>
        {
            Status::Fail
        }
        Some(_) => Status::Pass,
    }
}

/// The excluded brand an item without a brand field has by its name.
fn name_brand<'t>(target: &'t Target, item: &PreparedItem) -> Option<&'t Text> {
    if item.brand.is_some() {
        return None;
    }
    target.brand_not.iter().find(|excluded| name_begins_with(item, excluded))
}

pub fn detail(target: &Target, item: &PreparedItem) -> Detail {
    let excluded: Vec<&str> = target.brand_not.iter().map(|brand| brand.raw.as_str()).collect();
    let from_name = name_brand(target, item);
    let exact =
        from_name.is_some() || target.brand_not.iter().any(|brand| item.brand.as_deref() == Some(&brand.folded));
    let actual = match from_name {
        Some(brand) => Some(brand.raw.clone()),
        None => item.item.brand.clone(),
    };
    Detail {
        expected: Compared::Not { not: excluded.iter().map(|name| (*name).to_owned()).collect() },
        actual: Compared::text_or_nothing(actual.as_deref()),
        message: Message::BrandExcluded {
            excluded: excluded.iter().map(|brand| (*brand).to_owned()).collect(),
            actual,
            look_alike: !exact,
            item: ItemName::of(item.item),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::Item;
    use crate::facts::Facts;

    fn check(excluded: &[&str], brand: Option<&str>) -> Status {
        check_named(excluded, brand, None)
    }

    fn check_named(excluded: &[&str], brand: Option<&str>, name: Option<&str>) -> Status {
        let facts = Facts { brand_not: excluded.iter().map(|brand| brand.to_string()).collect(), ..Facts::default() };
        let item = Item { brand: brand.map(Into::into), name: name.map(Into::into), ..Item::default() };
        status(&Target::shared(&facts), &PreparedItem::new(&item))
    }

    #[test]
    fn an_excluded_brand_the_name_begins_with_blocks() {
        assert_eq!(check_named(&["Nike"], None, Some("Nike Pegasus 41")), Status::Fail);
        assert_eq!(check_named(&["Wilson", "Head"], None, Some("HEAD Speed MP")), Status::Fail);
        assert_eq!(check_named(&["Nike"], None, Some("Nikon D750")), Status::Unknown, "whole words");
        assert_eq!(check_named(&["Nike"], None, Some("Nikes")), Status::Unknown);
        assert_eq!(check_named(&["Apple"], None, Some("Case for Apple iPhone")), Status::Unknown);
        assert_eq!(check_named(&["Nike"], Some("Adidas"), Some("Nike-style runner")), Status::Pass, "the field rules");
        let facts = Facts { brand_not: vec!["Nike".into()], ..Facts::default() };
        let item = Item { name: Some("Nike Pegasus 41".into()), ..Item::default() };
        let detail = detail(&Target::shared(&facts), &PreparedItem::new(&item));
        assert_eq!(detail.actual, Compared::Text("Nike".into()));
        let message = detail.message.to_string();
        assert!(message.contains("the cart has Nike") && !message.contains("look-alike"), "{message}");
    }

    #[test]
    fn excluded_brands_are_found_case_insensitively() {
        assert_eq!(check(&["Wilson"], Some("WILSON")), Status::Fail);
        assert_eq!(check(&["Wilson", "Head"], Some("head")), Status::Fail);
        assert_eq!(check(&["Wilson"], Some("Babolat")), Status::Pass);
        assert_eq!(check(&["Wilson"], None), Status::Unknown);
        assert_eq!(check(&[], None), Status::Pass);
        assert_eq!(check(&["Nike"], Some("N\u{0456}ke")), Status::Fail, "look-alikes of excluded brands are excluded");
        assert_eq!(check(&["Wilson"], Some("Willson")), Status::Pass, "a one-letter-different brand is another brand");
    }
}
