//! Text normalisation for comparisons: Unicode folding, words, colours, sizes.
//!
//! Every text comparison in the checks goes through [`fold`], so that
//! full-width, composed/decomposed and differently-cased forms of the same
//! text compare equal. The colour and size rules of guard.md §5 live here as
//! pure functions over text; `checks` only decides what a difference means.

use unicode_normalization::UnicodeNormalization;
use unicode_security::confusable_detection;

/// Characters that render as nothing (or only reorder text) and so can make
/// two identical-looking strings differ: soft hyphen, zero-width space/joiners,
/// bidi marks and overrides, word joiner, invisible operators, BOM.
fn is_invisible(character: char) -> bool {
    matches!(character,
        '\u{00AD}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' |
        '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

/// ASCII, or a letter of the basic Russian alphabet (А–я, Ё, ё): the
/// characters [`fold`] reads without its Unicode passes.
fn is_plain_cyrillic_or_ascii(character: char) -> bool {
    character.is_ascii() || ('\u{0410}'..='\u{044F}').contains(&character) || matches!(character, 'Ё' | 'ё')
}

/// Characters that change the display order of text: bidi marks, embeddings,
/// overrides and isolates.
fn is_direction_control(character: char) -> bool {
    matches!(character, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `text` without direction controls, for text shown to the person: a store
/// size `"EU \u{202E}24"` displays as "EU 42", so a reason quoting it raw would
/// read "asked for 42, the cart has EU 42". Without the controls it reads in
/// the logical order the guard compared ("EU 24").
pub fn without_direction_controls(text: &str) -> String {
    text.chars().filter(|character| !is_direction_control(*character)).collect()
}

/// NFKC, full case folding, NFKC again (the fold can denormalise), invisible
/// characters removed, whitespace collapsed to single spaces and trimmed.
pub fn fold(text: &str) -> String {
    if text.is_ascii() {
        // NFKC leaves ASCII alone and its case folding is lowercasing: skip
        // the Unicode passes for the common case.
        let mut out = String::with_capacity(text.len());
        for word in text.split_whitespace() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.extend(word.chars().map(|character| character.to_ascii_lowercase()));
        }
        return out;
    }
    if text.chars().all(is_plain_cyrillic_or_ascii) {
        // Russian text (with ASCII) in the basic Cyrillic letters: NFKC
        // leaves each of them alone, none is invisible, and their full case
        // folding is their lowercase. The Unicode passes below cost most of
        // a Russian request's reading (issue 27's speed).
        let mut out = String::with_capacity(text.len());
        for word in text.split_whitespace() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.extend(word.chars().map(|character| match character {
                'А'..='Я' => char::from_u32(u32::from(character) + 0x20).unwrap_or(character),
                'Ё' => 'ё',
                _ => character.to_ascii_lowercase(),
            }));
        }
        return out;
    }
    fold_unicode(text)
}

/// [`fold`] by its Unicode passes, for any text.
fn fold_unicode(text: &str) -> String {
    let composed: String = text.nfkc().filter(|character| !is_invisible(*character)).collect();
    let folded = caseless::default_case_fold_str(&composed);
    let recomposed: String = folded.nfkc().collect();
    let mut out = String::with_capacity(recomposed.len());
    for word in recomposed.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// The confusable skeleton of a folded text (Unicode TS #39): two texts
/// with the same skeleton look alike ("Nіke" with a Cyrillic і and "Nike").
/// Used only to *add* findings (a look-alike of an excluded brand is
/// excluded), never to make two different texts equal.
pub fn skeleton(text: &str) -> String {
    confusable_detection::skeleton(&fold(text)).collect()
}

/// The words of a text: folded, split on everything that is not a letter or
/// a digit. `"Nike Air-Zoom Pegasus 41"` → `nike air zoom pegasus 41`.
pub fn words(text: &str) -> Vec<String> {
    fold(text)
        .split(|character: char| !character.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Russian colour stems (after `ё`→`е`) and the English colour each names.
/// Russian adjectives inflect (чёрный, черные, чёрная, чёрного), so a stem
/// prefix is the honest match; the order matters where one stem starts
/// another (серебр before сер).
const RUSSIAN_COLOUR_STEMS: [(&str, &str); 26] = [
    // Shades people name, known to the rules extractor, grounding and the
    // colour check alike ("изумрудное" is the emerald a model reads).
    ("изумрудн", "emerald"),
    ("бронзов", "bronze"),
    ("медн", "copper"),
    ("сиренев", "lilac"),
    ("прозрачн", "clear"),
    ("черн", "black"),
    ("бел", "white"),
    ("красн", "red"),
    ("син", "blue"),
    ("голуб", "light blue"),
    ("зелен", "green"),
    ("желт", "yellow"),
    ("серебр", "silver"),
    ("сер", "grey"),
    ("розов", "pink"),
    ("фиолет", "purple"),
    ("оранж", "orange"),
    ("коричн", "brown"),
    ("бежев", "beige"),
    ("золот", "gold"),
    ("бирюз", "turquoise"),
    ("бордов", "burgundy"),
    ("хаки", "khaki"),
    ("темно", "dark"),
    ("светло", "light"),
    ("салатов", "lime"),
];

/// Words that say "colour" rather than name one.
const COLOUR_FILLER: [&str; 8] = ["color", "colour", "colored", "coloured", "цвет", "цвета", "цвете", "in"];

/// Maps one folded word to its canonical colour word(s): English spelling
/// variants merge (`gray` = `grey`), Russian colour words become English.
fn canonical_colour_words(word: &str) -> Vec<String> {
    if word.is_ascii() {
        return match respelled_colour(word) {
            Some(respelled) => respelled.map(str::to_owned).into_iter().collect(),
            None => vec![word.to_owned()],
        };
    }
    let plain = word.replace('ё', "е");
    let starts_cyrillic = plain.chars().next().is_some_and(|character| ('\u{0400}'..='\u{04FF}').contains(&character));
    if starts_cyrillic && let Some((_, english)) = russian_colour_stem(&plain) {
        return english.split(' ').map(str::to_owned).collect();
    }
    vec![plain]
}

/// The colour word a folded ASCII word stands for when it is not itself:
/// another spelling of its colour (`Some(Some("grey"))` for "gray"), or
/// no colour at all (`Some(None)` for "colour"); `None` for every other
/// word, which is its own.
fn respelled_colour(word: &str) -> Option<Option<&'static str>> {
    match word {
        "gray" | "grey" => Some(Some("grey")),
        // One colour, two English words for it (Russian "прозрачный" is both).
        "transparent" => Some(Some("clear")),
        // The adjective names the colour ("golden cupcake toppers").
        "golden" => Some(Some("gold")),
        "colour" | "color" => Some(None),
        _ => None,
    }
}

/// The Russian colour stem a folded word starts with (`ё` already `е`), and
/// the English colour it names: `("черн", "black")` for `черные`. A prefix is
/// all this says; whether the rest of the word is an adjective ending is the
/// caller's judgement (the rules extractor must not read `серия` as grey).
pub fn russian_colour_stem(word: &str) -> Option<(&'static str, &'static str)> {
    RUSSIAN_COLOUR_STEMS.into_iter().find(|(stem, _)| word.starts_with(stem))
}

fn colour_words(text: &str) -> Vec<String> {
    words(text)
        .into_iter()
        .filter(|word| !COLOUR_FILLER.contains(&word.as_str()))
        .flat_map(|word| canonical_colour_words(&word))
        .collect()
}

/// The colours of an item as the store writes them: `White/Black` has two.
pub fn item_colours(text: &str) -> Vec<&str> {
    text.split('/').map(str::trim).filter(|part| !part.is_empty()).collect()
}

/// A stated colour, ready to compare with items.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColourWords(Vec<String>);

impl ColourWords {
    pub fn new(text: &str) -> ColourWords {
        let mut list = colour_words(text);
        list.sort();
        list.dedup();
        ColourWords(list)
    }

    /// Whether every word of this colour is among the words of `colour`.
    pub fn all_in(&self, colour: &ColourWords) -> bool {
        self.0.iter().all(|word| colour.0.binary_search(word).is_ok())
    }

    /// Whether every word of this colour is among the words of one of the
    /// tokens of a window (`(colours, folded token)` pairs): the same as
    /// [`ColourWords::all_in`] their union.
    pub fn all_in_tokens<'t>(&self, window: impl Iterator<Item = (&'t TokenColours, &'t str)> + Clone) -> bool {
        self.0.iter().all(|word| window.clone().any(|(colours, folded)| colours.has(folded, word)))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The colour words of one token already folded, as [`ColourWords::new`]
/// reads them, kept without a copy for the common case of a plain ASCII
/// word: grounding reads every token of a request, and almost none is a
/// colour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenColours {
    /// No colour word (a filler such as "colour" or "in").
    Nothing,
    /// The token itself, as folded.
    Itself,
    /// Another spelling of the same colour ("gray" is "grey").
    Canonical(&'static str),
    /// A token with other characters, read in full.
    Words(ColourWords),
}

impl TokenColours {
    pub fn of_folded_token(token: &str) -> TokenColours {
        if !token.is_empty() && token.bytes().all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit()) {
            if COLOUR_FILLER.contains(&token) {
                return TokenColours::Nothing;
            }
            return match respelled_colour(token) {
                Some(None) => TokenColours::Nothing,
                Some(Some(word)) => TokenColours::Canonical(word),
                None => TokenColours::Itself,
            };
        }
        TokenColours::Words(ColourWords::new(token))
    }

    /// Whether `word` is one of the colour words of `folded`, the token
    /// these were read from.
    fn has(&self, folded: &str, word: &str) -> bool {
        match self {
            TokenColours::Nothing => false,
            TokenColours::Itself => folded == word,
            TokenColours::Canonical(canonical) => *canonical == word,
            TokenColours::Words(words) => words.0.binary_search_by(|listed| listed.as_str().cmp(word)).is_ok(),
        }
    }
}

/// A size system named on a label. Only compared when both sides name one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SizeSystem {
    Eu,
    Us,
    Uk,
    Fr,
    It,
    Jp,
    Ru,
    Cm,
}

impl SizeSystem {
    fn parse(word: &str) -> Option<SizeSystem> {
        Some(match word {
            "eu" | "eur" | "euro" => SizeSystem::Eu,
            "us" | "usa" => SizeSystem::Us,
            "uk" | "gb" => SizeSystem::Uk,
            "fr" => SizeSystem::Fr,
            "it" => SizeSystem::It,
            "jp" => SizeSystem::Jp,
            "ru" | "рф" | "рос" => SizeSystem::Ru,
            "cm" | "см" => SizeSystem::Cm,
            _ => return None,
        })
    }
}

/// Words on a size label that are not the size.
/// "int" is a marketplace's "international" letter sizes ("int:m"), "other"
/// its name for a size in no system it lists ("other: 40").
const SIZE_FILLER: [&str; 10] = ["size", "sz", "размер", "размера", "р", "рр", "int", "intl", "international", "other"];

/// Words for a child's age in years on a size label ("2-3 years", "2-3Y",
/// "4 yrs"): one form, "y", after the number or range.
const AGE_YEARS: [&str; 7] = ["y", "yr", "yrs", "year", "years", "yo", "лет"];

/// `"2-3y"`, `"4yrs"`: a number or a range of numbers followed by a word of
/// [`AGE_YEARS`], as `"2-3y"`; any other token unchanged.
fn age_in_years(token: &str) -> Option<String> {
    let digits_end = token.rfind(|character: char| character.is_ascii_digit())? + 1;
    let (number, unit) = token.split_at(digits_end);
    let is_range = number.split('-').all(|side| !side.is_empty() && side.chars().all(|c| c.is_ascii_digit()));
    (is_range && AGE_YEARS.contains(&unit)).then(|| format!("{number}y"))
}

/// The label's tokens with an age in one form: "2-3 years old", "2-3Y" and
/// "2-3 yrs" are all "2-3y" ("old" after an age says nothing more).
fn ages_as_one_form(tokens: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(tokens.len());
    for token in tokens {
        if let Some(last) = out.last_mut()
            && last.ends_with('y')
            && token == "old"
            && age_in_years(last).is_some()
        {
            continue;
        }
        if AGE_YEARS.contains(&token.as_str())
            && let Some(age) = out.last().and_then(|last| age_in_years(&format!("{last}{token}")))
        {
            *out.last_mut().expect("a token before") = age;
            continue;
        }
        out.push(age_in_years(&token).unwrap_or(token));
    }
    out
}

/// A size label reduced to its system (if named) and value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Size {
    pub system: Option<SizeSystem>,
    pub value: String,
}

impl Size {
    /// Parses `"EU 42"`, `"size 42,5"`, `"Medium"`, `"X-Large"`, `"4 3/8"`.
    pub fn parse(label: &str) -> Size {
        // "4XL(80-90kg)": what the parentheses add (who it fits) is not the size.
        let outside = without_parentheses(label);
        let label = if outside.trim().is_empty() { label } else { outside.as_ref() };
        let folded = without_weight_range(fold(label));
        let spaced = split_letters_from_digits(decimal_points_and_sides(folded));
        let mut system = None;
        let mut tokens: Vec<String> = Vec::new();
        for token in spaced.split(|character: char| character.is_whitespace() || character == ':') {
            let token = token.trim_matches(|character: char| character == '(' || character == ')' || character == ',');
            if token.is_empty() || SIZE_FILLER.contains(&token) {
                continue;
            }
            if let Some(named) = SizeSystem::parse(token) {
                system = Some(named);
                continue;
            }
            tokens.push(token.to_owned());
        }
        let tokens = ages_as_one_form(tokens);
        let value =
            spelled_out_letter_size(&tokens).or_else(|| waist_and_length(&tokens.concat())).unwrap_or_else(|| {
                let mut value = String::new();
                for token in &tokens {
                    if !value.is_empty() {
                        value.push(' ');
                    }
                    value.push_str(&normalise_number(token));
                }
                value
            });
        Size { system, value }
    }

    /// Equal values, and equal systems where both name one.
    pub fn matches(&self, other: &Size) -> bool {
        if let (Some(mine), Some(theirs)) = (self.system, other.system)
            && mine != theirs
        {
            return false;
        }
        self.value == other.value
    }
}

/// A folded size label with a decimal comma between digits as a decimal
/// point ("42,5" = "42.5") and a dimension's sides apart by one " x ". The
/// label is returned as it is when it has no comma and no sign that can part
/// sides: grounding parses every window of the person's words that may
/// start a size, and most have neither.
fn decimal_points_and_sides(folded: String) -> String {
    if !folded.contains([',', 'x', '*', '×']) {
        return folded;
    }
    let characters: Vec<char> = folded.chars().collect();
    let mut text = String::with_capacity(folded.len());
    // A dimension's sides are apart by one " x " however typed
    // ("61*41", "61x41", "90cm×190cm", "12 x20"): a side ends in a
    // digit, or in a digit and a unit of up to two letters or an inch mark.
    let digit_before = |position: usize| {
        let mut before = characters[..position]
            .iter()
            .rev()
            .skip_while(|character| character.is_whitespace() || matches!(character, '"' | '”' | '″'))
            .peekable();
        let mut letters = 0;
        while before.peek().is_some_and(|character| character.is_ascii_lowercase()) && letters < 2 {
            before.next();
            letters += 1;
        }
        before.next().is_some_and(char::is_ascii_digit)
    };
    let digit_after = |position: usize| {
        characters[position + 1..].iter().find(|character| !character.is_whitespace()).is_some_and(char::is_ascii_digit)
    };
    for (position, character) in characters.iter().enumerate() {
        let between_digits = position > 0
            && characters[position - 1].is_ascii_digit()
            && characters.get(position + 1).is_some_and(char::is_ascii_digit);
        if *character == ',' && between_digits {
            text.push('.');
        } else if matches!(character, 'x' | '*' | '×') && digit_before(position) && digit_after(position) {
            text.push_str(" x ");
        } else {
            text.push(*character);
        }
    }
    text
}

/// An item's size label, and each size it lists when it gives one size in
/// several measures, apart by commas ("2-3Y, 100cm": an age and a height).
/// A wanted size is met by the whole label or by one of those parts; a
/// decimal comma ("42,5") parts nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SizeLabel {
    whole: Size,
    parts: Vec<Size>,
}

impl SizeLabel {
    pub fn parse(label: &str) -> SizeLabel {
        let characters: Vec<char> = label.chars().collect();
        let mut parts: Vec<String> = vec![String::new()];
        for (position, character) in characters.iter().enumerate() {
            let decimal = position > 0
                && characters[position - 1].is_ascii_digit()
                && characters.get(position + 1).is_some_and(char::is_ascii_digit);
            if *character == ',' && !decimal {
                parts.push(String::new());
            } else if let Some(part) = parts.last_mut() {
                part.push(*character);
            }
        }
        parts.retain(|part| !part.trim().is_empty());
        let parts = if parts.len() > 1 { parts.iter().map(|part| Size::parse(part)).collect() } else { Vec::new() };
        SizeLabel { whole: Size::parse(label), parts }
    }

    /// Whether `wanted` is this label's size, or one of the sizes it lists.
    pub fn accepts(&self, wanted: &Size) -> bool {
        wanted.matches(&self.whole) || self.parts.iter().any(|part| wanted.matches(part))
    }
}

/// Units of the body weight a letter size is said to fit ("3XL 65-70kg").
const FITS_UNITS: [&str; 4] = ["kg", "lb", "lbs", "кг"];

/// The label without a last word that is a weight range after the size
/// ("3xl 65-70kg" is "3xl", as "4XL(80-90kg)" is): who it fits, not the size.
fn without_weight_range(folded: String) -> String {
    let Some((size, last)) = folded.trim_end().rsplit_once(char::is_whitespace) else { return folded };
    let range = FITS_UNITS.iter().find_map(|unit| last.strip_suffix(unit));
    let is_range = range.and_then(|range| range.split_once('-')).is_some_and(|(low, high)| {
        let number = |side: &str| {
            !side.is_empty() && side.chars().all(|character| character.is_ascii_digit() || character == '.')
        };
        number(low) && number(high)
    });
    if is_range && !size.trim().is_empty() { size.trim_end().to_owned() } else { folded }
}

/// The text outside parentheses and brackets ("xl【60-68kg】", "M [55-65kg]").
fn without_parentheses(label: &str) -> std::borrow::Cow<'_, str> {
    if !label.contains(['(', '[', '【', '（', '［', ')', ']', '】', '）', '］']) {
        return label.into();
    }
    let mut depth = 0usize;
    let mut outside = String::with_capacity(label.len());
    for character in label.chars() {
        match character {
            '(' | '[' | '【' | '（' | '［' => depth += 1,
            ')' | ']' | '】' | '）' | '］' => depth = depth.saturating_sub(1),
            _ if depth == 0 => outside.push(character),
            _ => {}
        }
    }
    outside.into()
}

/// Jeans' waist and length in one form, "w33 l34", however typed: "W33
/// L34", "33W x 34L", "33w by 34l", "33w*34l" (`joined`: the label's
/// tokens without spaces).
fn waist_and_length(joined: &str) -> Option<String> {
    fn digits(text: &str) -> (&str, &str) {
        let end = text.find(|character: char| !character.is_ascii_digit()).unwrap_or(text.len());
        text.split_at(end)
    }
    fn separator(text: &str) -> &str {
        ["by", "x", "*", "×"].iter().find_map(|separator| text.strip_prefix(separator)).unwrap_or(text)
    }
    let (waist, length) = if let Some(rest) = joined.strip_prefix('w') {
        let (waist, rest) = digits(rest);
        let (length, rest) = digits(separator(rest).strip_prefix('l')?);
        rest.is_empty().then_some((waist, length))?
    } else {
        let (waist, rest) = digits(joined);
        let (length, rest) = digits(separator(rest.strip_prefix('w')?));
        (rest == "l").then_some((waist, length))?
    };
    (!waist.is_empty() && !length.is_empty()).then(|| format!("w{waist} l{length}"))
}

/// Puts a space between a size system and its number ("EU42" → "eu 42",
/// "42EU" → "42 eu"), leaving letter sizes ("xl", "2xl") alone. Only the
/// words count, not the spaces between them: a label with nothing to part
/// is returned as it is.
fn split_letters_from_digits(text: String) -> String {
    let system_at = |word: &str| {
        let prefix_end = word.find(|character: char| character.is_ascii_digit());
        let suffix_start = word.rfind(|character: char| character.is_ascii_digit()).map(|index| index + 1);
        prefix_end.is_some_and(|end| end > 0 && SizeSystem::parse(&word[..end]).is_some())
            || suffix_start.is_some_and(|start| start < word.len() && SizeSystem::parse(&word[start..]).is_some())
    };
    if !text.split_whitespace().any(system_at) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 4);
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        let prefix_end = word.find(|character: char| character.is_ascii_digit());
        match prefix_end {
            Some(end) if end > 0 && SizeSystem::parse(&word[..end]).is_some() => {
                out.push_str(&word[..end]);
                out.push(' ');
                out.push_str(&word[end..]);
            }
            _ => {
                let suffix_start = word.rfind(|character: char| character.is_ascii_digit()).map(|index| index + 1);
                match suffix_start {
                    Some(start) if start < word.len() && SizeSystem::parse(&word[start..]).is_some() => {
                        out.push_str(&word[..start]);
                        out.push(' ');
                        out.push_str(&word[start..]);
                    }
                    _ => out.push_str(word),
                }
            }
        }
    }
    out
}

/// `"42.50"` → `"42.5"`, `"42.0"` → `"42"`; anything else unchanged.
fn normalise_number(token: &str) -> String {
    let Some((whole, fraction)) = token.split_once('.') else {
        return token.to_owned();
    };
    if whole.is_empty()
        || !whole.chars().all(|character| character.is_ascii_digit())
        || !fraction.chars().all(|character| character.is_ascii_digit())
    {
        return token.to_owned();
    }
    let fraction = fraction.trim_end_matches('0');
    if fraction.is_empty() { whole.to_owned() } else { format!("{whole}.{fraction}") }
}

/// Letter sizes, written out or abbreviated, to `xs`…`xxxl`, from a
/// label's tokens (their spaces, hyphens and dots left out).
fn spelled_out_letter_size(tokens: &[String]) -> Option<String> {
    let compact: String = tokens
        .iter()
        .flat_map(|token| token.chars())
        .filter(|character| !character.is_whitespace() && *character != '-' && *character != '.')
        .collect();
    let letter = match compact.as_str() {
        "xxs" | "2xs" | "xxsmall" | "extraextrasmall" => "xxs",
        "xs" | "xsmall" | "extrasmall" => "xs",
        "s" | "small" | "sm" => "s",
        "m" | "medium" | "med" => "m",
        "l" | "large" | "lg" => "l",
        "xl" | "xlarge" | "extralarge" => "xl",
        "xxl" | "2xl" | "xxlarge" | "extraextralarge" => "xxl",
        "xxxl" | "3xl" | "xxxlarge" => "xxxl",
        "4xl" | "xxxxl" => "4xl",
        _ => return None,
    };
    Some(letter.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_russian_without_the_unicode_passes_folds_as_they_do() {
        let letters: String = ('\u{0410}'..='\u{044F}').chain(['Ё', 'ё']).collect();
        for text in [letters.as_str(), "Джинсы Levis 501  W32 L34 СИНИЕ,\tможно и ЧЁРНЫЕ.", " Ёлка\n"]
        {
            assert_eq!(fold(text), fold_unicode(text), "{text}");
        }
        for letter in letters.chars() {
            assert_eq!(fold(&letter.to_string()), fold_unicode(&letter.to_string()), "{letter}");
        }
    }

    #[test]
    fn a_tokens_colour_words_are_those_of_the_full_reading() {
        for token in [
            "black",
            "gray",
            "grey",
            "color",
            "colour",
            "dark",
            "42",
            "42,5",
            "черные",
            "тёмно",
            "ёлка",
            "navy",
            "ni\u{200b}ke",
            "",
        ] {
            let full = ColourWords::new(token);
            let folded = fold(token);
            let read = TokenColours::of_folded_token(&folded);
            let probes = ["grey", "gray", "clear", "gold", "black", "navy", "42", "42.5", "color", "in", "dark"];
            for probe in full.0.iter().map(String::as_str).chain(probes).chain([folded.as_str()]) {
                assert_eq!(read.has(&folded, probe), full.0.iter().any(|word| word == probe), "{token:?} {probe:?}");
            }
        }
    }

    #[test]
    fn fold_makes_equivalent_forms_equal() {
        assert_eq!(fold("ＮＩＫＥ"), fold("nike"));
        assert_eq!(fold("Cafe\u{0301}"), fold("Café"));
        assert_eq!(fold("STRASSE"), fold("straße"));
        assert_eq!(fold("  Pure   Drive "), "pure drive");
        assert_eq!(fold("Ni\u{200B}ke"), "nike");
        assert_eq!(fold("A\tB\u{0B}C"), fold("A\tB\u{0B}C\u{e9}").trim_end_matches('\u{e9}'), "both paths split alike");
    }

    #[test]
    fn look_alikes_share_a_skeleton() {
        assert_eq!(skeleton("N\u{0456}ke"), skeleton("Nike"));
        assert_eq!(skeleton("w\u{0456}ls\u{043e}n"), skeleton("Wilson"));
        assert_ne!(skeleton("Asiks"), skeleton("Asics"));
        assert_ne!(fold("N\u{0456}ke"), fold("Nike"), "look-alikes never fold equal");
    }

    #[test]
    fn colours_compare_by_word_in_english_and_russian() {
        let black = ColourWords::new("black");
        for item in ["Triple Black", "Чёрный", "черные", "чёрная", "ЧЕРНОГО цвета", "black"]
        {
            assert!(black.all_in(&ColourWords::new(item)), "{item}");
        }
        assert!(ColourWords::new("gray").all_in(&ColourWords::new("Grey")));
        assert!(ColourWords::new("серый").all_in(&ColourWords::new("Heather Gray")));
        assert!(ColourWords::new("navy blue").all_in(&ColourWords::new("Navy Blue")));
        assert!(!ColourWords::new("navy blue").all_in(&ColourWords::new("Blue")));
        assert!(!ColourWords::new("серебристый").all_in(&ColourWords::new("grey")));
        assert!(ColourWords::new("in black colour").all_in(&ColourWords::new("black")));
        assert_eq!(item_colours("White/Black"), vec!["White", "Black"]);
    }

    #[test]
    fn sizes_ignore_filler_comma_and_spelling() {
        let same = |a: &str, b: &str| Size::parse(a).matches(&Size::parse(b));
        assert!(same("size 42", "42"));
        assert!(same("42,5", "42.5"));
        assert!(same("Medium", "M"));
        assert!(same("X-Large", "XL"));
        assert!(same("xx-large", "2XL"));
        assert!(same("EU 42", "42"));
        assert!(same("EU42", "eu 42"));
        assert!(same("US 9", "9"));
        assert!(!same("US 9", "EU 9"));
        assert!(same("4 3/8", "4 3/8"));
        assert!(!same("4 3/8", "4 1/4"));
        assert!(same("размер 42", "EU 42"));
        assert!(same("４２", "42"));
        assert!(!same("42", "44"));
        assert!(same("42.0", "42"));
    }

    #[test]
    fn jeans_and_dimensions_are_one_size_however_typed() {
        let same = |a: &str, b: &str| Size::parse(a).matches(&Size::parse(b));
        for typed in ["33W x 34L", "33w by 34l", "33w*34l", "w33 l34", "W33L34"] {
            assert!(same("W33 L34", typed), "{typed}");
        }
        assert!(!same("W33 L34", "34W x 33L"));
        assert!(!same("W33 L34", "W33 L32"));
        assert!(same("90cm x 190cm", "90cm×190cm"));
        assert!(!same("2XL", "2 x 4"));
        for typed in ["61*41cm", "61x41cm", "61 × 41 cm", "61 x41cm"] {
            assert!(same("61 x 41cm", typed), "{typed}");
        }
        assert!(!same("61 x 41cm", "41 x 61cm"));
        // A letter size's "x" is not a dimension's.
        assert!(same("2XL", "xx-large"));
        assert!(!same("3x", "3 x 4"));
    }
}
