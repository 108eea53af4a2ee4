//! Quantities in the units the person counts: "two cans", "3 packs of balls",
//! "a pair of shoes", "a dozen", "две банки", "3 шт".
//!
//! A number is a count only when a cue ties it to counting; a bare number is
//! never a quantity ("iPhone 15 Pro case", "Head & Shoulders 400 мл", "kit 3",
//! "12 power amplifier"). The cues:
//! - a counting noun after it: "3 packs", "6 cartons", "2 шт", "две пары";
//! - "N of them", "x2", "2x";
//! - "a dozen", "a pair of", "a single can", "пара";
//! - a number right after an order verb or at the very start of the request,
//!   before a product word: "I need 6 cartons", "buy 2 Wilson", "Two Pegasus 41";
//! - a number word before a plural noun ("three cans"), and in Russian any
//!   number word before a noun ("две футболки").
//!
//! The number is kept as said: "3 packs" is 3 whatever a pack holds, because
//! guard.md §3 counts in the person's units and the cart side knows how many
//! units an item holds. A pack size is not a count: "a 6 pack of cookies",
//! "comes in a pack of two", "3 pack", "two piece swimsuit". Runs after money,
//! deadline, size and model have claimed their numbers.

use super::class::COUNT_WORDS;
use super::class::NUMBERS;
use crate::words::class::MarkedWords;
use std::sync::LazyLock;

use super::class::ORDER_WORDS;
use super::text::{Request, count, number_word};

/// The largest number read as a count.
const MAX_COUNT: u64 = 999;

/// Nouns that count items: a number before one is a quantity. "pack" in the
/// singular is not here: "3 pack" is a pack size.
pub fn is_counting_noun(word: &str) -> bool {
    super::class::COUNT_WORDS.has_mark(word, "counting-noun")
}

/// Whether the phrase at `index` opens with a count of packs of a product
/// ("two packs of film", "3 bottles of shampoo"): a number, a counting noun
/// and "of". After "and", such a phrase is another product of a list ("a
/// Fujifilm Instax Mini 12 and two packs of film"), not more of the one
/// before.
pub fn counts_packs_of(request: &Request, index: usize) -> bool {
    count(request.word(index)).is_some() && is_counting_noun(request.word(index + 1)) && request.word(index + 2) == "of"
}

/// Words after a number that make it anything but a count of items: units,
/// measures, time, pack sizes, and words that say "how big", not "how many".
pub(crate) fn is_not_counted(word: &str) -> bool {
    // The empty word: nothing after the number.
    word.is_empty() || super::size::is_measure_unit(word) || super::class::COUNT_WORDS.has_mark(word, "not-counted")
}

/// Words before a number that make it part of a name or a detail.
fn is_detail_before(word: &str) -> bool {
    word == "#" || COUNT_WORDS.has_mark(word, "detail-before")
}

/// Verbs after which a number is what the person orders ("I need 6 cartons").
static ORDER_VERBS: LazyLock<MarkedWords> = LazyLock::new(|| ORDER_WORDS.marked_words("order-verb"));

/// A stated count; consumes the number it reads.
pub fn extract(request: &mut Request) -> Option<(u64, usize)> {
    for index in 0..request.len() {
        if request.is_consumed(index) || !request.is_word(index) {
            continue;
        }
        if let Some(found) = count_at(request, index) {
            request.consume(index, index);
            return Some((found, index));
        }
    }
    None
}

/// Whether the token at `index` is a Cyrillic word.
fn is_cyrillic(request: &Request, index: usize) -> bool {
    request.word(index).chars().next().is_some_and(|character| ('\u{0400}'..='\u{04FF}').contains(&character))
}

/// The count a number (or a number word) at `index` says, if it says one:
/// "2 pairs", "a pair of", "x2", "buy two", "две футболки". The steps run in
/// order, and the first that decides (a count, or no count) answers.
fn count_at(request: &Request, index: usize) -> Option<u64> {
    if let Some(decided) = one_pair_or_dozen(request, index) {
        return decided;
    }
    let word = request.word(index);
    if let Some(times) = word.strip_prefix(['x', '×']).or_else(|| word.strip_suffix(['x', '×'])) {
        return times_count(request, index, times);
    }
    let before = request.word_before(index, 1);
    let value = count(word)?;
    // Nobody orders 1992 of a thing; such numbers are years or part numbers.
    if value == 0 || value > MAX_COUNT || is_detail_before(before) {
        return None;
    }
    if let Some(decided) = packs_and_deals(request, index, value) {
        return decided;
    }
    if !request.is_word(index + 1) || !request.same_clause(index, index + 1) {
        return None;
    }
    count_before_noun(request, index, value)
}

/// Words that say a count themselves: "a pair of", "пару", "a single can",
/// "a dozen eggs". `Some(answer)` when they decide.
fn one_pair_or_dozen(request: &Request, index: usize) -> Option<Option<u64>> {
    let word = request.word(index);
    let next = request.word(index + 1);
    let before = request.word_before(index, 1);
    // "a pair of shoes", "one pair", "пара кроссовок".
    if word == "pair" && matches!(before, "a" | "one") && next == "of" {
        return Some(Some(1));
    }
    // "a sturdy pair of gloves", "a new pair of jeans": one word between.
    if word == "pair"
        && next == "of"
        && matches!(request.word_before(index, 2), "a" | "one")
        && request.is_word(index - 1)
        && count(before).is_none()
    {
        return Some(Some(1));
    }
    if matches!(word, "пара" | "пару") && request.is_word(index + 1) && request.same_clause(index, index + 1) {
        // "пару штук" counts pieces: two of them, not one pair.
        return Some(Some(if matches!(next, "штук" | "штуки" | "шт") { 2 } else { 1 }));
    }
    // "a single can of Wilson" (but "a single pack" is a pack size).
    if word == "single" && before == "a" && COUNT_WORDS.has_mark(next, "single-container") {
        return Some(Some(1));
    }
    // "a dozen eggs".
    if word == "dozen" && matches!(before, "a" | "one") && request.is_word(index + 1) && !is_not_counted(next) {
        return Some(Some(12));
    }
    None
}

/// "x2", "2x" (not "2x large", "2xl", "size 3x", "18 x24"): `times` is the
/// number beside the x.
fn times_count(request: &Request, index: usize, times: &str) -> Option<u64> {
    let next = request.word(index + 1);
    let before = request.word_before(index, 1);
    let word = request.word(index);
    let letter_size = COUNT_WORDS.has_mark(next, "letter-size-after");
    // "size 3x", "4x bigger", "10x zoom": a size or a factor, not a count.
    let factor = is_detail_before(before) || COUNT_WORDS.has_mark(next, "factor-after");
    // "3x optical zoom", "a 60x 50 throw": "Nx" is a count only before
    // the product or at the end of its phrase ("2x hdmi cables" reads
    // "hdmi" as part of it, so the noun may come within three words).
    let suffix_form = word.strip_suffix(['x', '×']).is_some();
    // "18 x24", "50”x60”": the second side of a dimension.
    let dimension = !suffix_form
        && (super::text::is_numeral(before)
            || (super::text::is_inch_mark(before) && super::text::is_numeral(request.word_before(index, 2))));
    if dimension {
        return None;
    }
    let product_follows = !request.is_word(index + 1)
        || (index + 1..index + 4)
            .any(|at| request.same_clause(index, at) && super::noun::is_product_noun(request.word(at)))
            && !request.word(index + 1).starts_with(|character: char| character.is_ascii_digit());
    if factor || (suffix_form && !product_follows) {
        return None;
    }
    count(times)
        .filter(|value| *value > 0 && *value <= MAX_COUNT && times.bytes().all(|byte| byte.is_ascii_digit()))
        .filter(|_| !letter_size)
}

/// What the words next to a number say of packs, containers, deals and
/// bigger numbers: "2 packs of" counts, "a box of 12 pens" and "buy 1 take
/// 1" do not. `Some(answer)` when they decide.
fn packs_and_deals(request: &Request, index: usize, value: u64) -> Option<Option<u64>> {
    let word = request.word(index);
    let next = request.word(index + 1);
    let before = request.word_before(index, 1);
    // "1 case of 20 units", "a box of 12 pens": what one container holds.
    if before == "of" && COUNT_WORDS.has_mark(request.word_before(index, 2), "container-of") {
        return Some(None);
    }
    // "get me one that's peppermint scented": a pronoun.
    if word == "one" && COUNT_WORDS.has_mark(next, "pronoun-after-one") {
        return Some(None);
    }
    // "buy 1 take 1", "buy 2 get 1": a deal's name, not how many.
    let deal = (before == "buy" && matches!(next, "take" | "get") && count(request.word(index + 2)).is_some())
        || (matches!(before, "take" | "get") && request.word_before(index, 3) == "buy");
    if deal {
        return Some(None);
    }
    // "one hundred and eight inch": the start of a bigger number.
    if NUMBERS.has_mark(next, "bigger-number") {
        return Some(None);
    }
    // "one pack of olive oil", "2 packs of": packs counted (but "3 pack"
    // and "a 6 pack of cookies" are pack sizes).
    // A number above one before "pack" in the singular is the pack's size:
    // "6 pack of snack mix" is a six-pack.
    let counted_packs = next == "packs" || (next == "pack" && value == 1);
    if counted_packs && request.word(index + 2) == "of" && !matches!(before, "a" | "an") {
        return Some(Some(value));
    }
    if next == "pack" && request.word(index + 2) == "of" {
        return Some(None);
    }
    // A pack size: "pack of two", "set of 100", "a 6 pack", "a two pack".
    if request.preceded_by(index, 2, &[&["pack", "of"], &["set", "of"], &["packs", "of"], &["по"]])
        || (matches!(before, "a" | "an") && (next.starts_with("pack") || next.ends_with("-pack")))
    {
        return Some(None);
    }
    // "two of them": a count without a noun.
    if next == "of" && COUNT_WORDS.has_mark(request.word(index + 2), "of-them") {
        return Some(Some(value));
    }
    // "12 cases of nitrile gloves", "3 crates of apples": containers counted
    // ("case" alone is as often a phone case, so only before "of").
    if COUNT_WORDS.has_mark(next, "containers-of") && request.word(index + 2) == "of" {
        return Some(Some(value));
    }
    None
}

/// A number before a noun in its clause: a count when the noun is counted
/// ("6 cans", "две футболки", "three pillows") or the number is the order
/// itself ("buy 2 Wilson"); not when it says how the item is built ("a 3
/// tier shelf") or is a pronoun ("the blue one").
fn count_before_noun(request: &Request, index: usize, value: u64) -> Option<u64> {
    let word = request.word(index);
    let next = request.word(index + 1);
    let before = request.word_before(index, 1);
    // "Two Pegasus 41", "buy 2 Wilson": a brand or model a rule has claimed
    // follows an order verb or opens the request.
    // A colour a rule has claimed is not a product ("150 white … screen").
    let names_product = request.is_consumed(index + 1) && !super::colour::is_colour(next);
    // "a 30 pair pack", "a 12 roll bundle": the noun in the singular before
    // "pack" says what the pack holds, not how many packs.
    if is_counting_noun(next) && !next.ends_with('s') && COUNT_WORDS.has_mark(request.word(index + 2), "pack-of-nouns")
    {
        return None;
    }
    if is_counting_noun(next) && !names_product {
        // "a 2 pack" was handled; "the 6 cans" is still a count.
        if next == "dozen" {
            return value.checked_mul(12);
        }
        return Some(value);
    }
    if is_not_counted(next) || matches!(before, "a" | "an") {
        return None;
    }
    // "one" is also a pronoun ("the blue one", "one white one black" are lines).
    if number_word(word) == Some(1) && super::colour::is_colour(next) {
        return None;
    }
    let is_number_word = number_word(word).is_some();
    // Russian number words count whatever noun follows: "две футболки".
    if is_number_word && !names_product && is_cyrillic(request, index) && is_cyrillic(request, index + 1) {
        return Some(value);
    }
    // "three cans", "two pillows": an English number word before a plural.
    if is_number_word && !names_product && value > 1 && next.len() > 3 && next.ends_with('s') && !next.ends_with("ss") {
        return Some(value);
    }
    // "I need 6 cartons", "buy 2 Wilson", "Two Pegasus 41": the order itself.
    let first_word = (0..index).all(|at| !request.is_word(at) || matches!(request.word(at), "please" | "pls"));
    let after_verb = ORDER_VERBS.contains(&before)
        || (matches!(before, "me" | "us" | "мне") && ORDER_VERBS.contains(&request.word_before(index, 2)));
    // "I want one that is fleece lined": "one" before a function word is a pronoun.
    let pronoun = COUNT_WORDS.has_mark(next, "pronoun-after-one-word");
    let looking_for = before != "for" || request.preceded_by(index, 3, &[&["looking"], &["searching"]]);
    // "i want 3 tier shelf", "a 2 seater": a number before a singular noun
    // says how the item is built, not how many; a count names a plural, a
    // name the catalog knows, or (Russian) any noun.
    let counted_noun = value == 1
        || names_product
        || (next.ends_with('s') && !next.ends_with("ss"))
        || is_cyrillic(request, index + 1);
    if !counted_noun {
        return None;
    }
    if (first_word || after_verb) && !pronoun && looking_for {
        return Some(value);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quantity(text: &str) -> Option<u64> {
        extract(&mut Request::new(text)).map(|(value, _)| value)
    }

    #[test]
    fn counts_in_the_persons_units() {
        assert_eq!(quantity("two cans of Penn"), Some(2));
        assert_eq!(quantity("3 packs of balls"), Some(3));
        assert_eq!(quantity("a pair of shoes"), Some(1));
        assert_eq!(quantity("пара кроссовок"), Some(1));
        assert_eq!(quantity("I am in want of a sturdy pair of gardening gloves"), Some(1));
        assert_eq!(quantity("Restaurant order: 12 cases of nitrile gloves, size large"), Some(12));
        assert_eq!(quantity("a phone case, 2 cases would be nice"), None);
        assert_eq!(quantity("подушки 50 на 70, возьму пару штук"), Some(2));
        assert_eq!(quantity("две банки мячей"), Some(2));
        assert_eq!(quantity("6 пакетов молока"), Some(6));
        assert_eq!(quantity("a single can of Wilson"), Some(1));
        assert_eq!(quantity("super crema beans, two of them"), Some(2));
        assert_eq!(quantity("JBL Tune 510BT x2"), Some(2));
        // The second side of a dimension is not a count.
        assert_eq!(quantity("i would like a 18 x24 nero black mirror"), None);
        assert_eq!(quantity("a fleece throw for a couch which is 50”x60” in size"), None);
        assert_eq!(quantity("a dozen eggs"), Some(12));
        assert_eq!(quantity("Head & Shoulders 400 мл, 3 шт"), Some(3));
        assert_eq!(quantity("i want 1 solawave renew complex serum"), Some(1));
        assert_eq!(quantity("looking for one coloring beard"), Some(1));
        assert_eq!(quantity("Two shorts, medium"), Some(2));
        assert_eq!(quantity("I need 6 cartons of oat milk"), Some(6));
        assert_eq!(quantity("четыре футболки"), Some(4));
        assert_eq!(quantity("three pillows for the guest room"), Some(3));
        assert_eq!(quantity("pls find one pack of Colavita olive oil"), Some(1));
    }

    #[test]
    fn a_bare_number_is_never_a_count() {
        assert_eq!(quantity("iPhone 15 Pro case"), None);
        assert_eq!(quantity("costs over 98 pesos"), None);
        assert_eq!(quantity("kit 3 machine washable boxer panties"), None);
        assert_eq!(quantity("a 12 power amplifier"), None);
        assert_eq!(quantity("i am looking for 40 feet high speed cables"), None);
        assert_eq!(quantity("a 32 ct variety pack"), None);
        assert_eq!(quantity("Find shops offering at least three items"), None);
        assert_eq!(quantity("a desktop fan with 6 blades"), None);
        assert_eq!(quantity("also choose three beet flavor one"), None);
        assert_eq!(quantity("vanilla syrup, 25.4 fl oz pack 4"), None);
        assert_eq!(quantity("samsung galaxy smartphone with 256 gb memory and 3x optical zoom"), None);
        assert_eq!(quantity("i am looking for a 60x 50 super soft throws"), None);
        assert_eq!(quantity("2x hdmi cables"), Some(2));
        assert_eq!(quantity("the vanity light, 2x"), Some(2));
        // Neither the 20 a case holds nor "1 case" ("case" is also a phone
        // case's word, so no counting noun): the phrase stays a requirement.
        assert_eq!(quantity("non gmo seaweed snacks. 1 case of 20 units"), None);
        assert_eq!(quantity("a box of 12 pens"), None);
    }

    #[test]
    fn pack_sizes_pronouns_and_other_numbers_are_not_counts() {
        assert_eq!(quantity("a 6 pack of cookie assortments"), None);
        assert_eq!(quantity("a two pack of lip balm"), None);
        assert_eq!(quantity("a 30 pair pack of eye masks"), None);
        assert_eq!(quantity("one hundred and eight inch brown curtains"), None);
        assert_eq!(quantity("packaged rice that has 8 packs"), None);
        assert_eq!(quantity("64gb buy 1 take 1 deal"), None);
        assert_eq!(quantity("i am looking for 6 pack of size 6 ounce snack mix"), None);
        assert_eq!(quantity("body wash. get me one thats peppermint scented"), None);
        assert_eq!(quantity("I want to buy 2 cans"), Some(2));
        assert_eq!(quantity("2 pairs of socks"), Some(2));
        assert_eq!(quantity("comes in a pack of two"), None);
        assert_eq!(quantity("a two piece swimsuit"), None);
        assert_eq!(quantity("a black one for my husband"), None);
        assert_eq!(quantity("I'm a 5.0 player"), None);
        assert_eq!(quantity("a Moleskine notebook"), None);
        assert_eq!(quantity("cupcake picks with a 1992 theme"), None);
        assert_eq!(quantity("a bedspread set with 2 pillow shams"), None);
        assert_eq!(quantity("spf 15 sunscreen"), None);
        assert_eq!(quantity("3 pack with sweet kick mustard flavor"), None);
        assert_eq!(quantity("a single pack of 8 ounce dried cherries"), None);
        assert_eq!(quantity("i want one that is fleece lined"), None);
        assert_eq!(quantity("i want 3 tier shelf for my kitchen"), None);
        assert_eq!(quantity("i need 2 seater sofa"), None);
        assert_eq!(quantity("i want 2 bananas"), Some(2));
    }
}
