//! The three-valued reading of a free-text requirement against one item's
//! words (issue 28 §4): *met* (`super::requirement`), *contradicted*
//! (`super::contradiction`), or unknown. Its own file so that neither half
//! imports the other's caller.

pub use super::contradiction::{Contradiction, ProductMaterials, product_material};
use super::contradiction::{contradicted_prepared, material_said};
use super::requirement::said_prepared;
pub use super::requirement::{ItemTexts, PreparedTexts, Requirement, Said};

/// What one item's words say of a requirement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reading {
    /// The item says it.
    Met(Said),
    /// The item plainly says otherwise.
    Contradicted(Contradiction),
    /// Neither: the person is asked.
    Unknown,
    /// A shop's category ("in the flashlight category") the item's words
    /// do not name: the shop's taxonomy, which the person cannot settle
    /// and the product check already reads (what the item is), so a note,
    /// never a question.
    ShopCategory,
}

/// Reads a requirement against one item: met if its words say it, else
/// contradicted if they plainly say otherwise, else unknown. Met comes
/// first, so an item that says the asked value in one text and another
/// value in an attribute (a title "Leather Belt" over "Material: canvas")
/// is not contradicted: it contradicts itself, and the person is the one
/// to settle that.
pub fn read(requirement: &str, item: &ItemTexts) -> Reading {
    read_in(requirement, &PreparedTexts::new(item.clone()))
}

/// [`read`], on an item's texts tokenised once ([`PreparedTexts`]).
pub fn read_in(requirement: &str, item: &PreparedTexts) -> Reading {
    read_prepared(&Requirement::new(requirement), item)
}

/// [`read`], the requirement and the item's texts each tokenised once
/// ([`Requirement`], [`PreparedTexts`]): what the checks call, once per
/// requirement and item.
pub fn read_prepared(requirement: &Requirement, item: &PreparedTexts) -> Reading {
    if let Some(said) = said_prepared(requirement, item) {
        return Reading::Met(said);
    }
    if let Some(quote) = material_said(requirement, item) {
        return Reading::Met(Said { quote });
    }
    if let Some(contradiction) = contradicted_prepared(requirement, item) {
        return Reading::Contradicted(contradiction);
    }
    if requirement.names_a_category() {
        return Reading::ShopCategory;
    }
    Reading::Unknown
}

/// The products a requirement lists and nothing else ("coasters and bowls",
/// "plates, cups & bowls"): each part, in order, when there are two or
/// more and each ends in a word whose commonest sense is a product. A
/// cart-level requirement so written asks that the cart hold each, not
/// that one item be all of them (`checks::other`). `None` otherwise: a
/// list of colours or properties ("black and white") is one item's.
pub fn products_listed(requirement: &str) -> Option<Vec<String>> {
    let lexicon = super::product::lexicon();
    let spaced = requirement.replace(',', " , ");
    let mut parts: Vec<Vec<&str>> = vec![Vec::new()];
    for word in spaced.split_whitespace() {
        match crate::normalize::fold(word).as_str() {
            "and" | "&" | "," | "и" => parts.push(Vec::new()),
            _ => parts.last_mut().expect("one part at least").push(word),
        }
    }
    parts.retain(|part| !part.is_empty());
    let products = parts.len() >= 2
        && parts.iter().all(|part| {
            part.iter().all(|word| word.chars().all(char::is_alphabetic))
                && part.last().is_some_and(|last| lexicon.is_product_word(&crate::normalize::fold(last)))
        });
    products.then(|| parts.into_iter().map(|part| part.join(" ")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reading_is_met_before_contradicted_and_unknown_otherwise() {
        let item = |free: Vec<&'static str>, named: Vec<(&'static str, &'static str)>| ItemTexts { free, named };
        let canvas = item(vec!["Tactical belt"], vec![("Belt material", "canvas")]);
        assert!(matches!(read("made of leather", &canvas), Reading::Contradicted(_)));
        assert!(matches!(read("made of canvas", &canvas), Reading::Met(_)));
        // The title says leather, the attribute canvas: met, and never contradicted.
        let both = item(vec!["MEN LEATHER BELT"], vec![("Belt material", "canvas")]);
        assert!(matches!(read("made of leather", &both), Reading::Met(_)));
        // "simple" is alike "plain" in WordNet's adjective clusters.
        let plain = item(vec!["Belt"], vec![("Pattern", "plain")]);
        assert_eq!(read("simple pattern", &plain), Reading::Met(Said { quote: "plain".into() }));
        assert_eq!(read("relaxed style", &plain), Reading::Unknown);
        assert_eq!(read("65W", &item(vec!["USB-C charger 65 W"], vec![])), Reading::Met(Said { quote: "65 W".into() }));
        // A shop's category: met by the item's words, else a note.
        let penlight = item(vec!["LED Penlight Bag Clip"], vec![]);
        assert_eq!(read("bags category", &penlight), Reading::Met(Said { quote: "Bag".into() }));
        assert_eq!(read("in the flashlight category", &penlight), Reading::ShopCategory);
    }

    #[test]
    fn a_list_of_products_is_read_as_its_parts_and_a_list_of_properties_is_not() {
        assert_eq!(products_listed("coasters and bowls"), Some(vec!["coasters".to_owned(), "bowls".to_owned()]));
        assert_eq!(
            products_listed("plates, cups & bowls"),
            Some(vec!["plates".to_owned(), "cups".to_owned(), "bowls".to_owned()])
        );
        assert_eq!(products_listed("black and white"), None);
        assert_eq!(products_listed("bowls"), None);
        assert_eq!(products_listed("2 bowls and 3 plates"), None);
    }
}
