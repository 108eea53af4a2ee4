//! The word layer: how a request is cut into tokens, which words belong to
//! which class, and the readers of dates, money, counts and sizes that the
//! `rules` extractor and grounding both call.
//!
//! It sits below `extract` and imports nothing of it (the referee of every
//! extractor, `extract::ground`, must not depend on one of the players); it
//! may use `normalize`. The vocabulary is data: each class is one file
//! under `extractors/words/`, embedded and parsed once (`class`), so a new
//! word is a data change reviewed as data.
//!
//! - [`text`]: the tokeniser and the look-around helpers on a `Request`.
//! - [`class`]: the word class files and their format.
//! - [`colour`], [`noun`]: colour words and product nouns.
//! - [`date`], [`money`], [`count`], [`size`]: the readers of deadlines,
//!   amounts and currencies, counts and sizes.
//! - [`product`]: what kind of thing an item's words name, against the kind
//!   the person asked for (the product lexicon in `extractors/lexicon/`).
//! - [`requirement`]: whether an item's words say what a free-text
//!   requirement asks for, [`contradiction`]: whether they plainly say
//!   otherwise, and [`reading`]: the two as one three-valued reading.
//! - [`charges`]: recurring charges and add-on lines in an item's words, and
//!   what a request asks about them (issue 29).

pub(crate) mod adjective;
pub mod charges;
pub mod class;
pub mod colour;
pub mod contradiction;
pub mod count;
pub mod date;
mod derivation;
pub mod measure;
pub mod money;
pub mod noun;
pub mod product;
pub mod reading;
pub mod requirement;
pub mod service;
pub mod size;
mod stem;
pub mod text;

/// Whether a word carries no condition in a requirement: a listed filler
/// (`extractors/words/fillers.txt`) or punctuation alone.
pub fn is_filler(word: &str) -> bool {
    class::FILLERS.contains(word) || word.chars().all(|character| !character.is_alphanumeric())
}

/// The negations each reading takes (`extractors/words/negations.txt`, one
/// list with a mark per reading, so the differences between them are data).
pub mod negation {
    use std::sync::LazyLock;

    use super::class::NEGATIONS;

    /// Before a brand or model: it is excluded.
    pub static BRAND: LazyLock<Vec<Vec<String>>> = LazyLock::new(|| NEGATIONS.phrases_marked("brand"));
    /// Opening a list of excluded brands.
    pub static BRAND_LIST: LazyLock<Vec<Vec<String>>> = LazyLock::new(|| NEGATIONS.phrases_marked("brand-list"));
    /// Before a colour: it is excluded.
    pub static COLOUR: LazyLock<Vec<Vec<String>>> = LazyLock::new(|| NEGATIONS.phrases_marked("colour"));

    /// Whether one word makes a requirement a negative one.
    pub fn is_requirement_negation(word: &str) -> bool {
        NEGATIONS.has_mark(word, "requirement")
    }
}
