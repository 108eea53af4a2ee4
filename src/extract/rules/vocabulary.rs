//! Brands and models the rules extractor can recognise, and finding them in a
//! request.
//!
//! A brand or model is only recognised if a catalog names it: the rules do not
//! guess that a capitalised word is a brand. A model is "the product line as
//! named, minus the brand" (guard.md §3), so the vocabulary keeps each
//! catalog model's words, and a request names a model when a run of its words
//! are all words of one catalog model. The run is then trimmed of kind words
//! ("running", "t-shirt", "olive oil") at its ends, because the model check
//! requires every word of the stated model in the item name, and the person
//! who says "Miler running t-shirt" named the line "Miler", not the kind.

use crate::words::class::COUNT_WORDS;
use crate::words::class::MarkedWords;
use std::sync::LazyLock;

use crate::words::class::{MODEL_WORDS, WordMap};
use std::collections::BTreeSet;

use crate::normalize::{fold, words};
use crate::words::text::Request;

/// One brand as the catalog spells it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Brand {
    display: String,
    words: Vec<String>,
    /// A maker of devices that accessories are sold for ("a samsung galaxy
    /// s22 case" names the phone the case fits, not the case's brand).
    device: bool,
    /// When a mention of it in the request names the brand.
    recognised: Recognised,
}

/// When a brand's words in a request name the brand. Decided once, when the
/// brand is added, so matching allocates nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Recognised {
    /// Its words are no ordinary words ("wrangler jeans").
    Always,
    /// A catalog brand that is a common word (`COMMON_WORD_BRANDS`):
    /// capitalised anywhere ("Head Speed MP", not "a head band").
    Capitalised,
    /// A listed brand that is a common word (`@capitalised` in
    /// extractors/brands.txt): capitalised mid-sentence ("NOT Shark", not
    /// "Guess I need …").
    CapitalisedMidSentence,
}

/// One catalog model: its tokens as spelt (for output), the words of each
/// token, its word set and its brand's words.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Model {
    brand: String,
    brand_words: Vec<String>,
    tokens: Vec<String>,
    token_words: Vec<Vec<String>>,
    words: BTreeSet<String>,
}

/// The brands and models the rules extractor knows. Empty by default: then
/// no brand, excluded brand or model is ever extracted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Vocabulary {
    brands: Vec<Brand>,
    models: Vec<Model>,
    /// Which models hold each word, so a request is matched only against the
    /// models that share a word with it: a catalog of hundreds of models
    /// would otherwise cost hundreds of scans of every request. Looked up
    /// by hash (never iterated): a `BTreeMap` walk of string compares per
    /// request word cost more than the match it guards (issue 27's speed).
    models_by_word: WordMap<Vec<usize>>,
    /// Which brands start with each word, so each request word is matched
    /// only against the brands it can start (hundreds of known brands would
    /// otherwise be tried at every word). By hash, never iterated.
    brands_by_first_word: WordMap<Vec<usize>>,
}

/// Brands that are also common words; recognised only when capitalised
/// ("Head Speed MP", not "a head band").
static COMMON_WORD_BRANDS: LazyLock<MarkedWords> = LazyLock::new(|| MODEL_WORDS.marked_words("common-word-brand"));

/// Words that occur in model names but say nothing specific on their own:
/// function words, kinds of product, colours, phone names. A run of request
/// words made only of these is a model only right after its brand
/// ("Moleskine Classic Notebook"), never on its own ("a classic notebook").
static COMMON_WORDS: LazyLock<MarkedWords> = LazyLock::new(|| MODEL_WORDS.marked_words("common"));

/// Kind words trimmed from the end of a recognised model ("Miler running
/// t-shirt" → "Miler"), as long as something specific remains.
static KIND_WORDS: LazyLock<MarkedWords> = LazyLock::new(|| MODEL_WORDS.marked_words("kind"));

/// Words that may sit inside a stated model without being part of it:
/// "Tough Armor for iPhone 15", "Parallax на iPhone 15".
static CONNECTORS: LazyLock<MarkedWords> = LazyLock::new(|| MODEL_WORDS.marked_words("connector"));

impl Vocabulary {
    /// Builds a vocabulary from catalog (brand, product name) pairs. The
    /// model is the name without the brand and without pack descriptions
    /// (", 4-can box", " 6-Pack").
    pub fn from_catalog_names<I, B, N>(names: I) -> Vocabulary
    where
        I: IntoIterator<Item = (B, N)>,
        B: AsRef<str>,
        N: AsRef<str>,
    {
        let mut vocabulary = Vocabulary::default();
        for (brand, name) in names {
            let brand = brand.as_ref().trim();
            let brand_words = words(brand);
            if brand_words.is_empty() {
                continue;
            }
            vocabulary.push_brand(Brand {
                display: brand.to_owned(),
                words: brand_words.clone(),
                device: false,
                recognised: Recognised::Always,
            });
            let before_comma = name.as_ref().split(',').next().unwrap_or_default();
            let mut tokens: Vec<String> = before_comma.split_whitespace().map(str::to_owned).collect();
            let leading: Vec<String> = tokens.iter().take(brand_words.len()).flat_map(|token| words(token)).collect();
            if leading == brand_words {
                tokens.drain(..brand_words.len().min(tokens.len()));
            }
            tokens.retain(|token| !fold(token).ends_with("-pack") && fold(token) != "pack");
            let model_words: BTreeSet<String> = tokens.iter().flat_map(|token| words(token)).collect();
            if model_words.is_empty() {
                continue;
            }
            let token_words = tokens.iter().map(|token| words(token)).collect();
            let model = Model {
                brand: brand.to_owned(),
                brand_words: brand_words.clone(),
                tokens,
                token_words,
                words: model_words,
            };
            if !vocabulary.models.contains(&model) {
                for word in &model.words {
                    vocabulary.models_by_word.entry(word.clone()).or_default().push(vocabulary.models.len());
                }
                vocabulary.models.push(model);
            }
        }
        vocabulary
    }

    /// Adds brands known without a catalog model (`extractors/brands.txt`):
    /// lines of names, `#` comments and blank lines skipped; a brand the
    /// catalog already spells is kept as the catalog spells it.
    pub fn with_known_brands(mut self, list: &str) -> Vocabulary {
        for line in list.lines() {
            let entry = line.split('#').next().unwrap_or_default().trim_end();
            // "Samsung @device": a maker of devices accessories fit.
            let (entry, device) = match entry.strip_suffix("@device") {
                Some(name) => (name.trim_end(), true),
                None => (entry, false),
            };
            // "Shark @capitalised": also a common word.
            let (entry, capitalised_only) = match entry.strip_suffix("@capitalised") {
                Some(name) => (name.trim_end(), true),
                None => (entry, false),
            };
            // "Levis => Levi's": another spelling of a brand.
            let (spelling, display) = entry.split_once("=>").unwrap_or((entry, entry));
            let brand_words = words(spelling.trim());
            if brand_words.is_empty() {
                continue;
            }
            let recognised = if capitalised_only { Recognised::CapitalisedMidSentence } else { Recognised::Always };
            self.push_brand(Brand { display: display.trim().to_owned(), words: brand_words, device, recognised });
        }
        self
    }

    /// Adds a brand unless one with the same words is known already (the
    /// first spelling wins: the catalog's before the list's).
    fn push_brand(&mut self, mut brand: Brand) {
        let Some(first) = brand.words.first() else { return };
        if brand.recognised == Recognised::Always && COMMON_WORD_BRANDS.contains(&brand.words.join(" ").as_str()) {
            brand.recognised = Recognised::Capitalised;
        }
        let same_first = self.brands_by_first_word.entry(first.clone()).or_default();
        if same_first.iter().any(|&known| self.brands[known].words == brand.words) {
            return;
        }
        same_first.push(self.brands.len());
        self.brands.push(brand);
    }

    pub fn is_empty(&self) -> bool {
        self.brands.is_empty() && self.models.is_empty()
    }
}

/// A brand named in the request, at tokens `start..=end`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrandMention {
    pub display: String,
    pub start: usize,
    pub end: usize,
    /// The brand makes devices that accessories are sold for.
    pub device: bool,
}

/// Every brand named in the request, in order.
pub fn find_brands(vocabulary: &Vocabulary, request: &Request) -> Vec<BrandMention> {
    let mut found = Vec::new();
    let mut index = 0;
    while index < request.len() {
        let mut matched: Option<(usize, &Brand)> = None;
        let candidates = request
            .words(index)
            .first()
            .and_then(|first| vocabulary.brands_by_first_word.get(first))
            .map_or(&[][..], Vec::as_slice);
        for brand in candidates.iter().map(|&at| &vocabulary.brands[at]) {
            if let Some(end) = brand_ends_at(request, index, &brand.words)
                && matched.is_none_or(|(best_end, _)| end > best_end)
            {
                matched = Some((end, brand));
            }
        }
        match matched {
            Some((end, brand)) if brand_is_meant(vocabulary, request, index, brand) => {
                found.push(BrandMention { display: brand.display.clone(), start: index, end, device: brand.device });
                index = end + 1;
            }
            _ => index += 1,
        }
    }
    found
}

/// Where a brand's words, starting at token `start`, end (a token may hold
/// several words: "Justin's").
fn brand_ends_at(request: &Request, start: usize, brand_words: &[String]) -> Option<usize> {
    let mut wanted = brand_words.iter();
    let mut index = start;
    let mut next = wanted.next()?;
    loop {
        if !request.is_word(index) {
            return None;
        }
        for word in request.words(index) {
            if word != next {
                return None;
            }
            match wanted.next() {
                Some(following) => next = following,
                None => return Some(index),
            }
        }
        index += 1;
    }
}

fn brand_is_meant(vocabulary: &Vocabulary, request: &Request, start: usize, brand: &Brand) -> bool {
    // "christian dior ambre nuit impression perfume", "inspired by Chanel":
    // a scent made to resemble the brand's, sold under another.
    let end = start + brand.words.len();
    let resembled = request.followed_by(end.saturating_sub(1), 5, &[&["impression"], &["impressions"], &["dupe"]])
        || request.preceded_by(start, 2, &[&["inspired", "by"]]);
    // "penn state nittany lions", "a Penn State hoodie": a school's name.
    if resembled || matches!(request.word(end), "state" | "university" | "college") {
        return false;
    }
    let capitalised =
        || request.tokens.get(start).and_then(|token| token.text.chars().next()).is_some_and(char::is_uppercase);
    let sentence_start =
        || start == 0 || matches!(request.word(start - 1), "." | "!" | "?" | ":" | "\"" | "(" | "-" | ";");
    let marked = match brand.recognised {
        Recognised::Always => return true,
        Recognised::Capitalised => capitalised(),
        // "a tee in size LG": after a size word, the size.
        Recognised::CapitalisedMidSentence => {
            capitalised()
                && !sentence_start()
                && !crate::words::class::SIZE_WORDS.has_mark(request.word_before(start, 1), "cue")
        }
    };
    marked || followed_by_own_model(vocabulary, request, end, brand)
}

/// "apple airpods": a lower-case common-word brand is still meant when one of
/// its own model words follows.
fn followed_by_own_model(vocabulary: &Vocabulary, request: &Request, next: usize, brand: &Brand) -> bool {
    let next_words = token_words(request, next);
    !next_words.is_empty()
        && vocabulary.models.iter().any(|model| {
            model.brand_words == brand.words
                && next_words.iter().all(|word| model.words.contains(word) && is_specific(word))
        })
}

/// A model named in the request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelMention {
    pub display: String,
    pub brand: String,
    pub start: usize,
    pub end: usize,
}

/// The words a request token contributes to model matching: "41s" counts as
/// "41" ("Pegasus 41s"), punctuation as nothing.
fn token_words(request: &Request, index: usize) -> &[String] {
    request.words(index)
}

fn is_specific(word: &str) -> bool {
    !COMMON_WORDS.contains(&word) && !word.bytes().all(|byte| byte.is_ascii_digit())
}

/// The best-named model: the longest run of request tokens whose words all
/// belong to one catalog model, ranked by how many specific words it holds.
/// Models of a brand named just before the run win ties.
pub fn find_model(vocabulary: &Vocabulary, request: &Request, brands: &[BrandMention]) -> Option<ModelMention> {
    let mut best: Option<(usize, usize, bool, ModelMention)> = None;
    let mut candidates: Vec<usize> = (0..request.len())
        .filter(|index| !request.is_consumed(*index))
        .flat_map(|index| request.words(index))
        .filter_map(|word| vocabulary.models_by_word.get(word))
        .flatten()
        .copied()
        .collect();
    // In catalog order, as a scan of every model would visit them: the
    // first of equally good mentions wins.
    candidates.sort_unstable();
    candidates.dedup();
    for model in candidates.into_iter().filter_map(|position| vocabulary.models.get(position)) {
        let mut index = 0;
        while index < request.len() {
            let Some(end) = run_end(request, index, model) else {
                index += 1;
                continue;
            };
            let brand_before =
                brands.iter().any(|brand| brand.end + 1 == index && fold(&brand.display) == fold(&model.brand));
            if let Some(mention) = trimmed_mention(request, index, end, model, brand_before) {
                let specific = (mention.start..=mention.end)
                    .flat_map(|at| token_words(request, at))
                    .filter(|word| is_specific(word.as_str()))
                    .count();
                let length = mention.end - mention.start + 1;
                let better = match &best {
                    None => true,
                    Some((best_specific, best_length, best_brand, _)) => {
                        (specific, length, brand_before) > (*best_specific, *best_length, *best_brand)
                    }
                };
                if better {
                    best = Some((specific, length, brand_before, mention));
                }
            }
            index = end + 1;
        }
    }
    best.map(|(_, _, _, mention)| mention)
}

/// The last token of the run of model words starting at `start`, if any.
fn run_end(request: &Request, start: usize, model: &Model) -> Option<usize> {
    let belongs = |index: usize| {
        request.is_word(index) && !request.is_consumed(index) && {
            let token_words = token_words(request, index);
            !token_words.is_empty() && token_words.iter().all(|word| model.words.contains(word.as_str()))
        }
    };
    if !belongs(start) {
        return None;
    }
    let mut end = start;
    let mut index = start + 1;
    while index < request.len() {
        if belongs(index) {
            end = index;
        } else if !(CONNECTORS.contains(&request.word(index)) && belongs(index + 1)) {
            break;
        }
        index += 1;
    }
    Some(end)
}

/// Trims kind words off the ends of a run and decides whether what remains
/// names a model.
fn trimmed_mention(
    request: &Request,
    start: usize,
    end: usize,
    model: &Model,
    brand_before: bool,
) -> Option<ModelMention> {
    let has_specific = |from: usize, to: usize| {
        (from..=to).flat_map(|index| token_words(request, index)).any(|word| is_specific(word))
    };
    // Only the end is trimmed: a kind word before the line is usually part
    // of its name ("Chocolate Chip"), after it the person's noun ("Miler running t-shirt").
    let (from, mut to) = (start, end);
    while to > from && KIND_WORDS.contains(&request.word(to)) && (has_specific(from, to - 1) || brand_before) {
        to -= 1;
    }
    // A lone word that is only part of a catalog token ("fit" of "Dri-FIT")
    // is an ordinary word, not a model.
    if from == to && !model.token_words.iter().any(|words| words.as_slice() == token_words(request, from)) {
        return None;
    }
    let specific = has_specific(from, to);
    let several_words = to > from;
    let named_after_brand = brand_before && several_words && from == start;
    // One lower-case word on its own ("vintage cupcake picks", "high speed")
    // is an ordinary word; a model named alone is capitalised, has a digit,
    // or comes with more of its name ("miler running t-shirt").
    let token_text = request.tokens.get(start).map_or("", |token| token.text.as_str());
    let looks_like_a_name = token_text.chars().any(|character| character.is_uppercase() || character.is_ascii_digit());
    if start == end && !brand_before && !looks_like_a_name {
        return None;
    }
    if !(specific || named_after_brand) {
        return None;
    }
    // "chocolate chip blondie cookies": before a food, without its brand,
    // a catalog line's words are a flavour.
    if !brand_before
        && (to + 1..to + 4)
            .any(|index| request.same_clause(to, index) && super::colour::is_food_head(request.word(index)))
    {
        return None;
    }
    // "24 pcs", "40 oz", "16 GB": a count or a measure the catalog's name
    // ends with is anyone's, not a line's, unless its brand comes first.
    let only_amount = (from..=to).all(|index| {
        let word = request.word(index);
        word.chars().all(|character| character.is_ascii_digit() || character == '.')
            || crate::words::size::is_measure_unit(word)
            || COUNT_WORDS.has_mark(word, "count-or-capacity")
    });
    if only_amount && !brand_before {
        return None;
    }
    let display = (from..=to)
        .filter(|index| !CONNECTORS.contains(&request.word(*index)))
        .map(|index| spelled_as_catalog(request, index, model))
        .collect::<Vec<_>>()
        .join(" ");
    Some(ModelMention { display, brand: model.brand.clone(), start: from, end: to })
}

/// The catalog's spelling of a request token when the catalog has a token
/// with the same words ("wh-1000xm5" → "WH-1000XM5", "41s" → "41").
fn spelled_as_catalog(request: &Request, index: usize, model: &Model) -> String {
    let wanted = token_words(request, index);
    model
        .tokens
        .iter()
        .zip(&model.token_words)
        .find(|(_, words)| words.as_slice() == wanted)
        .map(|(token, _)| token.clone())
        .unwrap_or_else(|| request.tokens.get(index).map(|token| token.text.clone()).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocabulary() -> Vocabulary {
        Vocabulary::from_catalog_names([
            ("Nike", "Nike Pegasus 41"),
            ("Nike", "Nike Dri-FIT Miler Running T-Shirt"),
            ("Babolat", "Babolat Pure Drive"),
            ("Babolat", "Babolat Pure Drive Team"),
            ("Penn", "Penn Championship Extra Duty, 4-can box"),
            ("Moleskine", "Moleskine Classic Notebook Large"),
            ("Ember", "Ember Mug 2 10 oz"),
            ("Spigen", "Spigen Tough Armor iPhone 15"),
            ("Head", "Head Speed MP"),
            ("Colavita", "Colavita Extra Virgin Olive Oil"),
            ("Under Armour", "Under Armour Rival Fleece Hoodie"),
            ("Clif", "Clif Bar Chocolate Chip"),
        ])
    }

    fn model_of(text: &str) -> Option<String> {
        let vocabulary = vocabulary();
        let request = Request::new(text);
        let brands = find_brands(&vocabulary, &request);
        find_model(&vocabulary, &request, &brands).map(|mention| mention.display)
    }

    #[test]
    fn models_are_the_line_as_named_without_brand_or_kind() {
        assert_eq!(model_of("Nike Pegasus 41s in black").as_deref(), Some("Pegasus 41"));
        assert_eq!(model_of("the Babolat Pure Drive, grip 4 3/8").as_deref(), Some("Pure Drive"));
        assert_eq!(model_of("one miler running t-shirt size s").as_deref(), Some("Miler"));
        assert_eq!(model_of("Tough Armor for iPhone 15").as_deref(), Some("Tough Armor iPhone 15"));
        assert_eq!(model_of("pls find Colavita extra virgin olive oil").as_deref(), Some("Extra Virgin"));
        assert_eq!(model_of("Penn Championship balls").as_deref(), Some("Championship"));
    }

    #[test]
    fn generic_words_name_a_model_only_after_its_brand() {
        assert_eq!(model_of("Moleskine Classic Notebook, black").as_deref(), Some("Classic Notebook"));
        assert_eq!(model_of("a classic notebook").as_deref(), None);
        assert_eq!(model_of("im looking for a 24 pcs arrow cupcake topper").as_deref(), None);
        assert_eq!(model_of("Ember Mug 2 in red").as_deref(), Some("Mug 2"));
        assert_eq!(model_of("Ember mug, red").as_deref(), None);
        // A line named after a flavour, before a food and without its brand.
        assert_eq!(model_of("gluten free, chocolate chip blondie cookies").as_deref(), None);
        assert_eq!(model_of("Clif Bar Chocolate Chip, 12 of them").as_deref(), Some("Bar Chocolate Chip"));
        assert_eq!(model_of("Nike running t-shirt size s").as_deref(), None);
        assert_eq!(model_of("Colavita olive oil").as_deref(), None);
        assert_eq!(model_of("a usb cable that is high speed").as_deref(), None);
        assert_eq!(model_of("for a pro, under $200").as_deref(), None);
        assert_eq!(model_of("has to fit an iPhone 15").as_deref(), None);
    }

    #[test]
    fn known_brands_join_the_catalog_s_with_their_spellings() {
        let vocabulary =
            vocabulary().with_known_brands("# a comment\nWrangler\nLevis => Levi's\n\nNike # already known\n");
        let found = |text: &str| {
            find_brands(&vocabulary, &Request::new(text)).into_iter().map(|brand| brand.display).collect::<Vec<_>>()
        };
        assert_eq!(found("rigid indigo mens wrangler jeans"), ["Wrangler"]);
        assert_eq!(found("levis 501 in blue"), ["Levi's"]);
        assert_eq!(found("nike pegasus"), ["Nike"], "the catalog's spelling stays");
        assert!(found("a wrangle of cables").is_empty());
    }

    #[test]
    fn a_listed_common_word_is_a_brand_only_capitalised_mid_sentence() {
        let vocabulary =
            vocabulary().with_known_brands("Shark @capitalised\nGuess @capitalised\nDior\nLG @capitalised @device\n");
        let found = |text: &str| {
            find_brands(&vocabulary, &Request::new(text)).into_iter().map(|brand| brand.display).collect::<Vec<_>>()
        };
        assert_eq!(found("a robot hoover, NOT Shark"), ["Shark"]);
        assert_eq!(found("a robot vacuum, not Shark please"), ["Shark"]);
        assert!(found("a shark plush toy").is_empty());
        assert!(found("Guess I need a new wallet").is_empty(), "a capital that starts the sentence");
        assert_eq!(found("a Guess handbag"), ["Guess"]);
        assert_eq!(found("an LG 27 inch 4k monitor"), ["LG"]);
        assert!(found("a tee in size LG").is_empty(), "after a size word, the size");
        assert!(found("a lg shirt").is_empty());
        // A scent made to resemble the brand's is sold under another.
        assert!(found("travel size christian dior ambre nuit impression perfume").is_empty());
        assert!(found("a perfume inspired by dior sauvage").is_empty());
        assert_eq!(found("dior sauvage eau de toilette"), ["Dior"]);
    }

    #[test]
    fn a_brand_s_name_before_state_or_university_is_a_school() {
        let vocabulary = vocabulary().with_known_brands("Amazon @capitalised\nAmazon Basics\n");
        let found = |text: &str| {
            find_brands(&vocabulary, &Request::new(text)).into_iter().map(|brand| brand.display).collect::<Vec<_>>()
        };
        assert!(found("i want a penn state nittany lions t-shirt").is_empty());
        assert!(found("a Penn University mug").is_empty());
        assert_eq!(found("Penn tennis balls, a 4-can box"), ["Penn"]);
        // The longer name wins over the one-word brand.
        assert_eq!(found("a usb cable, not Amazon Basics"), ["Amazon Basics"]);
        assert_eq!(found("an Amazon gift card"), ["Amazon"]);
    }

    #[test]
    fn the_first_word_index_finds_every_brand_it_starts() {
        let vocabulary = vocabulary().with_known_brands("New Balance\nNew Era\nNew Look\n");
        let found = |text: &str| {
            find_brands(&vocabulary, &Request::new(text)).into_iter().map(|brand| brand.display).collect::<Vec<_>>()
        };
        assert_eq!(found("new era cap and new balance 574"), ["New Era", "New Balance"]);
        assert!(found("a new bag").is_empty());
    }

    #[test]
    fn brands_are_found_by_words_and_common_words_need_a_capital() {
        let vocabulary = vocabulary();
        let brands = |text: &str| -> Vec<String> {
            find_brands(&vocabulary, &Request::new(text)).into_iter().map(|mention| mention.display).collect()
        };
        assert_eq!(brands("under armour rival fleece"), ["Under Armour"]);
        assert_eq!(brands("not Head, maybe nike"), ["Head", "Nike"]);
        assert!(brands("a head band").is_empty());
        assert_eq!(brands("a head speed mp"), ["Head"], "its own model word follows");
        assert!(Vocabulary::default().is_empty());
        assert!(brands("").is_empty());
    }
}
