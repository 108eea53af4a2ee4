//! Colour words, English and Russian (inflected): whether one folded word
//! names a colour, and which canonical English colour it is ("чёрные" →
//! "black"). What a colour mention *means* (chosen, excluded, a fallback)
//! is `rules::colour`'s; this is only the word.

use super::class::COLOURS;
use crate::normalize::russian_colour_stem;

/// Russian adjective endings after a colour stem: "черн|ые", "бел|ую",
/// "коричн|евый". A stem followed by anything else is another word
/// ("серия", "белок", "синтетика").
const RUSSIAN_ENDINGS: [&str; 24] = [
    "ый", "ий", "ой", "ая", "яя", "ое", "ее", "ые", "ие", "ого", "его", "ому", "ему", "ую", "юю", "ых", "их", "ым",
    "им", "ыми", "ими", "ом", "ем", "",
];

/// Suffixes between a Russian stem and its ending ("коричн-ев-ый", "серебр-ист-ый").
const RUSSIAN_INFIXES: [&str; 5] = ["", "ев", "ов", "ист", "еньк"];

/// The canonical colour a single folded word names, if any.
pub fn colour_of(word: &str) -> Option<&'static str> {
    if let Some(canonical) = COLOURS.value(word) {
        return Some(canonical);
    }
    let (stem, english) = russian_colour_stem(word)?;
    if matches!(english, "dark" | "light") {
        return None;
    }
    let rest = word.get(stem.len()..)?;
    let is_adjective = RUSSIAN_INFIXES
        .iter()
        .any(|infix| rest.strip_prefix(infix).is_some_and(|ending| RUSSIAN_ENDINGS.contains(&ending)));
    (is_adjective && (stem != "хаки" || rest.is_empty())).then_some(english)
}

pub fn is_colour(word: &str) -> bool {
    colour_of(word).is_some()
}
