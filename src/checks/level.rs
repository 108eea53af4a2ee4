//! `level`: the item is made for another level (`any` fits every level).

use serde_json::json;

use super::{Detail, PreparedItem, Status, Target};

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
        expected: json!(wanted),
        actual: json!(actual),
        reason: format!(
            "Asked for {wanted} level, the cart has {}: {}.",
            actual.map_or_else(|| "an item of no stated level".to_owned(), level_item),
            item.item.display_name()
        ),
    }
}

/// "a beginner item", "an intermediate item", "a pro item": the article by
/// the sound of the level's first letter (every level word starts as it is
/// spelt).
fn level_item(level: &str) -> String {
    let article = if level.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    format!("{article} {level} item")
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
            detail(&target, &PreparedItem::new(&item)).reason,
            "Asked for beginner level, the cart has an intermediate item: Babolat Pure Aero."
        );
        assert_eq!(level_item("pro"), "a pro item");
    }
}
