//! Whether an item's own words plainly contradict a free-text requirement
//! (issue 28 §4, the *contradicted* half): the item states the same
//! property with another value. Precision first: three narrow readings, and
//! anything else is not a contradiction (the caller keeps the question).
//!
//! - **A measure**: the requirement states a number with a unit ("10000mAh",
//!   "65 W", "50 ml") and the item states that unit only with other numbers
//!   ("20000mAh"). A requirement with a bound, a range or a "for" beside a
//!   measure ("up to 5kg", "between 1 and 68", "for a 40mm watch") is not
//!   read; an
//!   item's bounds and ranges ("under 25 mm", "160cm - 300cm") state no
//!   value; a multiplier states both factors and their product ("2x50ml",
//!   "170*180cm"); units are never converted.
//! - **A material**: the requirement names only a material ("made of
//!   leather", "из натуральной кожи") and an attribute whose name says it
//!   holds the item's material ("Material", "Belt material", "Состав", not
//!   "Lining material") names only materials that are not it, nor a kind of
//!   it, nor a kind it is of (`extractors/words/materials.txt`).
//! - **A negation**: the requirement excludes a thing ("paraben-free", "no
//!   plastic", "без сахара") and an ingredients or material attribute lists
//!   it as an entry of its own ("Ingredients: …, Methylparaben, …"); an
//!   entry of several words ("Cetearyl Alcohol" for "alcohol-free") is not
//!   read as the thing.
//!
//! An item whose other words say the asked value (a title "Leather Belt"
//! over "Material: canvas") contradicts itself: that is not a plain
//! contradiction, and the reading is unknown. The caller reads *met* first.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use super::class::{MATERIALS, PROPERTIES, UNITS};
use super::requirement::{
    ItemTexts, PreparedTexts, Requirement, Token, is_negation, requirement_words, same_word, tokens,
};

/// What the item says against a requirement: the requirement's words that
/// it contradicts, and the item's words, quoted as the item spells them
/// ("Material: canvas", "20000mAh").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contradiction {
    pub asked: String,
    pub item_says: String,
}

/// The first plain contradiction of `requirement` by the item, if any.
pub fn contradicted(requirement: &str, item: &ItemTexts) -> Option<Contradiction> {
    contradicted_in(requirement, &PreparedTexts::new(item.clone()))
}

/// [`contradicted`], on an item's texts tokenised once ([`PreparedTexts`]).
pub fn contradicted_in(requirement: &str, item: &PreparedTexts) -> Option<Contradiction> {
    contradicted_prepared(&Requirement::new(requirement), item)
}

/// [`contradicted`], the requirement and the item's texts each tokenised
/// once ([`Requirement`], [`PreparedTexts`]): what the checks call.
pub fn contradicted_prepared(requirement: &Requirement, item: &PreparedTexts) -> Option<Contradiction> {
    let wanted = requirement.tokens();
    if wanted.iter().any(|token| is_negation(&token.folded)) {
        return listed(wanted, item);
    }
    measure(requirement.text(), item.texts()).or_else(|| material(wanted, item))
}

// ---------------------------------------------------------------- measures

/// A number with a unit in a text: the number normalised ("1,5" and "1.50"
/// are "1.5"), the unit as `units.txt` reads it, where it is written, and
/// whether it is a bound or an end of a range rather than a value.
#[derive(Debug, Clone, PartialEq)]
struct Measure {
    numbers: Vec<String>,
    unit: String,
    start: usize,
    end: usize,
    bound: bool,
}

fn measure(requirement: &str, item: &ItemTexts) -> Option<Contradiction> {
    let asked = measures(requirement);
    // A bound, a range or another thing's measure anywhere in the
    // requirement, or a word that makes one within three words before a
    // measure or two after ("up to 5kg", "5kg or more", "for a 40mm watch";
    // not "cat food in 1kg size for urinary health"), and it is not read.
    let near = |measure: &Measure| {
        let before = tokens(&requirement[..measure.start]);
        let after = tokens(&requirement[measure.end..]);
        before
            .iter()
            .rev()
            .take(3)
            .chain(after.iter().take(2))
            .any(|token| requirement_words().not_a_value.contains(&token.folded))
    };
    if asked.iter().any(|measure| measure.bound || near(measure)) {
        return None;
    }
    let units: BTreeSet<&str> = asked.iter().map(|measure| measure.unit.as_str()).collect();
    for unit in units {
        let numbers: BTreeSet<&str> = asked
            .iter()
            .filter(|measure| measure.unit == unit)
            .flat_map(|measure| measure.numbers.iter().map(String::as_str))
            .collect();
        let mut against: Option<String> = None;
        for (name, text) in item.values() {
            for found in item_measures(name, text).into_iter().filter(|found| found.unit == unit) {
                if found.numbers.iter().any(|number| numbers.contains(number.as_str())) {
                    // The item says the asked number somewhere: not a plain contradiction.
                    return None;
                }
                if !found.bound && against.is_none() {
                    let written = &text[found.start..found.end];
                    against = Some(name.map_or_else(|| written.to_owned(), |name| format!("{name}: {text}")));
                }
            }
        }
        if let Some(item_says) = against {
            let asked_words = asked
                .iter()
                .filter(|measure| measure.unit == unit)
                .map(|measure| requirement[measure.start..measure.end].to_owned())
                .collect::<Vec<_>>()
                .join(", ");
            return Some(Contradiction { asked: asked_words, item_says });
        }
    }
    None
}

/// The measures of an item's text: those it writes, and for a value that
/// is a bare number, the unit its attribute's name gives ("Megapixels: 3",
/// "Diameter (cm): 27").
fn item_measures(name: Option<&str>, text: &str) -> Vec<Measure> {
    let mut found = measures(text);
    let bare = text.trim();
    if let Some(name) = name
        && !bare.is_empty()
        && bare.chars().all(|character| character.is_ascii_digit() || character == '.')
        && let Some(unit) = tokens(name).iter().find_map(|token| UNITS.value(&token.folded))
    {
        let (number, _) = read_number(&bare.char_indices().collect::<Vec<_>>(), 0);
        let start = text.len() - text.trim_start().len();
        found.push(Measure {
            numbers: vec![number],
            unit: unit.to_owned(),
            start,
            end: start + bare.len(),
            bound: false,
        });
    }
    found
}

/// The measures of a text, left to right.
fn measures(text: &str) -> Vec<Measure> {
    let characters: Vec<(usize, char)> = text.char_indices().collect();
    let at = |index: usize| characters.get(index).map(|(_, character)| *character);
    let offset = |index: usize| characters.get(index).map_or(text.len(), |(offset, _)| *offset);
    let is_multiplier = |character: char| matches!(character, 'x' | 'X' | '×' | '*' | 'х' | 'Х');
    let is_range = |character: char| matches!(character, '-' | '–' | '—' | '~' | '<' | '>' | '≤' | '≥');
    let skip_spaces_back = |mut index: usize| {
        while index > 0 && at(index - 1).is_some_and(char::is_whitespace) {
            index -= 1;
        }
        index
    };
    let mut out = Vec::new();
    let mut index = 0;
    while index < characters.len() {
        let Some(character) = at(index) else { break };
        let glued = index > 0 && at(index - 1).is_some_and(|before| before.is_alphanumeric() && !is_multiplier(before));
        let after_multiplier = index > 0
            && at(index - 1).is_some_and(is_multiplier)
            && (index < 2 || at(index - 2).is_some_and(|before| before.is_ascii_digit() || before.is_whitespace()));
        if !character.is_ascii_digit() || (glued && !after_multiplier) || (index > 0 && at(index - 1) == Some('.')) {
            index += 1;
            continue;
        }
        let start = index;
        let (number, after_number) = read_number(&characters, index);
        index = after_number;
        // One space at most between the number and its unit ("65 W").
        let unit_start =
            if at(index).is_some_and(|space| space == ' ' || space == '\u{a0}') { index + 1 } else { index };
        let mut unit_end = unit_start;
        while at(unit_end).is_some_and(char::is_alphabetic) {
            unit_end += 1;
        }
        if unit_end == unit_start || at(unit_end).is_some_and(|next| next.is_alphanumeric()) {
            continue;
        }
        let spelled: String = characters[unit_start..unit_end].iter().map(|(_, character)| *character).collect();
        let folded = crate::normalize::fold(&spelled).replace('ё', "е");
        let Some(unit) = UNITS.value(&folded) else { continue };
        // "4G" and "5G" are network generations, not grams, and "2023 г" a year.
        let whole = number.parse::<f64>().ok();
        if unit == "g"
            && whole.is_some_and(|value| value < 10.0 || (folded == "г" && (1900.0..=2100.0).contains(&value)))
        {
            continue;
        }
        let mut numbers = vec![number.clone()];
        // A factor before a multiplier ("2x50ml", "170*180cm") is stated too,
        // as is the product.
        let before = skip_spaces_back(start);
        if before > 0 && at(before - 1).is_some_and(is_multiplier) {
            let factor_end = skip_spaces_back(before - 1);
            let mut factor_start = factor_end;
            while factor_start > 0 && at(factor_start - 1).is_some_and(|digit| digit.is_ascii_digit() || digit == '.') {
                factor_start -= 1;
            }
            if factor_start < factor_end {
                let factor: String =
                    characters[factor_start..factor_end].iter().map(|(_, character)| *character).collect();
                if let (Ok(factor), Some(value)) = (factor.parse::<f64>(), whole) {
                    numbers.push(normalise(&factor.to_string()));
                    numbers.push(normalise(&(factor * value).to_string()));
                }
            }
        }
        // A "+" after it ("5000mAh+") makes it a bound; a "/" before it the
        // denominator of a fraction ("3/8 inch"), which is no value read here.
        let mut bound = at(unit_end) == Some('+')
            || (start > 1 && at(start - 1) == Some('/') && at(start - 2).is_some_and(|digit| digit.is_ascii_digit()));
        // A range: a dash or a comparison before the number with something
        // before it ("160cm - 300cm", "<25mm"), or after the unit with a
        // number after it ("10-20W" reads 20W; "10W-20W" reads both).
        if before > 0 && at(before - 1).is_some_and(is_range) {
            bound = true;
        }
        let mut next = unit_end;
        while at(next).is_some_and(char::is_whitespace) {
            next += 1;
        }
        if at(next).is_some_and(is_range) {
            let mut digit = next + 1;
            while at(digit).is_some_and(char::is_whitespace) {
                digit += 1;
            }
            if at(digit).is_some_and(|character| character.is_ascii_digit()) {
                bound = true;
            }
        }
        // A bound word just before it ("under 25 mm", "до 5 кг").
        let word_end = before;
        let mut word_start = word_end;
        while word_start > 0 && at(word_start - 1).is_some_and(char::is_alphabetic) {
            word_start -= 1;
        }
        if word_start < word_end {
            let word: String = characters[word_start..word_end].iter().map(|(_, character)| *character).collect();
            if requirement_words().not_a_value.contains(&crate::normalize::fold(&word)) {
                bound = true;
            }
        }
        out.push(Measure { numbers, unit: unit.to_owned(), start: offset(start), end: offset(unit_end), bound });
        index = unit_end;
    }
    out
}

/// Reads the number starting at `index`: digits with one decimal point or
/// comma ("1.5", "1,5"), a comma before exactly three digits being a
/// thousands separator ("10,000mAh"). Returns it normalised and the index
/// after it.
fn read_number(characters: &[(usize, char)], mut index: usize) -> (String, usize) {
    let at = |index: usize| characters.get(index).map(|(_, character)| *character);
    let mut number = String::new();
    let mut seen_point = false;
    while let Some(character) = at(index) {
        if character.is_ascii_digit() {
            number.push(character);
        } else if character == ',' && at(index + 1).is_some_and(|digit| digit.is_ascii_digit()) {
            let digits = (index + 1..).take_while(|next| at(*next).is_some_and(|digit| digit.is_ascii_digit())).count();
            if digits == 3 && !seen_point {
                // A thousands separator: leave it out.
            } else if seen_point {
                break;
            } else {
                seen_point = true;
                number.push('.');
            }
        } else if character == '.' && !seen_point && at(index + 1).is_some_and(|digit| digit.is_ascii_digit()) {
            seen_point = true;
            number.push('.');
        } else {
            break;
        }
        index += 1;
    }
    (normalise(&number), index)
}

/// A number as compared: no leading zeros, no trailing fractional zeros
/// ("1.0" is "1", "05" is "5").
fn normalise(number: &str) -> String {
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    let whole = whole.trim_start_matches('0');
    let fraction = fraction.trim_end_matches('0');
    let whole = if whole.is_empty() { "0" } else { whole };
    if fraction.is_empty() { whole.to_owned() } else { format!("{whole}.{fraction}") }
}

// --------------------------------------------------------------- materials

/// A material a text names: its value in `materials.txt` and its words as written.
#[derive(Debug, Clone)]
struct Named {
    value: String,
    written: String,
}

fn material(wanted: &[Token], item: &PreparedTexts) -> Option<Contradiction> {
    material_against(&only_materials(wanted)?, item)
}

/// The materials a requirement asks for when it asks only what the item is
/// made of: materials, and `[beside-material]` words around them ("made
/// of genuine leather", "from pure cotton"). `None` for any other
/// requirement, a negated one among them ("not", "без" are no such words).
fn only_materials(wanted: &[Token]) -> Option<Vec<Named>> {
    let (asked, rest) = materials_in(wanted);
    let words = requirement_words();
    (!asked.is_empty() && rest.iter().all(|token| words.beside_material.contains(&token.folded))).then_some(asked)
}

/// The materials a product phrase names before its last word, its head
/// noun ("a plastic colander", "a round wooden coffee table"), read as
/// "made of plastic" would be: contradicted only where the item's material
/// attribute names only other materials and none of its words names the
/// asked one or a kind of it. The last word is never read as a material
/// (the product may be named by one: "a leather" is no request here).
/// A phrase whose material is what the product works on ("glass
/// cleaner", "wood glue") would be read the same way; such a product's
/// material attribute seldom names a material.
pub fn product_material(product: &str, item: &PreparedTexts) -> Option<Contradiction> {
    ProductMaterials::of(product).against(item)
}

/// The materials a product phrase names before its head noun, read once
/// per phrase for [`product_material`].
///
/// Why: line assignment reads each line's product phrase against every
/// item, and cutting the phrase into tokens (Snowball stems included) for
/// each pair cost more than reading the item (issue 28's item check,
/// docs/benchmarks.md). Read once per line (`checks::Target`), it reads
/// every item as [`product_material`] does.
#[derive(Debug, Clone, Default)]
pub struct ProductMaterials {
    asked: Vec<Named>,
}

impl ProductMaterials {
    /// The materials `product` names before its last word.
    pub fn of(product: &str) -> ProductMaterials {
        let words = tokens(product);
        let asked = words.split_last().map(|(_, modifiers)| materials_in(modifiers).0).unwrap_or_default();
        ProductMaterials { asked }
    }

    /// [`product_material`] of the phrase these were read from.
    pub fn against(&self, item: &PreparedTexts) -> Option<Contradiction> {
        if self.asked.is_empty() {
            return None;
        }
        material_against(&self.asked, item)
    }
}

/// The item against materials the person asked for: contradicted when an
/// attribute holding the item's material names only materials that none
/// of the asked ones can be, and no word of the item names one that can.
fn material_against(asked: &[Named], item: &PreparedTexts) -> Option<Contradiction> {
    let compatible_with_asked = |found: &Named| asked.iter().any(|asked| compatible(&asked.value, &found.value));
    // Any word of the item that names the asked material, or a kind of it,
    // and the item does not plainly say otherwise.
    if item.each().any(|(_, words)| materials_of(words).iter().any(compatible_with_asked)) {
        return None;
    }
    item.named().find_map(|((name, name_words), (value, value_words))| {
        if !names_property(name_words, "material") {
            return None;
        }
        let found = materials_of(value_words);
        (!found.is_empty()).then(|| Contradiction {
            asked: asked.iter().map(|named| named.written.as_str()).collect::<Vec<_>>().join(" "),
            item_says: format!("{name}: {value}"),
        })
    })
}

/// The materials among a text's words, longest spelling first (three words
/// at most: "stainless steel", "нержавеющей стали"), and the other words.
fn materials_in(words: &[Token]) -> (Vec<Named>, Vec<Token>) {
    let mut found = Vec::new();
    let mut rest = Vec::new();
    let mut index = 0;
    while index < words.len() {
        match material_at(words, index) {
            Some(named) => {
                index += named.0;
                found.push(named.1);
            }
            None => {
                rest.push(words[index].clone());
                index += 1;
            }
        }
    }
    (found, rest)
}

/// Where the item's words say the material a requirement that asks only
/// what the item is made of names ("from pure cotton" by "Clothing
/// material: 100% cotton", "made of oxford fabric" by "Material: oxford"):
/// each asked material is said by the item, as itself or a kind of it. The
/// met half of [`material`]'s reading, for requirements whose words beside
/// the material ("pure", "genuine", "fabric") the item need not repeat.
pub(super) fn material_said(requirement: &Requirement, item: &PreparedTexts) -> Option<String> {
    let asked = only_materials(requirement.tokens())?;
    let mut quoted: Vec<String> = Vec::new();
    for wanted in &asked {
        let said = item.each().find_map(|(_, words)| {
            materials_of(words)
                .into_iter()
                .find(|found| found.value == wanted.value || kinds(&found.value).contains(&wanted.value))
        })?;
        if !quoted.contains(&said.written) {
            quoted.push(said.written);
        }
    }
    Some(quoted.join(" "))
}

/// The materials of [`materials_in`] alone, the other words not copied:
/// what an item's texts are read for, each of them for every material
/// requirement.
fn materials_of(words: &[Token]) -> Vec<Named> {
    let mut found = Vec::new();
    let mut index = 0;
    while index < words.len() {
        match material_at(words, index) {
            Some((length, named)) => {
                index += length;
                found.push(named);
            }
            None => index += 1,
        }
    }
    found
}

/// The longest material spelling at `index` (three words at most), with
/// its length in words. A word that begins no spelling is passed over
/// without joining runs into strings to look up: every word of every
/// item text comes here for each material requirement (issue 28's item
/// check, docs/benchmarks.md).
fn material_at(words: &[Token], index: usize) -> Option<(usize, Named)> {
    static FIRST_WORDS: LazyLock<BTreeSet<&'static str>> =
        LazyLock::new(|| MATERIALS.spellings().filter_map(|spelling| spelling.split(' ').next()).collect());
    if !FIRST_WORDS.contains(words[index].folded.as_str()) {
        return None;
    }
    (1..=3.min(words.len() - index)).rev().find_map(|length| {
        let run = &words[index..index + length];
        let spelling = run.iter().map(|token| token.folded.as_str()).collect::<Vec<_>>().join(" ");
        MATERIALS.value(&spelling).map(|value| {
            let written = run.iter().map(|token| token.original.as_str()).collect::<Vec<_>>().join(" ");
            (length, Named { value: value.to_owned(), written })
        })
    })
}

/// Whether two materials can both be true of one thing: the same, one a
/// kind of the other (through the marks, `stainless steel` → `steel` →
/// `metal`), or a fibre and a weave (polyester canvas).
fn compatible(first: &str, second: &str) -> bool {
    let is = |material: &str, mark: &str| MATERIALS.has_mark(material, mark);
    first == second
        || kinds(first).contains(second)
        || kinds(second).contains(first)
        || (is(first, "fibre") && is(second, "weave"))
        || (is(first, "weave") && is(second, "fibre"))
}

/// What a material is a kind of, through its marks, transitively.
fn kinds(material: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut frontier = vec![material.to_owned()];
    // The marks form a shallow hierarchy; the bound only stops a cycle a
    // file could write.
    for _ in 0..8 {
        let Some(next) = frontier.pop() else { break };
        for mark in MATERIALS.marks(&next) {
            if !matches!(mark.as_str(), "fibre" | "weave") && seen.insert(mark.clone()) {
                frontier.push(mark.clone());
            }
        }
    }
    seen
}

/// Whether an attribute's name (its `words`) says it holds the item's
/// `property` (`properties.txt`): a word marked with it, and no word naming
/// a part.
fn names_property(words: &[Token], property: &str) -> bool {
    words.iter().any(|token| PROPERTIES.has_mark(&token.folded, property))
        && !words.iter().any(|token| PROPERTIES.has_mark(&token.folded, "part"))
}

// --------------------------------------------------------------- negations

/// A negating requirement ("paraben-free", "without parabens", "no
/// plastic", "без сахара") contradicted by an ingredients or material
/// attribute that lists the excluded thing as one entry.
fn listed(wanted: &[Token], item: &PreparedTexts) -> Option<Contradiction> {
    let words = requirement_words();
    let excluded: Vec<&Token> =
        wanted.iter().filter(|token| !is_negation(&token.folded) && !words.is_filler(&token.folded)).collect();
    if excluded.is_empty() {
        return None;
    }
    item.named().find_map(|((name, name_words), (value, _))| {
        if !names_property(name_words, "ingredients") && !names_property(name_words, "material") {
            return None;
        }
        value.split([',', ';', '(', ')', '/', '|', '•', '\n', '[', ']']).find_map(|entry| {
            // Percentages and amounts are not part of the name ("5% spandex").
            let entry_words: Vec<Token> = tokens(entry)
                .into_iter()
                .filter(|token| !token.folded.chars().any(|character| character.is_ascii_digit()))
                .collect();
            lists(&entry_words, &excluded).then(|| Contradiction {
                asked: excluded.iter().map(|token| token.original.as_str()).collect::<Vec<_>>().join(" "),
                item_says: format!("{name}: {}", entry.trim()),
            })
        })
    })
}

/// Whether one entry of a list is the excluded thing: the same words, or
/// one word ending in the excluded one ("Methylparaben" for "paraben").
fn lists(entry: &[Token], excluded: &[&Token]) -> bool {
    if entry.len() != excluded.len() || entry.is_empty() {
        return false;
    }
    if entry.iter().zip(excluded).all(|(item, asked)| same_inflected(&item.folded, &asked.folded)) {
        return true;
    }
    let [only] = excluded else { return false };
    let singular = only.folded.strip_suffix('s').unwrap_or(&only.folded);
    singular.chars().count() >= 4
        && singular.chars().all(|character| character.is_ascii_alphabetic())
        && (entry[0].folded.ends_with(singular)
            || entry[0].folded.strip_suffix('s').is_some_and(|word| word.ends_with(singular)))
}

/// The same word, insensitive to a plural's ending, or for Russian to an
/// ending of two letters at most on a stem of four ("сахара", "сахар").
fn same_inflected(item: &str, wanted: &str) -> bool {
    if same_word(item, wanted) {
        return true;
    }
    let cyrillic = |word: &str| word.chars().all(|character| ('а'..='я').contains(&character));
    if !cyrillic(item) || !cyrillic(wanted) {
        return false;
    }
    let common = item.chars().zip(wanted.chars()).take_while(|(first, second)| first == second).count();
    common >= 4 && item.chars().count() - common <= 2 && wanted.chars().count() - common <= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item<'a>(free: &[&'a str], named: &[(&'a str, &'a str)]) -> ItemTexts<'a> {
        ItemTexts { free: free.to_vec(), named: named.to_vec() }
    }

    fn says(requirement: &str, item: &ItemTexts) -> Option<String> {
        contradicted(requirement, item).map(|contradiction| contradiction.item_says)
    }

    #[test]
    fn a_material_asked_with_words_beside_it_is_said_by_the_material_or_a_kind_of_it() {
        let said = |requirement: &str, item: &ItemTexts| {
            material_said(&Requirement::new(requirement), &PreparedTexts::new(item.clone()))
        };
        let hat = item(&["Cadet Hat"], &[("Clothing material", "100% cotton")]);
        assert_eq!(said("from pure cotton", &hat).as_deref(), Some("cotton"));
        let case = item(&["Canvas Pencil Case"], &[("Material", "oxford")]);
        assert_eq!(said("made of oxford fabric", &case).as_deref(), Some("oxford Canvas"));
        let jeans = item(&["Straight Jeans"], &[("Material", "denim")]);
        assert_eq!(said("made of cotton", &jeans).as_deref(), Some("denim"), "denim is a cotton cloth");
        assert_eq!(said("made of leather", &case), None);
        assert_eq!(said("leather strap", &hat), None, "about a part, not what the item is made of");
        assert_eq!(said("not cotton", &hat), None);
    }

    #[test]
    fn every_material_value_is_an_entry_and_every_mark_a_material_or_a_kind_of_fabric_word() {
        for spelling in MATERIALS.spellings() {
            let value = MATERIALS.value(spelling).unwrap_or_default();
            assert!(MATERIALS.contains(value), "materials.txt: {spelling} reads as {value}, which is no entry");
            for mark in MATERIALS.marks(value) {
                assert!(
                    MATERIALS.contains(mark) || mark == "fibre" || mark == "weave",
                    "materials.txt: {value} is marked {mark}, which is no material"
                );
            }
        }
    }

    #[test]
    fn the_same_unit_with_only_other_numbers_contradicts() {
        let charger = item(&["USB-C charger 45W"], &[("Output", "45 W")]);
        assert_eq!(says("65W", &charger).as_deref(), Some("45W"));
        let power_bank = item(&["Power bank"], &[("Battery capacity", "20000mAh")]);
        let found = contradicted("10000mAh", &power_bank);
        assert_eq!(
            found,
            Some(Contradiction { asked: "10000mAh".into(), item_says: "Battery capacity: 20000mAh".into() })
        );
        assert_eq!(says("10,000 mAh", &power_bank).as_deref(), Some("Battery capacity: 20000mAh"));
        assert_eq!(says("50 ml", &item(&["Eau de Parfum 100ML"], &[])).as_deref(), Some("100ML"));
        assert_eq!(says("80 pages", &item(&["Notebook, 120 pages"], &[])).as_deref(), Some("120 pages"));
        assert_eq!(says("5kg", &item(&["Dumbbell 2.5 kg"], &[])).as_deref(), Some("2.5 kg"));
        assert_eq!(says("5L", &item(&["Water bottle 1.5L"], &[])).as_deref(), Some("1.5L"));
        assert_eq!(says("1,5 л", &item(&["Бутылка 2 л"], &[])).as_deref(), Some("2 л"));
        // A "for" far from the measure is about something else.
        let food = item(&["Dry Cat Food Urinary 2 kg"], &[]);
        assert_eq!(says("dry cat food in 1kg repacked size for urinary health", &food).as_deref(), Some("2 kg"));
    }

    #[test]
    fn a_bound_a_range_a_multiplier_or_another_unit_is_not_a_contradiction() {
        let dumbbell = item(&["Dumbbell 10kg"], &[]);
        for requirement in ["up to 5kg", "weighing up to 5kg", "at least 5kg", "under 5kg", "over 5kg", "5kg or more"] {
            assert_eq!(says(requirement, &dumbbell), None, "{requirement}");
        }
        assert_eq!(says("between 1 and 68 kg", &dumbbell), None);
        assert_eq!(says("5-8kg", &dumbbell), None);
        assert_eq!(says("5kg+", &dumbbell), None);
        assert_eq!(says("до 5 кг", &item(&["Гантель 10 кг"], &[])), None);
        assert_eq!(says("band for a 40mm watch", &item(&["Watch band 20mm"], &[])), None);
        // The item's bounds and ranges state no value.
        assert_eq!(says("25 mm", &item(&["Watch"], &[("Watch dial size", "under 50 mm")])), None);
        assert_eq!(says("160cm", &item(&["Curtain"], &[("Curtain length", "150cm - 300cm")])), None);
        // A multiplier states both factors and the product.
        assert_eq!(says("100ml", &item(&["Serum 2x50ml"], &[])), None);
        assert_eq!(says("50ml", &item(&["Serum 2 x 50ml"], &[])), None);
        assert_eq!(says("170cm", &item(&["Shower curtain 170*180cm"], &[])), None);
        // Units are not converted, and a unit the item does not state is unknown.
        assert_eq!(says("1kg", &item(&["Cat food 1000 g"], &[])), None);
        assert_eq!(says("65W", &item(&["Charger 20V 3.25A"], &[])), None);
        // A fraction is not read; a bare number takes its attribute's unit.
        assert_eq!(says("3/8 inch", &item(&["Tape 1/2 inch"], &[])), None);
        assert_eq!(says("3MP", &item(&["Camera 4MP"], &[("Megapixels", "3")])), None);
        assert_eq!(says("27 cm", &item(&["Plate"], &[("Diameter (cm)", "30")])).as_deref(), Some("Diameter (cm): 30"));
        // "4G" is a network, and a model number is no measure.
        assert_eq!(says("4G", &item(&["Phone 5G"], &[])), None);
        assert_eq!(says("10W", &item(&["V380 V10 camera"], &[])), None);
    }

    #[test]
    fn another_material_in_the_items_material_attribute_contradicts() {
        let belt = item(&["Tactical belt"], &[("Belt material", "canvas")]);
        assert_eq!(says("made of leather", &belt).as_deref(), Some("Belt material: canvas"));
        assert_eq!(says("genuine leather", &belt).as_deref(), Some("Belt material: canvas"));
        let blouse = item(&["Loose Blouse"], &[("Clothing material", "100% polyester")]);
        assert_eq!(says("100% cotton", &blouse).as_deref(), Some("Clothing material: 100% polyester"));
        let table = item(&["Kids table"], &[("Material", "fabric and metal")]);
        assert_eq!(says("made of plastic", &table).as_deref(), Some("Material: fabric and metal"));
        let bag = item(&["Сумка"], &[("Материал", "текстиль")]);
        assert_eq!(says("из натуральной кожи", &bag).as_deref(), Some("Материал: текстиль"));
        let found = contradicted("crafted from stainless steel", &item(&["Ring"], &[("Material type", "plastic")]));
        assert_eq!(found.map(|found| found.asked).as_deref(), Some("stainless steel"));
    }

    #[test]
    fn a_material_of_a_kind_a_part_paraphrase_or_the_items_own_word_is_not_a_contradiction() {
        // A kind of the asked material, or the material of a kind.
        assert_eq!(says("made of metal", &item(&["Bottle"], &[("Material", "Stainless Steel")])), None);
        assert_eq!(says("made of steel", &item(&["Bottle"], &[("Material", "metal")])), None);
        assert_eq!(says("made of plastic", &item(&["Case"], &[("Material", "PVC")])), None);
        assert_eq!(says("made of fabric", &item(&["Shirt"], &[("Material", "cotton")])), None);
        assert_eq!(says("made of cotton", &item(&["Jeans"], &[("Fabric", "denim")])), None);
        // A fibre and a weave: polyester canvas exists.
        assert_eq!(says("crafted from canvas", &item(&["Tote"], &[("Material", "polyester")])), None);
        // A part's material.
        assert_eq!(says("made of leather", &item(&["Jacket"], &[("Lining material", "polyester")])), None);
        // The requirement says more than a material.
        assert_eq!(says("leather strap", &item(&["Watch"], &[("Material", "stainless steel")])), None);
        assert_eq!(says("in silver", &item(&["Ring"], &[("Material", "plastic")])), None);
        // Paraphrase of another property.
        assert_eq!(says("simple pattern", &item(&["Belt"], &[("Pattern", "plain")])), None);
        assert_eq!(says("relaxed style", &item(&["Belt"], &[("Style", "casual")])), None);
        // The item says the asked material elsewhere: it contradicts itself.
        assert_eq!(says("made of leather", &item(&["MEN LEATHER BELT"], &[("Belt material", "canvas")])), None);
        // No material attribute, or none the class knows.
        assert_eq!(says("made of leather", &item(&["Belt"], &[("Pattern", "plain")])), None);
        assert_eq!(says("made of leather", &item(&["Bag"], &[("Material", "mixed")])), None);
    }

    #[test]
    fn a_material_before_a_products_head_is_read_against_its_material_attribute() {
        let product = |phrase: &str, item: &ItemTexts| {
            product_material(phrase, &PreparedTexts::new(item.clone())).map(|found| found.item_says)
        };
        let colander = item(&["Salad Spinner With Bowl Colander"], &[("Material", "metal")]);
        assert_eq!(product("plastic colander", &colander).as_deref(), Some("Material: metal"));
        let table = item(&["Round coffee table"], &[("Material", "plastic"), ("Shape", "round")]);
        assert_eq!(product("round wooden coffee table", &table).as_deref(), Some("Material: plastic"));
        // The same material, a kind of it, or the item's own word for it.
        assert_eq!(product("plastic colander", &item(&["Colander"], &[("Material", "PVC")])), None);
        assert_eq!(product("metal chairs", &item(&["Chairs"], &[("Material", "stainless steel")])), None);
        assert_eq!(product("wooden table", &item(&["Wooden Table"], &[("Material", "metal")])), None);
        // No material attribute, no material before the head, or only the head.
        assert_eq!(product("plastic colander", &item(&["Colander"], &[("Color", "white")])), None);
        assert_eq!(product("coffee table", &table), None);
        assert_eq!(product("leather", &item(&["Belt"], &[("Material", "canvas")])), None);
    }

    #[test]
    fn an_excluded_thing_an_ingredients_attribute_lists_contradicts() {
        let shampoo = item(&["Shampoo"], &[("Ingredients", "Aqua, Sodium Laureth Sulfate, Methylparaben, Parfum")]);
        assert_eq!(says("paraben-free", &shampoo).as_deref(), Some("Ingredients: Methylparaben"));
        assert_eq!(says("without parabens", &shampoo).as_deref(), Some("Ingredients: Methylparaben"));
        let cookies = item(&["Печенье"], &[("Состав", "мука, сахар, масло")]);
        assert_eq!(says("без сахара", &cookies).as_deref(), Some("Состав: сахар"));
        let bottle = item(&["Bottle"], &[("Material", "plastic")]);
        assert_eq!(says("no plastic", &bottle).as_deref(), Some("Material: plastic"));
    }

    #[test]
    fn an_excluded_thing_not_listed_as_an_entry_of_its_own_is_not_a_contradiction() {
        // A fatty alcohol is not the alcohol an "alcohol-free" product leaves out.
        let cream = item(&["Cream"], &[("Ingredients", "Aqua, Cetearyl Alcohol, Glycerin")]);
        assert_eq!(says("alcohol-free", &cream), None);
        // Not an ingredients attribute, or not listed.
        assert_eq!(says("paraben-free", &item(&["Shampoo"], &[("Features", "parabens")])), None);
        assert_eq!(says("sugar-free", &item(&["Cookies"], &[("Ingredients", "flour, butter")])), None);
        // A negated requirement is never read as a material or a measure.
        assert_eq!(says("not leather", &item(&["Belt"], &[("Material", "canvas")])), None);
        assert_eq!(says("no 65W", &item(&["Charger 45W"], &[])), None);
    }
}
