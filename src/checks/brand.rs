//! `brand`: the item's brand is not the brand the person chose, nor one of
//! the other brands they accept (`brand_any`).

use super::{Detail, PreparedItem, Status, Target};
use crate::finding::Compared;
use crate::messages::{ItemName, Message};

pub fn status(target: &Target, item: &PreparedItem) -> Status {
    let Some(wanted) = &target.brand else { return Status::Pass };
    match &item.brand {
        None => Status::Unknown,
        Some(brand) if *brand == wanted.folded => Status::Pass,
        Some(brand) if target.brand_any.iter().any(|other| *brand == other.folded) => Status::Pass,
        Some(_) => Status::Fail,
    }
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
        let target = Target::shared(&Facts { brand: Some(wanted.into()), ..Facts::default() });
        let item = Item { brand: brand.map(Into::into), ..Item::default() };
        status(&target, &PreparedItem::new(&item))
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
