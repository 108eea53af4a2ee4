//! `product`: the item is plainly another kind of thing than the person
//! asked for (issue 28 §3): its name's head noun is a different product
//! ("Crew Socks" for running shoes), or the requested noun is only a
//! modifier or comes after "for" ("Running Shoe Bag", "Case for iPhone 15").
//! Precision first: only an item the lexicon reads as plainly another kind
//! fails; a name that names the product, or leaves it open, passes to the
//! other checks. Runs only under the `words` check policy (the facts carry
//! no `product` under `spec`).

use super::{Detail, PreparedItem, Status, Target};
use crate::finding::Compared;
use crate::messages::{ItemName, Message};

pub fn status(target: &Target, item: &PreparedItem) -> Status {
    let Some(wanted) = &target.product else {
        return Status::Pass;
    };
    // The words the person used for this product besides its kind: its
    // model and brand.
    let named: Vec<String> = target
        .model
        .iter()
        .chain(&target.model_any)
        .flat_map(|model| model.words.iter().cloned())
        .chain(target.brand.iter().flat_map(|brand| brand.words.iter().cloned()))
        .collect();
    if item.is_other_kind(wanted, target.product_noun(), &named) { Status::Fail } else { Status::Pass }
}

pub fn detail(target: &Target, item: &PreparedItem) -> Detail {
    let wanted = target.product.clone().unwrap_or_default();
    Detail {
        expected: Compared::Text(wanted.clone()),
        actual: Compared::text_or_nothing(item.item.name.as_deref()),
        message: Message::Product { wanted, item: ItemName::of(item.item) },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::Item;
    use crate::facts::Facts;

    fn check(product: &str, name: &str) -> Status {
        let facts = Facts { product: Some(product.into()), ..Facts::default() };
        let item = Item { name: Some(name.into()), ..Item::default() };
        status(&Target::shared(&facts), &PreparedItem::new(&item))
    }

    #[test]
    fn another_kind_of_thing_fails_and_the_product_or_an_open_name_passes() {
        assert_eq!(check("running shoes", "Nike Everyday Cushioned Crew Socks"), Status::Fail);
        assert_eq!(check("running shoes", "Nike Pegasus 41 Road Running Shoes"), Status::Pass);
        assert_eq!(check("running shoes", "Nike Pegasus 41"), Status::Pass, "a model name leaves it open");
        assert_eq!(check("чехол", "Чехол для iPhone 15"), Status::Pass);
        let no_product = Target::shared(&Facts::default());
        let socks = Item { name: Some("Crew Socks".into()), ..Item::default() };
        assert_eq!(status(&no_product, &PreparedItem::new(&socks)), Status::Pass);
    }

    #[test]
    fn the_items_own_brand_is_never_its_kind() {
        use crate::cart::{ItemWords, NamedValue};
        let facts = Facts { product: Some("incense burner".into()), ..Facts::default() };
        let mut item = Item { name: Some("Original HEM Dhoop Chandan Imported".into()), ..Item::default() };
        assert_eq!(status(&Target::shared(&facts), &PreparedItem::new(&item)), Status::Fail);
        item.words = ItemWords { attributes: vec![NamedValue::new("Brand", "HEM")], ..ItemWords::default() };
        assert_eq!(status(&Target::shared(&facts), &PreparedItem::new(&item)), Status::Pass);
    }

    #[test]
    fn the_reason_names_the_product_and_the_item() {
        let facts = Facts { product: Some("running shoes".into()), ..Facts::default() };
        let item = Item { name: Some("Nike Everyday Cushioned Crew Socks".into()), ..Item::default() };
        let detail = detail(&Target::shared(&facts), &PreparedItem::new(&item));
        assert_eq!(detail.expected, Compared::Text("running shoes".into()));
        assert_eq!(
            detail.message.to_string(),
            "You asked for running shoes; the cart has \u{201c}Nike Everyday Cushioned Crew Socks\u{201d}."
        );
    }
}
