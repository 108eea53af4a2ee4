//! Product phrases: a request split into the noun phrases that name the
//! products asked for ("a red hoodie and black jeans size 32", "X, Y, and
//! brass Z", "шарф кашемировый, не серый, и перчатки 7 размера").
//!
//! `scope` finds lists of products by their explicit markers ("these items",
//! "First, … Second, …"); this chunker finds the lists nobody marks. It cuts
//! the request at list separators (`,` `;` `.` "and" "plus" "и" "а также";
//! not "&", which joins names: "bath & body brushes"), and gives each piece
//! a *head*: the last word of a documented list of product nouns
//! (`extractors/words/product-nouns*.txt`) before the first word that
//! attaches a phrase to it ("with", "for", "that", "для", …).
//! Two pieces with different heads are two products; then a colour, size,
//! brand or count said in one of them is that product's, never the order's
//! (`several_products` → `other`, LABELLING.md "multi-product").
//!
//! Precision first, in the direction that cannot invent a fact: a request
//! wrongly read as several keeps every word in `other` (one more question);
//! one wrongly read as a single product makes one product's colour the
//! whole order's (a right cart stopped). Still, single products with lists
//! of properties must stay single, so:
//! - a noun after an attaching word is not a head ("a lamp with a glass
//!   shade", "a case for my phone", "speakers that have a battery");
//! - a piece right after such a phrase continues it while it has no
//!   article and is joined by a bare "and" or is at most two words ("a bag
//!   for shoes and clothes", "with free delivery and cash on delivery");
//! - "X and Y set/kit/combo" is one product; a noun after "my", "your" is
//!   what the product fits, not a product;
//! - the same head twice is one product said twice (variants are `lines`).
//!
//! Linear in the request; no allocation per token beyond the pieces.

use crate::words::class::MarkedWords;
use std::sync::LazyLock;

use crate::words::class::{ATTACHING_WORDS, LIST_WORDS, SHOP_FRAME};
use crate::words::noun::{is_product_noun, product_stem};
use crate::words::text::Request;

/// Words that attach what follows to the noun before them: a product noun
/// after one is a part, a purpose or a device, not another product.
static ATTACHING: LazyLock<MarkedWords> = LazyLock::new(|| ATTACHING_WORDS.marked_words("chunk"));

/// Words after the last noun that make "X and Y …" one product.
static ONE_PRODUCT_AFTER: LazyLock<MarkedWords> = LazyLock::new(|| LIST_WORDS.marked_words("one-product-after"));

/// How a piece is joined to the one before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Joint {
    /// The first piece.
    Start,
    /// "and", "plus", "и" with no punctuation before.
    And,
    /// Punctuation alone (a list of properties or of products).
    Mark,
    /// Punctuation and "and": the last item of a list.
    MarkAnd,
}

/// One product phrase: its tokens and the token of its head, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Phrase {
    pub start: usize,
    pub end: usize,
    pub head: Option<usize>,
    /// Whether the piece ends inside a phrase attached to its noun ("… with
    /// free delivery"), so a piece after it may continue that phrase.
    open: bool,
    /// Whether that phrase says what the product is for or fits ("for
    /// shoes", "для бега") or what it has ("with a crew neck"): then a bare
    /// noun joined by "and" is more of the same ("and socks", "and short
    /// sleeves").
    purpose: bool,
    /// Whether the head is said as one already known ("the camera needs
    /// …", "its strap"): after another product, a part of it or the same one.
    definite: bool,
}

/// Whether a folded word attaches what follows to the noun before it.
pub fn is_attaching(word: &str) -> bool {
    ATTACHING.contains(&word)
}

fn is_separator(word: &str) -> bool {
    matches!(word, "," | ";" | "." | "!" | "?" | ":" | "and" | "plus" | "и")
}

/// The product phrases of `request` up to `end` (exclusive): every piece
/// between list separators, with pieces that continue an attached phrase
/// merged into the one before.
pub fn phrases(request: &Request, end: usize) -> Vec<Phrase> {
    let end = end.min(request.len());
    let mut pieces: Vec<Phrase> = Vec::new();
    let mut index = 0;
    let mut joint = Joint::Start;
    // "dog houses, hotel trolleys, and pet backpacks": only in a list that
    // ends in ", and" is a plural the short list of product nouns does not
    // hold read as a piece's head (`is_plural_kind`); elsewhere "Our dog
    // sheds", "beans, 1 kg bag" are no list of products.
    let listed = (1..end).any(|at| request.word(at) == "and" && request.word_before(at, 1) == ",");
    while index < end {
        // Separators between pieces: ", and", ". ", "и", "а также".
        let mut saw_mark = false;
        let mut saw_and = false;
        // Only a comma, with or without "and", goes on a list of kinds.
        let mut saw_other_mark = false;
        while index < end && (is_separator(request.word(index)) || request.phrase_at(index, &["а", "также"])) {
            if request.is_word(index) {
                saw_and = true;
            } else {
                saw_mark = true;
                saw_other_mark |= request.word(index) != ",";
            }
            index += if request.phrase_at(index, &["а", "также"]) { 2 } else { 1 };
        }
        if index >= end {
            break;
        }
        if !pieces.is_empty() {
            joint = if saw_mark && saw_and {
                Joint::MarkAnd
            } else if saw_mark {
                Joint::Mark
            } else if saw_and {
                Joint::And
            } else {
                joint
            };
        }
        let start = index;
        // "a fabric conditioner (1 piece, box packaging) with …": what the
        // parentheses hold is the product's own, whatever separates it.
        let mut depth = 0usize;
        while index < end
            && (depth > 0 || (!is_separator(request.word(index)) && !request.phrase_at(index, &["а", "также"])))
        {
            match request.word(index) {
                "(" => depth += 1,
                ")" => depth = depth.saturating_sub(1),
                _ => {}
            }
            index += 1;
        }
        let in_a_list = joint == Joint::Start || (matches!(joint, Joint::Mark | Joint::MarkAnd) && !saw_other_mark);
        let piece = read_piece(request, start, index - 1, listed && in_a_list);
        match pieces.last_mut() {
            Some(last) if continues(request, last, &piece, joint) => {
                last.end = piece.end;
            }
            _ => pieces.push(piece),
        }
    }
    pieces
}

/// The head and the openness of the piece `start..=end`; `plural_kinds`:
/// whether a plural the product lexicon names may head it.
fn read_piece(request: &Request, start: usize, end: usize, plural_kinds: bool) -> Phrase {
    let mut head = None;
    let mut open = false;
    let mut purpose = false;
    for at in start..=end {
        let word = request.word(at);
        if ATTACHING.contains(&word) {
            // Before any noun, "looking for", "ищу для" do not attach.
            if head.is_some() {
                open = true;
                purpose = crate::words::class::ATTACHING_WORDS.has_mark(word, "purpose");
                break;
            }
            continue;
        }
        let owned = ATTACHING_WORDS.has_mark(request.word_before(at, 1), "owner");
        if is_product_noun(word) && !owned && !request.is_consumed(at) {
            head = Some(at);
        }
    }
    // "dog houses, hotel trolleys, and pet backpacks": a plural that ends
    // the piece's noun phrase names a thing in WordNet's commonest sense,
    // though the short list of product nouns does not hold it.
    // A plural with no word before it ("…, and works with 220V") may be a
    // verb: the kind has a word that says which ("hotel trolleys").
    if head.is_none() && plural_kinds {
        head = last_noun_phrase_word(request, start, end).filter(|at| {
            *at > start
                && request.is_word(at - 1)
                && !crate::words::is_filler(request.word(at - 1))
                && is_plural_kind(request.word(*at))
        });
    }
    let definite =
        head.is_some_and(|head| (start..head).any(|at| ATTACHING_WORDS.has_mark(request.word(at), "definite")));
    Phrase { start, end, head, open, purpose, definite }
}

/// The last word of the piece `start..=end` before a word that attaches a
/// phrase to it, if it is a word.
fn last_noun_phrase_word(request: &Request, start: usize, end: usize) -> Option<usize> {
    let mut last = None;
    for at in start..=end {
        let word = request.word(at);
        if ATTACHING.contains(&word) && last.is_some() {
            break;
        }
        last = request.is_word(at).then_some(at);
    }
    last
}

/// Whether a folded word is a plural ("trolleys", "houses") whose singular's
/// commonest WordNet sense is a product (`words::product::Lexicon`), and
/// not a word of the shop's frame ("products", "items").
fn is_plural_kind(word: &str) -> bool {
    has_plural_ending(word) && !SHOP_FRAME.contains(word) && crate::words::product::lexicon().is_product_word(word)
}

/// Whether a folded word looks like an English plural of a noun of some
/// length: "houses", "grips", not "bus", "dress".
pub(super) fn has_plural_ending(word: &str) -> bool {
    word.len() > 3 && word.ends_with('s') && !word.ends_with("ss")
}

/// Whether `piece` continues the phrase before it: "with free delivery and
/// cash on delivery", "for shoes and socks", "with a crew neck and short
/// sleeves", "in size 4XL with a check pattern, long sleeves", "shampoo and
/// conditioner set"; not "a red hoodie in size M and black jeans", nor the
/// last item after ", and".
fn continues(request: &Request, before: &Phrase, piece: &Phrase, joint: Joint) -> bool {
    if before.open && piece.head.is_none() {
        return true;
    }
    // "a black t-shirt, size large, with a shirt collar": a piece that opens
    // with an attaching word after a comma or "and" is said of the product
    // before; its noun is a part. Not after a sentence's end or a
    // semicolon, and not "for"/"для" ("…. For my son, gloves").
    let first = request.word(piece.start);
    if is_attaching(first)
        && !crate::words::class::ATTACHING_WORDS.has_mark(first, "recipient")
        && matches!(request.word_before(piece.start, 1), "," | "and" | "и")
    {
        return true;
    }
    let words = (piece.start..=piece.end).filter(|at| request.is_word(*at)).count();
    // Russian has no articles: a piece that opens with a product noun and
    // has its own attached phrase ("и шапку к нему", "и кондиционер для
    // белья") after a phrase whose object is no product ("на рост 86", "для
    // стирки") is a second product, while "чехол на телефон и планшет" and
    // "сумка для ноутбука и зарядки" (genitive or plural, the list cannot
    // tell) join two objects of one phrase.
    let object_is_product =
        || (before.head.map_or(before.start, |head| head + 1)..=before.end).any(|at| is_product_noun(request.word(at)));
    let article = ATTACHING_WORDS.has_mark(request.word(piece.start), "article")
        || (piece.open && piece.head == Some(piece.start) && request.is_cyrillic() && !object_is_product());
    let more_of_the_phrase = (joint == Joint::And && before.purpose) || (joint == Joint::Mark && words <= 3);
    if before.open && !article && more_of_the_phrase {
        return true;
    }
    // "a shampoo and conditioner set": the set is one product.
    let set_after = piece.head.is_some_and(|head| ONE_PRODUCT_AFTER.contains(&request.word(head + 1)));
    joint == Joint::And && set_after
}

/// Whether the request names two or more different products (different
/// heads) before `end` (the voucher's rules, say).
pub fn several_products(request: &Request, end: usize) -> bool {
    let pieces = phrases(request, end);
    let mut first: Option<&str> = None;
    for piece in &pieces {
        let Some(head) = piece.head else { continue };
        let head = product_stem(request.word(head));
        match first {
            None => first = Some(head),
            // "… phone with 256 GB. The camera needs …": a part of it.
            Some(_) if piece.definite => {}
            Some(known) if known != head => return true,
            Some(_) => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn several(text: &str) -> bool {
        several_products(&Request::new(text), usize::MAX)
    }

    #[test]
    fn plurals_take_es_only_after_their_endings() {
        assert!(is_product_noun("dresses") && is_product_noun("watches") && is_product_noun("boxes"));
        assert!(!is_product_noun("hates"));
    }

    #[test]
    fn plural_forms_are_product_nouns() {
        for word in ["valves", "connectors", "hoodies", "batteries", "dresses", "jeans", "кроссовки"] {
            assert!(is_product_noun(word), "{word}");
        }
        for word in ["free", "delivery", "black", "size", "bluetooth"] {
            assert!(!is_product_noun(word), "{word}");
        }
    }

    #[test]
    fn unmarked_lists_of_products() {
        assert!(several("a red hoodie and black jeans size 32"));
        assert!(several("a red hoodie in size M and black jeans"));
        assert!(several("solenoid valves with free delivery, dc12v valves, and brass shower connectors"));
        assert!(several("шарф кашемировый, не серый, и перчатки 7 размера"));
        assert!(several("бананы 1 кг, молоко 2 пакета, хлеб бородинский"));
        assert!(several("I need a phone case for my iphone and a white charger"));
        assert!(several("a wool scarf. Also gloves in size 8"));
        assert!(several("куртку зимнюю синюю а также шапку"));
        assert!(several("Нужны кроссовки белые 42 размера и носки черные"));
        assert!(several("молоко 2 литра, гречку и сметану"));
        assert!(several("black backpacks for a motorbike, one size; and also taupe loafers, size US 7.5"));
        assert!(several("a kitchen knife made from aluminium, and a prepaid sim card"));
        // No articles in Russian: a product noun opening the piece after a
        // phrase with no product in it starts a second product.
        assert!(several("комбинезон детский на рост 86 и шапку к нему"));
        assert!(several("гель для стирки 3л 2 бутылки и кондиционер для белья"));
        // Plurals the short noun list lacks, in a list that ends in ", and".
        assert!(several("Show me dog houses, hotel trolleys, and pet backpacks"));
        assert!(several(
            "medium-sized dog houses that are water-resistant, hotel trolleys with free shipping, and grey pet backpacks"
        ));
    }

    #[test]
    fn a_plural_the_noun_list_lacks_heads_a_piece_only_in_a_list_that_ends_in_comma_and() {
        // No ", and": "sheds" and "beans" stay words of one product.
        assert!(!several("Looking for a stretchy 3 seater sofa cover, under €50. Our dog sheds like mad"));
        assert!(!several("lavazza super crema beans, 1 kg bag, two of them"));
        // Joined by a bare "and", or after a sentence's end: no list.
        assert!(!several(
            "a water pump for a Hatari fan, and works with 220V. Show me spare parts in the pump category"
        ));
        // A word of the shop's frame names no product.
        assert!(!several("Show me facial products with collagen, and a whitening lotion"));
    }

    #[test]
    fn one_product_with_properties_or_parts() {
        assert!(!several("i need a black, rubber sole workboot in size 11.5"));
        assert!(!several(
            "Show me red wireless speakers that have a built-in battery, are waterproof, and support Bluetooth."
        ));
        assert!(!several("a 13.25 by 8 inch vanity lamp with a glass shade and a satin nickel finish"));
        assert!(!several("a laundry bag for shoes and socks"));
        assert!(!several("a black unisex t-shirt, size large, with a shirt collar, plain pattern, regular fit"));
        assert!(!several("a black metal floor lamp, with a swing arm, and with a fabric shade"));
        assert!(!several(
            "a fabric conditioner (1 piece, box packaging, cherry blossom scent) with price from 261 PHP"
        ));
        assert!(!several("a laundry bag for shoes, socks"));
        assert!(!several("a green long handle bath & body brushes"));
        assert!(!several("black cotton t-shirts in medium with a crew neck and short sleeves"));
        assert!(!several("ladies shirts in size 4XL with a check pattern, long sleeves, and free delivery"));
        assert!(!several("a shampoo and conditioner set for dry hair"));
        assert!(!several("i want a black and a white shirt"));
        assert!(!several("a phone case, black, that fits my phone"));
        assert!(!several("чехол на телефон и планшет"));
        assert!(!several("сумка для обуви и одежды"));
        assert!(!several("noise cancelling headphones. The headphones should be black"));
        assert!(!several("a grey samsung phone with 256 gb. the camera needs an optical zoom"));
        assert!(!several("кроссовки adidas для бега, мне 44 а сыну 38"));
        assert!(!several("Ищу чехол на телефон, прозрачный, не дороже 900 рублей"));
        assert!(!several("сумка для ноутбука и зарядки, черная"));
        assert!(!several("кроссовки белые и легкие, 42 размера"));
    }
}
