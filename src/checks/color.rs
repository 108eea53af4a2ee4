//! `color`: the words of the stated colour (or of one of the other colours
//! the person accepts, `color_any`) are not all in the item's first colour.
//! An item listed as `White/Black` is white; black as its second colour is a
//! finding, and the reason says so.

use super::{Detail, PreparedItem, Status, Target};
use crate::finding::Compared;
use crate::messages::{ItemName, Message};
use crate::normalize::{self, ColourWords};

pub fn status(target: &Target, item: &PreparedItem) -> Status {
    let Some(wanted) = &target.color else { return Status::Pass };
    let Some(first) = &item.first_colour else { return Status::Unknown };
    let accepted = wanted.words.all_in(first) || target.color_any.iter().any(|other| other.words.all_in(first));
    if accepted { Status::Pass } else { Status::Fail }
}

pub fn detail(target: &Target, item: &PreparedItem) -> Detail {
    let first_wanted = target.color.as_ref().map(|colour| colour.raw.as_str()).unwrap_or_default();
    let accepted: Vec<&str> =
        std::iter::once(first_wanted).chain(target.color_any.iter().map(|colour| colour.raw.as_str())).collect();
    let wanted: Vec<String> = accepted.iter().map(|colour| (*colour).to_owned()).collect();
    let name = ItemName::of(item.item);
    let colours = normalize::item_colours(item.item.color.as_deref().unwrap_or_default());
    let later_match = colours.iter().enumerate().skip(1).find(|(_, later)| {
        let later = ColourWords::new(later);
        target.color.iter().chain(&target.color_any).any(|colour| colour.words.all_in(&later))
    });
    let message = match (later_match, colours.first(), &item.item.color) {
        (Some((position, later)), Some(first), Some(actual)) => Message::ColorLater {
            wanted,
            actual: actual.clone(),
            first: first.to_string(),
            later: later.to_string(),
            position: position + 1,
            item: name,
        },
        _ => Message::Color { wanted, actual: item.item.color.clone(), item: name },
    };
    let expected = Compared::any_text(&accepted);
    Detail { expected, actual: Compared::text_or_nothing(item.item.color.as_deref()), message }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::Item;
    use crate::facts::Facts;

    fn run(wanted: &str, colour: Option<&str>) -> (Status, Detail) {
        let target = Target::shared(&Facts { color: Some(wanted.into()), ..Facts::default() });
        let item = Item { color: colour.map(Into::into), name: Some("Nike Pegasus 41".into()), ..Item::default() };
        let prepared = PreparedItem::new(&item);
        (status(&target, &prepared), detail(&target, &prepared))
    }

    #[test]
    fn first_colour_counts() {
        assert_eq!(run("white", Some("White/Black")).0, Status::Pass);
        let (status, detail) = run("black", Some("White/Black"));
        assert_eq!(status, Status::Fail);
        assert_eq!(
            detail.message.to_string(),
            "Asked for black, the cart has White/Black, which counts as White (Black is only its second colour): Nike Pegasus 41."
        );
    }

    #[test]
    fn russian_and_spelling_variants_match() {
        assert_eq!(run("black", Some("Чёрный")).0, Status::Pass);
        assert_eq!(run("черные", Some("Triple Black")).0, Status::Pass);
        assert_eq!(run("grey", Some("Gray")).0, Status::Pass);
        assert_eq!(run("blue", Some("Red")).0, Status::Fail);
        assert_eq!(run("blue", None).0, Status::Unknown);
        let (_, detail) = run("blue", Some("Red"));
        assert_eq!(detail.message.to_string(), "Asked for blue, the cart has Red: Nike Pegasus 41.");
    }
}
