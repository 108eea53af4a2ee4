//! A measure a requirement states ("1000ml", "27 cm", "0.3mm") said by an
//! item in another metric unit of its dimension ("1 Liter") or as a bare
//! number under an attribute whose name says what it measures ("Volume:
//! 1000", "Cookware diameter (cm): 27", "Thickness: 0.3"), for the *met*
//! half of the item check (issue 28 §4). Marketplaces split a measure into a
//! name and a number; reading only the same number beside the same unit
//! asked the person about what the item plainly says.
//!
//! Conversions are data (`extractors/words/measures.txt`), metric only, so
//! that no rounded imperial figure ("9 Inches" for 23 cm) is read as equal.

use super::class::{MEASURES, UNITS};

/// A number and its unit, the unit by its one spelling (`units.txt`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Measure {
    amount: f64,
    unit: &'static str,
}

/// The measure two folded words state: a number and a unit ("27", "cm").
pub(super) fn measure(number_word: &str, unit_word: &str) -> Option<Measure> {
    let amount = number(number_word)?;
    let unit = UNITS.value(unit_word)?;
    // "4G" is a network generation, not four grams (units.txt).
    if unit == "g" && amount < 10.0 {
        return None;
    }
    Some(Measure { amount, unit })
}

/// Whether an attribute states `wanted` as a bare number: its value is one
/// number, and its name's folded words hold a unit ("Cookware diameter
/// (cm)": the number's) or a word of the wanted unit's dimension ("Volume":
/// the number is in the wanted unit).
pub(super) fn named(wanted: Measure, name: &[&str], value: &[&str]) -> bool {
    let [only] = value else { return false };
    let Some(amount) = number(only) else { return false };
    name_unit(wanted, name).is_some_and(|unit| same(Measure { amount, unit }, wanted))
}

/// The unit an attribute's name gives its bare numbers, for a measure
/// `wanted`: a unit in the name, whatever else the name says ("Cookware
/// diameter (cm)"); else the wanted unit, where a word of the name says
/// what of its dimension it measures ("Volume"); else none.
fn name_unit(wanted: Measure, name: &[&str]) -> Option<&'static str> {
    if let Some(unit) = name.iter().find_map(|word| UNITS.value(word)) {
        return Some(unit);
    }
    name.iter()
        .any(|word| {
            MEASURES.has_mark(word, "name")
                && MEASURES.value(word).is_some_and(|base| base_of(wanted.unit) == Some(base))
        })
        .then_some(wanted.unit)
}

/// Two measures are the same: the same number in the same unit, or the
/// same amount of one base unit (1 l and 1000 ml).
pub(super) fn same(one: Measure, other: Measure) -> bool {
    if one.unit == other.unit {
        return close(one.amount, other.amount);
    }
    match (scale(one.unit), scale(other.unit)) {
        (Some((first, base)), Some((second, other_base))) if base == other_base => {
            close(one.amount * first, other.amount * second)
        }
        _ => false,
    }
}

/// Whether a range holds a measure: `low` and `high` of its dimension, the
/// measure between them, bounds included ("2 years" within "6months-4yrs",
/// "500 w" within "1-500 w").
pub(super) fn within(wanted: Measure, low: Measure, high: Measure) -> bool {
    let (Some(wanted), Some(low), Some(high)) = (in_base(wanted), in_base(low), in_base(high)) else {
        return false;
    };
    wanted.1 == low.1 && wanted.1 == high.1 && low.0 < high.0 && low.0 <= wanted.0 && wanted.0 <= high.0
}

/// A measure as an amount of its dimension's base unit; a unit without a
/// scale is its own base.
fn in_base(measure: Measure) -> Option<(f64, &'static str)> {
    match scale(measure.unit) {
        Some((amount, base)) => Some((measure.amount * amount, base)),
        None => Some((measure.amount, measure.unit)),
    }
}

/// The ranges a text states with a dash, a tilde or "to" between two
/// numbers, the unit after the second and, when given, after the first too
/// ("6months-4yrs old", "100-240V", "3 to 5 years"): the low and the high
/// measure. A slash or a comma lists values, never a range ("8mm/10mm").
pub(super) fn ranges(text: &str) -> Vec<Range> {
    let cut = lexemes(text);
    let lexeme = |at: usize| cut.get(at).map(|(lexeme, _)| lexeme);
    let characters: Vec<char> = text.chars().collect();
    let mut found = Vec::new();
    for at in 0..cut.len() {
        let Some(Lexeme::Number(low)) = lexeme(at) else { continue };
        let (low_unit, dash) = match lexeme(at + 1) {
            Some(Lexeme::Word(word)) => (Some(word.as_str()), at + 2),
            _ => (None, at + 1),
        };
        if lexeme(dash) != Some(&Lexeme::Dash) {
            continue;
        }
        let (Some(Lexeme::Number(high)), Some(Lexeme::Word(high_unit))) = (lexeme(dash + 1), lexeme(dash + 2)) else {
            continue;
        };
        let Some(high) = measure(high, high_unit) else { continue };
        let low = match low_unit {
            Some(unit) => measure(low, unit),
            None => number(low).map(|amount| Measure { amount, unit: high.unit }),
        };
        if let Some(low) = low {
            let said = characters[cut[at].1.start..cut[dash + 2].1.end].iter().collect();
            found.push(Range { low, high, said });
        }
    }
    found
}

/// A range a text states, and its words as written ("6months-4yrs").
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Range {
    pub low: Measure,
    pub high: Measure,
    pub said: String,
}

/// Whether an attribute states, as a range of bare numbers, one that holds
/// `wanted` ("Power consumption: 1-500" for "500 watts"): its name says what
/// it measures, as for [`named`], and its value is "A-B" and nothing else.
pub(super) fn named_range(wanted: Measure, name: &[&str], value: &str) -> bool {
    let lexemes: Vec<Lexeme> = lexemes(value).into_iter().map(|(lexeme, _)| lexeme).collect();
    let [Lexeme::Number(low), Lexeme::Dash, Lexeme::Number(high)] = lexemes.as_slice() else {
        return false;
    };
    let (Some(low), Some(high)) = (number(low), number(high)) else { return false };
    name_unit(wanted, name)
        .is_some_and(|unit| within(wanted, Measure { amount: low, unit }, Measure { amount: high, unit }))
}

/// A text cut for [`ranges`]: numbers, words (folded), the marks of a range.
#[derive(Debug, PartialEq)]
enum Lexeme {
    Number(String),
    Word(String),
    Dash,
    Other,
}

/// Each lexeme with the characters it spans.
fn lexemes(text: &str) -> Vec<(Lexeme, std::ops::Range<usize>)> {
    let characters: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut at = 0;
    while at < characters.len() {
        let character = characters[at];
        let start = at;
        if character.is_ascii_digit() {
            while at < characters.len()
                && (characters[at].is_ascii_digit()
                    || (matches!(characters[at], '.' | ',')
                        && characters.get(at + 1).is_some_and(char::is_ascii_digit)))
            {
                at += 1;
            }
            let digits = characters[start..at].iter().map(|&c| if c == ',' { '.' } else { c }).collect();
            out.push((Lexeme::Number(digits), start..at));
            continue;
        }
        if character.is_alphabetic() {
            while at < characters.len() && characters[at].is_alphabetic() {
                at += 1;
            }
            let word: String = characters[start..at].iter().collect::<String>().to_lowercase();
            out.push((if word == "to" { Lexeme::Dash } else { Lexeme::Word(word) }, start..at));
            continue;
        }
        at += 1;
        match character {
            '-' | '–' | '—' | '~' => out.push((Lexeme::Dash, start..at)),
            _ if character.is_whitespace() => {}
            _ => out.push((Lexeme::Other, start..at)),
        }
    }
    out
}

/// Whether a folded word names what a measure is of ("length", "width"):
/// said with a value ("short length", "length 10m"), never a product.
pub fn names_a_measure(word: &str) -> bool {
    MEASURES.has_mark(word, "name")
}

/// Whether `word`, right after a measure and before `next` (the folded word
/// after it, "" at the end), says what the measure is of and so goes with
/// it ("300 meters long", "512GB storage"): an `@after` word of
/// measures.txt, and one marked `@last` only where no word of another
/// phrase follows ("40 feet high speed", "a 2-pack long lasting" are not).
pub fn of_measure(word: &str, next: &str) -> bool {
    MEASURES.has_mark(word, "after")
        && (!MEASURES.has_mark(word, "last")
            || !next.chars().any(char::is_alphanumeric)
            || matches!(next, "and" | "or" | "и" | "или")
            || super::class::ATTACHING_WORDS.has_mark(next, "chunk"))
}

/// Equal up to the rounding of a decimal conversion (0.3 cm is 3 mm).
fn close(one: f64, other: f64) -> bool {
    (one - other).abs() <= 1e-9 * one.abs().max(other.abs()).max(1.0)
}

/// How much of its dimension's base unit a unit is, and that base.
fn scale(unit: &str) -> Option<(f64, &'static str)> {
    if !MEASURES.has_mark(unit, "scale") {
        return None;
    }
    let (amount, base) = MEASURES.value(unit)?.split_once(' ')?;
    Some((amount.parse().ok()?, base))
}

/// The base unit of a unit's dimension.
fn base_of(unit: &str) -> Option<&'static str> {
    scale(unit).map(|(_, base)| base)
}

/// A folded token that is a number ("27", "0.3").
fn number(folded: &str) -> Option<f64> {
    let digits = folded.chars().all(|character| character.is_ascii_digit() || character == '.');
    if !digits || !folded.starts_with(|character: char| character.is_ascii_digit()) {
        return None;
    }
    folded.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measured(text: &str) -> Measure {
        let (number, unit) = text.split_once(' ').expect("number and unit");
        measure(number, unit).expect("a measure")
    }

    #[test]
    fn every_scaled_unit_is_a_unit_with_a_base_of_its_own_dimension() {
        for (unit, _) in MEASURES.marked("scale") {
            assert_eq!(UNITS.value(unit), Some(unit), "{unit} is not a unit's one spelling");
            let base = base_of(unit).expect("a scale reads as an amount and a base");
            assert_eq!(scale(base).map(|(amount, _)| amount), Some(1.0), "{unit}: base {base}");
        }
        for (word, base) in MEASURES.marked("name") {
            assert!(scale(base).is_some(), "{word} names an unknown base {base}");
        }
    }

    #[test]
    fn a_measure_is_the_same_in_another_metric_unit_of_its_dimension() {
        assert!(same(measured("1000 ml"), measured("1 liter")));
        assert!(same(measured("5 mm"), measured("0.5 cm")));
        assert!(same(measured("3 мм"), measured("0.3 см")));
        assert!(!same(measured("1000 ml"), measured("1.5 l")));
        assert!(!same(measured("1000 ml"), measured("1000 g")), "another dimension");
        assert!(!same(measured("23 cm"), measured("9 inches")), "imperial units are not converted");
        assert_eq!(measure("4", "g"), None, "a network generation");
    }

    #[test]
    fn a_range_holds_the_measures_between_its_ends() {
        let held =
            |wanted: &str, text: &str| ranges(text).iter().any(|range| within(measured(wanted), range.low, range.high));
        assert!(held("2 years", "Halloween costume dress 6months-4yrs old"));
        assert!(held("18 months", "Halloween costume dress 6months-4yrs old"));
        assert!(held("110 v", "Charger 100-240V"));
        assert!(held("4 years", "for kids 3 to 5 years"));
        assert!(held("240 v", "Input 100~240V"), "the ends are in the range");
        assert!(!held("5 years", "Halloween costume dress 6months-4yrs old"));
        assert_eq!(ranges("Halloween costume dress 6months-4yrs old")[0].said, "6months-4yrs");
        assert!(!held("10 mm", "Hex Socket Head 8mm/10mm/12mm"), "a list of values is no range");
        assert!(!held("250 ml", "100 ml 500 ml"), "no mark between the numbers");
        assert!(!held("2 kg", "1-3 l"), "another dimension");
        assert!(named_range(measured("500 w"), &["power", "consumption"], "1-500"));
        assert!(named_range(measured("20 w"), &["power", "consumption"], "1-500"));
        assert!(!named_range(measured("600 w"), &["power", "consumption"], "1-500"));
        assert!(!named_range(measured("500 mah"), &["power", "consumption"], "1-500"), "a charge is not a power");
        assert!(!named_range(measured("500 w"), &["power", "consumption"], "1-500 per pack"), "not a bare range");
    }

    #[test]
    fn a_bare_number_is_a_measure_under_a_name_that_says_what_it_measures() {
        assert!(named(measured("1000 ml"), &["volume"], &["1000"]));
        assert!(named(measured("27 cm"), &["cookware", "diameter", "cm"], &["27"]));
        assert!(named(measured("0.3 mm"), &["thickness"], &["0.3"]));
        assert!(!named(measured("1000 ml"), &["weight"], &["1000"]), "a weight is not a volume");
        assert!(!named(measured("27 cm"), &["cookware", "diameter", "inch"], &["27"]));
        assert!(!named(measured("1 kg"), &["volume"], &["1"]));
        assert!(!named(measured("1000 ml"), &["volume"], &["1000", "ml", "bottle"]), "not a bare number");
        // Power, charge and memory, as marketplaces name them.
        assert!(named(measured("10 w"), &["power", "consumption"], &["10"]));
        assert!(named(measured("30 mah"), &["battery", "capacity"], &["30"]));
        assert!(named(measured("16 gb"), &["ram"], &["16"]));
        assert!(!named(measured("10 w"), &["battery", "capacity"], &["10"]), "a charge is not a power");
    }
}
