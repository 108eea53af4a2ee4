//! `model`: the words of the stated model (minus the brand's words) are not
//! all in the item's name. Word-wise, so "Pegasus 41" does not match
//! "Pegasus 40" and "Pure Drive" matches "Babolat Pure Drive 2025". An item
//! that fits one of the candidate models (`model_any`) passes.

use super::{Detail, ModelWanted, PreparedItem, Status, Target};
use crate::finding::Compared;
use crate::messages::{ItemName, Message};

pub fn status(target: &Target, item: &PreparedItem) -> Status {
    let Some(wanted) = &target.model else { return Status::Pass };
    let Some(name_words) = &item.name_words else { return Status::Unknown };
    let fits = |model: &ModelWanted| {
        model
            .words
            .iter()
            .filter(|word| !item.brand_words.contains(word))
            .all(|word| name_words.binary_search(word).is_ok())
    };
    if fits(wanted) || target.model_any.iter().any(fits) { Status::Pass } else { Status::Fail }
}

pub fn detail(target: &Target, item: &PreparedItem) -> Detail {
    let accepted: Vec<String> = target.model.iter().chain(&target.model_any).map(|model| model.raw.clone()).collect();
    Detail {
        expected: Compared::any_text(&accepted),
        actual: Compared::text_or_nothing(item.item.name.as_deref()),
        message: Message::Model { wanted: accepted, item: ItemName::of(item.item) },
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

    #[test]
    fn candidate_models_pass_one_and_name_every_one() {
        let facts = Facts { model: Some("Pegasus 41".into()), model_any: vec!["Vomero 17".into()], ..Facts::default() };
        let target = Target::shared(&facts);
        let vomero = Item { name: Some("Nike Vomero 17".into()), brand: Some("Nike".into()), ..Item::default() };
        assert_eq!(status(&target, &PreparedItem::new(&vomero)), Status::Pass);
        let structure = Item { name: Some("Nike Structure 25".into()), brand: Some("Nike".into()), ..Item::default() };
        let prepared = PreparedItem::new(&structure);
        assert_eq!(status(&target, &prepared), Status::Fail);
        let detail = detail(&target, &prepared);
        assert_eq!(detail.expected, Compared::AnyText { any_of: vec!["Pegasus 41".into(), "Vomero 17".into()] });
        assert_eq!(
            detail.message.to_string(),
            "Asked for the model Pegasus 41 or Vomero 17, the cart has Nike Structure 25."
        );
    }
}
