//! `size`: the item's size is not the stated size (nor one of the other
//! sizes the person accepts, `size_any`). Filler words, a decimal
//! comma and spelled-out letter sizes are ignored; a size system counts only
//! when both sides name one (see `normalize::Size`).

use super::{Detail, PreparedItem, Status, Target};
use crate::finding::Compared;
use crate::messages::{ItemName, Message};

pub fn status(target: &Target, item: &PreparedItem) -> Status {
    let Some(wanted) = &target.size else { return Status::Pass };
    let Some(size) = &item.size else { return Status::Unknown };
    let accepted = size.accepts(&wanted.size) || target.size_any.iter().any(|other| size.accepts(&other.size));
    if accepted { Status::Pass } else { Status::Fail }
}

pub fn detail(target: &Target, item: &PreparedItem) -> Detail {
    let first = target.size.as_ref().map(|size| size.raw.as_str()).unwrap_or_default();
    let accepted: Vec<&str> =
        std::iter::once(first).chain(target.size_any.iter().map(|size| size.raw.as_str())).collect();
    let expected = Compared::any_text(&accepted);
    Detail {
        expected,
        actual: Compared::text_or_nothing(item.item.size.as_deref()),
        message: Message::Size {
            wanted: accepted.iter().map(|size| (*size).to_owned()).collect(),
            actual: item.item.size.clone(),
            item: ItemName::of(item.item),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::Item;
    use crate::facts::Facts;

    fn run(wanted: &str, size: Option<&str>) -> (Status, Detail) {
        let target = Target::shared(&Facts { size_label: Some(wanted.into()), ..Facts::default() });
        let item = Item { size: size.map(Into::into), name: Some("Nike Pegasus 41".into()), ..Item::default() };
        let prepared = PreparedItem::new(&item);
        (status(&target, &prepared), detail(&target, &prepared))
    }

    #[test]
    fn sizes_follow_the_spec_examples() {
        assert_eq!(run("42", Some("EU 42")).0, Status::Pass);
        assert_eq!(run("size 42", Some("42")).0, Status::Pass);
        assert_eq!(run("42,5", Some("42.5")).0, Status::Pass);
        assert_eq!(run("M", Some("Medium")).0, Status::Pass);
        assert_eq!(run("US 9", Some("EU 9")).0, Status::Fail);
        assert_eq!(run("42", None).0, Status::Unknown);
        // A marketplace's "international" letter sizes, and who a size fits.
        assert_eq!(run("large", Some("int:l")).0, Status::Pass);
        assert_eq!(run("medium", Some("int:l")).0, Status::Fail);
        assert_eq!(run("4XL", Some("4xl(80-90kg)")).0, Status::Pass);
        assert_eq!(run("3XL", Some("3xl 65-70kg")).0, Status::Pass, "sbmulti-149");
        assert_eq!(run("2XL", Some("3xl 65-70kg")).0, Status::Fail);
        assert_eq!(run("65-70kg", Some("65-70kg")).0, Status::Pass, "a range alone is the label");
        assert_eq!(run("XL", Some("xl【60-68kg】")).0, Status::Pass, "sbbudget-210: who it fits, in brackets");
        assert_eq!(run("40", Some("other: 40")).0, Status::Pass, "sbbudget-123: a size in no listed system");
        // sbbudget-006: one size as an age and a height.
        assert_eq!(run("2-3 years", Some("2-3y, 100cm")).0, Status::Pass);
        assert_eq!(run("100cm", Some("2-3y, 100cm")).0, Status::Pass);
        assert_eq!(run("3-4 years", Some("2-3y, 100cm")).0, Status::Fail);
        assert_eq!(run("4 yrs old", Some("4Y")).0, Status::Pass);
        assert_eq!(run("4", Some("4Y")).0, Status::Fail, "a bare number is no age");
        assert_eq!(run("42", Some("42,5")).0, Status::Fail, "a decimal comma parts nothing");
        let (status, detail) = run("42", Some("EU 44"));
        assert_eq!(status, Status::Fail);
        assert_eq!(detail.message.to_string(), "Asked for size 42, the cart has EU 44: Nike Pegasus 41.");
    }
}
