//! A word's Snowball stem, which the item check compares where a word may be
//! written in another inflection ("Wall Mounted" for "wall mount", "кожи"
//! for "кожа") and by which it looks up a word's derived forms
//! (`super::derivation`).
//!
//! Why Snowball: it is the maintained stemmer for English and Russian (the
//! `rust-stemmers` crate, MIT), so verb and adjective endings need no
//! hand-written rules.

use std::sync::LazyLock;

use rust_stemmers::{Algorithm, Stemmer};

/// The Snowball stem of a folded word of four letters or more, English or
/// Russian (a Cyrillic word), if it is three letters or more; `None` for a
/// shorter word, one with a digit or of another script: short words' stems
/// collide ("us", "use").
pub(super) fn of(folded: &str) -> Option<String> {
    static ENGLISH: LazyLock<Stemmer> = LazyLock::new(|| Stemmer::create(Algorithm::English));
    static RUSSIAN: LazyLock<Stemmer> = LazyLock::new(|| Stemmer::create(Algorithm::Russian));
    if folded.chars().count() < 4 || !folded.chars().all(char::is_alphabetic) {
        return None;
    }
    let stemmer = if folded.is_ascii() {
        &ENGLISH
    } else if folded.chars().all(|character| ('а'..='я').contains(&character)) {
        &RUSSIAN
    } else {
        return None;
    };
    let stem = stemmer.stem(folded);
    (stem.chars().count() >= 3).then(|| stem.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_inflection_shares_its_words_stem_and_a_short_word_has_none() {
        assert_eq!(of("mounted"), of("mount"));
        assert_eq!(of("кожи"), of("кожа"));
        assert_eq!(of("use"), None);
        assert_eq!(of("65w"), None);
    }
}
