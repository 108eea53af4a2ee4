//! Free shipping: "free shipping", "free delivery", "complimentary
//! shipping", "shipping is free",
//! "бесплатная доставка", "доставка бесплатно" (issue 28 §5).
//!
//! A negated or waived wish ("no free shipping needed", "without free
//! delivery", "не нужна бесплатная доставка") is none: the words stay the
//! person's and are read as requirements are.

use std::sync::LazyLock;

use crate::words::class::phrase_list;
use crate::words::text::Request;

/// Words a wish for free shipping must not follow, in its clause
/// (`negations.txt`, `@shipping`).
static NEGATIONS: LazyLock<Vec<&[&str]>> = phrase_list!(crate::words::class::NEGATIONS, "shipping");

/// Where the person asks for free shipping: the first and last token.
pub fn extract(request: &Request) -> Option<(usize, usize)> {
    (0..request.len()).find_map(|index| {
        if request.is_consumed(index) {
            return None;
        }
        let word = request.word(index);
        let next = request.word(index + 1);
        let shipping = |word: &str| matches!(word, "shipping" | "delivery" | "ship");
        let span = if matches!(word, "free" | "complimentary") && shipping(next) {
            Some((index, index + 1))
        } else if shipping(word) && matches!(next, "is" | "be") && request.word(index + 2) == "free" {
            Some((index, index + 2))
        } else if (word.starts_with("бесплатн") && next.starts_with("доставк"))
            || (word.starts_with("доставк") && next.starts_with("бесплатн"))
        {
            Some((index, index + 1))
        } else {
            None
        }?;
        let negated = request.preceded_by(span.0, 3, &NEGATIONS)
            || request.followed_by(
                span.1,
                2,
                &[&["not", "needed"], &["is", "not"], &["не", "нужна"], &["не", "обязательна"]],
            );
        (!negated && (span.0..=span.1).all(|at| !request.is_consumed(at))).then_some(span)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(text: &str) -> Option<String> {
        let request = Request::new(text);
        extract(&request).map(|(first, last)| request.original(first, last))
    }

    #[test]
    fn issue_28_free_shipping_is_read_in_english_and_russian() {
        assert_eq!(said("running shoes with free shipping").as_deref(), Some("free shipping"));
        assert_eq!(said("a lamp, free delivery please").as_deref(), Some("free delivery"));
        assert_eq!(said("the shipping is free").as_deref(), Some("shipping is free"));
        assert_eq!(said("a spray handle with complimentary shipping").as_deref(), Some("complimentary shipping"));
        assert_eq!(said("кроссовки, бесплатная доставка").as_deref(), Some("бесплатная доставка"));
        assert_eq!(said("чехол с бесплатной доставкой").as_deref(), Some("бесплатной доставкой"));
        assert_eq!(said("доставка бесплатная, размер 42").as_deref(), Some("доставка бесплатная"));
    }

    #[test]
    fn issue_28_a_negated_wish_or_other_words_are_not_free_shipping() {
        assert_eq!(said("no free shipping needed"), None);
        assert_eq!(said("without free delivery is fine"), None);
        assert_eq!(said("не нужна бесплатная доставка"), None);
        assert_eq!(said("fast shipping"), None);
        assert_eq!(said("a free gift"), None);
        assert_eq!(said("shipping to Manila"), None);
    }
}
