//! `color-excluded`: the item's colour is one the person excluded ("not
//! red", "any colour except pink"). An extension of guard.md §5, the colour
//! counterpart of `brand-excluded`; like `color`, an item counts as its first
//! colour, so "White/Red" is white and passes "not red".

use super::{Detail, PreparedItem, Status, Target};
use crate::finding::Compared;
use crate::messages::{ItemName, Message};

pub fn status(target: &Target, item: &PreparedItem) -> Status {
    if target.color_not.is_empty() {
        return Status::Pass;
    }
    let Some(first) = &item.first_colour else { return Status::Unknown };
    if target.color_not.iter().any(|excluded| excluded.words.all_in(first)) { Status::Fail } else { Status::Pass }
}

pub fn detail(target: &Target, item: &PreparedItem) -> Detail {
    let excluded: Vec<&str> = target.color_not.iter().map(|colour| colour.raw.as_str()).collect();
    Detail {
        expected: Compared::Not { not: excluded.iter().map(|name| (*name).to_owned()).collect() },
        actual: Compared::text_or_nothing(item.item.color.as_deref()),
        message: Message::ColorExcluded {
            excluded: excluded.iter().map(|colour| (*colour).to_owned()).collect(),
            actual: item.item.color.clone(),
            item: ItemName::of(item.item),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::Item;
    use crate::facts::Facts;

    fn check(color_not: &[&str], colour: Option<&str>) -> Status {
        let facts =
            Facts { color_not: color_not.iter().map(|value| (*value).to_owned()).collect(), ..Facts::default() };
        let item = Item { color: colour.map(str::to_owned), ..Item::default() };
        status(&Target::shared(&facts), &PreparedItem::new(&item))
    }

    #[test]
    fn an_excluded_first_colour_fails_and_others_pass() {
        assert_eq!(check(&["red"], Some("Red")), Status::Fail);
        assert_eq!(check(&["red", "pink"], Some("Pink/White")), Status::Fail);
        assert_eq!(check(&["red"], Some("красный")), Status::Fail, "Russian colour words are colours too");
        assert_eq!(check(&["red"], Some("White/Red")), Status::Pass, "an item counts as its first colour");
        assert_eq!(check(&["red"], Some("Black")), Status::Pass);
        assert_eq!(check(&["red"], None), Status::Unknown);
        assert_eq!(check(&[], None), Status::Pass, "nothing excluded, nothing to check");
    }
}
