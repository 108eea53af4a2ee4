//! Colours, English and Russian (inflected): which one the person chose,
//! which they only excluded, and which they offered as a fallback.
//!
//! "black ideally, white is fine" chooses black and marks colour soft; "not
//! red", "anything but red" and "не красный" choose nothing; "blue or black, I
//! don't care" offers two and so chooses nothing either (the datasets'
//! convention, and the only reading that does not invent a preference).
//! Colours are returned as canonical English words, also for Russian, so
//! that extractors agree: "чёрные" → "black".

use super::text::Request;
use crate::normalize::russian_colour_stem;

/// English colour words and their canonical spelling.
const ENGLISH: [(&str, &str); 27] = [
    ("black", "black"),
    ("white", "white"),
    ("red", "red"),
    ("blue", "blue"),
    ("green", "green"),
    ("grey", "grey"),
    ("gray", "grey"),
    ("pink", "pink"),
    ("yellow", "yellow"),
    ("orange", "orange"),
    ("purple", "purple"),
    ("violet", "purple"),
    ("brown", "brown"),
    ("beige", "beige"),
    ("navy", "navy"),
    ("silver", "silver"),
    ("gold", "gold"),
    ("golden", "gold"),
    ("burgundy", "burgundy"),
    ("olive", "olive"),
    ("amber", "amber"),
    ("teal", "teal"),
    ("turquoise", "turquoise"),
    ("khaki", "khaki"),
    ("maroon", "maroon"),
    ("ivory", "ivory"),
    ("clear", "clear"),
];

/// Russian adjective endings after a colour stem: "черн|ые", "бел|ую",
/// "коричн|евый". A stem followed by anything else is another word
/// ("серия", "белок", "синтетика").
const RUSSIAN_ENDINGS: [&str; 24] = [
    "ый", "ий", "ой", "ая", "яя", "ое", "ее", "ые", "ие", "ого", "его", "ому", "ему", "ую", "юю", "ых", "их", "ым",
    "им", "ыми", "ими", "ом", "ем", "",
];

/// Suffixes between a Russian stem and its ending ("коричн-ев-ый", "серебр-ист-ый").
const RUSSIAN_INFIXES: [&str; 5] = ["", "ев", "ов", "ист", "еньк"];

/// The canonical colour a single folded word names, if any.
pub fn colour_of(word: &str) -> Option<&'static str> {
    if let Some((_, canonical)) = ENGLISH.iter().find(|(name, _)| *name == word) {
        return Some(canonical);
    }
    let (stem, english) = russian_colour_stem(word)?;
    if matches!(english, "dark" | "light") {
        return None;
    }
    let rest = word.get(stem.len()..)?;
    let is_adjective = RUSSIAN_INFIXES
        .iter()
        .any(|infix| rest.strip_prefix(infix).is_some_and(|ending| RUSSIAN_ENDINGS.contains(&ending)));
    (is_adjective && (stem != "хаки" || rest.is_empty())).then_some(english)
}

pub fn is_colour(word: &str) -> bool {
    colour_of(word).is_some()
}

/// How the person used one colour mention.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Chosen ("black", "in black").
    Chosen,
    /// Excluded ("not red").
    Excluded,
    /// Acceptable instead ("white is fine", "можно и чёрную").
    Fallback,
    /// One of a choice the person left open ("blue or black").
    Either,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColourMention {
    pub colour: String,
    pub at: usize,
    pub role: Role,
}

/// Words that exclude the colour after them.
const NEGATIONS: [&[&str]; 10] = [
    &["not"],
    &["no"],
    &["except"],
    &["but", "not"],
    &["anything", "but"],
    &["не"],
    &["кроме"],
    &["без"],
    &["avoid"],
    &["excluding"],
];

/// Every colour mention, classified; consumes their tokens.
pub fn extract(request: &mut Request) -> Vec<ColourMention> {
    let mut mentions = Vec::new();
    for index in 0..request.len() {
        if request.is_consumed(index) {
            continue;
        }
        let word = request.word(index);
        // "olive oil", "white chocolate", "gold collection" are not colours.
        if matches!(request.word(index + 1), "oil" | "chocolate" | "wine") {
            continue;
        }
        let Some(canonical) = colour_of(word) else { continue };
        let modifier = match request.word_before(index, 1) {
            "light" | "dark" | "navy" if !request.is_consumed(index.wrapping_sub(1)) => {
                Some(request.word_before(index, 1).to_owned())
            }
            _ => None,
        };
        let colour = match modifier {
            Some(modifier) if modifier != canonical => format!("{modifier} {canonical}"),
            _ => canonical.to_owned(),
        };
        let role = role_of(request, index);
        request.consume(index, index);
        mentions.push(ColourMention { colour, at: index, role });
    }
    mentions
}

/// Whether the person says, after offering colours, that the colour does
/// not matter ("blue or pink, I don't care", "красная или чёрная — не важно").
pub fn indifference_follows(request: &Request, at: usize) -> bool {
    const INDIFFERENCE: [&[&str]; 8] = [
        &["don't", "care"],
        &["dont", "care"],
        &["doesn't", "matter"],
        &["whatever"],
        &["не", "важно"],
        &["неважно"],
        &["все", "равно"],
        &["either", "is", "fine"],
    ];
    (at + 1..at + 7).any(|index| INDIFFERENCE.iter().any(|phrase| request.phrase_at(index, phrase)))
}

fn role_of(request: &Request, index: usize) -> Role {
    let look_back = if request.word_before(index, 1) == "the" { index - 1 } else { index };
    if request.preceded_by_within(look_back, 3, &NEGATIONS, true)
        || request.preceded_by_within(index, 2, &[&["anything", "but"], &["but", "not"]], false)
    {
        return Role::Excluded;
    }
    if super::size::is_fallback(request, index)
        || request.followed_by(index, 4, &[&["fine"], &["works"], &["ok"], &["okay"]])
        || request.preceded_by(index, 2, &[&["можно", "и"], &["or", "even"], &["или", "даже"]])
    {
        return Role::Fallback;
    }
    let next_is_alternative = matches!(request.word(index + 1), "or" | "или")
        && request.same_clause(index, index + 2)
        && colour_of(request.word(index + 2)).is_some();
    let previous_is_alternative =
        matches!(request.word_before(index, 1), "or" | "или") && colour_of(request.word_before(index, 2)).is_some();
    if next_is_alternative || previous_is_alternative {
        return Role::Either;
    }
    Role::Chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roles(text: &str) -> Vec<(String, Role)> {
        extract(&mut Request::new(text)).into_iter().map(|mention| (mention.colour, mention.role)).collect()
    }

    #[test]
    fn russian_colours_inflect_but_other_words_do_not_match() {
        for (word, colour) in [
            ("чёрные", "black"),
            ("черную", "black"),
            ("белые", "white"),
            ("синюю", "blue"),
            ("жёлтая", "yellow"),
            ("серый", "grey"),
            ("коричневый", "brown"),
            ("розовая", "pink"),
        ] {
            assert_eq!(colour_of(&word.replace('ё', "е")), Some(colour), "{word}");
        }
        for word in ["серия", "белок", "синтетика", "сервис", "темно"] {
            assert_eq!(colour_of(word), None, "{word}");
        }
    }

    #[test]
    fn chosen_fallback_excluded_and_either() {
        use Role::*;
        assert_eq!(roles("black ideally, white is fine"), [("black".into(), Chosen), ("white".into(), Fallback)]);
        assert_eq!(roles("not red"), [("red".into(), Excluded)]);
        assert_eq!(roles("anything but red"), [("red".into(), Excluded)]);
        assert_eq!(roles("any colour but not red"), [("red".into(), Excluded)]);
        assert_eq!(roles("not the black ones"), [("black".into(), Excluded)]);
        assert_eq!(roles("blue or black, I don't care"), [("blue".into(), Either), ("black".into(), Either)]);
        assert_eq!(roles("жёлтая, можно и чёрную"), [("yellow".into(), Chosen), ("black".into(), Fallback)]);
        assert_eq!(
            roles("white preferably but black or pink fine"),
            [("white".into(), Chosen), ("black".into(), Fallback), ("pink".into(), Fallback)]
        );
        assert_eq!(roles("Colavita extra virgin olive oil"), []);
    }
}
