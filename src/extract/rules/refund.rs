//! Refundability: "I need to be able to return it", "returnable", "no final
//! sale", "send it back", "exchangeable", "с возможностью возврата".
//!
//! "Return" alone is not enough ("a return trip"): it counts after a word of
//! ability or need ("can return", "able to return", "need to return"), as an
//! adjective ("returnable"), or as the Russian noun, which is always about
//! returning goods. A stated indifference ("final sale is fine", "no need to
//! return", "без возврата") wins over everything else in the request.

use crate::words::class::{ATTACHING_WORDS, REFUND_WORDS, phrase_list};
use crate::words::text::Request;
use std::sync::LazyLock;

/// Words before "return" that make it a wish that the item can go back (`refund-words.txt`, `@return-wish-before`).
static RETURN_WISH_BEFORE: LazyLock<Vec<&[&str]>> = phrase_list!(REFUND_WORDS, "return-wish-before");

/// Words before "final sale" that say the person wants none (`refund-words.txt`, `@final-sale-negation`).
static FINAL_SALE_NEGATION: LazyLock<Vec<&[&str]>> = phrase_list!(REFUND_WORDS, "final-sale-negation");

/// Words before a Russian word for returns that make it a wish ("с возвратом", "чтобы можно было вернуть") (`refund-words.txt`, `@russian-wish`).
static RUSSIAN_WISH: LazyLock<Vec<&[&str]>> = phrase_list!(REFUND_WORDS, "russian-wish");

/// Words after a Russian word for returns that make it a wish ("возврат обязателен") (`refund-words.txt`, `@russian-wish-after`).
static RUSSIAN_WISH_AFTER: LazyLock<Vec<&[&str]>> = phrase_list!(REFUND_WORDS, "russian-wish-after");

/// Words after "final sale" that say the person does not mind it (`refund-words.txt`, `@final-sale-fine`).
static FINAL_SALE_FINE: LazyLock<Vec<&[&str]>> = phrase_list!(REFUND_WORDS, "final-sale-fine");

/// Whether the person asked to be able to return or exchange; the token that says it.
pub fn extract(request: &Request) -> Option<usize> {
    for index in 0..request.len() {
        let word = request.word(index);
        if indifferent_at(request, index) {
            return None;
        }
        let adjective = word.starts_with("returnable")
            || word.starts_with("refundable")
            || word.starts_with("exchangeable")
            || word == "refund"
            || word == "refunds"
            || (word.starts_with("exchange") && !names_a_product_after(request, index));
        // "I await your return": someone's return, not the goods'.
        let possessed = ATTACHING_WORDS.has_mark(request.word_before(index, 1), "someone-elses");
        // "LazMall benefits like … easy returns": a perk of the service, not a wish.
        let verb_return = matches!(word, "return" | "returns" | "returned")
            && !possessed
            && !crate::words::service::in_examples_of_a_service(request, index)
            && (request.preceded_by(index, 4, &RETURN_WISH_BEFORE)
                || request.followed_by(index, 1, &[&["it"], &["them"], &["if"], &["policy"]]));
        let send_back = word == "send" && request.followed_by(index, 2, &[&["back"]]);
        let no_final_sale = word == "final"
            && request.word(index + 1).starts_with("sale")
            && request.preceded_by(index, 4, &FINAL_SALE_NEGATION);
        let russian = (word.starts_with("возврат") || word == "вернуть" || word.starts_with("обмен"))
            && russian_wish(request, index);
        if adjective || verb_return || send_back || no_final_sale || russian {
            return Some(index);
        }
    }
    None
}

/// "a PABX exchange system": "exchange" before a product noun is part of
/// the product's name (a telephone exchange), not an exchange of goods.
fn names_a_product_after(request: &Request, index: usize) -> bool {
    request.word(index) == "exchange" && crate::words::product::lexicon().is_product_word(request.word(index + 1))
}

/// "с возвратом", "чтобы можно было вернуть", "возврат обязателен": the
/// Russian words for returns are a wish only with a word of need or
/// possibility; "возврат на озоне и так 7 дней есть" states the shop's policy.
fn russian_wish(request: &Request, index: usize) -> bool {
    request.preceded_by_within(
        index,
        4,
        &RUSSIAN_WISH,
        true,
    ) || request.followed_by(index, 2, &RUSSIAN_WISH_AFTER)
        // "вернуть если не сядет": returning it if it does not fit.
        || (request.word(index) == "вернуть" && matches!(request.word(index + 1), "если" | "в"))
}

/// "final sale is fine", "no need to return", "don't need returns", "без возврата".
fn indifferent_at(request: &Request, index: usize) -> bool {
    let word = request.word(index);
    (word == "final"
        && request.word(index + 1).starts_with("sale")
        && request.followed_by(index + 1, 3, &FINAL_SALE_FINE))
        || (word.starts_with("return")
            && request.preceded_by(index, 4, &[&["no", "need"], &["don't", "need"], &["won't"], &["never"]]))
        || (word.starts_with("возврат") && request.word_before(index, 1) == "без")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refundable(text: &str) -> bool {
        extract(&Request::new(text)).is_some()
    }

    #[test]
    fn stated_refundability() {
        for text in [
            "I need to be able to return it",
            "has to be returnable",
            "no final sale pls",
            "make sure i can send it back if it's wrong",
            "must be exchangeable in case it's not right",
            "need to return them if they don't fit",
            "с возможностью возврата",
            "главное чтобы можно было вернуть",
            "чтобы можно было обменять если не сядут",
            "возврат обязателен",
            "it can't be final sale",
        ] {
            assert!(refundable(text), "{text}");
        }
    }

    #[test]
    fn other_returns_and_indifference_are_not() {
        for text in [
            "a return trip",
            "gluten free i await your return",
            "final sale is fine",
            "no need to return it",
            "без возврата можно",
            "Nike Pegasus",
            "возврат на озоне и так 7 дней есть",
            "a PABX exchange system",
            "a bike light with LazMall benefits like authenticity guarantee and easy returns",
        ] {
            assert!(!refundable(text), "{text}");
        }
    }
}
