//! Word classes: the vocabulary as data, one file per class under
//! `extractors/words/`, in one format (the format of `extractors/brands.txt`).
//!
//! A line holds one folded word or phrase; `#` starts a comment; blank lines
//! are skipped; `spelling => value` reads the spelling as the value (a colour
//! word as its canonical colour). The files are embedded at compile time and
//! parsed once, on first use, so a class costs one map lookup.
//!
//! Parsing never fails: every line is an entry or a comment, so a static
//! needs no `unwrap`. What a malformed file would do wrong (a word twice, a
//! word with capitals or `ё`) the unit test below rejects for every file.

use std::collections::BTreeMap;
use std::sync::LazyLock;

/// One class of words, in the order its file lists them.
#[derive(Debug)]
pub struct WordClass {
    /// Each entry's spelling and value (the spelling itself without `=>`).
    entries: Vec<(String, String)>,
    /// Spelling → index into `entries`; the first of duplicates wins.
    index: BTreeMap<String, usize>,
}

impl WordClass {
    /// Reads a class file (see the module comment for the format).
    pub fn parse(text: &str) -> WordClass {
        let mut entries = Vec::new();
        let mut index = BTreeMap::new();
        for line in text.lines() {
            let line = line.split_once('#').map_or(line, |(before, _)| before).trim();
            if line.is_empty() {
                continue;
            }
            let (spelling, value) = match line.split_once("=>") {
                Some((spelling, value)) => (spelling.trim(), value.trim()),
                None => (line, line),
            };
            index.entry(spelling.to_owned()).or_insert(entries.len());
            entries.push((spelling.to_owned(), value.to_owned()));
        }
        WordClass { entries, index }
    }

    /// Whether the folded word (or phrase, words joined by one space) is in the class.
    pub fn contains(&self, word: &str) -> bool {
        self.index.contains_key(word)
    }

    /// The value a spelling reads as (the spelling itself when the file gives none).
    pub fn value(&self, word: &str) -> Option<&str> {
        self.index.get(word).map(|at| self.entries[*at].1.as_str())
    }

    /// The spellings, in file order.
    pub fn spellings(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(spelling, _)| spelling.as_str())
    }

    /// Spellings listed more than once (a file must have none; see the test).
    pub fn duplicates(&self) -> Vec<&str> {
        self.entries
            .iter()
            .enumerate()
            .filter(|(at, (spelling, _))| self.index.get(spelling) != Some(at))
            .map(|(_, (spelling, _))| spelling.as_str())
            .collect()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// Declares each class file once: a static per file, and the list the test
/// walks, so no file can be embedded without being checked.
macro_rules! classes {
    ($($(#[$doc:meta])* $name:ident => $file:literal,)*) => {
        $(
            $(#[$doc])*
            pub static $name: LazyLock<WordClass> =
                LazyLock::new(|| WordClass::parse(include_str!(concat!("../../extractors/words/", $file))));
        )*
        /// Every class with its file name.
        pub static ALL: &[(&str, &LazyLock<WordClass>)] = &[$(($file, &$name)),*];
    };
}

classes! {
    /// English colour words and their canonical spelling ("grey" → "gray").
    COLOURS => "colours.txt",
    /// Product nouns, singular (plurals are read by `noun::is_product_noun`).
    PRODUCT_NOUNS => "product-nouns.txt",
    /// Russian product nouns, as written (no plural rule).
    RUSSIAN_PRODUCT_NOUNS => "product-nouns-ru.txt",
    /// Words that carry no condition in a requirement.
    FILLERS => "fillers.txt",
    /// Units that make a number a measure ("18 ounce", "1 кг").
    MEASURE_UNITS => "measure-units.txt",
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::fold;

    #[test]
    fn each_class_file_parses_folded_and_without_duplicates() {
        for (file, class) in ALL {
            assert!(class.duplicates().is_empty(), "{file}: listed twice: {:?}", class.duplicates());
            for spelling in class.spellings() {
                assert_eq!(fold(spelling).replace('ё', "е"), spelling, "{file}: {spelling} is not folded");
            }
        }
    }

    #[test]
    fn the_format_reads_comments_values_and_blank_lines() {
        let class = WordClass::parse("# a comment\n\ngrey => gray  # why\nblack\nblack\n");
        assert_eq!((class.len(), class.value("grey"), class.value("black")), (3, Some("gray"), Some("black")));
        assert!(!class.contains("# a comment") && !class.contains("gray"));
        assert_eq!(class.duplicates(), vec!["black"]);
    }
}
