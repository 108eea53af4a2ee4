//! Words that are one word in another form (issue 28 §4): "floral design"
//! is met by "Flower Printed", "trendy" by "Trend".
//!
//! Read from WordNet 3.1's lexical pointers (`extractors/lexicon/
//! derivations.tsv`, written by `scripts/derivation_lexicon.py`): a
//! derivationally related form (trendy and trend, expiry and expire) or an
//! adjective's pertainym (floral and flower). Two words are related when
//! their Snowball stems are a pair's stems, so "Trends" meets "trendy".
//! Synonyms and hypernyms are no derivation and are not read here.
//!
//! A pair is left out when either word's commonest sense is a product
//! (`super::product::Lexicon::is_product_word`): "charger" is a thing of its
//! own, so "comes with a charger" is never met by "Fast Charge", nor a
//! "locker" by a "Lock". Only *met* reads it, never *contradicted*: a word
//! said in another form can quote where the item says it, never block.

use std::collections::HashMap;
use std::sync::LazyLock;

const DERIVATIONS: &str = include_str!("../../extractors/lexicon/derivations.tsv");

/// Each stem's related stems, sorted.
static RELATED: LazyLock<HashMap<String, Vec<String>>> = LazyLock::new(|| {
    // Embedded and parsed by this module's tests, so a failure here is a
    // build that never passed them.
    parse(DERIVATIONS).unwrap_or_else(|line| panic!("derivations.tsv line {line}: not two words"))
});

/// The stems related to `stem` by a derivation, none if it has no pair.
pub(super) fn related(stem: &str) -> &'static [String] {
    RELATED.get(stem).map_or(&[], Vec::as_slice)
}

/// Parses `derivations.tsv`: two words a line, tab-separated, `#` comments.
/// Returns the line of the first bad one.
fn parse(text: &str) -> Result<HashMap<String, Vec<String>>, usize> {
    let products = super::product::lexicon();
    let mut related: HashMap<String, Vec<String>> = HashMap::new();
    for (at, line) in text.lines().enumerate() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (one, other) = line.split_once('\t').ok_or(at + 1)?;
        let letters = |word: &str| !word.is_empty() && word.chars().all(|character| character.is_ascii_lowercase());
        if !letters(one) || !letters(other) {
            return Err(at + 1);
        }
        if products.is_product_word(one) || products.is_product_word(other) {
            continue;
        }
        let (Some(one), Some(other)) = (super::stem::of(one), super::stem::of(other)) else {
            continue;
        };
        if one != other {
            related.entry(one.clone()).or_default().push(other.clone());
            related.entry(other).or_default().push(one);
        }
    }
    for stems in related.values_mut() {
        stems.sort_unstable();
        stems.dedup();
    }
    Ok(related)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_pairs_parse() {
        let related = parse(DERIVATIONS).expect("derivations.tsv parses");
        assert!(related.len() > 10_000, "{} stems", related.len());
        assert_eq!(parse("mark\n").unwrap_err(), 1);
        assert_eq!(parse("# a comment\nMark\tmarker\n").unwrap_err(), 2);
    }

    #[test]
    fn a_derivation_or_a_pertainym_relates_two_stems_both_ways() {
        assert!(related("trend").contains(&"trendi".to_owned()));
        assert!(related("trendi").contains(&"trend".to_owned()));
        assert!(related("floral").contains(&"flower".to_owned()));
    }

    #[test]
    fn a_product_word_is_related_to_nothing() {
        // "charger" and "locker" are things of their own.
        assert!(!related("charg").contains(&"charger".to_owned()) && !related("mark").contains(&"marker".to_owned()));
        assert!(!related("lock").contains(&"locker".to_owned()));
        assert!(related("charger").is_empty());
    }
}
