//! Colours, English and Russian (inflected): which one the person chose,
//! which they only excluded, and which they offered as a fallback.
//!
//! "black ideally, white is fine" chooses black and marks colour soft; "not
//! red", "anything but red" and "не красный" choose nothing; "blue or black, I
//! don't care" offers two and so chooses nothing either (the datasets'
//! convention, and the only reading that does not invent a preference).
//! Colours are returned as canonical English words, also for Russian, so
//! that extractors agree: "чёрные" → "black".

use crate::words::class::MarkedWords;
use std::sync::LazyLock;

use crate::normalize::fold;
use crate::words::class::{ATTACHING_WORDS, COLOUR_CONTEXT, phrase_list};
use crate::words::colour::colour_of;
use crate::words::text::Request;

/// Words before a colour that exclude it ("anything but red") (`colour-context.txt`, `@but-before`).
static BUT_BEFORE: LazyLock<Vec<&[&str]>> = phrase_list!(COLOUR_CONTEXT, "but-before");

/// Words after a colour that exclude it ("розовый не предлагать", "pink is a no") (`colour-context.txt`, `@refused-after`).
static REFUSED_AFTER: LazyLock<Vec<&[&str]>> = phrase_list!(COLOUR_CONTEXT, "refused-after");

/// Words before a colour that name a shade of it, kept as said ("lake blue",
/// "pure white", "satin nickel"): the person asked for that shade. Denim
/// washes and finishes too ("rigid indigo", "vintage black", "gradient coral").
static SHADES: LazyLock<MarkedWords> = LazyLock::new(|| COLOUR_CONTEXT.marked_words("shade"));

/// Words after a colour word that make it part of a flavour or a name
/// ("white cheddar", "green tea", "black pepper", "orange almond muffin").
/// Issue 12, colour words inside names: dishes and baking ("white korma",
/// "blue corn chips", "red bell pepper"), and "black forest".
static NOT_A_COLOUR_BEFORE: LazyLock<MarkedWords> =
    LazyLock::new(|| COLOUR_CONTEXT.marked_words("not-a-colour-before"));

/// Foods before a colour word that make it part of a dish's name ("chicken
/// white korma", "tuna red curry", "beef black bean sauce"): the colour of a
/// dish is its name, never the item's colour.
static FOOD_BEFORE: LazyLock<MarkedWords> = LazyLock::new(|| COLOUR_CONTEXT.marked_words("food-before"));

/// Foods and flavours that, as the last noun of the phrase a colour word
/// starts, make the colour part of the food's name ("white karahi spice
/// mix", "green usda organic tea", "orange rum cake", "blue raspberry
/// flavour"): a colour a few words before one of these names a flavour or a
/// dish, while a colour before another noun after them stays the item's
/// ("yellow birthday cake candles", "a white tea cup").
static FOOD_HEADS: LazyLock<MarkedWords> = LazyLock::new(|| COLOUR_CONTEXT.marked_words("food-head"));

/// Colour words that are also common scents: before a toiletry or a candle
/// they name its scent ("tea tree and lavender conditioner", "amber candle").
static SCENT_COLOURS: LazyLock<MarkedWords> = LazyLock::new(|| COLOUR_CONTEXT.marked_words("scent-colour"));

/// What a scent is said of: toiletries, candles, oils.
static SCENT_HEADS: LazyLock<MarkedWords> = LazyLock::new(|| COLOUR_CONTEXT.marked_words("scent-head"));

/// Words that attach a phrase to the noun before them: a name does not run
/// past them.
static ATTACHING: LazyLock<MarkedWords> = LazyLock::new(|| ATTACHING_WORDS.marked_words("colour"));

/// Whether the colour word at `at`, not said as a colour ("in cranberry",
/// "lavender color"), is a food's or a scent's name: "cranberry pumpkin
/// seed" (cranberry and toffee are colours only before a product: "a
/// cranberry t-shirt"), "blood orange", "tea tree and lavender conditioner"
/// (a scent colour before a toiletry or a candle within five words).
fn is_food_or_scent(request: &Request, at: usize) -> bool {
    let word = request.word(at);
    let flavour = matches!(word, "cranberry" | "toffee")
        && !(at + 1..at + 5)
            .any(|index| request.same_clause(at, index) && crate::words::noun::is_product_noun(request.word(index)));
    let fruit = word == "orange" && request.word_before(at, 1) == "blood";
    let scent = SCENT_COLOURS.contains(&word)
        && (at + 1..at + 6)
            .take_while(|index| {
                request.is_word(*index) && request.same_clause(at, *index) && !ATTACHING.contains(&request.word(*index))
            })
            .any(|index| SCENT_HEADS.contains(&request.word(index)));
    (flavour || fruit || scent) && !is_cued(request, at, at)
}

/// Whether `word` names a food a flavour is said of ("… cookies", "… tea").
pub fn is_food_head(word: &str) -> bool {
    FOOD_HEADS.contains(&word) || COLOUR_CONTEXT.has_mark(word, "flavour-head")
}

/// Whether the colour word at `at` starts a food's or a flavour's name: a
/// food head (`FOOD_HEADS`) within five words of it, in its clause, that
/// ends its noun phrase, or "flavored"/"scented" within five words (no noun after it: "spice mix that is", "tea,", "rum
/// cake - 4 oz").
fn in_food_name(request: &Request, at: usize) -> bool {
    for index in at + 1..at + 6 {
        if !request.is_word(index) || !request.same_clause(at, index) {
            return false;
        }
        let word = request.word(index);
        if matches!(word, "and" | "or") || ATTACHING.contains(&word) {
            return false;
        }
        // "yellow dog sweet shake flavored …", "blue chamomile scented …":
        // what comes before a flavour or a scent word names it.
        if matches!(word, "flavored" | "flavoured" | "scented") {
            return true;
        }
        if FOOD_HEADS.contains(&word) {
            let next = request.word(index + 1);
            let ends_phrase = !request.is_word(index + 1)
                || !request.same_clause(index, index + 1)
                || next.starts_with(|character: char| character.is_ascii_digit())
                || crate::words::class::COLOUR_CONTEXT.has_mark(next, "ends-food-phrase");
            // "spice mix": the phrase goes on, maybe to another food head.
            if ends_phrase {
                return true;
            }
        }
    }
    false
}

/// Effects after a colour word that belong to the shade the person named
/// ("copper holographic", "gold metallic", "silver glitter"): kept as said.
static SHADE_AFTER: LazyLock<MarkedWords> = LazyLock::new(|| COLOUR_CONTEXT.marked_words("shade-after"));

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
    /// The colour of a part, not of the item ("jars with black lids").
    Part,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColourMention {
    pub colour: String,
    pub at: usize,
    pub role: Role,
    /// Said as the item's colour ("that is turquoise", "in white", "red
    /// colored", "with a bronze finish"), not as a word before a noun that
    /// may name a part ("brushed nickel … that is turquoise").
    pub cued: bool,
    /// Said with the word "colour" ("grey in color", "color: grey",
    /// "grey-colored"): the strongest cue, over a finish ("white finish").
    pub named: bool,
}

/// A colour the person names by saying "colour" around it: "natural-colored",
/// "in cream color", "a natural color" (words that are colours only so).
fn named_by_colour_word(request: &Request, index: usize) -> Option<String> {
    let word = request.word(index);
    // "in the color of equator": the name after "color of" is the colour as said.
    let ends_phrase = !request.same_clause(index, index + 1)
        || !request.is_word(index + 1)
        || matches!(request.word(index + 1), "and" | "with" | "that");
    if request.preceded_by(index, 3, &[&["color", "of"], &["colour", "of"]])
        && request.is_word(index)
        && !crate::words::is_filler(word)
        && ends_phrase
    {
        // Every word from "of" on: "in the color of sea salt" is "sea salt".
        let first = (index.saturating_sub(2)..index)
            .find(|at| request.word_before(*at, 1) == "of" && request.is_word(*at) && !request.is_consumed(*at))
            .unwrap_or(index);
        let words: Vec<&str> = (first..=index).map(|at| request.word(at)).collect();
        return Some(words.join(" "));
    }
    let (stem, suffix) = word.split_once('-').unwrap_or((word, ""));
    let colour_follows = matches!(suffix, "colored" | "coloured" | "color" | "colour")
        || (suffix.is_empty() && matches!(request.word(index + 1), "color" | "colour" | "colored" | "coloured"));
    let named = COLOUR_CONTEXT.has_mark(stem, "shade-said-in");
    // "a bra in nude": a shade word after "in" at the end of its phrase.
    if !colour_follows
        && named
        && request.word_before(index, 1) == "in"
        && ends_phrase
        && !matches!(stem, "coffee" | "wine" | "mint")
    {
        return Some(stem.to_owned());
    }
    if !colour_follows {
        return None;
    }
    if named { Some(stem.to_owned()) } else { colour_of(stem).map(str::to_owned) }
}

/// Shade names that are colours only after a shade word ("dusty rose").
fn is_shade_name(word: &str) -> bool {
    crate::words::class::COLOUR_CONTEXT.has_mark(word, "shade-name")
}

/// Whether a colour is said as the item's own: after "in", "is", "are",
/// "be", "color"; before "color", "colored", "finish", "one(s)".
fn is_cued(request: &Request, start: usize, at: usize) -> bool {
    let word = request.word(at);
    word.contains("-colo")
        || COLOUR_CONTEXT.has_mark(request.word_before(start, 1), "cue-before")
        || COLOUR_CONTEXT.has_mark(request.word(at + 1), "cue-after")
        || is_named_colour(request, start, at)
}

/// Whether a colour is said with the word "colour" around it: "grey in
/// color", "color: grey", "colour grey", "grey-colored", "grey colour".
fn is_named_colour(request: &Request, start: usize, at: usize) -> bool {
    request.word(at).contains("-colo")
        || matches!(request.word_before(start, 1), "color" | "colour" | "цвет" | "цвета")
        || (request.word_before(start, 1) == ":" && matches!(request.word_before(start, 2), "color" | "colour"))
        || COLOUR_CONTEXT.has_mark(request.word(at + 1), "strict-cue-after")
        || (matches!(request.word(at + 1), "in" | "в") && matches!(request.word(at + 2), "color" | "colour" | "цвете"))
}

/// Whether the colour at `at` sits in a "with …" phrase about a part ("jars
/// with black lids"), unless the phrase is about the finish or colour itself
/// ("with a bronze finish").
pub fn names_a_part(request: &Request, at: usize) -> bool {
    // "golden legs", "black lids", "blue accents": a colour right before the
    // name of a part is that part's.
    if PART_NOUNS.contains(&request.word(at + 1)) && request.same_clause(at, at + 1) {
        return true;
    }
    let with = (at.saturating_sub(4)..at)
        .rev()
        .find(|index| request.word(*index) == "with" && request.same_clause(*index, at));
    let about_itself = matches!(request.word(at + 1), "finish" | "color" | "colour" | "tone")
        || matches!(request.word_before(at, 1), "in" | "is" | "are");
    with.is_some() && !about_itself
}

/// Parts of an item whose colour is not the item's ("a chair with golden
/// legs", "black with blue accents").
static PART_NOUNS: LazyLock<MarkedWords> = LazyLock::new(|| COLOUR_CONTEXT.marked_words("part"));

/// Every colour mention, classified; consumes their tokens.
pub fn extract(request: &mut Request) -> Vec<ColourMention> {
    let mut mentions = Vec::new();
    for index in 0..request.len() {
        if request.is_consumed(index) {
            continue;
        }
        let word = request.word(index);
        // "olive oil", "white chocolate", "green tea" are not colours (but
        // "black Apple iPhone" is: the brand is not a flavour).
        if NOT_A_COLOUR_BEFORE.contains(&request.word(index + 1)) && !request.is_consumed(index + 1) {
            continue;
        }
        // "white karahi spice mix", "green usda organic tea": a flavour's name.
        if colour_of(word).is_some() && !is_named_colour(request, index, index) && in_food_name(request, index) {
            continue;
        }
        if is_food_or_scent(request, index) {
            continue;
        }
        // "chicken white korma": a food, the colour word, then a name.
        if FOOD_BEFORE.contains(&request.word_before(index, 1))
            && !is_named_colour(request, index, index)
            && request.is_word(index + 1)
            && request.same_clause(index, index + 1)
        {
            continue;
        }
        let Some(canonical) = colour_of(word).map(str::to_owned).or_else(|| named_by_colour_word(request, index))
        else {
            continue;
        };
        // "sterling silver", "stainless steel": a material.
        if matches!(request.word_before(index, 1), "sterling" | "stainless" | "solid") {
            continue;
        }
        // "hair for black women": who it is for, not its colour.
        if request.word_before(index, 1) == "for" && COLOUR_CONTEXT.has_mark(request.word(index + 1), "people") {
            continue;
        }
        let before = request.word_before(index, 1);
        // "in the color peaceful purple": a word between the word "colour"
        // and the colour is part of the colour's name.
        let named_modifier = matches!(request.word_before(index, 2), "color" | "colour")
            && request.is_word(index - 1)
            && request.same_clause(index - 1, index)
            && !request.is_consumed(index - 1)
            && colour_of(before).is_none()
            && !crate::words::is_filler(before)
            && !COLOUR_CONTEXT.has_mark(before, "not-a-name-modifier");
        // A name after "color of" already holds its words ("sea salt").
        let modifier = ((SHADES.contains(&before) || named_modifier)
            && !canonical.contains(' ')
            && !request.is_consumed(index.wrapping_sub(1)))
        .then(|| request.tokens.get(index - 1).map(|token| token.folded.clone()))
        .flatten();
        let colour = match modifier {
            Some(modifier) if modifier != canonical => format!("{modifier} {canonical}"),
            _ => canonical.clone(),
        };
        let role = role_of(request, index);
        // A name after "color of" may be several words ("sea salt").
        let named_words = canonical.split(' ').count();
        let start = if named_words > 1 {
            index + 1 - named_words
        } else if colour.contains(' ') && colour != canonical {
            index - 1
        } else {
            index
        };
        // "band color purple mist": after the word "colour", a name that ends
        // its clause is the colour as said.
        let named_after = matches!(request.word_before(start, 1), "color" | "colour" | ":")
            && request.is_word(index + 1)
            && request.same_clause(index, index + 1)
            && (!request.same_clause(index + 1, index + 2) || !request.is_word(index + 2))
            && !NOT_A_COLOUR_BEFORE.contains(&request.word(index + 1));
        let joined = |at: usize| request.is_word(at) && request.same_clause(index, at) && !request.is_consumed(at);
        let next = request.word(index + 1);
        let (colour, end) = if named_after {
            let name = request.tokens.get(index + 1).map(|token| token.folded.clone()).unwrap_or_default();
            (format!("{colour} {name}"), index + 1)
        } else if SHADE_AFTER.contains(&next) && joined(index + 1) {
            // "copper holographic": the effect is part of the shade.
            (format!("{colour} {next}"), index + 1)
        } else if SHADES.contains(&next)
            && joined(index + 1)
            && joined(index + 2)
            && (colour_of(request.word(index + 2)).is_some() || is_shade_name(request.word(index + 2)))
        {
            // "gold dusty rose": one option named by two shades.
            let shade = request.word(index + 2);
            (format!("{colour} {next} {shade}"), index + 2)
        } else if let Some(second) = colour_of(next).filter(|_| {
            joined(index + 1)
                && !NOT_A_COLOUR_BEFORE.contains(&request.word(index + 2))
                && !in_food_name(request, index + 1)
        }) {
            // "navy blue", "charcoal grey", "black white": two colour words
            // back to back name one colour, as said (not two colours, which
            // would choose neither).
            (format!("{colour} {second}"), index + 1)
        } else {
            (colour, index)
        };
        request.consume(start, end);
        mentions.push(ColourMention {
            colour,
            at: index,
            role,
            cued: is_cued(request, start, index),
            named: is_named_colour(request, start, index),
        });
    }
    for (colour, start, end) in coded_colours(request) {
        request.consume(start, end);
        mentions.push(ColourMention { colour, at: start, role: Role::Chosen, cued: true, named: true });
    }
    if mentions.is_empty()
        && let Some((colour, start, end)) = called_a_colour(request)
    {
        request.consume(start, end);
        mentions.push(ColourMention { colour, at: start, role: Role::Chosen, cued: true, named: true });
    }
    mentions
}

/// Words that come before "color" without naming one ("any color", "hair
/// color", "a different color", "water color").
/// Features and places are no names either ("long lasting 14 color
/// palette", "hands free … color flip cases", "for living room color …").
static NOT_A_COLOUR_NAME: LazyLock<MarkedWords> = LazyLock::new(|| COLOUR_CONTEXT.marked_words("not-a-colour-name"));

/// A name the person calls a colour that no list holds: "in wineberry
/// color", "a 2bottle color toothpaste", "multi 06 color" (WebShop options
/// copied from a product page, LABELLING.md), and "color: redwood" when the
/// name is all its clause says. Read only when no known colour was said;
/// the name runs back from "color" to the word that opens the phrase ("a",
/// "in", "for", …), at most three words, none a product, a measure or a
/// word that names no colour ("any color", "hair color").
fn called_a_colour(request: &Request) -> Option<(String, usize, usize)> {
    let opens = |word: &str| crate::words::class::COLOUR_CONTEXT.has_mark(word, "opens-colour-name");
    let usable = |at: usize| {
        let word = request.word(at);
        request.is_word(at)
            && !request.is_consumed(at)
            && !opens(word)
            && !NOT_A_COLOUR_NAME.contains(&word)
            && !crate::words::is_filler(word)
            && !crate::words::noun::is_product_noun(word)
            && !crate::words::size::is_measure_unit(word)
    };
    for index in 0..request.len() {
        if !matches!(request.word(index), "color" | "colour") || request.is_consumed(index) {
            continue;
        }
        // "color: redwood", "color : #18p613": the clause after is the name.
        if request.word(index + 1) == ":" {
            let first = index + 2;
            let mut last = first;
            while request.same_clause(first, last + 1) && last + 1 < request.len() && last < first + 2 {
                last += 1;
            }
            let whole_clause = !request.same_clause(first, last + 1) || last + 1 >= request.len();
            if whole_clause && (first..=last).all(|at| request.is_consumed(at) || usable(at) || !request.is_word(at)) {
                let name = request.original(first, last);
                if !name.trim().is_empty() && (first..=last).any(usable) {
                    return Some((fold(&name), first, last));
                }
            }
            continue;
        }
        let mut start = index;
        while start > 0 && index - start < 3 && request.same_clause(start - 1, index) && usable(start - 1) {
            start -= 1;
        }
        let opener = start.checked_sub(1);
        // A feature word before the name opens it too ("hands free z-floral
        // color flip cases").
        let opened = opener.is_some_and(|at| {
            (opens(request.word(at)) || NOT_A_COLOUR_NAME.contains(&request.word(at))) && request.same_clause(at, index)
        });
        // "trust in the lord color": after a preposition and "the", the name
        // may begin further back; "14 color palette" counts colours.
        let name_goes_on = opener.is_some_and(|at| {
            request.word(at) == "the" && COLOUR_CONTEXT.has_mark(request.word_before(at, 1), "preposition-before-the")
        });
        let counted = index - start == 1 && {
            let word = request.word(start);
            word.bytes().all(|byte| byte.is_ascii_digit()) && !word.starts_with('0')
        };
        if start < index && opened && !name_goes_on && !counted {
            return Some((fold(&request.original(start, index - 1)), start, index));
        }
    }
    None
}

/// Colours the person gives by a shop's code after the word "colour" ("in
/// color 03", "color 7#", "color code #109"): the item's colour option
/// as a shop writes it, which no list of colour names holds. One or two
/// tokens with a digit among them, at the end of their phrase (before a
/// comma, "with", "and", "made" or the end), as said.
fn coded_colours(request: &Request) -> Vec<(String, usize, usize)> {
    let mut found = Vec::new();
    for index in 0..request.len() {
        if !matches!(request.word(index), "color" | "colour") || request.is_consumed(index) {
            continue;
        }
        let first = if request.word(index + 1) == "code" { index + 2 } else { index + 1 };
        let ends = |at: usize| {
            at >= request.len()
                || !request.same_clause(first, at)
                || matches!(request.word(at), "," | "." | ";" | "with" | "and" | "made" | "for")
        };
        let Some(last) = (first..first + 2).find(|at| ends(at + 1)) else {
            continue;
        };
        let coded = (first..=last).all(|at| at < request.len() && !request.is_consumed(at))
            && (first..=last).all(|at| {
                request.word(at) == "#" || request.word(at).chars().any(|character| character.is_ascii_digit())
            })
            && (first..=last).any(|at| request.word(at) != "#");
        if coded {
            // "7 #" as tokens is "7#" as written.
            let code = (first..=last).map(|at| request.original(at, at)).collect::<String>();
            found.push((code, first, last));
        }
    }
    found
}

/// Whether the person says, after offering colours, that the colour does
/// not matter ("blue or pink, I don't care", "красная или чёрная — не важно").
pub fn indifference_follows(request: &Request, at: usize) -> bool {
    static INDIFFERENCE: LazyLock<Vec<&[&str]>> = phrase_list!(COLOUR_CONTEXT, "indifference");
    (at + 1..at + 7).any(|index| INDIFFERENCE.iter().any(|phrase| request.phrase_at(index, phrase)))
}

fn role_of(request: &Request, index: usize) -> Role {
    let look_back = if request.word_before(index, 1) == "the" { index - 1 } else { index };
    if request.preceded_by_within(look_back, 3, &crate::words::negation::COLOUR, true)
        || request.preceded_by_within(index, 2, &BUT_BEFORE, false)
    {
        return Role::Excluded;
    }
    // "розовый не предлагать", "pink is a no": excluded after it.
    if request.followed_by(index, 3, &REFUSED_AFTER) {
        return Role::Excluded;
    }
    if names_a_part(request, index) {
        return Role::Part;
    }
    if crate::words::size::is_fallback(request, index)
        || request.followed_by(index, 4, &[&["fine"], &["works"], &["ok"], &["okay"]])
        || request.preceded_by(index, 2, &[&["можно", "и"], &["or", "even"], &["или", "даже"]])
    {
        return Role::Fallback;
    }
    // "emerald or sage green": a shade word may lead the other colour.
    let colour_starts = |at: usize| {
        colour_of(request.word(at)).is_some()
            || (SHADES.contains(&request.word(at)) && colour_of(request.word(at + 1)).is_some())
    };
    let lead = if SHADES.contains(&request.word_before(index, 1)) { index - 1 } else { index };
    let next_is_alternative = matches!(request.word(index + 1), "or" | "или")
        && request.same_clause(index, index + 2)
        && colour_starts(index + 2);
    let previous_is_alternative =
        matches!(request.word_before(lead, 1), "or" | "или") && colour_of(request.word_before(lead, 2)).is_some();
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
    fn a_name_the_person_calls_a_colour_is_read_as_said() {
        let chosen = |text: &str| -> Vec<String> { roles(text).into_iter().map(|(colour, _)| colour).collect() };
        assert_eq!(chosen("i need an area rug for my living room in wineberry color"), ["wineberry"]);
        assert_eq!(chosen("i am looking for a 2bottle color floride free teeth whitening toothpaste"), ["2bottle"]);
        assert_eq!(chosen("i am looking for multi 06 color duvet cover set for king size bed"), ["multi 06"]);
        assert_eq!(chosen("a super soft multi color throw blanket"), ["multi"]);
        assert_eq!(chosen("a dining chair, color: redwood"), ["redwood"]);
        assert_eq!(chosen("a rug in navy blue color"), ["navy blue"], "a known colour is read as before");
        assert_eq!(chosen("i am looking for a hands free z-floral color flip cases"), ["z-floral"]);
        for text in [
            "a shirt in any color",
            "a permanent hair color for my mom",
            "a set of water color paints",
            "a tee in a different color",
            "color: please pick one that fits my sofa and my curtains",
            "a super soft blanket in bible verse trust in the lord color",
            "a throw pillow covers set for living room color natural-w",
            "i am looking for long lasting 14 color pressed powder palette",
            "i need a ottoman for my living room in a primary color",
        ] {
            assert!(chosen(text).is_empty(), "{text}");
        }
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
        assert_eq!(roles("silver jars with black flat top lids"), [("silver".into(), Chosen), ("black".into(), Part)]);
        assert_eq!(roles("a light fixture with a bronze finish"), [("bronze".into(), Chosen)]);
    }

    #[test]
    fn a_shop_s_colour_code_after_the_word_colour_is_the_colour() {
        let colours = |text: &str| {
            let mut request = Request::new(text);
            extract(&mut request).into_iter().map(|mention| (mention.colour, mention.cued)).collect::<Vec<_>>()
        };
        // sbbudget-139, -240, -049: the item's option is "03", "7#", "#109".
        assert!(colours("silver tassel drop earrings in color 03 with zircon stones").contains(&("03".into(), true)));
        assert_eq!(colours("a butterfly hair clip in color 7# made of cloth"), [("7#".to_owned(), true)]);
        assert!(colours("Mary Janes, size EU 27, color code #109, and free shipping").contains(&("#109".into(), true)));
        // A count or a palette's number of colours is no code.
        assert!(colours("a shirt in color 2 pack").is_empty());
        assert!(colours("a 14 color palette").is_empty());
    }

    #[test]
    fn shades_flavours_and_named_colours() {
        let colours = |text: &str| -> Vec<String> {
            extract(&mut Request::new(text)).into_iter().map(|mention| mention.colour).collect()
        };
        assert_eq!(colours("a lake blue skin care set"), ["lake blue"]);
        assert_eq!(colours("pure white curtains"), ["pure white"]);
        assert_eq!(colours("a watch band color purple mist"), ["purple mist"]);
        assert_eq!(colours("a satin nickel finish"), ["satin nickel"]);
        assert_eq!(colours("a natural-colored twin bed"), ["natural"]);
        assert_eq!(colours("shorts that are in the color of equator and are a medium"), ["equator"]);
        assert_eq!(colours("платье изумрудное"), ["emerald"]);
        assert!(colours("white cheddar corn puffs").is_empty());
        assert!(colours("green tea face masks").is_empty());
        assert!(colours("blue light blocking glasses").is_empty());
        assert!(colours("a white noise machine").is_empty());
        assert!(colours("himalayan pink salt").is_empty());
        assert!(colours("an orange scented candle").is_empty());
        assert!(colours("diced tomatoes and green chilies").is_empty());
        assert!(colours("crochet hair for black women").is_empty());
        assert_eq!(colours("a black hoodie for men"), ["black"]);
        assert!(colours("белый шоколад и черный чай").is_empty());
        assert!(colours("a ring in sterling silver").is_empty());
        assert_eq!(colours("a rose gold phone case"), ["rose gold"]);
        assert_eq!(colours("a 34B bra in nude"), ["nude"]);
        assert_eq!(colours("a sheet set in sage green"), ["sage green"]);
        assert_eq!(roles("a wallet with rfid blocking in brown"), [("brown".into(), Role::Chosen)]);
        assert!(colours("orange almond muffin flavour").is_empty());
        // Two colour words back to back are one colour as said; a scent
        // colour before a toiletry is its scent unless said as a colour.
        assert_eq!(colours("i need a navy blue dress"), ["navy blue"]);
        assert_eq!(colours("charcoal grey sweatpants and olive green socks"), ["charcoal grey", "olive green"]);
        assert_eq!(colours("black white sneakers"), ["black white"]);
        assert_eq!(colours("a black green tea tin"), ["black"]);
        assert!(colours("tea tree and lavender conditioner").is_empty());
        assert!(colours("an amber soy candle").is_empty());
        assert_eq!(colours("a lavender dress"), ["lavender"]);
        assert_eq!(colours("i want violet walkie talkies"), ["violet"]);
        assert_eq!(colours("bath towels in lavender"), ["lavender"]);
        assert_eq!(colours("lavender color soap dispenser"), ["lavender"]);
        assert!(colours("hand crafted cranberry pumpkin seed").is_empty());
        assert_eq!(colours("a throw in cranberry"), ["cranberry"]);
        assert_eq!(colours("a wirefree pink amethyst 36c bra"), ["pink amethyst"]);
        assert_eq!(colours("a sun yellow plush rug"), ["sun yellow"]);
        assert_eq!(colours("makeup brushes in the color peaceful purple"), ["peaceful purple"]);
        assert_eq!(colours("a synthetic coffee brown colored wig"), ["coffee brown"]);
        assert_eq!(colours("a snow white colored oval area rug"), ["snow white"]);
        assert_eq!(colours("aqua blue or black"), ["aqua blue", "black"]);
        assert_eq!(colours("the color is black"), ["black"]);
        assert_eq!(
            roles("baby grows, neutral colours so nothing pink or blue"),
            [("pink".into(), Role::Excluded), ("blue".into(), Role::Excluded)]
        );
        assert_eq!(roles("хочу дешевый фен, розовый не предлагать"), [("pink".into(), Role::Excluded)]);
        assert_eq!(roles("a winter coat, he hates orange so not that"), [("orange".into(), Role::Excluded)]);
        assert!(colours("non gmo liquid alchemist blood orange for cocktails").is_empty());
        assert_eq!(colours("an ottoman that is whiskey brown in color"), ["whiskey brown"]);
        assert_eq!(colours("a small mens cranberry t shirt with a classic fit"), ["cranberry"]);
        assert_eq!(colours("womens 8.5 toffee shoe with arch support"), ["toffee"]);
        assert_eq!(colours("pants in the color olive grove, and machine washable"), ["olive grove"]);
        assert_eq!(colours("a logitech mouse in graphite"), ["graphite"]);
        assert_eq!(roles("a cupcake topper which has a laser gold pattern"), [("gold".into(), Role::Part)]);
        assert_eq!(roles("2 cups, any color but red"), [("red".into(), Role::Excluded)]);
        assert_eq!(
            roles("a midi dress, emerald or sage green"),
            [("emerald".into(), Role::Either), ("sage green".into(), Role::Either)]
        );
        assert_eq!(roles("a bra, nude or beige"), [("nude".into(), Role::Either), ("beige".into(), Role::Either)]);
        // Issue 12: colour words inside names, and shades said in two words.
        assert!(colours("two packs of chicken white korma spice mix").is_empty());
        assert!(colours("a box of red velvet cake mix").is_empty());
        assert!(colours("blue corn tortilla chips and red bell pepper").is_empty());
        assert!(colours("a black forest ham").is_empty());
        assert!(colours("beef black bean sauce").is_empty());
        assert_eq!(colours("body glitter, copper holographic one"), ["copper holographic"]);
        assert_eq!(colours("nail polish in silver glitter"), ["silver glitter"]);
        assert_eq!(colours("a gold dusty rose chair"), ["gold dusty rose"]);
        assert_eq!(colours("a pillow cover in the salmon brown color"), ["salmon brown"]);
        assert_eq!(colours("a white chair"), ["white"]);
        assert!(colours("a four pack of white karahi spice mix that is easy to use").is_empty());
        assert!(colours("100 bags of green organic tea").is_empty());
        assert!(colours("orange rum cake - 4 oz").is_empty());
        assert!(colours("the blue raspberry flavour, please").is_empty());
        assert!(colours("red hot sauce 12 ounce").is_empty());
        assert_eq!(colours("yellow birthday cake candles"), ["yellow"]);
        assert!(colours("gluten free red dog rub gourmet spice blends").is_empty());
        assert!(colours("blue chamomile scented hair conditioner").is_empty());
        assert_eq!(colours("a white cake stand for a party"), ["white"]);
        assert_eq!(colours("a gold colored birthday cake topper"), ["gold"]);
        assert_eq!(colours("a black mix light auburn hair extension"), ["black"]);
        assert!(colours("all natural ingredients").is_empty());
    }
}
