//! `level`: the item is made for another level (`any` fits every level).

use super::{Detail, PreparedItem, Status, Target};
use crate::finding::Compared;
use crate::messages::{ItemName, Message};

pub fn status(target: &Target, item: &PreparedItem) -> Status {
    let Some(wanted) = target.level else { return Status::Pass };
    match item.item.level {
        None => Status::Unknown,
        Some(level) if level.fits(wanted) => Status::Pass,
        Some(_) => Status::Fail,
    }
}

pub fn detail(target: &Target, item: &PreparedItem) -> Detail {
    let wanted = target.level.map(|level| level.as_str()).unwrap_or_default();
    let actual = item.item.level.map(|level| level.as_str());
    Detail {
        expected: Compared::Text(wanted.to_owned()),
        actual: Compared::text_or_nothing(actual),
        message: Message::Level {
            // A detail is built only for a rule that did not pass, which
            // needs a stated level; the default is never shown.
            wanted: target.level.unwrap_or(crate::facts::Level::Beginner),
            actual: item.item.level,
            item: ItemName::of(item.item),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::{Item, ItemLevel};
    use crate::facts::{Facts, Level};

    fn check(wanted: Level, level: Option<ItemLevel>) -> Status {
        let target = Target::shared(&Facts { level: Some(wanted), ..Facts::default() });
        let item = Item { level, ..Item::default() };
        status(&target, &PreparedItem::new(&item))
    }

    #[test]
    fn any_fits_every_level() {
        assert_eq!(check(Level::Pro, Some(ItemLevel::Any)), Status::Pass);
        assert_eq!(check(Level::Pro, Some(ItemLevel::Pro)), Status::Pass);
        assert_eq!(check(Level::Beginner, Some(ItemLevel::Pro)), Status::Fail);
        assert_eq!(check(Level::Beginner, None), Status::Unknown);
    }

    #[test]
    fn issue_13_the_article_fits_the_level() {
        let target = Target::shared(&Facts { level: Some(Level::Beginner), ..Facts::default() });
        let item =
            Item { name: Some("Babolat Pure Aero".into()), level: Some(ItemLevel::Intermediate), ..Item::default() };
        assert_eq!(
            detail(&target, &PreparedItem::new(&item)).message.to_string(),
            "Asked for beginner level, the cart has an intermediate item: Babolat Pure Aero."
        );
    }
}
