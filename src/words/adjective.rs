//! Adjectives that say the same of an item (issue 28 §4): "simple pattern"
//! is met by "Pattern: plain", "big" by "large".
//!
//! Read from WordNet 3.1's adjective clusters (`extractors/lexicon/
//! adjectives.tsv`, written by `scripts/adjective_lexicon.py`): two words are
//! alike when they share a synset ("big", "large") or when one's synset is a
//! satellite *similar to* the other's head ("simple": unornamented, similar
//! to "plain"). Antonyms, two satellites of one head and derivations are
//! not alike: a looser relation would read words as met that the item does
//! not say. Only *met* reads it, never *contradicted*: a word said alike
//! can quote where the item says it, never block.

use std::collections::HashMap;
use std::sync::LazyLock;

const ADJECTIVES: &str = include_str!("../../extractors/lexicon/adjectives.tsv");

/// The parsed lexicon: each lemma's synsets, and each satellite's head.
#[derive(Debug, Default)]
struct Adjectives {
    synsets: HashMap<&'static str, Vec<u32>>,
    heads: HashMap<u32, u32>,
}

static LEXICON: LazyLock<Adjectives> = LazyLock::new(|| {
    // Embedded and parsed by this module's tests, so a failure here is a
    // build that never passed them.
    parse(ADJECTIVES).unwrap_or_else(|line| panic!("adjectives.tsv line {line}: not offset, lemmas and head"))
});

/// One word's synsets, looked up once to be compared with many words.
///
/// Why: *met* compares each word of a requirement with every word of an
/// item, and hashing both words for every comparison was a tenth of the
/// item check (issue 28's ≤ 50 µs per item, docs/benchmarks.md). Most
/// requirement words are no adjective, and then nothing is looked up again.
pub struct Adjective<'w> {
    word: &'w str,
    synsets: Option<&'static [u32]>,
}

impl<'w> Adjective<'w> {
    pub fn of(word: &'w str) -> Adjective<'w> {
        Adjective { word, synsets: LEXICON.synsets.get(word).map(Vec::as_slice) }
    }

    /// Whether the word is in the lexicon at all: if not, it is alike no word.
    pub fn is_known(&self) -> bool {
        self.synsets.is_some()
    }

    /// Whether the folded word `other`, whose synsets are `synsets`
    /// ([`synsets_of`]), says the same of an item as this one: a different
    /// word that shares a synset with it, or one a satellite of the other's
    /// head. `other`'s synsets are passed in, looked up once for each of an
    /// item's words rather than for every requirement word compared with it.
    pub fn alike_of(&self, other: &str, synsets: Option<&[u32]>) -> bool {
        let Some(seconds) = self.synsets else { return false };
        if other == self.word {
            return false;
        }
        let lexicon = &*LEXICON;
        let Some(firsts) = synsets else { return false };
        firsts.iter().any(|one| {
            seconds.iter().any(|other| {
                one == other || lexicon.heads.get(one) == Some(other) || lexicon.heads.get(other) == Some(one)
            })
        })
    }
}

/// The folded word's synsets as an adjective, `None` when WordNet lists
/// it as none ([`Adjective::alike_of`]).
pub fn synsets_of(word: &str) -> Option<&'static [u32]> {
    LEXICON.synsets.get(word).map(Vec::as_slice)
}

/// Whether WordNet lists the folded word as an adjective in some sense
/// ("portable", "square"): a title may use it to describe, not to name.
pub fn is_adjective(word: &str) -> bool {
    LEXICON.synsets.contains_key(word)
}

/// Parses `adjectives.tsv`; returns the line of the first bad one.
fn parse(text: &'static str) -> Result<Adjectives, usize> {
    let mut lexicon = Adjectives::default();
    for (number, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let [offset, lemmas, head] = fields[..] else { return Err(number + 1) };
        let offset: u32 = offset.parse().map_err(|_| number + 1)?;
        if lemmas.is_empty() {
            return Err(number + 1);
        }
        for lemma in lemmas.split('|') {
            lexicon.synsets.entry(lemma).or_default().push(offset);
        }
        if head != "-" {
            lexicon.heads.insert(offset, head.parse().map_err(|_| number + 1)?);
        }
    }
    Ok(lexicon)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alike(first: &str, second: &str) -> bool {
        Adjective::of(second).alike_of(first, synsets_of(first))
    }

    #[test]
    fn the_embedded_lexicon_parses() {
        let lexicon = parse(ADJECTIVES).expect("adjectives.tsv parses");
        assert!(lexicon.synsets.len() > 10_000);
        assert_eq!(parse("12\tplain\n").unwrap_err(), 1);
        assert_eq!(parse("# a comment\nx\tplain\t-\n").unwrap_err(), 2);
    }

    #[test]
    fn a_satellite_and_its_head_or_one_synset_are_alike() {
        assert!(alike("simple", "plain") && alike("plain", "simple"), "simple: unornamented, similar to plain");
        assert!(alike("big", "large"), "one synset");
        assert!(alike("waterproof", "rainproof"));
    }

    #[test]
    fn antonyms_siblings_and_the_same_word_are_not() {
        assert!(!alike("plain", "fancy"), "antonyms");
        assert!(!alike("big", "small"));
        assert!(!alike("plain", "plain"), "the same word is read as itself, elsewhere");
        assert!(!alike("simple", "chaste"), "two satellites of plain");
        assert!(!alike("casual", "relaxed"), "not in WordNet's clusters");
    }
}
