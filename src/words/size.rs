//! Sizes: "size 42", "size 110", "EU 42", "eu:30", "US 9", "US mens 10.5",
//! "women's 8", "42,5", grip "4 3/8", S–XXL, "medium", "x-large", "xx large",
//! "in extra small", bra and jeans sizes ("34C", "W32 L34", "32x30"), kids'
//! sizes ("4T"), bed sizes ("queen size", "twin-sized"), "размер 42", "42
//! размера", "р. 39".
//!
//! Dimensions and capacities ("1 kg", "8 inch", "256GB", "100x45 cm") are not
//! sizes unless the word "size" introduces them ("in the 18 ounce size"):
//! they are requirements, kept in `other`. Letter sizes that are also
//! ordinary words ("small", "large") are sizes only where the sentence makes
//! them one: after "size" or "in", alone in their clause, or next to a
//! garment or a gender ("a womens large t-shirt", "a medium floral shirt").
//!
//! A size is kept as the person said it, with two normalisations that make
//! two extractors agree rather than dispute: a size system is written in
//! capitals before the number ("us5.5" → "US 5.5") and a decimal comma
//! becomes a point ("42,5" → "42.5"). A bare number is a size only where the
//! sentence makes it one ("in 43", "size 40 … and 43"), never on its own:
//! "4 cans" is a count and "Pegasus 41" a model.

use std::ops::ControlFlow::{self, Break, Continue};

use super::class::{MEASURE_UNITS, SIZE_CONTEXT, SIZE_WORDS, phrase_list};
use super::text::Request;
use std::sync::LazyLock;

/// Words after a size that offer it only as acceptable ("43 is fine too") (`size-context.txt`, `@fallback-after`).
static FALLBACK_AFTER: LazyLock<Vec<&[&str]>> = phrase_list!(SIZE_CONTEXT, "fallback-after");

/// Words before an age range that say whom it is for, so its months are no size (`size-context.txt`, `@for-whom-before`).
static FOR_WHOM_BEFORE: LazyLock<Vec<&[&str]>> = phrase_list!(SIZE_CONTEXT, "for-whom-before");

/// One size mention: its label, its first token (including "size"/"in"), and
/// whether the person offered it only as an acceptable alternative.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SizeMention {
    pub label: String,
    pub start: usize,
    pub end: usize,
    pub fallback: bool,
    /// One of "9 or 9.5": a choice the person left open, so no size fact.
    pub either: bool,
}

/// A word that says a size follows or is near ("size", "размер", "grip").
fn is_size_cue(word: &str) -> bool {
    SIZE_WORDS.has_mark(word, "cue")
}

/// Filler between "size" and its value ("size of 3x-large", "size should be large").
fn is_between(word: &str) -> bool {
    SIZE_WORDS.has_mark(word, "between")
}

fn system_of(word: &str) -> Option<&'static str> {
    Some(match word {
        "eu" | "eur" => "EU",
        "us" => "US",
        "uk" => "UK",
        _ => return None,
    })
}

/// A numeric size value: "42", "42,5", "9.5" (no more than two digits before
/// the point: sizes are small numbers, and this keeps "2026" out).
fn numeric(word: &str) -> Option<String> {
    let normalised = word.replace(',', ".");
    let (whole, fraction) = normalised.split_once('.').unwrap_or((normalised.as_str(), ""));
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|byte| byte.is_ascii_digit());
    if !digits(whole) || whole.len() > 2 || (!fraction.is_empty() && (!digits(fraction) || fraction.len() > 1)) {
        return None;
    }
    Some(normalised)
}

fn is_fraction(word: &str) -> bool {
    matches!(word.split_once('/'), Some((top, bottom)) if top.len() == 1 && bottom.len() == 1
        && top.bytes().all(|byte| byte.is_ascii_digit()) && bottom.bytes().all(|byte| byte.is_ascii_digit()))
}

/// Letter sizes that mean nothing else ("xl", "x-large", "3x-large";
/// `size-words.txt`, `@letter`).
fn unambiguous_letter(word: &str) -> bool {
    let compact: String = word.chars().filter(|character| *character != '-').collect();
    SIZE_WORDS.has_mark(&compact, "letter")
}

/// Letter sizes that are also ordinary words or letters ("medium", "s", "l";
/// `size-words.txt`, `@ambiguous-letter`).
fn ambiguous_letter(word: &str) -> bool {
    SIZE_WORDS.has_mark(word, "ambiguous-letter")
}

/// Units that make a number a measure ("18 ounce", "1 кг";
/// `extractors/words/measure-units.txt`).
pub fn is_measure_unit(word: &str) -> bool {
    MEASURE_UNITS.contains(word)
}

/// Words after a bare number that make it anything but a size.
fn is_not_size_follower(word: &str) -> bool {
    is_measure_unit(word) || super::class::SIZE_CONTEXT.has_mark(word, "not-size-follower")
}

/// Every size mention in the request; consumes their tokens.
pub fn extract(request: &mut Request) -> Vec<SizeMention> {
    let mut mentions: Vec<SizeMention> = Vec::new();
    let mut index = 0;
    while index < request.len() {
        match mention_at(request, index) {
            Some(mut mention) => {
                mention.fallback = is_fallback(request, mention.end);
                request.consume(mention.start, mention.end);
                index = mention.end + 1;
                mentions.push(mention);
            }
            None => index += 1,
        }
    }
    // "size 40 for my wife and 43 for me": a number after "and" continues the sizes.
    if !mentions.is_empty() {
        let mut index = mentions.first().map_or(0, |mention| mention.end + 1);
        while index < request.len() {
            let either = matches!(request.word_before(index, 1), "or" | "или");
            let corrected = request.preceded_by(index, 3, &[&["make", "it"], &["actually"], &["change", "to"]]);
            let joined = matches!(request.word_before(index, 1), "and" | "и")
                || either
                || corrected
                || is_fallback(request, index);
            if joined
                && !request.is_consumed(index)
                && let Some(value) = numeric(request.word(index))
                && !is_not_size_follower(request.word(index + 1))
                && !SIZE_WORDS.has_mark(request.word(index + 1), "not-after-joined")
            {
                request.consume(index, index);
                if either && let Some(previous) = mentions.last_mut() {
                    previous.either = true;
                }
                mentions.push(SizeMention {
                    label: value,
                    start: index,
                    end: index,
                    fallback: is_fallback(request, index),
                    either,
                });
            }
            index += 1;
        }
        mentions.sort_by_key(|mention| mention.start);
    }
    mentions
}

/// A bare number read as a size, for an answer to a question about size
/// ("make it 43", "43 is fine too"), where the sentence alone cannot say so.
pub fn bare_size(request: &mut Request) -> Option<SizeMention> {
    let index = (0..request.len()).find(|index| {
        !request.is_consumed(*index)
            && numeric(request.word(*index)).is_some_and(|value| number_is_plausible(&value))
            && !is_not_size_follower(request.word(index + 1))
    })?;
    let label = numeric(request.word(index))?;
    request.consume(index, index);
    Some(SizeMention { label, start: index, end: index, fallback: is_fallback(request, index), either: false })
}

/// Whether the person offered this value only as acceptable ("43 is fine too").
pub fn is_fallback(request: &Request, end: usize) -> bool {
    request.followed_by(end, 3, &FALLBACK_AFTER) || request.preceded_by(end, 3, &[&["можно", "и"], &["or", "even"]])
}

/// Words that name who a garment or shoe is for; a number after one is a
/// size ("women's 8", "US mens 10.5").
fn is_gender(word: &str) -> bool {
    super::class::SIZE_CONTEXT.has_mark(word, "gender")
}

/// Garments and shoes: a letter size next to one is a size ("a womens large
/// t-shirt"), not a measure of something else ("a large storage case").
fn is_garment(word: &str) -> bool {
    super::class::SIZE_CONTEXT.has_mark(word, "garment")
}

/// Whether a garment follows within the clause, before a word that starts
/// another phrase ("a medium floral long sleeve shirt").
fn garment_ahead(request: &Request, index: usize) -> bool {
    // Up to eight words: "a large summer o neck womens short sleeve blouse".
    for at in index + 1..index + 9 {
        if !request.same_clause(index, at) || !request.is_word(at) {
            return false;
        }
        let word = request.word(at);
        if is_garment(word) || (word == "t" && request.word(at + 1) == "shirt") {
            return true;
        }
        if SIZE_CONTEXT.has_mark(word, "ends-garment-search") {
            return false;
        }
    }
    false
}

/// A size number after "size": "110" (kids' heights), "39M"/"10W" (width).
fn sized_number(word: &str) -> Option<String> {
    if let Some(value) = numeric(word) {
        return Some(value);
    }
    if word.len() == 3
        && word.bytes().all(|byte| byte.is_ascii_digit())
        && word.parse::<u32>().is_ok_and(|value| (50..=200).contains(&value))
    {
        return Some(word.to_owned());
    }
    let digits = word.strip_suffix(['m', 'w'])?;
    let width = word.get(digits.len()..)?.to_uppercase();
    numeric(digits).map(|value| format!("{value}{width}"))
}

/// A number that begins a dimension ("12 x20", "40w x 48h", "80*45*40cm",
/// "12x60"): the whole dimension as said (its tokens joined by "x") and its
/// last token. A size is never one side of a dimension: "size 12 x20" is a
/// 12 by 20 pillow cover, not a size 12.
fn dimension_at(request: &Request, at: usize) -> Option<(String, usize)> {
    // A side is a number, or a number after its axis ("w45*h56").
    let starts_with_digit = |index: usize| {
        let word = request.word(index);
        let number = word.strip_prefix(['w', 'h', 'l', 'd']).unwrap_or(word);
        number.starts_with(|c: char| c.is_ascii_digit())
    };
    if !starts_with_digit(at) {
        return None;
    }
    let text = |index: usize| request.tokens.get(index).map(|token| token.text.clone()).unwrap_or_default();
    // "8 feet x 10 feet", "14” x 14”": the unit after a side, if any, as it
    // is written after the number (a word apart, an inch mark joined).
    let unit_after = |side_end: usize| -> Option<String> {
        let word = request.word(side_end + 1);
        let inch_mark = matches!(word, "”" | "\"" | "″" | "''");
        ((is_measure_unit(word) || inch_mark) && request.same_clause(side_end, side_end + 1)).then(|| {
            let unit = text(side_end + 1);
            if inch_mark { unit } else { format!(" {unit}") }
        })
    };
    let mut sides = vec![text(at)];
    let mut end = at;
    loop {
        let unit = unit_after(end);
        let sign_at = if unit.is_some() { end + 2 } else { end + 1 };
        let next = request.word(sign_at);
        // "12 x20": the sign glued to the next side.
        let glued =
            next.strip_prefix(['x', 'х', '×']).is_some_and(|side| side.starts_with(|c: char| c.is_ascii_digit()));
        let (side, side_end) = if glued {
            (text(sign_at).chars().skip(1).collect::<String>(), sign_at)
        } else if matches!(next, "x" | "х" | "×" | "*") && starts_with_digit(sign_at + 1) {
            (text(sign_at + 1), sign_at + 1)
        } else {
            break;
        };
        if !request.same_clause(end, side_end) {
            break;
        }
        if let (Some(unit), Some(last)) = (unit, sides.last_mut()) {
            last.push_str(&unit);
        }
        sides.push(side);
        end = side_end;
    }
    if sides.len() < 2 {
        return None;
    }
    if let (Some(unit), Some(last)) = (unit_after(end), sides.last_mut()) {
        last.push_str(&unit);
        end += 1;
    }
    Some((sides.join(" x "), end))
}

/// "x large", "xx large", "3x large", "extra small": a letter size in two
/// tokens, written with a hyphen for the x forms ("3x-large").
fn two_token_letter(request: &Request, at: usize) -> Option<(String, usize)> {
    let (first, second) = (request.word(at), request.word(at + 1));
    let text = |index: usize| request.tokens.get(index).map(|token| token.text.clone()).unwrap_or_default();
    // "3 x large", "3 x-large": the count of x written apart.
    if matches!(first, "2" | "3" | "4" | "5") {
        if second == "x" && matches!(request.word(at + 2), "large" | "small") && request.same_clause(at, at + 2) {
            return Some((format!("{first}x-{}", text(at + 2)), at + 2));
        }
        if matches!(second, "x-large" | "x-small") && request.same_clause(at, at + 1) {
            return Some((format!("{first}{}", text(at + 1)), at + 1));
        }
    }
    if !matches!(second, "large" | "small") || !request.same_clause(at, at + 1) {
        return None;
    }
    match first {
        "extra" if request.word_before(at, 1) == "extra" => None,
        "extra" => Some((format!("{} {}", text(at), text(at + 1)), at + 1)),
        "x" | "xx" | "xxx" | "2x" | "3x" | "4x" | "5x" => Some((format!("{}-{}", text(at), text(at + 1)), at + 1)),
        _ => None,
    }
}

/// Bed sizes: "queen", "king", "twin", "california king", "full".
fn bed_size(word: &str) -> Option<&'static str> {
    Some(match word.trim_end_matches("-sized").trim_end_matches("-size") {
        "queen" => "Queen",
        "king" => "King",
        "twin" => "Twin",
        "full" => "Full",
        _ => return None,
    })
}

/// "34C", "36DD": a bra size.
fn bra_size(word: &str) -> Option<String> {
    let split = word.find(|character: char| !character.is_ascii_digit())?;
    let (band, cup) = (word.get(..split)?, word.get(split..)?);
    let band_value: u32 = band.parse().ok()?;
    let cup_ok = SIZE_WORDS.has_mark(cup, "bra-cup");
    ((28..=48).contains(&band_value) && cup_ok).then(|| format!("{band}{}", cup.to_uppercase()))
}

/// "w32", "l34": a jeans waist or length.
fn jeans_part(word: &str, letter: char) -> Option<u32> {
    let digits = word.strip_prefix(letter)?;
    let value: u32 = digits.parse().ok()?;
    (digits.len() == 2 && (22..=50).contains(&value)).then_some(value)
}

/// "32x30": a jeans waist by length (Latin x; "50х70" is a pillow).
fn jeans_by(word: &str) -> Option<String> {
    let (waist, length) = word.split_once('x')?;
    let (waist_value, length_value): (u32, u32) = (waist.parse().ok()?, length.parse().ok()?);
    ((22..=50).contains(&waist_value) && (26..=38).contains(&length_value) && waist.len() == 2 && length.len() == 2)
        .then(|| format!("{waist}x{length}"))
}

/// "4t", "2T": a toddler size.
fn toddler_size(word: &str) -> Option<String> {
    let digits = word.strip_suffix('t')?;
    let value: u32 = digits.parse().ok()?;
    (digits.len() == 1 && (2..=6).contains(&value)).then(|| format!("{value}T"))
}

/// A size value starting at `at` (after any "size" word): its label and last token.
fn value_at(request: &Request, at: usize, letters_allowed: bool) -> Option<(String, usize)> {
    let word = request.word(at);
    if let Some(system) = system_of(word) {
        // "eu:30", "US mens 10.5".
        let mut next = at + 1;
        while (request.word(next) == ":" || is_gender(request.word(next))) && next < at + 3 {
            next += 1;
        }
        if let Some(value) = numeric(request.word(next)) {
            return Some((format!("{system} {value}"), next));
        }
    }
    if is_gender(word)
        && let Some((label, end)) =
            value_at(request, at + 1, false).filter(|(label, _)| label.contains(|c: char| c.is_ascii_digit()))
    {
        return Some((label, end));
    }
    if let Some(found) = two_token_letter(request, at) {
        return Some(found);
    }
    if let Some(found) = special_size(request, at) {
        return Some(found);
    }
    if let Some((system, value)) = glued_system(word) {
        return Some((format!("{system} {value}"), at));
    }
    // "43-46": a range of sizes, as said; after "рост" a range of heights
    // ("на рост 110-116").
    let height = request.word_before(at, 1) == "рост";
    let value = |part: &str| if height { sized_number(part) } else { numeric(part) };
    if let Some((low, high)) = word.split_once('-')
        && let (Some(low), Some(high)) = (value(low), value(high))
    {
        return Some((format!("{low}-{high}"), at));
    }
    if let Some((dimension, end)) = dimension_at(request, at) {
        let after_size_word = (at.saturating_sub(4)..at).any(|index| is_size_cue(request.word(index)));
        return after_size_word.then_some((dimension, end));
    }
    if let Some(value) = numeric(word) {
        // "size 7 and a half".
        if !value.contains('.') && request.phrase_at(at + 1, &["and", "a", "half"]) {
            return Some((format!("{value}.5"), at + 3));
        }
        if is_fraction(request.word(at + 1)) {
            return Some((format!("{value} {}", request.word(at + 1)), at + 1));
        }
        // "size 10.5 US": the system after the number.
        if let Some(system) = system_of(request.word(at + 1)) {
            return Some((format!("{system} {value}"), at + 1));
        }
        let text = |index: usize| request.tokens.get(index).map(|token| token.text.clone()).unwrap_or_default();
        // "size: 4.4 ounce", "size should be 2 pound": a measure the person
        // calls a size is one, unit and all (LABELLING.md).
        let after_size_word = (at.saturating_sub(4)..at).any(|index| is_size_cue(request.word(index)));
        let counted = matches!(request.word(at + 1), "count" | "ct" | "pcs" | "pieces");
        if after_size_word && (is_measure_unit(request.word(at + 1)) || counted) && request.same_clause(at, at + 1) {
            // "the size should be 17.7 inches by 23.6 inches": both sides.
            if request.word(at + 2) == "by"
                && numeric(request.word(at + 3)).is_some()
                && request.same_clause(at, at + 3)
            {
                let far_unit = is_measure_unit(request.word(at + 4)) && request.same_clause(at, at + 4);
                let end = if far_unit { at + 4 } else { at + 3 };
                let far = if far_unit { format!("{} {}", text(at + 3), text(at + 4)) } else { text(at + 3) };
                return Some((format!("{value} {} by {far}", text(at + 1)), end));
            }
            return Some((format!("{value} {}", text(at + 1)), at + 1));
        }
        // "a size of 28 by 64": both dimensions, as said.
        if after_size_word
            && request.word(at + 1) == "by"
            && numeric(request.word(at + 2)).is_some()
            && request.same_clause(at, at + 2)
        {
            return Some((format!("{value} by {}", text(at + 2)), at + 2));
        }
        return Some((value, at));
    }
    if unambiguous_letter(word) || (letters_allowed && ambiguous_letter(word)) {
        let text = request.tokens.get(at).map(|token| token.text.clone()).unwrap_or_default();
        return Some((text, at));
    }
    None
}

/// Sizes whose shape says what they are: bra ("34C"), jeans ("W32 L34",
/// "32x30"), toddler ("4T").
fn special_size(request: &Request, at: usize) -> Option<(String, usize)> {
    let word = request.word(at);
    // "40w x 48h": the far side of a dimension is not a bra size.
    let after_sign = matches!(request.word_before(at, 1), "x" | "х" | "×" | "*")
        && request.word_before(at, 2).starts_with(|c: char| c.is_ascii_digit());
    if after_sign {
        return None;
    }
    if let Some(found) = waist_and_length(request, at).or_else(|| age_size(request, at)) {
        return Some(found);
    }
    // "32g ram": memory, not a bra.
    let memory = SIZE_CONTEXT.has_mark(request.word(at + 1), "memory");
    if let Some(label) = bra_size(word).filter(|_| !memory).or_else(|| jeans_by(word)).or_else(|| toddler_size(word)) {
        return Some((label, at));
    }
    // "33w x 32l", "30w x 34l": waist and length, the letter after the number.
    if let Some(waist) = word.strip_suffix('w').and_then(|digits| jeans_part(&format!("w{digits}"), 'w'))
        && matches!(request.word(at + 1), "x" | "х" | "×" | "*" | "by")
        && let Some(length) =
            request.word(at + 2).strip_suffix('l').and_then(|digits| jeans_part(&format!("l{digits}"), 'l'))
    {
        return Some((format!("W{waist} L{length}"), at + 2));
    }
    // "w45*h56": a width by a height, not a waist.
    if dimension_at(request, at).is_some() {
        return None;
    }
    if let Some(waist) = jeans_part(word, 'w') {
        if let Some(length) = jeans_part(request.word(at + 1), 'l') {
            return Some((format!("W{waist} L{length}"), at + 1));
        }
        return Some((format!("W{waist}"), at));
    }
    // "w32l34" in one token.
    if let Some(rest) = word.strip_prefix('w')
        && let Some((waist, length)) = rest.split_once('l')
        && let (Some(waist), Some(length)) =
            (jeans_part(&format!("w{waist}"), 'w'), jeans_part(&format!("l{length}"), 'l'))
    {
        return Some((format!("W{waist} L{length}"), at));
    }
    None
}

/// "a 35 waist and 36 long", "a 33 inch waist and a 30 inch length": a jeans
/// size said in words, as "W35 L36".
fn waist_and_length(request: &Request, at: usize) -> Option<(String, usize)> {
    let number = |index: usize| request.word(index).parse::<u32>().ok();
    let skip_inch = |index: usize| if matches!(request.word(index), "inch" | "in" | "\"") { index + 1 } else { index };
    let waist = number(at).filter(|value| (22..=50).contains(value))?;
    let mut index = skip_inch(at + 1);
    if request.word(index) != "waist" {
        return None;
    }
    index += 1;
    if !matches!(request.word(index), "and" | "&" | "x" | "by" | ",") {
        return None;
    }
    index += 1;
    if matches!(request.word(index), "a" | "an") {
        index += 1;
    }
    let length = number(index).filter(|value| (26..=38).contains(value))?;
    let end = skip_inch(index + 1);
    matches!(request.word(end), "long" | "length" | "inseam" | "leg").then(|| (format!("W{waist} L{length}"), end))
}

/// A child's size by age: "0-3 months" (baby clothes are sized so; not after
/// "for" or "ages", which say whom a toy suits) and "size 7-8 years".
fn age_size(request: &Request, at: usize) -> Option<(String, usize)> {
    let (low, high) = request.word(at).split_once('-')?;
    let (low, high): (u32, u32) = (low.parse().ok()?, high.parse().ok()?);
    if low >= high || high > 18 {
        return None;
    }
    let unit = request.word(at + 1);
    let months = SIZE_CONTEXT.has_mark(unit, "age-months");
    let years = SIZE_CONTEXT.has_mark(unit, "age-years");
    let after_size = request.preceded_by(at, 2, &[&["size"], &["sizes"], &["размер"], &["размера"]]);
    let for_whom = request.preceded_by(at, 2, &FOR_WHOM_BEFORE);
    let label = if months { "months" } else { "years" };
    ((months && !for_whom) || (years && after_size)).then(|| (format!("{low}-{high} {label}"), at + 1))
}

/// "us5.5", "eu42" → ("US", "5.5").
fn glued_system(word: &str) -> Option<(&'static str, String)> {
    let split = word.find(|character: char| character.is_ascii_digit())?;
    let (letters, digits) = (word.get(..split)?, word.get(split..)?);
    Some((system_of(letters)?, numeric(digits)?))
}

/// The size said at `index`, if any: each step in turn, the first that
/// decides (a size, or that the words there say none) ends the reading.
fn mention_at(request: &Request, index: usize) -> Option<SizeMention> {
    if request.is_consumed(index) || !request.is_word(index) {
        return None;
    }
    let word = request.word(index);
    // "iphone xs max": a phone, not an extra small.
    if word == "xs" && request.word(index + 1) == "max" {
        return None;
    }
    let steps: [fn(&Request, usize) -> Read; 10] = [
        size_cue,
        russian_size_mark,
        special_or_twin_xl,
        bed_size_beside_bedding,
        system_after_or_gender,
        letter_beside_garment,
        system_before,
        word_after,
        after_in,
        letter_alone,
    ];
    for step in steps {
        if let Break(found) = step(request, index) {
            return found;
        }
    }
    None
}

/// What one step of [`mention_at`] read: a decision (a size, or none at
/// all), or nothing, and the next step reads on.
type Read = ControlFlow<Option<SizeMention>>;

fn make(label: String, start: usize, end: usize) -> Option<SizeMention> {
    Some(SizeMention { label, start, end, fallback: false, either: false })
}

/// After a size word: "size 42", "size 7 wide", "размер M".
fn size_cue(request: &Request, index: usize) -> Read {
    let word = request.word(index);
    // "size 42", "size of 3x-large", "размер M", "grip 4 3/8".
    if is_size_cue(word) {
        let mut at = index + 1;
        while is_between(request.word(at)) && at < index + 4 {
            at += 1;
        }
        if let Some((label, end)) = value_at(request, at, true) {
            // "EU size 42": the system said before the size word is the
            // label's, as in "size EU 42".
            let system = system_of(request.word_before(index, 1)).filter(|_| {
                index > 0
                    && !request.is_consumed(index - 1)
                    && request.same_clause(index - 1, index)
                    && numeric(&label).is_some()
                    // "show us size 9": "us" after a verb is the person.
                    && (request.word_before(index, 1) != "us"
                        || matches!(request.word_before(index, 2), "" | ",")
                        || SIZE_WORDS.has_mark(request.word_before(index, 2), "before-us"))
            });
            let (label, index) = match system {
                Some(system) => (format!("{system} {label}"), index - 1),
                None => (label, index),
            };
            // "size 7 wide": a shoe's width is part of its size; so is a
            // fit ("size 34 regular", "size 12 petite").
            let width = match request.word(end + 1) {
                _ if !request.same_clause(end, end + 1) => None,
                "wide" => Some("Wide"),
                "narrow" => Some("Narrow"),
                "regular" if request.word(end + 2) != "fit" => Some("Regular"),
                "petite" => Some("Petite"),
                "tall" => Some("Tall"),
                _ => None,
            };
            return Break(match width {
                Some(width) => make(format!("{label} {width}"), index, end + 1),
                None => make(label, index, end),
            });
        }
        if let Some(label) = sized_number(request.word(at)) {
            return Break(make(label, index, at));
        }
        if let Some(bed) = bed_size(request.word(at)) {
            return Break(make(bed.to_owned(), index, at));
        }
        return Break(None);
    }
    Continue(())
}

/// After the Russian size mark: "р. 39", "рр 42".
fn russian_size_mark(request: &Request, index: usize) -> Read {
    let word = request.word(index);
    // "р. 39", "рр 42": the Russian size mark.
    if matches!(word, "р" | "рр" | "р-р") {
        let at = if request.word(index + 1) == "." { index + 2 } else { index + 1 };
        if let Some(value) = numeric(request.word(at))
            && !is_not_size_follower(request.word(at + 1))
        {
            return Break(make(value, index, at));
        }
    }
    Continue(())
}

/// A size written in one shape anywhere ("34C", "W32 L34", "32x30",
/// "4T"), or "twin xl".
fn special_or_twin_xl(request: &Request, index: usize) -> Read {
    let word = request.word(index);
    // "34C", "W32 L34", "32x30", "4T" anywhere.
    if let Some((label, end)) = special_size(request, index) {
        return Break(make(label, index, end));
    }
    // "a twin xl sheet set".
    if word == "twin" && request.word(index + 1) == "xl" {
        return Break(make("Twin XL".to_owned(), index, index + 1));
    }
    Continue(())
}

/// A bed's size, English or Russian, beside bedding or said as a size.
fn bed_size_beside_bedding(request: &Request, index: usize) -> Read {
    let word = request.word(index);
    // "queen size", "twin-sized", "a king size bed", "a queen fitted sheet".
    let bedding = |at: usize| request.same_clause(index, at) && SIZE_CONTEXT.has_mark(request.word(at), "bedding");
    let said_as_size =
        word.ends_with("-sized") || word.ends_with("-size") || matches!(request.word(index + 1), "size" | "sized");
    // "full size" is a bed's only beside bedding: "the gloss bomb, full size
    // not the mini" and "a full size keyboard" are no bed sizes.
    if let Some(bed) = bed_size(word)
        && (if word == "full" || word.starts_with("full-") {
            (index + 1..index + 5).any(bedding)
        } else {
            said_as_size || (index + 1..index + 3).any(bedding)
        })
    {
        let end = if matches!(request.word(index + 1), "size" | "sized") { index + 1 } else { index };
        return Break(make(bed.to_owned(), index, end));
    }
    // "постельное бельё евро", "одеяло 1.5-спальное": Russian bed sizes,
    // beside bedding only ("евро" is also the currency).
    if SIZE_CONTEXT.has_mark(word, "bed-size-ru")
        && (index.saturating_sub(4)..index + 5)
            .any(|at| request.same_clause(index, at) && SIZE_CONTEXT.has_mark(request.word(at), "bedding-ru"))
    {
        return Break(make(request.original(index, index), index, index));
    }
    Continue(())
}

/// A number with its system after it ("43 EU") or after a gender
/// ("women's 8").
fn system_after_or_gender(request: &Request, index: usize) -> Read {
    let word = request.word(index);
    // "белые, 43 EU", "43 EU": a shoe size with its system after it.
    if let Some(value) = numeric(word)
        && request.word(index + 1) == "eu"
        && request.same_clause(index, index + 1)
        && value.parse::<f32>().is_ok_and(|number| (15.0..=50.0).contains(&number))
    {
        return Break(make(format!("EU {value}"), index, index + 1));
    }
    // "women's 8", "US mens 10.5", "womens size 11" (the size word is read above).
    if is_gender(word)
        && let Some(value) = numeric(request.word(index + 1))
        && !is_not_size_follower(request.word(index + 2))
        && number_is_plausible(&value)
    {
        return Break(make(value, index, index + 1));
    }
    Continue(())
}

/// A letter size beside a gender or a garment ("a womens large t-shirt"),
/// or a capital letter size right after a colour ("одну черную M").
fn letter_beside_garment(request: &Request, index: usize) -> Read {
    let word = request.word(index);
    // "a womens large t-shirt", "a medium floral long sleeve shirt", "small mens tee".
    // "3 x-large" says a size wherever it is, as "x-large" does.
    if matches!(word, "2" | "3" | "4" | "5")
        && matches!(request.word(index + 1), "x-large" | "x-small")
        && let Some((label, end)) = two_token_letter(request, index)
    {
        return Break(make(label, index, end));
    }
    let spaced_x = matches!(word, "2" | "3" | "4" | "5") && request.word(index + 1) == "x";
    if (spaced_x || SIZE_WORDS.has_mark(word, "beside-garment"))
        && (is_gender(request.word_before(index, 1))
            || is_gender(request.word(index + 1))
            || garment_ahead(request, index))
    {
        if let Some((label, end)) = two_token_letter(request, index) {
            return Break(make(label, index, end));
        }
        if matches!(word, "small" | "medium" | "large") {
            let text = request.tokens.get(index).map(|token| token.text.clone()).unwrap_or_default();
            return Break(make(text, index, index));
        }
    }
    // "одну черную M": a capital letter size right after a colour.
    if request
        .tokens
        .get(index)
        .is_some_and(|token| matches!(token.text.as_str(), "S" | "M" | "L" | "XS" | "XL" | "XXL"))
        && super::colour::is_colour(request.word_before(index, 1))
    {
        let text = request.tokens.get(index).map(|token| token.text.clone()).unwrap_or_default();
        return Break(make(text, index, index));
    }
    Continue(())
}

/// A size after its system: "EU 42", "us5.5"; a system word says no size
/// otherwise.
fn system_before(request: &Request, index: usize) -> Read {
    let word = request.word(index);
    // "EU 42", "us5.5".
    if system_of(word).is_some() || glued_system(word).is_some() {
        // Lower-case "us" is usually the pronoun ("send us 2"), unless a
        // size context introduces it.
        let written_as_system = request.tokens.get(index).is_some_and(|token| token.text != "us")
            || matches!(request.word_before(index, 1), "in" | "a" | "an");
        if written_as_system
            && let Some((label, end)) = value_at(request, index, false)
            && label.contains(' ')
        {
            return Break(make(label, index, end));
        }
        return Break(None);
    }
    Continue(())
}

/// A size said by the word after it: "42 размера", "medium sized", "128
/// рост", "travel size", "18 ounce size", grip "4 3/8".
fn word_after(request: &Request, index: usize) -> Read {
    let word = request.word(index);
    // "42 размера", "medium sized", "3x-large sized", "18 ounce size".
    let after = request.word(index + 1);
    // "128 рост": a child's height is the size.
    if after == "рост"
        && !request.is_consumed(index + 1)
        && let Some(label) = sized_number(word)
    {
        return Break(make(label, index, index + 1));
    }
    // "travel size toothpaste", "travel sized perfume oil": the size a
    // toiletry comes in.
    if matches!(word, "travel" | "trial") && matches!(after, "size" | "sized") && !request.is_consumed(index + 1) {
        return Break(make(format!("{word} {after}"), index, index + 1));
    }
    if SIZE_WORDS.has_mark(after, "after-label") && !request.is_consumed(index + 1) {
        // "42 размера", but in English only letters come before "size":
        // "medium size", never "Pegasus 41 size 42".
        let value_follows = value_at(request, index + 2, true).is_some();
        // "nvme m.2 size": the digit of a name cut at its dot is no size.
        let after_a_dot = request.word_before(index, 1) == "."
            && request.word_before(index, 2).chars().all(|character| character.is_alphabetic())
            && request.word_before(index, 2).chars().count() <= 2;
        if let Some((label, end)) = value_at(request, index, true).filter(|_| !after_a_dot)
            && end == index
            && (after.starts_with("размер") || numeric(&label).is_none() || !value_follows)
        {
            return Break(make(label, index, index + 1));
        }
        if is_measure_unit(after) {
            return Break(None);
        }
    }
    if let Some(value) = numeric(word)
        && is_measure_unit(after)
        && matches!(request.word(index + 2), "size" | "sized")
    {
        let label = format!("{value} {}", request.tokens.get(index + 1).map_or("", |token| token.text.as_str()));
        return Break(make(label, index, index + 2));
    }
    // Grip "4 3/8" anywhere.
    if let Some(value) = numeric(word)
        && is_fraction(after)
    {
        return Break(make(format!("{value} {after}"), index, index + 1));
    }
    Continue(())
}

/// A size after "in": "in 43", "in a us 9", "in x-large", "in small";
/// "in" before anything else says no size.
fn after_in(request: &Request, index: usize) -> Read {
    let word = request.word(index);
    // "in 43", "in a us 9", "in x-large", "in small".
    if matches!(word, "in" | "в") {
        let mut at = index + 1;
        if matches!(request.word(at), "a" | "an") {
            at += 1;
        }
        if let Some((label, end)) = value_at(request, at, true) {
            let bare_number = numeric(&label).is_some();
            let follower = request.word(end + 1);
            // "in 43", "in 43 and 40", "in 43 for me" — but "in 4 colors", "in 2 sizes".
            let ends_value = !request.is_word(end + 1)
                || !request.same_clause(end, end + 1)
                || SIZE_CONTEXT.has_mark(follower, "ends-size-after-in");
            let plausible =
                !bare_number || (!is_not_size_follower(follower) && number_is_plausible(&label) && ends_value);
            let letter_ok = numeric(&label).is_some()
                || label.contains(' ')
                || unambiguous_letter(&label.to_lowercase())
                || matches!(label.to_lowercase().as_str(), "small" | "medium" | "large")
                || !request.is_word(end + 1)
                || !request.same_clause(end, end + 1);
            if plausible && letter_ok {
                return Break(make(label, index, end));
            }
        }
        return Break(None);
    }
    Continue(())
}

/// A letter size alone: "xl", "x-large" anywhere; "M"/"medium" alone in
/// its clause or "a medium" at its end.
fn letter_alone(request: &Request, index: usize) -> Read {
    let word = request.word(index);
    // "xl", "x-large" anywhere; "M"/"medium" alone in its clause or "a medium" at its end.
    if unambiguous_letter(word) {
        let text = request.tokens.get(index).map(|token| token.text.clone()).unwrap_or_default();
        return Break(make(text, index, index));
    }
    if matches!(word, "small" | "medium" | "large") {
        let alone_before = !request.same_clause(index, index.wrapping_sub(1)) || index == 0;
        let ends_clause = !request.same_clause(index, index + 1) || !request.is_word(index + 1);
        let after_article = matches!(request.word_before(index, 1), "a" | "an" | "both" | "in");
        if ends_clause && (alone_before || after_article) {
            let text = request.tokens.get(index).map(|token| token.text.clone()).unwrap_or_default();
            return Break(make(text, index, index));
        }
    }
    Continue(())
}

/// Shoe and clothing sizes are small numbers; "in 2026" is not one.
fn number_is_plausible(label: &str) -> bool {
    label.split('.').next().and_then(|whole| whole.parse::<u32>().ok()).is_some_and(|whole| (1..=60).contains(&whole))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sizes(text: &str) -> Vec<String> {
        extract(&mut Request::new(text)).into_iter().map(|mention| mention.label).collect()
    }

    #[test]
    fn stated_sizes_in_every_system() {
        assert_eq!(sizes("running shoes size 42"), ["42"]);
        assert_eq!(sizes("Brooks in EU 42,5"), ["EU 42.5"]);
        assert_eq!(sizes("Hoka Clifton 9 US 9"), ["US 9"]);
        assert_eq!(sizes("size uk 9"), ["UK 9"]);
        assert_eq!(sizes("basketball shoes with EU size 42"), ["EU 42"]);
        assert_eq!(sizes("sneakers, US size 9"), ["US 9"]);
        assert_eq!(sizes("show us size 9 sneakers"), ["9"]);
        assert_eq!(sizes("basketball shoes with US size 9"), ["US 9"]);
        assert_eq!(sizes("heels in size us5.5"), ["US 5.5"]);
        assert_eq!(sizes("grip 4 3/8"), ["4 3/8"]);
        assert_eq!(sizes("Pure Aero, ручка 4 1/2"), ["4 1/2"]);
        assert_eq!(sizes("размер 42"), ["42"]);
        assert_eq!(sizes("кроссовки 42 размера"), ["42"]);
        assert_eq!(sizes("a 16 size satin dress"), ["16"]);
        assert_eq!(sizes("model 41 size 42"), ["42"]);
        assert_eq!(sizes("42,5"), Vec::<String>::new(), "a bare number is not a size");
    }

    #[test]
    fn letter_sizes_spelled_out_or_short() {
        assert_eq!(sizes("Uniqlo tee in x-large"), ["x-large"]);
        assert_eq!(sizes("both XL"), ["XL"]);
        assert_eq!(sizes("shorts, medium, black"), ["medium"]);
        assert_eq!(sizes("Nike Miler Tank size L"), ["L"]);
        assert_eq!(sizes("a medium sized red jumpsuit"), ["medium"]);
        assert_eq!(sizes("are a medium"), ["medium"]);
        assert_eq!(sizes("Clash 100 (NOT the L)"), Vec::<String>::new());
        assert_eq!(sizes("a large jar of honey"), Vec::<String>::new());
    }

    #[test]
    fn sizes_nobody_here_wrote() {
        assert_eq!(sizes("kids jacket size 110"), ["110"]);
        assert_eq!(sizes("boots size eu:30"), ["EU 30"]);
        assert_eq!(sizes("a tee in extra small"), ["extra small"]);
        assert_eq!(sizes("choose size xx large"), ["xx-large"]);
        assert_eq!(sizes("a shirt in 3x large"), ["3x-large"]);
        assert_eq!(sizes("sneakers, US mens 10.5"), ["US 10.5"]);
        assert_eq!(sizes("boots, women's 8"), ["8"]);
        assert_eq!(sizes("a pair of womens 8.5 toffee shoe"), ["8.5"]);
        assert_eq!(sizes("a bra in 34C"), ["34C"]);
        assert_eq!(sizes("джинсы levis 501 W32 L34 синие"), ["W32 L34"]);
        assert_eq!(sizes("jeans 32x30"), ["32x30"]);
        assert_eq!(sizes("a 4T dress"), ["4T"]);
        assert_eq!(sizes("a twin-sized kids bed"), ["Twin"]);
        assert_eq!(sizes("a queen size duvet"), ["Queen"]);
        assert_eq!(sizes("a twin xl sheet set"), ["Twin XL"]);
        assert_eq!(sizes("a queen bed sheet set in sage green"), ["Queen"]);
        assert_eq!(sizes("need a queen fitted sheet in sage green"), ["Queen"]);
        assert_eq!(sizes("a full size bed frame"), ["Full"]);
        assert!(sizes("the gloss bomb in fenty glow, full size not the mini").is_empty());
        assert!(sizes("a full size keyboard").is_empty());
        assert_eq!(sizes("Нужна детская футболка на рост 110-116, 2 штуки"), ["110-116"]);
        assert_eq!(sizes("кроссовки Nike Air Force 1, белые, 43 EU"), ["EU 43"]);
        assert_eq!(sizes("постельное бельё евро сатин, только не белое"), ["евро"]);
        assert!(sizes("чехол до 20 евро").is_empty());
        assert!(sizes("a 32gb 1tb ssd pcle nvme m.2 size intel core mini").is_empty());
        assert_eq!(sizes("vinyl dots. the size should be 17.7 inches by 23.6 inches"), ["17.7 inches by 23.6 inches"]);
        assert_eq!(sizes("a denim short regular fit size 34 regular colour steel black"), ["34 Regular"]);
        assert_eq!(sizes("jeans size 34 regular fit"), ["34"]);
        assert_eq!(sizes("носки мужские 10 пар размер 43-46"), ["43-46"]);
        assert_eq!(sizes("куртка зимняя детская 128 рост"), ["128"]);
        assert_eq!(sizes("hiking shoes in a size 39m"), ["39M"]);
        assert_eq!(sizes("a womens large cranberry t-shirt"), ["large"]);
        assert_eq!(sizes("a medium floral long sleeve shirt"), ["medium"]);
        assert_eq!(sizes("a small mens cranberry t shirt"), ["small"]);
        assert_eq!(sizes("сапоги р. 39"), ["39"]);
        assert_eq!(sizes("comes in 4 colors"), Vec::<String>::new());
        assert_eq!(sizes("a womens 3 piece set"), Vec::<String>::new());
        assert_eq!(sizes("размер желательно 50"), ["50"]);
        assert_eq!(sizes("футболки, одну черную M и одну белую L"), ["M", "L"]);
    }

    #[test]
    fn dimensions_and_capacities_are_not_sizes() {
        for text in [
            "две пачки по 1 кг",
            "an 11 inch light fixture",
            "a 25.4 fl oz bottle",
            "an 8 gb ram mini computer",
            "подушка 50х70",
            "a 12x60 inch sticker",
            "a large wig storage case",
            "телевизор 55 дюймов",
            "a 6 foot by 4 foot backdrop",
        ] {
            assert_eq!(sizes(text), Vec::<String>::new(), "{text}");
        }
    }

    #[test]
    fn a_dimension_is_read_whole_or_not_at_all() {
        assert_eq!(sizes("2 pillow covers with size 12 x20"), ["12 x 20"]);
        assert_eq!(sizes("a bench, seat size 80*45*40cm"), ["80 x 45 x 40cm"]);
        assert_eq!(sizes("a rug size 8 feet x 10 feet rectangular"), ["8 feet x 10 feet"]);
        assert_eq!(sizes("slim fit jeans that are a size 34w by 38l"), ["W34 L38"]);
        assert_eq!(sizes("an iphone case that is pink and xs max in size"), Vec::<String>::new());
        assert_eq!(sizes("a white item 40w x 48h size of home decor"), Vec::<String>::new());
        assert_eq!(sizes("pants with button closure in size 33w x 32l"), ["W33 L32"]);
        assert_eq!(sizes("relaxed fit jeans. must be a size 35 waist and 36 long in rockdale color"), ["W35 L36"]);
        assert_eq!(sizes("jeans with a 33 inch waist and a 30 inch length"), ["W33 L30"]);
        assert!(sizes("a 40 inch waist belt").is_empty());
        assert_eq!(sizes("a winter coat, size 7-8 years, waterproof"), ["7-8 years"]);
        assert_eq!(sizes("baby grows 0-3 months, pack of 5"), ["0-3 months"]);
        assert!(sizes("a rattle for 6-12 months babies").is_empty());
        assert!(sizes("a puzzle, 3-5 years").is_empty());
        assert_eq!(sizes("a pair of gold 30w x 34l pants"), ["W30 L34"]);
        assert_eq!(sizes("some 3 x large high waisted leggings"), ["3x-large"]);
        assert_eq!(sizes("a black 28 inseam 3 x-large stretch pant"), ["3x-large"]);
        assert_eq!(sizes("a mini computer with 32g ram"), Vec::<String>::new());
        assert_eq!(sizes("beach themed art work in size 14” x 14”"), ["14” x 14”"]);
        assert_eq!(sizes("mens sneakers, im a size 7 and a half"), ["7.5"]);
        assert_eq!(sizes("a nut free cereal bar size 40 count"), ["40 count"]);
        assert_eq!(sizes("roller shades size w45*h56 in pastel blue"), ["w45 x h56"]);
        assert_eq!(sizes("джинсы W32 L34"), ["W32 L34"]);
    }

    #[test]
    fn a_shoe_width_is_part_of_its_size() {
        assert_eq!(sizes("a pair of size 7 wide taupe loafers"), ["7 Wide"]);
        assert_eq!(sizes("size 9 narrow heels"), ["9 Narrow"]);
        assert_eq!(sizes("size 9, wide enough for my feet"), ["9"]);
    }

    #[test]
    fn travel_sizes_and_letters_far_from_the_garment() {
        assert_eq!(sizes("a travel size whitening toothpaste"), ["travel size"]);
        assert_eq!(sizes("perfume oil that is cedarwood scented and travel sized"), ["travel sized"]);
        assert_eq!(sizes("i am looking for a 3x large breeches for wide legs"), ["3x-large"]);
        assert_eq!(sizes("i want a large summer o neck womens short sleeve blouse"), ["large"]);
        assert_eq!(sizes("a large capacity travel mug"), Vec::<String>::new());
    }

    #[test]
    fn several_sizes_and_measures() {
        assert_eq!(sizes("size 40 for my wife and 43 for me"), ["40", "43"]);
        assert_eq!(sizes("for me in 43 and for my wife in 40"), ["43", "40"]);
        assert_eq!(sizes("within 3 days in 2 days"), Vec::<String>::new());
        assert_eq!(sizes("barbecue marinade in the 18 ounce size"), ["18 ounce"]);
        let fine_too = extract(&mut Request::new("size 43 is fine too"));
        assert!(fine_too.len() == 1 && fine_too.iter().all(|mention| mention.fallback));
    }
}
