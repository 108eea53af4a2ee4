//! Sizes: "size 42", "EU 42", "US 9", "42,5", grip "4 3/8", S–XXL, "medium",
//! "x-large", "размер 42", "42 размера", and measures such as "1 kg".
//!
//! A size is kept as the person said it, with two normalisations that make
//! two extractors agree rather than dispute: a size system is written in
//! capitals before the number ("us5.5" → "US 5.5") and a decimal comma
//! becomes a point ("42,5" → "42.5"). A bare number is a size only where the
//! sentence makes it one ("in 43", "size 40 … and 43"), never on its own:
//! "4 cans" is a count and "Pegasus 41" a model.

use super::text::Request;

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

const SIZE_WORDS: [&str; 9] = ["size", "sizes", "sz", "размер", "размера", "размере", "размером", "grip", "ручка"];

/// Filler between "size" and its value ("size of 3x-large", "size should be large").
const FILLER: [&str; 9] = ["of", "the", "is", "should", "be", "a", "an", ":", "с"];

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

/// Letter sizes that mean nothing else ("xl", "x-large", "3x-large").
fn unambiguous_letter(word: &str) -> bool {
    let compact: String = word.chars().filter(|character| *character != '-').collect();
    matches!(
        compact.as_str(),
        "xs" | "xxs"
            | "xl"
            | "xxl"
            | "xxxl"
            | "2xl"
            | "3xl"
            | "4xl"
            | "xsmall"
            | "xxsmall"
            | "xlarge"
            | "xxlarge"
            | "xxxlarge"
            | "2xlarge"
            | "3xlarge"
            | "extralarge"
            | "extrasmall"
    )
}

/// Letter sizes that are also ordinary words or letters ("medium", "s", "l").
fn ambiguous_letter(word: &str) -> bool {
    matches!(word, "s" | "m" | "l" | "small" | "medium" | "large" | "med")
}

/// Units that make a number a measure ("18 ounce", "1 кг").
pub fn is_measure_unit(word: &str) -> bool {
    matches!(
        word,
        "oz" | "ounce"
            | "ounces"
            | "fl"
            | "kg"
            | "кг"
            | "g"
            | "г"
            | "гр"
            | "gram"
            | "grams"
            | "mg"
            | "мг"
            | "lb"
            | "lbs"
            | "pound"
            | "pounds"
            | "ml"
            | "мл"
            | "l"
            | "л"
            | "liter"
            | "liters"
            | "litre"
            | "litres"
            | "литр"
            | "литра"
            | "литров"
            | "gallon"
            | "gallons"
            | "inch"
            | "inches"
            | "in."
            | "дюйм"
            | "дюйма"
            | "дюймов"
            | "ft"
            | "feet"
            | "foot"
            | "yard"
            | "yards"
            | "meter"
            | "meters"
            | "metre"
            | "metres"
            | "cm"
            | "см"
            | "mm"
            | "мм"
            | "gb"
            | "tb"
            | "гб"
            | "тб"
            | "mah"
            | "watt"
            | "watts"
            | "вт"
    )
}

/// Words after a bare number that make it anything but a size.
fn is_not_size_follower(word: &str) -> bool {
    is_measure_unit(word)
        || matches!(
            word,
            "day"
                | "days"
                | "week"
                | "weeks"
                | "hours"
                | "hour"
                | "дня"
                | "дней"
                | "недели"
                | "%"
                | "$"
                | "€"
                | "£"
                | "₽"
                | "can"
                | "cans"
                | "pack"
                | "packs"
                | "pairs"
                | "pair"
                | "bottles"
                | "boxes"
                | "банки"
                | "банок"
                | "пары"
                | "пар"
                | "штук"
                | "шт"
                | "рублей"
                | "руб"
                | "евро"
                | "dollars"
                | "euros"
                | "bucks"
        )
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
                && !matches!(request.word(index + 1), "in" | "size" | "в" | "размер" | "размера")
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
    let has_real_size = mentions.iter().any(|mention| !is_measure_label(&mention.label));
    if !has_real_size {
        mentions.extend(measures(request));
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

fn is_measure_label(label: &str) -> bool {
    label.split_whitespace().last().is_some_and(is_measure_unit)
}

/// Whether the person offered this value only as acceptable ("43 is fine too").
pub fn is_fallback(request: &Request, end: usize) -> bool {
    request.followed_by(
        end,
        3,
        &[&["is", "fine"], &["fine"], &["works"], &["is", "ok"], &["ok"], &["okay"], &["would", "do"], &["тоже"]],
    ) || request.preceded_by(end, 3, &[&["можно", "и"], &["or", "even"]])
}

/// A size value starting at `at` (after any "size" word): its label and last token.
fn value_at(request: &Request, at: usize, letters_allowed: bool) -> Option<(String, usize)> {
    let word = request.word(at);
    if let Some(system) = system_of(word)
        && let Some(value) = numeric(request.word(at + 1))
    {
        return Some((format!("{system} {value}"), at + 1));
    }
    if let Some((system, value)) = glued_system(word) {
        return Some((format!("{system} {value}"), at));
    }
    if let Some(value) = numeric(word) {
        if is_fraction(request.word(at + 1)) {
            return Some((format!("{value} {}", request.word(at + 1)), at + 1));
        }
        // "size 10.5 US": the system after the number.
        if let Some(system) = system_of(request.word(at + 1)) {
            return Some((format!("{system} {value}"), at + 1));
        }
        return Some((value, at));
    }
    if unambiguous_letter(word) || (letters_allowed && ambiguous_letter(word)) {
        let text = request.tokens.get(at).map(|token| token.text.clone()).unwrap_or_default();
        return Some((text, at));
    }
    None
}

/// "us5.5", "eu42" → ("US", "5.5").
fn glued_system(word: &str) -> Option<(&'static str, String)> {
    let split = word.find(|character: char| character.is_ascii_digit())?;
    let (letters, digits) = (word.get(..split)?, word.get(split..)?);
    Some((system_of(letters)?, numeric(digits)?))
}

fn mention_at(request: &Request, index: usize) -> Option<SizeMention> {
    if request.is_consumed(index) || !request.is_word(index) {
        return None;
    }
    let word = request.word(index);
    let make = |label: String, start: usize, end: usize| {
        Some(SizeMention { label, start, end, fallback: false, either: false })
    };
    // "size 42", "size of 3x-large", "размер M", "grip 4 3/8".
    if SIZE_WORDS.contains(&word) {
        let mut at = index + 1;
        while FILLER.contains(&request.word(at)) && at < index + 4 {
            at += 1;
        }
        if let Some((label, end)) = value_at(request, at, true) {
            return make(label, index, end);
        }
        return None;
    }
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
            return make(label, index, end);
        }
        return None;
    }
    // "42 размера", "medium sized", "3x-large sized", "18 ounce size".
    let after = request.word(index + 1);
    if matches!(after, "размера" | "размер" | "sized" | "size") && !request.is_consumed(index + 1) {
        // "42 размера", but in English only letters come before "size":
        // "medium size", never "Pegasus 41 size 42".
        let value_follows = value_at(request, index + 2, true).is_some();
        if let Some((label, end)) = value_at(request, index, true)
            && end == index
            && (after.starts_with("размер") || numeric(&label).is_none() || !value_follows)
        {
            return make(label, index, index + 1);
        }
        if is_measure_unit(after) {
            return None;
        }
    }
    if let Some(value) = numeric(word)
        && is_measure_unit(after)
        && matches!(request.word(index + 2), "size" | "sized")
    {
        let label = format!("{value} {}", request.tokens.get(index + 1).map_or("", |token| token.text.as_str()));
        return make(label, index, index + 2);
    }
    // Grip "4 3/8" anywhere.
    if let Some(value) = numeric(word)
        && is_fraction(after)
    {
        return make(format!("{value} {after}"), index, index + 1);
    }
    // "in 43", "in a us 9", "in x-large", "in small".
    if matches!(word, "in" | "в") {
        let mut at = index + 1;
        if matches!(request.word(at), "a" | "an") {
            at += 1;
        }
        if let Some((label, end)) = value_at(request, at, true) {
            let bare_number = numeric(&label).is_some();
            let follower = request.word(end + 1);
            let plausible = !bare_number || (!is_not_size_follower(follower) && number_is_plausible(&label));
            let letter_ok = numeric(&label).is_some()
                || label.contains(' ')
                || unambiguous_letter(&label.to_lowercase())
                || matches!(label.to_lowercase().as_str(), "small" | "medium" | "large")
                || !request.is_word(end + 1)
                || !request.same_clause(end, end + 1);
            if plausible && letter_ok {
                return make(label, index, end);
            }
        }
        return None;
    }
    // "xl", "x-large" anywhere; "M"/"medium" alone in its clause or "a medium" at its end.
    if unambiguous_letter(word) {
        let text = request.tokens.get(index).map(|token| token.text.clone()).unwrap_or_default();
        return make(text, index, index);
    }
    if matches!(word, "small" | "medium" | "large") {
        let alone_before = !request.same_clause(index, index.wrapping_sub(1)) || index == 0;
        let ends_clause = !request.same_clause(index, index + 1) || !request.is_word(index + 1);
        let after_article = matches!(request.word_before(index, 1), "a" | "an" | "both" | "in");
        if ends_clause && (alone_before || after_article) {
            let text = request.tokens.get(index).map(|token| token.text.clone()).unwrap_or_default();
            return make(text, index, index);
        }
    }
    None
}

/// Shoe and clothing sizes are small numbers; "in 2026" is not one.
fn number_is_plausible(label: &str) -> bool {
    label.split('.').next().and_then(|whole| whole.parse::<u32>().ok()).is_some_and(|whole| (1..=60).contains(&whole))
}

/// Measures stated as a product size ("1 kg", "10.6 ounce", "8 inch").
fn measures(request: &mut Request) -> Vec<SizeMention> {
    let mut found = Vec::new();
    for index in 0..request.len() {
        if request.is_consumed(index) || request.is_consumed(index + 1) {
            continue;
        }
        if let Some(value) = numeric(request.word(index))
            && is_measure_unit(request.word(index + 1))
        {
            let text = request.tokens.get(index + 1).map_or(String::new(), |token| token.text.clone());
            found.push(SizeMention {
                label: format!("{value} {text}"),
                start: index,
                end: index + 1,
                fallback: false,
                either: false,
            });
        }
    }
    for mention in &found {
        request.consume(mention.start, mention.end);
    }
    found.truncate(1);
    found
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
    fn several_sizes_and_measures() {
        assert_eq!(sizes("size 40 for my wife and 43 for me"), ["40", "43"]);
        assert_eq!(sizes("for me in 43 and for my wife in 40"), ["43", "40"]);
        assert_eq!(sizes("within 3 days in 2 days"), Vec::<String>::new());
        assert_eq!(sizes("barbecue marinade in the 18 ounce size"), ["18 ounce"]);
        assert_eq!(sizes("две пачки по 1 кг"), ["1 кг"]);
        let fine_too = extract(&mut Request::new("size 43 is fine too"));
        assert!(fine_too.len() == 1 && fine_too.iter().all(|mention| mention.fallback));
    }
}
