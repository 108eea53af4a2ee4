//! Brands no catalog names, read from cues: "a toner from psph beauty",
//! "corn puffs from trader joes", "a Panasonic brand air conditioner", "by
//! One Home", "бренда X", "изд. росмэн"; excluded lists ("not Adidas or
//! Puma", "не Acer и не Asus"); and, in Russian text, a lone word in Latin
//! script ("подгузники pampers 4 размер"), which is how Russian shoppers
//! write brand names.
//!
//! The catalog stays a second source: its brands are found first (in
//! `vocabulary`) and claim their tokens; these rules read only what is left.
//! Every cue has a stop list, because the same words introduce materials
//! ("made from cotton"), origins ("from Japan"), shops ("from LazMall"),
//! times ("by tomorrow") and prices ("from 324 to 623 pesos"). A run of
//! several Latin words in Russian text ("la roche-posay effaclar") is a brand
//! and a model whose border nobody can tell without a catalog: no brand.

use crate::words::class::BRAND_WORDS;
use crate::words::class::MarkedWords;
use std::sync::LazyLock;

use crate::words::class::{BRAND_CONTEXT, phrase_list};
use crate::words::negation;
use crate::words::text::{Request, TokenKind};

/// Words before a capitalised name that make it the device something must fit ("compatible with Hatari fan") (`brand-context.txt`, `@fits-a-name-before`).
static FITS_A_NAME_BEFORE: LazyLock<Vec<&[&str]>> = phrase_list!(BRAND_CONTEXT, "fits-a-name-before");

/// How a cue brand is meant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BrandRole {
    Chosen,
    Excluded,
    /// Offered with a chosen one ("bosch или valeo").
    Alternative,
}

/// A brand read from a cue, at tokens `start..=end`, as the person wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedBrand {
    pub display: String,
    pub start: usize,
    pub end: usize,
    pub role: BrandRole,
    /// A model number written right after it ("mikasa v200w").
    pub model: Option<(String, usize)>,
}

/// Words that end a brand name read after a cue.
fn ends_name(word: &str) -> bool {
    crate::words::class::BRAND_WORDS.has_mark(word, "ends-name")
}

/// Whether the word at `index` compares an amount that follows it ("under
/// $20", "below 30 euros", "дешевле 500").
fn compares_an_amount(request: &Request, index: usize) -> bool {
    let amount = request.word(index + 1);
    super::clause::is_comparison(request.word(index))
        && (amount.starts_with(|character: char| character.is_ascii_digit())
            || crate::words::money::currency_of(amount).is_some())
}

/// Words that are not a brand after "from"/"by"/"от": articles, pronouns,
/// places, shops, materials, times, and words that say what kind of thing
/// follows.
fn never_a_brand(word: &str) -> bool {
    crate::words::class::BRAND_WORDS.has_mark(word, "never-a-brand")
}

/// Latin words in Russian text that are terms, units or product names, not
/// brands.
fn latin_term(word: &str) -> bool {
    crate::words::class::BRAND_WORDS.has_mark(word, "latin-term")
}

fn is_latin_word(word: &str) -> bool {
    word.chars().any(|character| character.is_ascii_alphabetic())
        && word.chars().all(|character| character.is_ascii_alphanumeric() || matches!(character, '-' | '\'' | '&'))
}

fn is_alphabetic_latin(word: &str) -> bool {
    word.len() >= 3 && word.chars().all(|character| character.is_ascii_alphabetic() || matches!(character, '-' | '\''))
}

/// Words after "or" beside a brand that offer no second brand ("Nike or
/// similar", "Sony or any other").
static NO_SECOND_BRAND: LazyLock<MarkedWords> = LazyLock::new(|| BRAND_CONTEXT.marked_words("no-second-brand"));

/// A one-word name the person offers beside a known brand at
/// `start..=end`: "Samsung or LG", "lg или samsung". The known brand makes
/// the "or" a choice between brands, so the other word is one even when no
/// list holds it. Returns the word's token and whether it comes first.
pub fn offered_beside(request: &Request, start: usize, end: usize) -> Option<(usize, bool)> {
    let cyrillic = request.is_cyrillic();
    let candidate = |at: usize| {
        let word = request.word(at);
        request.is_word(at)
            && !request.is_consumed(at)
            && word.len() >= 2
            && word.chars().all(|character| character.is_ascii_alphabetic())
            && (cyrillic || !matches!(request.word(at + 1), "-" | "'"))
            && !never_a_brand(word)
            && !ends_name(word)
            && !NO_SECOND_BRAND.contains(&word)
            && !crate::words::colour::is_colour(word)
            && crate::words::money::currency_of(word).is_none()
    };
    let is_or = |word: &str| matches!(word, "or" | "или");
    // One word, then the end of the phrase or the product ("samsung or lg
    // tv"); not the first word of a longer phrase ("nike or reebok classic
    // leather").
    let ends_there = |at: usize| {
        !request.is_word(at) || crate::words::noun::is_product_noun(request.word(at)) || !request.is_word(at + 1)
    };
    if is_or(request.word(end + 1)) && candidate(end + 2) && ends_there(end + 3) {
        return Some((end + 2, false));
    }
    let before = start.checked_sub(2)?;
    // Not the last word of a longer name ("Reebok Classic or Nike").
    let capitalised =
        |at: usize| request.tokens.get(at).is_some_and(|token| token.text.starts_with(char::is_uppercase));
    let lone = before == 0 || !(candidate(before - 1) && capitalised(before - 1) && capitalised(before));
    (is_or(request.word_before(start, 1)) && candidate(before) && lone).then_some((before, true))
}

/// Whether the person writes in sentence case: most words start in lower
/// case, so a capital mid-sentence marks a name ("Title Case Requests" and
/// all-lower-case ones say nothing by their capitals).
fn sentence_case(request: &Request) -> bool {
    let words: Vec<&str> = (0..request.len())
        .filter(|at| request.is_word(*at))
        .filter_map(|at| request.tokens.get(at).map(|token| token.text.as_str()))
        .filter(|text| text.starts_with(|character: char| character.is_alphabetic()))
        .collect();
    let capitalised = words.iter().filter(|text| text.starts_with(char::is_uppercase)).count();
    capitalised > 0 && capitalised * 4 <= words.len()
}

/// Capitalised words that are not brands (besides days and months, which
/// `deadline` reads): holidays, places and peoples, bed sizes,
/// technologies, shops, and the pronoun.
static NOT_A_NAME: LazyLock<MarkedWords> = LazyLock::new(|| BRAND_CONTEXT.marked_words("not-a-name"));

/// A capitalised word mid-sentence (not after `.`/`!`/`?` or at the start)
/// that could be a name: letters with some lower case ("Stojo", not "TV").
fn capitalised_name(request: &Request, index: usize) -> bool {
    let Some(token) = request.tokens.get(index) else { return false };
    let text = token.text.as_str();
    let mut characters = text.chars();
    let starts_upper = characters.next().is_some_and(char::is_uppercase);
    let rest_lower = characters.clone().any(char::is_lowercase) && characters.all(|c| c.is_alphabetic() || c == '\'');
    let sentence_start = index == 0 || matches!(request.word(index - 1), "." | "!" | "?" | ":" | "\"" | "(" | "-");
    token.kind == TokenKind::Word
        && starts_upper
        && rest_lower
        && text.chars().count() >= 3
        && !sentence_start
        && !request.is_consumed(index)
        && !NOT_A_NAME.contains(&token.folded.as_str())
        && crate::words::date::weekday_of(&token.folded).is_none()
        && crate::words::date::month_of(&token.folded).is_none()
        && !never_a_brand(&token.folded)
        && !ends_name(&token.folded)
        && !crate::words::colour::is_colour(&token.folded)
        && crate::words::money::currency_of(&token.folded).is_none()
        && !crate::words::noun::is_product_noun(&token.folded)
}

/// "New Balance", "New Era": a term word that starts a brand's two-word name.
fn starts_a_name(request: &Request, index: usize) -> bool {
    request.word(index) == "new" && matches!(request.word(index + 1), "balance" | "era" | "look")
}

/// Whether the token at `index` looks like a name: capitalised mid-sentence
/// in English, Latin script in Russian text.
fn name_like(request: &Request, index: usize, cyrillic: bool) -> bool {
    let Some(token) = request.tokens.get(index) else { return false };
    if token.kind != TokenKind::Word || request.is_consumed(index) {
        return false;
    }
    let word = token.folded.as_str();
    if cyrillic {
        return is_latin_word(word)
            && (!latin_term(word) || starts_a_name(request, index))
            && word.chars().any(|c| c.is_ascii_alphabetic());
    }
    let capitalised = token.text.chars().next().is_some_and(char::is_uppercase);
    let letter_size = crate::words::class::SIZE_WORDS.has_mark(word, "short-letter");
    capitalised
        && word.chars().count() >= 2
        && !letter_size
        && word != "i"
        && !never_a_brand(word)
        && !crate::words::colour::is_colour(word)
        && !word.chars().all(|character| character.is_ascii_digit())
}

/// The person's words from `start` to `end`.
fn display(request: &Request, start: usize, end: usize) -> String {
    request.original(start, end)
}

/// A name read after a cue at `start`: up to three words, until a word that
/// ends names; `None` if the first word is never a brand.
fn name_after(request: &Request, start: usize) -> Option<(usize, usize)> {
    let first = request.word(start);
    if !request.is_word(start)
        || request.is_consumed(start)
        || never_a_brand(first)
        || ends_name(first)
        || first.chars().next().is_some_and(|character| character.is_ascii_digit())
        || crate::words::money::currency_of(first).is_some()
        || crate::words::colour::is_colour(first)
        // "this food from snack puffs": a kind of product, not a maker.
        || crate::words::noun::is_product_noun(first)
        || super::colour::is_food_head(first)
        // "from mens clothing": a department.
        || BRAND_CONTEXT.has_mark(first, "department")
    {
        return None;
    }
    let mut end = start;
    while end < start + 2 {
        let next = end + 1;
        if !request.is_word(next)
            || request.is_consumed(next)
            || !request.same_clause(start, next)
            || ends_name(request.word(next))
            || BRAND_WORDS.has_mark(request.word(next), "ends-name-after-cue")
            // "brand eurofase 23271-036 zuma": a part number ends the maker's name.
            || request.word(next).chars().any(|character| character.is_ascii_digit())
            // "coffee beans from Colombia under $20": a comparison before an
            // amount ends it ("from Under Armour" still names Under Armour).
            || compares_an_amount(request, next)
        {
            break;
        }
        end = next;
    }
    // "from pixars movie up": a film or a show it features, not its maker.
    if (start..=end).any(|at| BRAND_CONTEXT.has_mark(request.word(at), "feature")) {
        return None;
    }
    // "from mb variety store": a shop, not a brand.
    if BRAND_CONTEXT.has_mark(request.word(end), "shop") {
        return None;
    }
    // "from assortments & variety gifts category": a part of the store.
    if (end + 1..end + 5)
        .any(|at| request.same_clause(start, at) && BRAND_CONTEXT.has_mark(request.word(at), "store-part"))
    {
        return None;
    }
    Some((start, end))
}

/// The brands found so far, and the tokens they claim: a token is in one
/// brand at most, the first step that reads it wins.
struct Found<'r> {
    request: &'r Request,
    brands: Vec<NamedBrand>,
    claimed: Vec<bool>,
}

impl Found<'_> {
    fn push(&mut self, start: usize, end: usize, role: BrandRole) {
        if (start..=end).any(|at| self.claimed.get(at).copied().unwrap_or(true)) {
            return;
        }
        for slot in self.claimed.iter_mut().take(end + 1).skip(start) {
            *slot = true;
        }
        self.brands.push(NamedBrand { display: display(self.request, start, end), start, end, role, model: None });
    }
}

/// Every brand the cues name, in order, on tokens no other rule claimed.
/// `named` marks the tokens the catalog's brands and models claimed: a Latin
/// word next to one ("lego city") is part of that name. The steps run in
/// this order, each on the tokens the earlier ones left.
pub fn find(request: &Request, named: &[bool]) -> Vec<NamedBrand> {
    let cyrillic = request.is_cyrillic();
    let mut found = Found { request, brands: Vec::new(), claimed: vec![false; request.len()] };
    excluded_lists(request, cyrillic, &mut found);
    named_after_cues(request, cyrillic, &mut found);
    named_before_brand(request, &mut found);
    if !cyrillic && sentence_case(request) {
        capitalised_before_product(request, named, &mut found);
    }
    if cyrillic {
        latin_in_russian(request, named, &mut found);
    }
    let mut found = found.brands;
    found.sort_by_key(|brand| brand.start);
    found
}

/// Excluded lists: "not Adidas or Puma", "не Acer и не Asus".
fn excluded_lists(request: &Request, cyrillic: bool, found: &mut Found<'_>) {
    for index in 0..request.len() {
        let Some(negation) = negation::BRAND_LIST.iter().find(|phrase| request.starts_phrase(index, phrase)) else {
            continue;
        };
        let mut at = index + negation.len();
        if request.word(at) == "the" {
            at += 1;
        }
        let mut items = 0;
        // "not the Atomic one": a line of the named brand, not another brand.
        let a_line = |end: usize| {
            request.word(index + negation.len()) == "the" && BRAND_CONTEXT.has_mark(request.word(end + 1), "a-line")
        };
        loop {
            // A brand the catalog read is an item of the list too.
            let item_end = if request.is_consumed(at) && request.is_word(at) {
                let mut end = at;
                while request.is_consumed(end + 1) && request.is_word(end + 1) {
                    end += 1;
                }
                Some(end)
            } else if name_like(request, at, cyrillic)
            // "не Triangle и не Кама": once a list of excluded brands has
            // begun, a capitalised Cyrillic name continues it (alone, a
            // capital in Russian may as well start a sentence).
            || (items > 0 && cyrillic && capitalised_name(request, at))
            {
                let mut end = at;
                while end < at + 2 && name_like(request, end + 1, cyrillic) {
                    end += 1;
                }
                if a_line(end) {
                    break;
                }
                found.push(at, end, BrandRole::Excluded);
                Some(end)
            } else {
                None
            };
            let Some(end) = item_end else { break };
            items += 1;
            let mut next = end + 1;
            if !(request.word(next) == "," || BRAND_CONTEXT.has_mark(request.word(next), "excluded-list-joiner")) {
                break;
            }
            next += 1;
            if matches!(request.word(next), "not" | "no" | "не" | "ни") {
                next += 1;
            }
            at = next;
            if items > 8 {
                break;
            }
        }
    }
}

/// Cues before a name: "from X", "by X", "brand X", "бренда X", "изд. X".
fn named_after_cues(request: &Request, cyrillic: bool, found: &mut Found<'_>) {
    for index in 0..request.len() {
        let word = request.word(index);
        let after = start_after_cue(request, index, cyrillic);
        let Some(start) = after else { continue };
        let start = if request.word(start) == "the" && request.word(start + 1) == "brand" { start + 2 } else { start };
        // "from the north face": the article is not part of the name.
        let start = if request.word(start) == "the" && word == "from" && request.is_word(start + 1) {
            start + 1
        } else {
            start
        };
        if let Some((start, end)) = name_after(request, start) {
            if cyrillic && !(start..=end).all(|at| is_latin_word(request.word(at))) && word == "от" {
                continue;
            }
            found.push(start, end, BrandRole::Chosen);
        }
    }
}

/// Where the name after the cue at `index` starts, if the word there is a
/// cue of a maker ("from", "by", "brand", "бренда", "изд.", "от").
fn start_after_cue(request: &Request, index: usize, cyrillic: bool) -> Option<usize> {
    let word = request.word(index);
    match word {
        // "by" names a maker only after "made", "sold" … or before a
        // capitalised name: "carried by case", "sorted by size" do not.
        "by" if !BRAND_CONTEXT.has_mark(request.word_before(index, 1), "maker-verb")
            && !request
                .tokens
                .get(index + 1)
                .is_some_and(|token| token.text.chars().next().is_some_and(char::is_uppercase)) =>
        {
            None
        }
        "from" | "by" => {
            let material = word == "from" && BRAND_CONTEXT.has_mark(request.word_before(index, 1), "not-from-maker");
            if material { None } else { Some(index + 1) }
        }
        "brand"
            if !(request.word_before(index, 1).is_empty()
                || BRAND_CONTEXT.has_mark(request.word_before(index, 1), "not-before-brand-cue")
                || request.word(index + 1) == ":"
                || BRAND_CONTEXT.has_mark(request.word(index + 1), "not-after-brand-cue")) =>
        {
            None
        }
        "brand" | "бренда" | "фирмы" | "марки" | "издательства" | "производителя" =>
        {
            let mut at = index + 1;
            // "the brand must be trader joes", "brand should be X".
            if BRAND_CONTEXT.has_mark(request.word(at), "modal-before-be") && request.word(at + 1) == "be" {
                at += 2;
            } else if matches!(request.word(at), "needs" | "has") && request.phrase_at(at + 1, &["to", "be"]) {
                at += 3;
            } else if matches!(request.word(at), ":" | "is" | "called" | "named") {
                at += 1;
            }
            Some(at)
        }
        "изд" if request.word(index + 1) == "." => Some(index + 2),
        "от" if cyrillic && name_like(request, index + 1, cyrillic) => Some(index + 1),
        _ => None,
    }
}

/// A name right before "brand": "a Panasonic brand air conditioner",
/// "Kracie brand conditioner".
fn named_before_brand(request: &Request, found: &mut Found<'_>) {
    for index in 1..request.len() {
        if request.word(index) != "brand" || request.word(index + 1) == "name" {
            continue;
        }
        let end = index - 1;
        // "women's shirts from brand 1": a word that attaches ("from",
        // "by", "with") introduces the brand, it is none.
        if request.is_word(end)
            && !request.is_consumed(end)
            && !never_a_brand(request.word(end))
            && !super::chunk::is_attaching(request.word(end))
            && !ends_name(request.word(end))
            && !crate::words::colour::is_colour(request.word(end))
        {
            found.push(end, end, BrandRole::Chosen);
        }
    }
}

/// Sentence-case English: a capitalised name mid-sentence right before
/// the product ("those Bramblewick candles", "a Triumph wireless bra").
fn capitalised_before_product(request: &Request, named: &[bool], found: &mut Found<'_>) {
    for index in 1..request.len() {
        // "compatible with Hatari fan": the device it must fit.
        let fits = request.preceded_by(index, 3, &FITS_A_NAME_BEFORE);
        // "Birkenstock Arizona sandals": after a named brand, its line.
        let after_a_name = named.get(index - 1).copied().unwrap_or(false);
        if capitalised_name(request, index)
            && !fits
            && !after_a_name
            && !(index + 1..index + 3).any(|at| capitalised_name(request, at))
            && (index + 1..index + 3).any(|at| {
                request.same_clause(index, at)
                    && request.is_word(at)
                    && crate::words::noun::is_product_noun(request.word(at))
            })
        {
            found.push(index, index, BrandRole::Chosen);
        }
    }
}

/// Russian text: a lone Latin word is a brand ("подгузники pampers"), and
/// "bosch или valeo" offers two.
fn latin_in_russian(request: &Request, named: &[bool], found: &mut Found<'_>) {
    let mut index = 0;
    while index < request.len() {
        if !name_like(request, index, true) {
            index += 1;
            continue;
        }
        let mut end = index;
        while request.is_word(end + 1) && is_latin_word(request.word(end + 1)) && !request.is_consumed(end + 1) {
            end += 1;
        }
        // "mikasa v200w": a name and a model number.
        // "New Balance 574": a two-word name, and maybe its model.
        let name_end = if starts_a_name(request, index) { index + 1 } else { index };
        // "type-c 20w": a power, a voltage or a capacity is no model.
        let measure = |word: &str| {
            let digits = word.trim_end_matches(|character: char| character.is_ascii_alphabetic());
            !digits.is_empty()
                && digits.chars().all(|character| character.is_ascii_digit() || character == '.')
                && word.get(digits.len()..).is_some_and(|unit| BRAND_CONTEXT.has_mark(unit, "glued-unit"))
        };
        let with_model = end == name_end + 1
            && request.word(end).chars().any(|character| character.is_ascii_digit())
            && !measure(request.word(end));
        let lone = (end == name_end || with_model) && is_alphabetic_latin(request.word(index));
        let before = request.word_before(index, 1);
        let after_preposition = BRAND_CONTEXT.has_mark(before, "preposition-ru");
        let is_named = |at: usize| named.get(at).copied().unwrap_or(false);
        // "pampers premium care": Latin words right after a named brand
        // are its product line, not another brand.
        let mut back = index;
        while back > 0 && !is_named(back - 1) && request.is_word(back - 1) && is_latin_word(request.word(back - 1)) {
            back -= 1;
        }
        let next_to_claimed = is_named(back.wrapping_sub(1)) || is_named(end + 1);
        if lone && !after_preposition && !next_to_claimed {
            let offered = matches!(before, "или" | "or")
                && found.brands.last().is_some_and(|last| last.end + 2 == index && last.role == BrandRole::Chosen);
            let role = if offered { BrandRole::Alternative } else { BrandRole::Chosen };
            found.push(index, name_end, role);
            if with_model
                && let Some(last) = found.brands.last_mut()
                && last.start == index
            {
                last.model = Some((request.original(end, end), end));
            }
        }
        index = end + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brands(text: &str) -> Vec<(String, BrandRole)> {
        let request = Request::new(text);
        find(&request, &vec![false; request.len()]).into_iter().map(|brand| (brand.display, brand.role)).collect()
    }

    fn chosen(text: &str) -> Vec<String> {
        brands(text).into_iter().filter(|(_, role)| *role == BrandRole::Chosen).map(|(name, _)| name).collect()
    }

    #[test]
    fn brands_from_cues() {
        assert_eq!(chosen("i need a toner from psph beauty"), ["psph beauty"]);
        assert_eq!(chosen("white cheddar corn puffs from trader joes,"), ["trader joes"]);
        assert_eq!(chosen("a Panasonic brand air conditioner"), ["Panasonic"]);
        assert!(
            !chosen("women's shirts in white, size S, from brand 1, crafted from cotton").contains(&"from".to_owned())
        );
        assert_eq!(chosen("a cleansing foam from the brand Derma Natufian."), ["Derma Natufian"]);
        assert_eq!(chosen("a vacuum cleaner by One Home that has no cord"), ["One Home"]);
        assert_eq!(chosen("a vacuum cleaner by one home"), Vec::<String>::new());
        assert_eq!(chosen("a drill made by DeWalt"), ["DeWalt"]);
        assert_eq!(chosen("this brand eurofase 23271-036 zuma sconce"), ["eurofase"]);
        assert_eq!(chosen("a gift basket from assortments & variety gifts category"), Vec::<String>::new());
        assert_eq!(chosen("an ornament sculpted from iron of a mother and child"), Vec::<String>::new());
        assert_eq!(chosen("fennel seed which is free from bpa, gmo, fat and gluten"), Vec::<String>::new());
        assert_eq!(chosen("vegan makeup free from animal testing"), Vec::<String>::new());
        assert_eq!(chosen("i want a jacket from the north face"), ["north face"]);
        // A comparison before an amount ends the name; a name may open with one.
        assert_eq!(chosen("a dress from Mango under 40 dollars"), ["Mango"]);
        assert_eq!(chosen("a dress from Mango below $40"), ["Mango"]);
        assert_eq!(chosen("running shorts from Under Armour"), ["Under Armour"]);
        assert_eq!(chosen("гарри поттер, изд. росмэн, твердый переплет"), ["росмэн"]);
        assert_eq!(chosen("подгузники pampers 4 размер 2 пачки"), ["pampers"]);
        assert_eq!(chosen("ручки гелевые pilot: синие 10 шт"), ["pilot"]);
        assert_eq!(chosen("мяч волейбольный mikasa v200w, уровень профи"), ["mikasa"]);
        assert_eq!(chosen("учебник english file intermediate, 4th edition, oxford оригинал"), ["oxford"]);
    }

    #[test]
    fn cues_that_name_no_brand() {
        for text in [
            "a shirt made from cotton",
            "a duster from Japan",
            "kitchen strainers from LazMall",
            "priced from 324 to 623 pesos",
            "need it by tomorrow",
            "gaming controllers which can be carried by case",
            "organic lettuce seeds from mb variety store",
            "i want something from target",
            "a bag from the same seller",
            "made from a soft material",
            "чехол для iphone 15",
            "умные часы с nfc",
            "крем la roche-posay effaclar 40 мл",
            "samsung galaxy a55 256гб",
        ] {
            assert_eq!(chosen(text), Vec::<String>::new(), "{text}");
        }
    }

    #[test]
    fn excluded_lists() {
        assert_eq!(
            brands("шины, только не Triangle и не Кама"),
            [("Triangle".to_owned(), BrandRole::Excluded), ("Кама".to_owned(), BrandRole::Excluded)]
        );
        assert!(brands("шины, только не Кама").is_empty(), "a capital alone is no name in Russian");
        let excluded = |text: &str| -> Vec<String> {
            brands(text).into_iter().filter(|(_, role)| *role == BrandRole::Excluded).map(|(name, _)| name).collect()
        };
        assert_eq!(excluded("running shoes, not Adidas or Puma"), ["Adidas", "Puma"]);
        assert_eq!(excluded("ноутбук не Acer и не Asus"), ["Acer", "Asus"]);
        assert_eq!(excluded("помада, не vivienne sabo, желательно стойкая"), ["vivienne sabo"]);
        assert_eq!(excluded("no nuts (allergy!!)"), Vec::<String>::new());
        assert_eq!(excluded("not red"), Vec::<String>::new());
        assert_eq!(excluded("Wilson Clash 100 (NOT the L), grip 4 3/8"), Vec::<String>::new());
    }

    #[test]
    fn a_brand_after_must_be_and_no_product_after_from() {
        assert_eq!(chosen("usda organic fruit leather. the brand must be trader joes"), ["trader joes"]);
        assert!(chosen("i want this food from snack puffs, aged white cheddar").is_empty());
        assert!(chosen("a youth t-shirt featuring russell and carl from pixars movie up").is_empty());
        assert!(chosen("i want to purchase from mens clothing a pair of retro jeans").is_empty());
        assert!(chosen("an esky, hard sided. Don't care about brand but not some no-name junk").is_empty());
        assert!(chosen("no particular brand, just a good kettle").is_empty());
    }

    #[test]
    fn a_capital_mid_sentence_before_the_product_names_its_brand() {
        assert_eq!(chosen("can you reorder those Bramblewick candles, 3 of them"), ["Bramblewick"]);
        assert_eq!(chosen("Can you order me a Triumph wireless bra in 34C?"), ["Triumph"]);
        assert!(chosen("a water pump compatible with Hatari fan").is_empty());
        assert!(chosen("I want a Christmas tree and a King size bed").is_empty());
        assert!(chosen("Need Dish Soap And Paper Towels").is_empty());
        assert!(chosen("i need a new TV stand").is_empty());
        assert!(chosen("Sofa for the living room. Green velvet sofa, please").is_empty());
    }

    #[test]
    fn a_word_offered_beside_a_known_brand() {
        let offered = |text: &str, start: usize| {
            let request = Request::new(text);
            offered_beside(&request, start, start).map(|(at, first)| (request.word(at).to_owned(), first))
        };
        assert_eq!(offered("samsung or lg tv", 0), Some(("lg".into(), false)));
        assert_eq!(offered("tv lg или samsung", 3), Some(("lg".into(), true)));
        assert_eq!(offered("i want sony or samsung", 4), Some(("sony".into(), true)));
        assert_eq!(offered("nike or similar shoes", 0), None);
        assert_eq!(offered("nike or reebok classic leather", 0), None);
        assert_eq!(offered("nike or black", 0), None);
        assert_eq!(offered("nike or $50", 0), None);
    }

    #[test]
    fn offered_brands() {
        assert_eq!(
            brands("щетки bosch или valeo, бескаркасные"),
            [("bosch".to_owned(), BrandRole::Chosen), ("valeo".to_owned(), BrandRole::Alternative)]
        );
    }
}
