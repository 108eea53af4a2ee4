//! `brand-excluded`: the item's brand is one the person excluded.

use super::{Detail, PreparedItem, Status, Target};
use crate::finding::Compared;
use crate::messages::{ItemName, Message};

pub fn status(target: &Target, item: &PreparedItem) -> Status {
    if target.brand_not.is_empty() {
        return Status::Pass;
    }
    match &item.brand {
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

pub fn detail(target: &Target, item: &PreparedItem) -> Detail {
    let excluded: Vec<&str> = target.brand_not.iter().map(|brand| brand.raw.as_str()).collect();
    let exact = target.brand_not.iter().any(|brand| item.brand.as_deref() == Some(&brand.folded));
    Detail {
        expected: Compared::Not { not: excluded.iter().map(|name| (*name).to_owned()).collect() },
        actual: Compared::text_or_nothing(item.item.brand.as_deref()),
        message: Message::BrandExcluded {
            excluded: excluded.iter().map(|brand| (*brand).to_owned()).collect(),
            actual: item.item.brand.clone(),
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
        let facts = Facts { brand_not: excluded.iter().map(|brand| brand.to_string()).collect(), ..Facts::default() };
        let item = Item { brand: brand.map(Into::into), ..Item::default() };
        status(&Target::shared(&facts), &PreparedItem::new(&item))
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
