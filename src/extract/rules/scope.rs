//! Whether a request asks for several different products in one order
//! ("a shop that offers both a blue car spray handle … and a set of gaskets",
//! "First, … Second, …", "a desk fan …; an ignition cover …; and a bird toy").
//!
//! guard.md §3 facts describe one product (with `lines` for variants of it).
//! When the person lists unrelated products, a colour, size, count, brand or
//! price range said for one of them is not a fact about the order: it stays
//! with its product in `other` (LABELLING.md, "multi-product"), and only what
//! is said of the whole order (a budget, a deadline, an exclusion) remains a
//! fact. The markers are explicit on purpose: reading a single product with
//! a list of properties as several products would drop its facts.

use crate::words::class::MarkedWords;
use std::sync::LazyLock;

use crate::words::class::{LIST_WORDS, phrase_list};
use crate::words::text::Request;

/// Phrases that announce a list of products.
static LIST_MARKERS: LazyLock<Vec<&[&str]>> = phrase_list!(LIST_WORDS, "list-marker");

/// Verbs of asking for a product, after "also" ("Also, I need a fabric spray").
static ASKING: LazyLock<MarkedWords> = LazyLock::new(|| LIST_WORDS.marked_words("asking"));

/// Whether what follows a list marker can be a product: ", and also
/// offers a …", ", and also basketball shoes …" can; ", and also comes with
/// free shipping" goes on about the product before (a filler that neither
/// opens a product nor asks for one).
fn opens_a_member(request: &Request, index: usize, marker: &[&str]) -> bool {
    if marker.last() != Some(&"also") {
        return true;
    }
    let next = request.word(index + marker.len());
    // ", and also a lightweight bike helmet": an article opens a member.
    !crate::words::is_filler(next)
        || matches!(next, "a" | "an")
        || ASKING.contains(&next)
        || crate::words::class::SHOP_FRAME.has_mark(next, "opens")
}

/// Whether the request names several unrelated products.
pub fn several_products(request: &Request) -> bool {
    let voucher = super::clause::voucher_start(request).unwrap_or(usize::MAX);
    marked_list(request) || super::chunk::several_products(request, voucher)
}

/// Whether the words of the clause before `index` (back to a sentence end,
/// a comma or a colon) hold a word that can head a product phrase
/// (`products::is_head_word`).
fn names_a_product_before(request: &Request, index: usize) -> bool {
    (0..index)
        .rev()
        .take_while(|at| !matches!(request.word(*at), "." | "!" | "?" | ";" | ":" | ","))
        .any(|at| super::products::is_head_word(request.word(at)))
}

/// Whether the words say they list several products: a marker, ordinals,
/// article-led items. Within one product's segment (`products::segments`)
/// only these count: its unmarked nouns ("triple cameras, OLED display")
/// are its parts, since the segments were cut where the list said so.
pub fn marked_list(request: &Request) -> bool {
    let mut ordinals = 0usize;
    let mut article_items = 0usize;
    for index in 0..request.len() {
        let word = request.word(index);
        if LIST_MARKERS.iter().any(|marker| request.phrase_at(index, marker) && opens_a_member(request, index, marker))
        {
            return true;
        }
        // "a shop that offers", "shops offering", "a store that sells".
        if LIST_WORDS.has_mark(word, "shop-noun")
            && (index + 1..index + 4).any(|at| LIST_WORDS.has_mark(request.word(at), "shop-offers"))
        {
            return true;
        }
        // "offers both a …", "sells both an …".
        if word == "both" && matches!(request.word(index + 1), "a" | "an") {
            return true;
        }
        // "First, …", "Second, …", "(1) … (2)".
        let ordinal = LIST_WORDS.has_mark(word, "ordinal-opener")
            && (matches!(request.word(index + 1), "," | "item" | ":") || request.word_before(index, 1) == "the");
        let numbered =
            word == "(" && matches!(request.word(index + 1), "1" | "2" | "3") && request.word(index + 2) == ")";
        if ordinal || numbered {
            ordinals += 1;
        }
        // "Also, I need a …", "also, show …", "Additionally, I'm interested in …".
        if LIST_WORDS.has_mark(word, "also") {
            let mut at = index + 1;
            while (request.word(at) == "," || LIST_WORDS.has_mark(request.word(at), "after-also")) && at < index + 4 {
                at += 1;
            }
            if ASKING.contains(&request.word(at)) || ASKING.contains(&request.word(at.saturating_sub(1))) {
                return true;
            }
        }
        // "a multicolor cake decoration and a green casual jacket": two
        // products of two words or more each, no "with"/"in"/"of" between
        // ("a lamp with a glass shade and a satin finish" is one).
        // "… and a protection plan" (issue 29): an add-on, not a product.
        // "a mouse and a keyboard": two kinds of thing, however short.
        if word == "and"
            && matches!(request.word(index + 1), "a" | "an")
            && (two_products_joined(request, index) || super::products::two_kinds_joined(request, index))
            && !addon_after(request, index + 2)
        {
            return true;
        }
        // "a Fujifilm Instax Mini 12 and two packs of film", where the words
        // before "and" name a product of their own ("I want 5 kg Aashirvaad
        // atta and 2 packets of Tata salt" is left as it was read).
        if word == "and"
            && crate::words::count::counts_packs_of(request, index + 1)
            && names_a_product_before(request, index)
        {
            return true;
        }
        // ", a …", "; an …", ", and a …": a list of products with articles.
        if matches!(word, "," | ";") {
            let mut at = index + 1;
            if request.word(at) == "and" {
                at += 1;
            }
            if matches!(request.word(at), "a" | "an") {
                article_items += 1;
            }
        }
    }
    // Lists nobody marks ("a red hoodie and black jeans": two product
    // phrases with different heads) are `chunk`'s.
    ordinals >= 2 || article_items >= 2
}

/// Whether the words from `from` to the end of its clause are an add-on
/// (`words::charges::addon`: "protection plan", "gift wrap").
fn addon_after(request: &Request, from: usize) -> bool {
    let words: Vec<&str> = (from..request.len())
        .take_while(|at| request.same_clause(from, *at))
        .filter(|at| request.is_word(*at))
        .map(|at| request.word(at))
        .collect();
    !words.is_empty() && crate::words::charges::addon(&words.join(" ")).is_some()
}

/// Whether "and a" at `and` joins two article-led noun phrases of two words
/// or more within one clause, with no word that attaches the second to the
/// first.
fn two_products_joined(request: &Request, and: usize) -> bool {
    let Some(article) = super::products::free_standing_article(request, and) else {
        return false;
    };
    let second_long =
        (and + 2..and + 5).filter(|index| request.is_word(*index) && request.same_clause(*index, and)).count() >= 2;
    and - article > 2 && second_long
}

#[cfg(test)]
mod tests {
    use super::*;

    fn several(text: &str) -> bool {
        several_products(&Request::new(text))
    }

    #[test]
    fn lists_of_products() {
        assert!(several("Looking for a shop offering both a blue car spray handle, and a set of gaskets"));
        assert!(several("First, a tattoo supply in black. Second, a construction tool. Third, a plush toy"));
        assert!(several("(1) A bag strap, pink color; (2) A crossbody strap"));
        assert!(several("a fabric conditioner. Also, I need a fabric spray in a bottle"));
        assert!(several("a desktop fan with 6 blades; an ignition switch cover; and a bird pet supply"));
        assert!(several("a small tip box, a wooden coin bank, and a high quality tip box"));
        assert!(several("a serum for acne, and also hair clips made of agate"));
        assert!(several("I'm looking for a multicolor cake decoration and a green casual jacket in XL size"));
        assert!(several(
            "tribu sandals in black, size us:6; also, tribu white slippers, size us:6; plus, navy slippers"
        ));
        assert!(several("I want buy two things: one non-stick frying pan 28 cm, and a set of 6 wine glasses"));
        assert!(several(
            "Show me a plastic bike accessory with LazMall benefits, and also a pair of wrist supports with free delivery."
        ));
        assert!(several(
            "I'm looking for a ginseng product in a bag. Additionally, I'm interested in a pickleball paddle."
        ));
    }

    #[test]
    fn one_product_with_many_properties() {
        assert!(!several("i need red pump shoes for party or formal wear with rubber sole and size 7.5"));
        assert!(!several(
            "Show me red wireless speakers that have a built-in battery, are waterproof, and support Bluetooth."
        ));
        assert!(!several("i would like a 13.25 by 8 inch vanity light with a glass shade and a satin nickel finish"));
        assert!(!several("im looking for a gluten free vegetable powder. also, choose three beet flavor one"));
        assert!(!several("i need a black, rubber sole workboot in size 11.5"));
        assert!(!several("a unisex t-shirt for both men and women"));
        assert!(!several("i want a black and a white shirt"));
        assert!(!several("a yellow cooking oil, organic, over 111 PHP, and also comes with free shipping"));
        assert!(several("a black men's bracelet with LazFlash deals, and also offers a blue garland"));
    }

    #[test]
    fn two_kinds_joined_by_and_however_short() {
        assert!(several("a mouse and a keyboard"));
        assert!(several("a computer mouse and a keyboard"));
        assert!(several("a Logitech MX Master 3S mouse and an MX Keys S keyboard, under $250 in total"));
        assert!(several("I need a cup and a saucer"));
        // One kind, or a second phrase attached to the first.
        assert!(!several("i want a black and a white shirt"));
        assert!(!several("a lamp with a shade and a finish"));
        assert!(!several("a shirt and a shirt"));
    }
}
