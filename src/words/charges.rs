//! What a person pays beyond the items (issue 29), read from words: whether
//! an item's words say its charge recurs (a subscription, an automatic
//! renewal, a trial that turns paid) and how often; whether a cart line is
//! an add-on (a warranty, a protection plan, insurance, a tip, a donation,
//! gift wrap) rather than a product; and what a request asks about either
//! ("a monthly delivery of …", "with gift wrap", "no extra fees").
//!
//! The phrases are data (`extractors/words/charges.txt`, its marks say which
//! reading takes each); this file holds the rules. Pure, precision first: an
//! add-on is a line whose name *is* the add-on phrase ("2-Year Protection
//! Plan for Footwear"), never a product that has such a word in its name
//! ("SPF 50 Sun Protection Lotion", "Weekly Planner", "Gift Wrap Paper
//! Roll").

use std::collections::BTreeMap;
use std::sync::LazyLock;

use super::class::CHARGES;
use crate::normalize;

/// How often a recurring charge or delivery comes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Period {
    Week,
    Month,
    Quarter,
    Year,
}

impl Period {
    const MARKS: [(&'static str, Period); 4] =
        [("week", Period::Week), ("month", Period::Month), ("quarter", Period::Quarter), ("year", Period::Year)];
}

/// One phrase of the file: its words (a trailing `*` is a stem) and marks.
struct Phrase {
    words: Vec<String>,
    marks: Vec<String>,
}

static PHRASES: LazyLock<Vec<Phrase>> = LazyLock::new(|| {
    CHARGES
        .spellings()
        .map(|spelling| Phrase {
            words: spelling.split(' ').map(str::to_owned).collect(),
            marks: CHARGES.marks(spelling).to_vec(),
        })
        .collect()
});

/// The phrases of each mark, in file order. Every check reads its request
/// for several marks; looking each phrase's marks up again at every word
/// was most of a sealed check's reading of charges (issue 31 §6).
static MARKED: LazyLock<BTreeMap<&'static str, Vec<&'static Phrase>>> = LazyLock::new(|| {
    let mut marked: BTreeMap<&'static str, Vec<&'static Phrase>> = BTreeMap::new();
    for phrase in PHRASES.iter() {
        for mark in &phrase.marks {
            let phrases = marked.entry(mark.as_str()).or_default();
            // A phrase listing a mark twice is still one phrase of it.
            if !phrases.last().is_some_and(|last| std::ptr::eq(*last, phrase)) {
                phrases.push(phrase);
            }
        }
    }
    marked
});

/// The phrases with `mark`, in file order.
fn marked(mark: &str) -> &'static [&'static Phrase] {
    MARKED.get(mark).map_or(&[], Vec::as_slice)
}

/// A text cut into words as the file lists them (folded, `ё` as `е`).
pub fn tokens(text: &str) -> Vec<String> {
    normalize::words(text)
        .into_iter()
        .map(|word| if word.contains('ё') { word.replace('ё', "е") } else { word })
        .collect()
}

fn word_matches(listed: &str, word: &str) -> bool {
    match listed.strip_suffix('*') {
        Some(stem) => word.starts_with(stem),
        None => listed == word,
    }
}

/// Where `phrase` occurs in `tokens` at `start`.
fn matches_at(phrase: &Phrase, tokens: &[String], start: usize) -> bool {
    phrase.words.len() <= tokens.len() - start
        && phrase.words.iter().zip(&tokens[start..]).all(|(listed, word)| word_matches(listed, word))
}

/// Each occurrence of a phrase with `mark`: (start, length, phrase).
fn occurrences<'a>(tokens: &'a [String], mark: &'a str) -> impl Iterator<Item = (usize, usize, &'static Phrase)> + 'a {
    let phrases = marked(mark);
    (0..tokens.len()).flat_map(move |start| {
        phrases
            .iter()
            .copied()
            .filter(move |phrase| matches_at(phrase, tokens, start))
            .map(move |phrase| (start, phrase.words.len(), phrase))
    })
}

fn has_mark(tokens: &[String], mark: &str) -> bool {
    occurrences(tokens, mark).next().is_some()
}

/// Whether one word is listed with `mark`.
fn word_has_mark(word: &str, mark: &str) -> bool {
    marked(mark).iter().any(|phrase| phrase.words.len() == 1 && word_matches(&phrase.words[0], word))
}

/// The first period the words name, if any.
pub fn period(tokens: &[String]) -> Option<Period> {
    // Only the phrases that name a period can give one (in file order, as
    // all of them were read before).
    static PERIODIC: LazyLock<Vec<&'static Phrase>> = LazyLock::new(|| {
        PHRASES
            .iter()
            .filter(|phrase| Period::MARKS.iter().any(|(mark, _)| phrase.marks.iter().any(|listed| listed == mark)))
            .collect()
    });
    (0..tokens.len()).find_map(|start| {
        PERIODIC.iter().filter(|phrase| matches_at(phrase, tokens, start)).find_map(|phrase| {
            Period::MARKS
                .iter()
                .find(|(mark, _)| phrase.marks.iter().any(|listed| listed == mark))
                .map(|(_, period)| *period)
        })
    })
}

/// What an item's words say of a recurring charge: the words that say it,
/// as the item spells them, whether it is a trial turning paid, and the
/// period when they name one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recurring {
    pub said: String,
    pub trial: bool,
    pub period: Option<Period>,
}

/// Whether `text` (one of an item's texts) says its charge recurs.
pub fn recurring(text: &str) -> Option<Recurring> {
    let tokens = tokens(text);
    let (start, length, trial) = occurrences(&tokens, "recurring")
        .map(|(start, length, _)| (start, length, false))
        .chain(occurrences(&tokens, "trial").map(|(start, length, _)| (start, length, true)))
        .min_by_key(|(start, _, _)| *start)?;
    Some(Recurring { said: tokens[start..start + length].join(" "), trial, period: period(&tokens) })
}

/// The add-on phrase an item's name is, as listed ("protection plan"), or
/// `None` for a product. The phrase must be the name's head: only digits,
/// period words and the listed lead words before it, and after it nothing,
/// or a listed tail word, a digit or a period word, and then anything.
pub fn addon(name: &str) -> Option<String> {
    let tokens = tokens(name);
    occurrences(&tokens, "addon")
        .filter(|(start, length, _)| {
            let lead_ok = tokens[..*start].iter().all(|word| {
                word.chars().all(|character| character.is_ascii_digit())
                    || word_has_mark(word, "addon-lead")
                    || Period::MARKS.iter().any(|(mark, _)| word_has_mark(word, mark))
            });
            let tail_ok = tokens.get(start + length).is_none_or(|next| {
                next.chars().all(|character| character.is_ascii_digit())
                    || word_has_mark(next, "addon-tail")
                    || Period::MARKS.iter().any(|(mark, _)| word_has_mark(next, mark))
                    || occurrences(&tokens[start + length..], "addon").any(|(at, _, _)| at == 0)
            });
            lead_ok && tail_ok
        })
        // The longest phrase at the earliest start: "gift wrapping service"
        // over "gift wrapping".
        .min_by_key(|(start, length, _)| (*start, usize::MAX - length))
        .map(|(start, length, _)| tokens[start..start + length].join(" "))
}

/// What a request's words ask about what is paid beyond the items
/// (deterministic: no extractor reads it, see docs/semantics.md).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Asked {
    /// A recurring delivery or subscription asked for, with its period
    /// when the words name one.
    pub recurring: Option<Option<Period>>,
    /// "no extra fees", "без комиссии".
    pub no_extra_charges: bool,
    /// The add-on phrases the request names ("gift wrap", "warranty"),
    /// unless negated right before ("no warranty").
    pub addons: Vec<String>,
}

/// Reads what `text` (the request and the person's clarifications) asks.
pub fn asked(text: &str) -> Asked {
    let tokens = tokens(text);
    let recurring = has_mark(&tokens, "recurring-wish").then(|| {
        let (start, _, _) = occurrences(&tokens, "recurring-wish").next().unwrap_or((0, 0, &PHRASES[0]));
        // The period said nearest the wish: within its clause, else anywhere.
        period(&tokens[start..]).or_else(|| period(&tokens))
    });
    let negated =
        |start: usize| start > 0 && ["no", "without", "not", "без", "не", "нет"].contains(&tokens[start - 1].as_str());
    let mut addons: Vec<String> = occurrences(&tokens, "addon")
        .filter(|(start, _, _)| !negated(*start))
        .map(|(start, length, _)| tokens[start..start + length].join(" "))
        .collect();
    addons.sort();
    addons.dedup();
    Asked { recurring, no_extra_charges: has_mark(&tokens, "no-fees"), addons }
}

/// Whether the add-on `found` (as [`addon`] reads a line's name) is one the
/// request asked for: a word of it is among the add-ons the request names
/// ("warranty" for "extended warranty", "gift wrap" for "gift wrapping").
pub fn addon_asked(found: &str, asked: &Asked) -> bool {
    let found_words: Vec<&str> = found.split(' ').collect();
    asked.addons.iter().any(|wanted| {
        wanted.split(' ').any(|word| {
            word.len() > 2
                && found_words.iter().any(|found| found.starts_with(word) || word.starts_with(found))
                && !["plan", "year", "for", "on"].contains(&word)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_item_that_renews_or_turns_paid_is_read_with_its_period() {
        let read = |text: &str| recurring(text);
        let subscribe = read("Nike Pegasus 41 - Subscribe & Save: auto-renews monthly").unwrap();
        assert_eq!(
            (subscribe.said.as_str(), subscribe.trial, subscribe.period),
            ("subscribe save", false, Some(Period::Month))
        );
        let trial = read("Free trial, then $9.99/month").unwrap();
        assert_eq!((trial.trial, trial.period), (true, Some(Period::Month)));
        assert_eq!(read("Billed weekly").unwrap().period, Some(Period::Week));
        assert_eq!(read("Кофе Lavazza, подписка с автопродлением каждый месяц").unwrap().period, Some(Period::Month));
        assert_eq!(read("Ёжик: автопродление").unwrap().said, "автопродление");
        for product in ["Nike Pegasus 41", "Weekly Planner 2027", "Monthly budget notebook", "Trial-size shampoo"] {
            assert_eq!(read(product), None, "{product}");
        }
    }

    #[test]
    fn an_add_on_is_a_line_named_as_one_never_a_product_with_the_word() {
        for (name, phrase) in [
            ("2-Year Protection Plan for Footwear", "protection plan"),
            ("Extended Warranty - 3 years", "extended warranty"),
            ("Gift wrap", "gift wrap"),
            ("Gift Wrapping Service", "gift wrapping service"),
            ("Driver tip", "driver tip"),
            ("Allstate Protection Plan", "protection plan"),
            ("Shipping insurance", "shipping insurance"),
            ("Round-up donation", "donation"),
            ("Подарочная упаковка", "подарочная упаковка"),
            ("Расширенная гарантия 2 года", "гарантия"),
            ("Чаевые курьеру", "чаевые"),
        ] {
            assert_eq!(addon(name).as_deref(), Some(phrase), "{name}");
        }
        for product in [
            "SPF 50 Sun Protection Lotion",
            "Weekly Planner",
            "Gift Wrap Paper Roll, 3 pack",
            "Replacement Tip Set",
            "Nike Pegasus 41",
            "Screen protection film for iPhone 15",
            "Insurance Claim Folder Organizer",
            "Кроссовки Nike с гарантией качества",
        ] {
            assert_eq!(addon(product), None, "{product}");
        }
    }

    #[test]
    fn a_request_asks_for_a_subscription_an_add_on_or_no_fees() {
        let wish = asked("a monthly delivery of Lavazza coffee beans under $30");
        assert_eq!(wish.recurring, Some(Some(Period::Month)));
        assert_eq!(asked("подписка на кофе, каждую неделю").recurring, Some(Some(Period::Week)));
        assert_eq!(asked("Subscribe & Save coffee pods").recurring, Some(None));
        assert_eq!(asked("Nike Pegasus 41 in black, size 42").recurring, None);
        assert_eq!(asked("a weekly planner").recurring, None);
        assert!(asked("Nike Pegasus 41, no extra fees please").no_extra_charges);
        assert!(asked("кофе Lavazza до 2000 рублей, без комиссии").no_extra_charges);
        assert!(!asked("Nike Pegasus 41 under $200").no_extra_charges);
        let gift = asked("red KitchenAid mixer with gift wrap");
        assert_eq!(gift.addons, ["gift wrap"]);
        assert!(addon_asked("gift wrapping", &gift));
        assert!(!addon_asked("protection plan", &gift));
        assert!(asked("a TV, no warranty").addons.is_empty());
        assert!(addon_asked("extended warranty", &asked("a TV with a 3 year warranty")));
    }
}
