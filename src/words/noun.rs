//! Product nouns: whether a folded word names a kind of product, in the
//! singular or an English plural, and the singular two heads are compared by.

use super::class::{PRODUCT_NOUNS, RUSSIAN_PRODUCT_NOUNS};

/// Whether a folded word names a kind of product (plural forms too).
pub fn is_product_noun(word: &str) -> bool {
    let listed = |candidate: &str| PRODUCT_NOUNS.contains(candidate);
    if listed(word) || RUSSIAN_PRODUCT_NOUNS.contains(word) {
        return true;
    }
    if let Some(stem) = word.strip_suffix("ies") {
        let mut singular = String::with_capacity(stem.len() + 1);
        singular.push_str(stem);
        singular.push('y');
        if listed(&singular) {
            return true;
        }
    }
    // "-es" only after the endings that take it ("dresses", "watches",
    // "boxes"): "hates" is not "hat".
    let es_plural = word
        .strip_suffix("es")
        .is_some_and(|stem| ["s", "x", "z", "ch", "sh", "o"].iter().any(|end| stem.ends_with(end)) && listed(stem));
    es_plural || word.strip_suffix('s').is_some_and(listed)
}

/// The singular form two heads are compared by ("valves" = "valve").
pub fn product_stem(word: &str) -> &str {
    if PRODUCT_NOUNS.contains(word) {
        return word;
    }
    match word.strip_suffix("es").filter(|stem| {
        ["s", "x", "z", "ch", "sh", "o"].iter().any(|end| stem.ends_with(end)) && PRODUCT_NOUNS.contains(stem)
    }) {
        Some(stem) => stem,
        None => word.strip_suffix('s').unwrap_or(word),
    }
}
