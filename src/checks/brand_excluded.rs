//! `brand-excluded`: the item's brand is one the person excluded.

use serde_json::json;

use super::{Detail, PreparedItem, Status, Target};

pub fn status(target: &Target, item: &PreparedItem) -> Status {
    if target.brand_not.is_empty() {
        return Status::Pass;
    }
    match &item.brand {
        None => Status::Unknown,
        Some(brand) if target.brand_not.iter().any(|excluded| excluded.folded == *brand) => Status::Fail,
        Some(_) => Status::Pass,
    }
}

pub fn detail(target: &Target, item: &PreparedItem) -> Detail {
    let excluded: Vec<&str> = target.brand_not.iter().map(|brand| brand.raw.as_str()).collect();
    let actual = item.item.brand.as_deref().unwrap_or("no brand");
    Detail {
        expected: json!({ "not": excluded }),
        actual: json!(item.item.brand),
        reason: format!(
            "Asked for anything but {}, the cart has {actual}: {}.",
            excluded.join(" or "),
            item.item.display_name()
        ),
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
    }
}
