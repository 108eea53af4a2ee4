//! `model`: the words of the stated model (minus the brand's words) are not
//! all in the item's name. Word-wise, so "Pegasus 41" does not match
//! "Pegasus 40" and "Pure Drive" matches "Babolat Pure Drive 2025".

use serde_json::json;

use super::{Detail, PreparedItem, Status, Target};
use crate::messages::{ItemName, Message};

pub fn status(target: &Target, item: &PreparedItem) -> Status {
    let Some(wanted) = &target.model else { return Status::Pass };
    let Some(name_words) = &item.name_words else { return Status::Unknown };
    let all_present = wanted
        .words
        .iter()
        .filter(|word| !item.brand_words.contains(word))
        .all(|word| name_words.binary_search(word).is_ok());
    if all_present { Status::Pass } else { Status::Fail }
}

pub fn detail(target: &Target, item: &PreparedItem) -> Detail {
    let wanted = target.model.as_ref().map(|model| model.raw.as_str()).unwrap_or_default();
    Detail {
        expected: json!(wanted),
        actual: json!(item.item.name),
        message: Message::Model { wanted: wanted.to_owned(), item: ItemName::of(item.item) },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::Item;
    use crate::facts::Facts;

    fn check(brand: Option<&str>, model: &str, name: Option<&str>) -> Status {
        let facts = Facts { brand: brand.map(Into::into), model: Some(model.into()), ..Facts::default() };
        let item = Item { name: name.map(Into::into), brand: Some("Nike".into()), ..Item::default() };
        status(&Target::shared(&facts), &PreparedItem::new(&item))
    }

    #[test]
    fn model_words_must_all_be_in_the_name() {
        assert_eq!(check(None, "Pegasus 41", Some("Nike Pegasus 41")), Status::Pass);
        assert_eq!(check(None, "Pegasus 41", Some("Nike Pegasus 40")), Status::Fail);
        assert_eq!(
            check(None, "Nike Pegasus 41", Some("Pegasus 41 road shoe")),
            Status::Pass,
            "item brand words are dropped"
        );
        assert_eq!(check(Some("Babolat"), "Babolat Pure Drive", Some("Pure Drive 2025")), Status::Pass);
        assert_eq!(check(None, "pure drive", Some("Babolat Pure Drive Team")), Status::Pass);
        assert_eq!(check(None, "Pure Drive Team", Some("Babolat Pure Drive")), Status::Fail);
        assert_eq!(check(None, "Pegasus", None), Status::Unknown);
    }
}
