//! Word classes: the vocabulary as data, one file per class under
//! `extractors/words/`, in one format (the format of `extractors/brands.txt`).
//!
//! A line holds one folded word or phrase; `#` starts a comment; blank lines
//! are skipped; `spelling => value` reads the spelling as the value (a colour
//! word as its canonical colour); a word starting with `@` is a mark, saying
//! which readings take the entry (`not @brand @colour`). The files are embedded at compile time and
//! parsed once, on first use, so a word costs one hash lookup and a mark's
//! entries are listed without scanning the file (the parser asks thousands of
//! times per request; `docs/benchmarks.md`, issue 27's speed).
//!
//! Parsing never fails: every line is an entry or a comment, so a static
//! needs no `unwrap`. A spelling listed again adds its marks to its first
//! line's (in order, each once), so no mark is lost whatever line a reader
//! looks the spelling up by; it keeps its first place and its first value.
//! What a malformed file would still do wrong (a spelling given two values,
//! a word with capitals or `ё`) the unit test below rejects for every file.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use foldhash::fast::FixedState;

/// A map looked up by a word, never iterated (so its order cannot reach an
/// output): a fixed-seed hasher, fast on short keys.
pub(crate) type WordMap<V> = HashMap<String, V, FixedState>;

/// One class of words, in the order its file lists them.
#[derive(Debug)]
pub struct WordClass {
    /// Each entry's spelling and value (the spelling itself without `=>`).
    entries: Vec<(String, String)>,
    /// Each entry's marks, without the `@`.
    marks: Vec<Vec<String>>,
    /// Spelling → index into `entries`: a spelling listed again is its
    /// first line, with the later lines' marks added.
    index: WordMap<usize>,
    /// Mark → the indices of the entries with it, in file order.
    by_mark: WordMap<Vec<usize>>,
    /// Spellings listed again with another value than their first line's.
    conflicts: Vec<String>,
}

impl WordClass {
    /// Reads a class file (see the module comment for the format).
    pub fn parse(text: &str) -> WordClass {
        let mut entries: Vec<(String, String)> = Vec::new();
        let mut marks: Vec<Vec<String>> = Vec::new();
        let mut index: WordMap<usize> = WordMap::default();
        let mut by_mark: WordMap<Vec<usize>> = WordMap::default();
        let mut conflicts = Vec::new();
        for line in text.lines() {
            let line = line.split_once('#').map_or(line, |(before, _)| before).trim();
            if line.is_empty() {
                continue;
            }
            let (said, value) = line.split_once("=>").map_or((line, None), |(said, value)| (said, Some(value.trim())));
            let (marked, words): (Vec<&str>, Vec<&str>) =
                said.split_whitespace().partition(|word| word.starts_with('@'));
            let spelling = words.join(" ");
            let marked: Vec<String> = marked.iter().map(|mark| mark.trim_start_matches('@').to_owned()).collect();
            let value = value.map_or_else(|| spelling.clone(), str::to_owned);
            // Why merge rather than keep the first line: a reader that looks
            // a spelling up by its marks (`words::charges`) would otherwise
            // silently lose the marks of its second line.
            let at = match index.get(&spelling) {
                Some(&first) => {
                    if entries[first].1 != value {
                        conflicts.push(spelling);
                    }
                    first
                }
                None => {
                    index.insert(spelling.clone(), entries.len());
                    entries.push((spelling, value));
                    marks.push(Vec::new());
                    entries.len() - 1
                }
            };
            for mark in marked {
                if !marks[at].contains(&mark) {
                    by_mark.entry(mark.clone()).or_default().push(at);
                    marks[at].push(mark);
                }
            }
        }
        // A spelling listed again may add a mark to an earlier entry after
        // later ones took it: file order again.
        for listed in by_mark.values_mut() {
            listed.sort_unstable();
        }
        WordClass { entries, marks, index, by_mark, conflicts }
    }

    /// Whether the folded word (or phrase, words joined by one space) is in the class.
    pub fn contains(&self, word: &str) -> bool {
        self.index.contains_key(word)
    }

    /// The value a spelling reads as (the spelling itself when the file gives none).
    pub fn value(&self, word: &str) -> Option<&str> {
        self.index.get(word).map(|at| self.entries[*at].1.as_str())
    }

    /// Whether the spelling is in the class with the mark (without its `@`).
    pub fn has_mark(&self, word: &str, mark: &str) -> bool {
        self.index.get(word).is_some_and(|at| self.marks[*at].iter().any(|listed| listed == mark))
    }

    /// The marks of a spelling, without their `@` (none when it is not in the class).
    pub fn marks(&self, word: &str) -> &[String] {
        self.index.get(word).map_or(&[], |at| self.marks[*at].as_slice())
    }

    /// The entries with the mark, each as its words, in file order.
    pub fn phrases_marked(&self, mark: &str) -> Vec<Vec<String>> {
        self.marked(mark).map(|(spelling, _)| spelling.split(' ').map(str::to_owned).collect()).collect()
    }

    /// Each entry with the mark as its spelling and value, in file order
    /// (where a reading takes the first entry that fits, the order is the file's).
    pub fn marked<'class>(&'class self, mark: &str) -> impl Iterator<Item = (&'class str, &'class str)> + use<'class> {
        self.by_mark.get(mark).map_or(&[][..], Vec::as_slice).iter().map(|&at| {
            let (spelling, value) = &self.entries[at];
            (spelling.as_str(), value.as_str())
        })
    }

    /// The spellings with the mark, in file order, for a reader that keeps
    /// them in a static list (`static X: LazyLock<Vec<&str>>`).
    pub fn words_marked(&'static self, mark: &str) -> Vec<&'static str> {
        self.marked(mark).map(|(spelling, _)| spelling).collect()
    }

    /// The spellings with the mark, in file order, and a set of them by
    /// hash: for a static list that readers test words against
    /// ([`MarkedWords::contains`]) as well as walk.
    pub fn marked_words(&'static self, mark: &str) -> MarkedWords {
        let words = self.words_marked(mark);
        let set = words.iter().copied().collect();
        MarkedWords { words, set }
    }

    /// The entries with the mark, each as its words, in file order; see
    /// `phrase_list!` for the slices the `Request` look-arounds take.
    pub fn phrase_words(&'static self, mark: &str) -> Vec<Vec<&'static str>> {
        self.words_marked(mark).into_iter().map(|spelling| spelling.split(' ').collect()).collect()
    }

    /// The values, each once, in the order of their first entry.
    pub fn values(&'static self) -> Vec<&'static str> {
        let mut values: Vec<&'static str> = Vec::new();
        for (_, value) in &self.entries {
            if !values.contains(&value.as_str()) {
                values.push(value);
            }
        }
        values
    }

    /// The spellings, in file order.
    pub fn spellings(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(spelling, _)| spelling.as_str())
    }

    /// Spellings listed again with another value than their first line's
    /// (a file must have none; see the test): which value is meant is not
    /// the loader's to guess.
    pub fn conflicts(&self) -> Vec<&str> {
        self.conflicts.iter().map(String::as_str).collect()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// A class's spellings with one mark ([`WordClass::marked_words`]): a
/// slice in file order (what `iter` and the other slice methods read), and
/// a membership test that is one hash look-up instead of a scan of string
/// compares (the parser tests every word of a request against such lists;
/// issue 27's speed).
#[derive(Debug)]
pub struct MarkedWords {
    words: Vec<&'static str>,
    /// The same spellings, looked up by hash and never iterated.
    set: HashSet<&'static str, FixedState>,
}

impl MarkedWords {
    /// Whether the word is one of the spellings (the slice's `contains`,
    /// by hash).
    pub fn contains(&self, word: &&str) -> bool {
        self.set.contains(*word)
    }
}

impl std::ops::Deref for MarkedWords {
    type Target = [&'static str];

    fn deref(&self) -> &[&'static str] {
        &self.words
    }
}

/// A static list of a class's phrases with a mark, in file order, as the
/// slices `Request::phrase_at`, `preceded_by` and `followed_by` take:
/// `static SOFT: LazyLock<Vec<&[&str]>> = phrase_list!(REQUIREMENT_WORDS, "soft");`.
/// The words live in a second static, so each slice is `'static`.
macro_rules! phrase_list {
    ($class:path, $mark:literal) => {
        std::sync::LazyLock::new(|| {
            static WORDS: std::sync::LazyLock<Vec<Vec<&'static str>>> =
                std::sync::LazyLock::new(|| $class.phrase_words($mark));
            WORDS.iter().map(Vec::as_slice).collect()
        })
    };
}
pub(crate) use phrase_list;

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
    /// Words that exclude what follows, marked with the readings that take each.
    NEGATIONS => "negations.txt",
    /// Units that make a number a measure ("18 ounce", "1 кг").
    MEASURE_UNITS => "measure-units.txt",
    /// The frame of a request for several products from one shop, marked
    /// with the words that open a product of the list.
    SHOP_FRAME => "shop-frame.txt",
    /// Services of a shop or an offer ("LazMall", "cash on delivery"), each
    /// read as the service it names, and the words that ask nothing more
    /// beside one (`words::service`).
    SHOP_SERVICES => "shop-services.txt",
    /// English plurals no ending rule reads ("children", "teeth"), each read
    /// as its singular (`words::product`'s singular forms).
    IRREGULAR_PLURALS => "irregular-plurals.txt",
    /// Members of a list of one kind ("one … another …") and the ordinals
    /// that refer back to a product named before ("the second is …").
    LIST_MEMBERS => "list-members.txt",
    /// Materials, each read as its English value, marked with what it is a
    /// kind of (`words::contradiction`).
    MATERIALS => "materials.txt",
    /// Words of an attribute's name that say which property it holds, or
    /// that it is a part's (`words::contradiction`).
    PROPERTIES => "properties.txt",
    /// Units of a measure, each read as one spelling (`words::contradiction`).
    UNITS => "units.txt",
    /// How metric units compare within a dimension, and the words of an
    /// attribute's name that say it holds a measure (`words::measure`).
    MEASURES => "measures.txt",
    /// Weekday names, stems and abbreviations, marked with the readings that take each.
    WEEKDAYS => "weekdays.txt",
    /// Month names, abbreviations and stems, marked with the readings that take each.
    MONTHS => "months.txt",
    /// Grounding's cue words per fact (soft, refund, price preference, level).
    CUES => "cues.txt",
    /// Size words: cues, the filler after them, and the words a size label starts with.
    SIZE_WORDS => "size-words.txt",
    /// Words around an optional wish that are not the wish.
    WISH_FILLERS => "wish-fillers.txt",
    /// Words around a colour word that decide whether it names the item's colour.
    COLOUR_CONTEXT => "colour-context.txt",
    /// Words that tie what follows to what came before, marked per reading.
    ATTACHING_WORDS => "attaching.txt",
    /// Words around a brand or a device maker's name that decide what it names.
    BRAND_CONTEXT => "brand-context.txt",
    /// Words of model names that say nothing specific.
    MODEL_WORDS => "model-words.txt",
    /// Markers and properties of free-text requirements.
    REQUIREMENT_WORDS => "requirement-words.txt",
    /// The parser's phrases of a price preference.
    PRICE_PREFERENCE => "price-preference.txt",
    /// Words that frame a request for several things.
    LIST_WORDS => "list-words.txt",
    /// Words around an amount that say what kind of limit it is.
    MONEY_WORDS => "money-words.txt",
    /// Order verbs and the words that open a clause.
    ORDER_WORDS => "order-words.txt",
    /// Numbers said in words, each read as its value, marked per reader.
    NUMBERS => "numbers.txt",
    /// Currency signs, codes and words, each read as its ISO 4217 code.
    CURRENCIES => "currencies.txt",
    /// Words grounding skips when it looks for a value's words.
    STOP_WORDS => "stop-words.txt",
    /// Words before a date or a weekday that make it a deadline, and the
    /// units and endings around a number of days.
    DATE_WORDS => "date-words.txt",
    /// Words that end, or are never, a brand name read from the words around it.
    BRAND_WORDS => "brand-words.txt",
    /// Words that start, compare or cue a segment of the request.
    SEGMENT_WORDS => "segment-words.txt",
    /// Single-word properties and the units of a measure a requirement holds.
    PROPERTY_WORDS => "property-words.txt",
    /// Nouns that count items, and words around a number that make it no count.
    COUNT_WORDS => "count-words.txt",
    /// Words around a number or a letter that decide whether it is a size.
    SIZE_CONTEXT => "size-context.txt",
    /// Words around a return or an exchange that decide whether the person
    /// asks for it (`extract::rules::refund`).
    REFUND_WORDS => "refund-words.txt",
    /// What is paid beyond the items: recurring charges, add-on lines, and
    /// the request words that ask for them or for no extra charges.
    CHARGES => "charges.txt",
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::fold;

    #[test]
    fn each_class_file_parses_folded_and_without_conflicts() {
        for (file, class) in ALL {
            assert!(class.conflicts().is_empty(), "{file}: listed with two values: {:?}", class.conflicts());
            for spelling in class.spellings() {
                assert_eq!(fold(spelling).replace('ё', "е"), spelling, "{file}: {spelling} is not folded");
            }
        }
    }

    #[test]
    fn the_format_reads_comments_values_and_blank_lines() {
        let class = WordClass::parse("# a comment\n\ngrey => gray  # why\nblack\nblack\nother  than @brand @x\n");
        assert_eq!((class.len(), class.value("grey"), class.value("black")), (3, Some("gray"), Some("black")));
        assert!(!class.contains("# a comment") && !class.contains("gray"));
        assert!(class.conflicts().is_empty(), "the same spelling and value twice is one entry");
        assert_eq!((class.value("other than"), class.has_mark("other than", "x")), (Some("other than"), true));
        assert!(!class.has_mark("black", "brand") && !class.has_mark("other than", "colour"));
        assert_eq!(class.phrases_marked("brand"), vec![vec!["other".to_owned(), "than".to_owned()]]);
        assert_eq!(class.marks("other than"), ["brand".to_owned(), "x".to_owned()]);
        assert!(class.marks("grey").is_empty() && class.marks("absent").is_empty());
    }

    #[test]
    fn a_spelling_listed_again_keeps_its_first_place_and_adds_its_marks() {
        let class = WordClass::parse("tip @addon @tip\nbox\ntip @recurring @tip\ngrey => gray\ngrey => grey\n");
        assert_eq!(class.marks("tip"), ["addon".to_owned(), "tip".to_owned(), "recurring".to_owned()]);
        assert!(class.has_mark("tip", "recurring") && class.has_mark("tip", "addon"));
        assert_eq!(class.spellings().collect::<Vec<_>>(), vec!["tip", "box", "grey"], "one entry each, first place");
        assert_eq!(class.phrases_marked("recurring"), vec![vec!["tip".to_owned()]]);
        let late = WordClass::parse("tip @a\nbox @b\ntip @b\n");
        assert_eq!(
            late.marked("b").map(|(spelling, _)| spelling).collect::<Vec<_>>(),
            ["tip", "box"],
            "a mark added later lists the entry at its first place"
        );
        assert_eq!(class.value("grey"), Some("gray"), "the first value stays");
        assert_eq!(class.conflicts(), vec!["grey"], "two values for one spelling are refused by the file test");
    }
}
