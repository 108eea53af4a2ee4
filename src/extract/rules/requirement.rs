//! Free-text requirements and soft markers.
//!
//! `other` holds musts no fact field can: a known property ("gluten-free",
//! "vegan", "waterproof", "с MagSafe"), a phone it must fit ("for my iPhone
//! 15"), or whatever follows "must be" / "has to" / "обязательно" when no
//! rule has claimed those words. `other_optional` holds the same said as
//! nice to have ("gift wrap if possible", "vegan would be nice"). Both keep
//! the person's words. A soft marker ("ideally", "if possible",
//! "желательно") next to a stated fact marks that fact's field soft instead.

use crate::words::class::DATE_WORDS;
use crate::words::class::MODEL_WORDS;
use crate::words::class::MarkedWords;
use std::sync::LazyLock;

use crate::words::class::WISH_FILLERS;
use crate::words::class::{REQUIREMENT_WORDS, phrase_list};
use crate::words::text::Request;

/// Words before a requirement that waive it ("doesn't have to be", "не обязательно") (`requirement-words.txt`, `@waiver-before`).
static WAIVER_BEFORE: LazyLock<Vec<&[&str]>> = phrase_list!(REQUIREMENT_WORDS, "waiver-before");

/// Phrases that make what is next to them optional.
pub static SOFT_MARKERS: LazyLock<Vec<&[&str]>> = phrase_list!(REQUIREMENT_WORDS, "soft");

/// The most must markers read per request; real requests have one or two.
const MAX_MUST_MARKERS: usize = 32;

/// Phrases that introduce a must.
static MUST_MARKERS: LazyLock<Vec<&[&str]>> = phrase_list!(REQUIREMENT_WORDS, "must");

/// Words that make a must about delivery or returns, which other rules own.
static NOT_FREE_TEXT: LazyLock<MarkedWords> = LazyLock::new(|| REQUIREMENT_WORDS.marked_words("not-free-text"));

/// Things a product can be free of ("paraben free", "lactose and dairy free").
static FREE_OF: LazyLock<MarkedWords> = LazyLock::new(|| REQUIREMENT_WORDS.marked_words("free-of"));

/// Single-word properties.
fn is_property_word(word: &str) -> bool {
    crate::words::class::PROPERTY_WORDS.has_mark(word, "property")
        || word.starts_with("веган")
        || word.starts_with("гипоаллерген")
        || word.starts_with("беспроводн")
        || word.starts_with("органическ")
        || word.starts_with("водонепроницаем")
        || (word.ends_with("-free") && word.len() > 5)
}

/// Properties of two or three words.
static PROPERTY_PHRASES: LazyLock<Vec<&[&str]>> = phrase_list!(REQUIREMENT_WORDS, "property");

/// A requirement in the person's words and the tokens it covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requirement {
    pub text: String,
    pub start: usize,
    pub end: usize,
}

/// Known properties ("gluten-free", "noise cancelling"), not claimed by other rules.
pub fn properties(request: &Request) -> Vec<Requirement> {
    let mut found: Vec<Requirement> = Vec::new();
    let mut index = 0;
    while index < request.len() {
        let word = request.word(index);
        let mut span: Option<(usize, usize)> = None;
        if word == "free" && index > 0 && FREE_OF.contains(&request.word_before(index, 1)) {
            let first = index - 1;
            let joined = first >= 2
                && matches!(request.word_before(first, 1), "and" | "&")
                && FREE_OF.contains(&request.word_before(first, 2));
            span = Some((if joined { first - 2 } else { first }, index));
        } else if is_property_word(word) {
            span = Some((index, index));
        } else if let Some(phrase) = PROPERTY_PHRASES.iter().find(|phrase| request.phrase_at(index, phrase)) {
            span = Some((index, index + phrase.len() - 1));
        }
        match span {
            Some((start, end))
                if (start..=end).all(|at| !request.is_consumed(at)) && !describes_model(request, end) =>
            {
                while found.last().is_some_and(|earlier| earlier.end >= start) {
                    found.pop();
                }
                found.push(Requirement { text: request.original(start, end), start, end });
                index = end + 1;
            }
            _ => index += 1,
        }
    }
    found
}

/// Units glued to a number ("8gb", "20вт", "125g", "1500W", "3MP").
fn is_glued_unit(suffix: &str) -> bool {
    crate::words::size::is_measure_unit(suffix) || crate::words::class::PROPERTY_WORDS.has_mark(suffix, "glued-unit")
}

/// Measures, capacities, dimensions and pack sizes: "25.4 fluid ounce",
/// "8gb", "13.25 by 8 inch", "50х70", "pack of 18", "3 pack", "kit 3", "32
/// ct", "70%". None is a size unless "size" introduces it (`size` reads
/// those), and none is a count: each is a condition on the item.
pub fn measures(request: &Request) -> Vec<Requirement> {
    let mut found: Vec<Requirement> = Vec::new();
    let number = crate::words::text::is_numeral;
    let glued = |word: &str| {
        let Some(split) = word.find(|character: char| !(character.is_ascii_digit() || matches!(character, '.' | ',')))
        else {
            return false;
        };
        split > 0 && word.get(split..).is_some_and(is_glued_unit)
    };
    let dimension = |word: &str| {
        word.split(['x', 'х', '*', '+']).filter(|part| !part.is_empty()).count() >= 2
            && word.split(['x', 'х', '*', '+']).all(|part| number(part) || glued(part))
            && word.chars().next().is_some_and(|character| character.is_ascii_digit())
    };
    let unit = |word: &str| {
        crate::words::size::is_measure_unit(word) || crate::words::class::PROPERTY_WORDS.has_mark(word, "measure-unit")
    };
    // "18 x24", "50”x60”": the last token of a dimension whose second side
    // is glued to its "x", after the first side and its inch mark.
    let second_side = |first: usize| {
        let inch_mark = crate::words::text::is_inch_mark;
        let at = if inch_mark(request.word(first + 1)) { first + 2 } else { first + 1 };
        let side = request.word(at).strip_prefix(['x', 'х', '×'])?;
        (number(side) || glued(side)).then(|| if inch_mark(request.word(at + 1)) { at + 1 } else { at })
    };
    let mut index = 0;
    while index < request.len() {
        let free = |at: usize| !request.is_consumed(at);
        let word = request.word(index);
        let mut span: Option<(usize, usize)> = None;
        if free(index) && (glued(word) || dimension(word) || word.ends_with('%') && number(word.trim_end_matches('%')))
        {
            span = Some((index, index));
        } else if free(index)
            && number(word)
            && (request.word(index + 1) == "by" || (request.word(index + 1) == "in" && request.word(index + 2) == "by"))
            && (number(request.word(index + 2)) || number(request.word(index + 3)) || glued(request.word(index + 2)))
        {
            let end = if request.word(index + 1) == "in" { index + 1 } else { index };
            span = Some((index, end));
        } else if free(index)
            && number(word)
            && let Some(end) = second_side(index)
        {
            span = Some((index, end));
        } else if free(index) && number(word) && unit(request.word(index + 1)) {
            let mut end = index + 1;
            // "25.4 fluid ounce", "25.4 fl oz".
            while crate::words::size::is_measure_unit(request.word(end + 1)) && end < index + 3 {
                end += 1;
            }
            span = Some((index, end));
        } else if matches!(word, "pack" | "kit" | "set") && free(index) {
            // "pack of 18", "pack 4", "kit 3", "set of 4".
            let at = if request.word(index + 1) == "of" { index + 2 } else { index + 1 };
            if crate::words::text::count(request.word(at)).is_some() && free(at) {
                span = Some((index, at));
            }
        } else if crate::words::text::count(word).is_some()
            && (request.word(index + 1) == "pack" || request.word(index + 1).ends_with("-pack"))
            && free(index)
        {
            // "a six pack of", "3 pack", "a 2-pack".
            span = Some((index, index + 1));
        } else if word.ends_with("-pack")
            && crate::words::text::count(word.trim_end_matches("-pack")).is_some()
            && free(index)
        {
            span = Some((index, index));
        } else if matches!(word, "single" | "variety" | "multipack") && request.word(index + 1) == "pack" && free(index)
        {
            span = Some((index, index + 1));
        }
        // "13.25 by 8 inch", "6 foot by 4 foot", "66 in by 54 in".
        if let Some((start, mut end)) = span {
            while request.word(end + 1) == "by" && (number(request.word(end + 2)) || glued(request.word(end + 2))) {
                end += 2;
                if unit(request.word(end + 1)) || request.word(end + 1) == "in" {
                    end += 1;
                }
            }
            // "300 meters long", "512GB storage": the word that says what
            // the measure is of goes with it.
            if crate::words::measure::of_measure(request.word(end + 1), request.word(end + 2)) && free(end + 1) {
                end += 1;
            }
            if (start..=end).all(free) {
                found.push(Requirement { text: request.original(start, end), start, end });
                index = end + 1;
                continue;
            }
        }
        index += 1;
    }
    found
}

/// "noise cancelling AirPods Pro 2": a property right before a named model
/// describes that model and is not a separate must.
fn describes_model(request: &Request, end: usize) -> bool {
    request.is_consumed(end + 1) && request.is_word(end + 1) && request.same_clause(end, end + 1)
}

/// "for my iPhone 15", "для iPhone 15", "fits an iPhone 15 Pro": the phone a
/// case must fit, when no model rule has claimed those words.
/// "next week", "this week", "на следующей неделе": a time too vague for a
/// deadline (the dev set's labelling rule), still a wish the person said, so
/// a requirement they are asked about rather than a word that vanishes.
pub fn vague_times(request: &Request) -> Vec<Requirement> {
    let mut found = Vec::new();
    for at in 1..request.len() {
        if !request.is_consumed(at)
            && !request.is_consumed(at - 1)
            && matches!(request.word(at), "week" | "неделе" | "неделю")
            && DATE_WORDS.has_mark(request.word(at - 1), "this-or-next")
        {
            let start = if DATE_WORDS.has_mark(request.word_before(at - 1, 1), "week-cue") { at - 2 } else { at - 1 };
            found.push(Requirement { text: request.original(start, at), start, end: at });
        }
    }
    found
}

pub fn phone_fits(request: &Request) -> Vec<Requirement> {
    let mut found = Vec::new();
    for index in 0..request.len() {
        if !REQUIREMENT_WORDS.has_mark(request.word(index), "fits-cue") {
            continue;
        }
        let mut at = index + 1;
        if REQUIREMENT_WORDS.has_mark(request.word(at), "fits-article") {
            at += 1;
        }
        if !matches!(request.word(at), "iphone" | "galaxy" | "pixel") || request.is_consumed(at) {
            continue;
        }
        let mut end = at;
        while let next = request.word(end + 1)
            && !request.is_consumed(end + 1)
            && (next.bytes().all(|byte| byte.is_ascii_digit()) && !next.is_empty()
                || MODEL_WORDS.has_mark(next, "phone-variant"))
        {
            end += 1;
        }
        if end > at {
            found.push(Requirement { text: request.original(index, end), start: index, end });
        }
    }
    found
}

/// Whether the words before `index` waive what follows ("doesn't have to
/// be", "no need to be", "не обязательно").
pub fn is_waived(request: &Request, index: usize) -> bool {
    request.preceded_by(index, 2, &WAIVER_BEFORE)
}

/// What follows "must be" / "has to" / "обязательно" in its clause, when no
/// other rule has claimed it.
pub fn musts(request: &Request) -> Vec<Requirement> {
    let mut found = Vec::new();
    let mut markers_seen = 0usize;
    for index in 0..request.len() {
        let Some(marker) = MUST_MARKERS.iter().find(|marker| request.phrase_at(index, marker)) else {
            continue;
        };
        // Each marker reads to the end of its clause; a bounded number of
        // markers keeps a hostile "must must must…" request linear.
        markers_seen += 1;
        if markers_seen > MAX_MUST_MARKERS {
            break;
        }
        // "doesn't have to be fast" waives a requirement; it states none.
        if is_waived(request, index) {
            continue;
        }
        let start = index + marker.len();
        let mut end = start;
        while request.same_clause(start, end + 1) {
            end += 1;
        }
        if start >= request.len() || !request.same_clause(index, start) {
            continue;
        }
        let claimed = (start..=end).any(|at| request.is_consumed(at) && request.is_word(at));
        let about_other_rule =
            (start..=end).any(|at| NOT_FREE_TEXT.iter().any(|word| request.word(at).starts_with(word)));
        let trailing_punct = (start..=end).rev().take_while(|at| !request.is_word(*at)).count();
        let end = end.saturating_sub(trailing_punct);
        if !claimed && !about_other_rule && end >= start && request.is_word(start) {
            found.push(Requirement { text: request.original(start, end), start, end });
        }
    }
    found
}

/// Where soft markers are: (first token, last token).
pub fn soft_markers(request: &Request) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    for index in 0..request.len() {
        if let Some(marker) = SOFT_MARKERS.iter().find(|marker| request.phrase_at(index, marker)) {
            found.push((index, index + marker.len() - 1));
        }
    }
    found
}

/// The wish in a clause that holds a soft marker but no stated fact: the
/// clause without its markers and the filler around them.
pub fn optional_wish(request: &Request, markers: &[(usize, usize)], marker: (usize, usize)) -> Option<Requirement> {
    let mut clause_start = marker.0;
    while clause_start > 0 && request.same_clause(clause_start - 1, marker.0) {
        clause_start -= 1;
    }
    let mut clause_end = marker.1;
    while request.same_clause(clause_end + 1, marker.0) {
        clause_end += 1;
    }
    let in_marker = |at: usize| markers.iter().any(|(first, last)| (*first..=*last).contains(&at));
    let words: Vec<usize> = (clause_start..=clause_end).filter(|at| request.is_word(*at) && !in_marker(*at)).collect();
    let first = words.iter().position(|at| !WISH_FILLERS.has_mark(request.word(*at), "leading"))?;
    let last = words.iter().rposition(|at| !WISH_FILLERS.contains(request.word(*at)))?;
    let (start, end) = (*words.get(first)?, *words.get(last)?);
    if end < start || (start..=end).any(|at| request.is_consumed(at) && request.is_word(at)) {
        return None;
    }
    Some(Requirement { text: request.original(start, end), start, end })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(list: Vec<Requirement>) -> Vec<String> {
        list.into_iter().map(|requirement| requirement.text).collect()
    }

    #[test]
    fn known_properties_in_the_persons_words() {
        let request = Request::new("cookies which is keto friendly grain free and sugar free, lactose and dairy free");
        assert_eq!(
            texts(properties(&request)),
            ["keto friendly", "grain free", "sugar free", "lactose and dairy free"]
        );
        assert_eq!(texts(properties(&Request::new("it must be gluten-free"))), ["gluten-free"]);
        assert_eq!(texts(properties(&Request::new("обязательно с MagSafe"))), ["с MagSafe"]);
    }

    #[test]
    fn measures_and_pack_sizes() {
        for (text, measure) in [
            ("a 25.4 fluid ounce bottle of syrup", "25.4 fluid ounce"),
            ("an 8gb ram mini computer", "8gb ram"),
            // What the measure is of goes with it: "long" alone is no requirement.
            ("fishing line in orange that's 300 meters long", "300 meters long"),
            ("a Nubia smartphone with 16GB RAM, 512GB storage", "512GB storage"),
            ("a side table about 46 cm tall and 40 cm deep", "40 cm deep"),
            // Unless the word opens another phrase.
            ("40 feet high speed cables", "40 feet"),
            ("a 2-pack long lasting wall sconce", "2-pack"),
            ("a 13.25 by 8 inch vanity light", "13.25 by 8 inch"),
            ("curtains that are 66 in by 54 in", "66 in by 54 in"),
            ("подушка 50х70 гипоаллергенная", "50х70"),
            ("a pack of 18 snack mix", "pack of 18"),
            ("vanilla syrup, 25.4 fl oz pack 4", "25.4 fl oz"),
            ("a 32 ct variety pack", "32 ct"),
            ("шоколад горький 70%", "70 %"),
            ("гель для душа 400 мл", "400 мл"),
            ("i need 2 tier shelf for bathroom", "2 tier"),
            ("a 12 volt car charger", "12 volt"),
            ("i would like a 18 x24 nero black mirror", "18 x24"),
            ("a fleece throw for a couch which is 50”x60” in size", "50” x60”"),
        ] {
            let request = Request::new(text);
            let found = texts(measures(&request));
            assert!(found.contains(&measure.to_owned()), "{text}: {found:?}");
        }
    }

    #[test]
    fn musts_and_phones() {
        assert_eq!(texts(musts(&Request::new("a case that has to fit an iPhone 15, blue"))), ["fit an iPhone 15"]);
        assert_eq!(texts(musts(&Request::new("They MUST arrive by Saturday"))), Vec::<String>::new());
        assert_eq!(texts(musts(&Request::new("it doesn't have to be fast"))), Vec::<String>::new());
        assert_eq!(texts(phone_fits(&Request::new("Чехол для iPhone 15, зелёный"))), ["для iPhone 15"]);
    }

    #[test]
    fn optional_wishes_without_their_markers() {
        for (text, wish) in [
            ("if they do gift wrap that's a bonus", "gift wrap"),
            ("would be nice if it's vegan leather", "vegan leather"),
            ("a gift receipt if possible", "a gift receipt"),
            ("подарочная упаковка желательно", "подарочная упаковка"),
        ] {
            let request = Request::new(text);
            let markers = soft_markers(&request);
            assert_eq!(
                optional_wish(&request, &markers, markers[0]).map(|wish| wish.text).as_deref(),
                Some(wish),
                "{text}"
            );
        }
    }
}
