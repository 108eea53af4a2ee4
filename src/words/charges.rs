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

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use super::class::{CHARGES, NEGATIONS};
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

/// Some phrases' words, to ask of one word whether it is one of them
/// without comparing it with every phrase: whole words in a set, stems
/// (`subscribe*`) in a list; [`Listed::has`] is [`word_matches`] against
/// each of them. Why: every check reads its request, its musts and its
/// items' words for charges, word by word, and comparing each word with
/// each of the file's phrases was most of that reading (issue 28's item
/// check, issue 31 §6; docs/benchmarks.md).
#[derive(Default)]
struct Listed {
    whole: BTreeSet<&'static str>,
    stems: Vec<&'static str>,
}

impl Listed {
    fn of(words: impl IntoIterator<Item = &'static str>) -> Listed {
        let mut listed = Listed::default();
        for word in words {
            match word.strip_suffix('*') {
                Some(stem) => listed.stems.push(stem),
                None => {
                    listed.whole.insert(word);
                }
            }
        }
        listed
    }

    /// Whether `word` is one of the words, or begins with one of the stems.
    fn has(&self, word: &str) -> bool {
        self.whole.contains(word) || self.stems.iter().any(|stem| word.starts_with(stem))
    }
}

/// The phrases of one mark, in file order, with the words they can begin
/// with and the words that are a whole phrase of it: a word no phrase
/// begins with is passed over without trying each phrase there.
#[derive(Default)]
struct Marked {
    phrases: Vec<&'static Phrase>,
    first: Listed,
    single: Listed,
}

impl Marked {
    fn of(phrases: Vec<&'static Phrase>) -> Marked {
        let first = Listed::of(phrases.iter().map(|phrase| phrase.words[0].as_str()));
        let single =
            Listed::of(phrases.iter().filter(|phrase| phrase.words.len() == 1).map(|phrase| phrase.words[0].as_str()));
        Marked { phrases, first, single }
    }
}

/// The phrases of each mark, in file order. Every check reads its request
/// for several marks; looking each phrase's marks up again at every word
/// was most of a sealed check's reading of charges (issue 31 §6).
static MARKED: LazyLock<BTreeMap<&'static str, Marked>> = LazyLock::new(|| {
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
    marked.into_iter().map(|(mark, phrases)| (mark, Marked::of(phrases))).collect()
});

/// The phrases with `mark`, in file order.
fn marked(mark: &str) -> &'static Marked {
    static NONE: LazyLock<Marked> = LazyLock::new(Marked::default);
    MARKED.get(mark).unwrap_or(&NONE)
}

/// Every word of the phrases with any of `marks`.
fn words_of(marks: &[&str]) -> Listed {
    Listed::of(
        PHRASES
            .iter()
            .filter(|phrase| phrase.marks.iter().any(|mark| marks.contains(&mark.as_str())))
            .flat_map(|phrase| phrase.words.iter().map(String::as_str)),
    )
}

/// The words of add-on phrases ([`addon_head`]).
static ADDON_HEADS: LazyLock<Listed> = LazyLock::new(|| words_of(&["addon"]));

/// The words of recurring, wish, `@every` and period phrases ([`recurring_head`]).
static RECURRING_HEADS: LazyLock<Listed> =
    LazyLock::new(|| words_of(&["recurring", "recurring-wish", "every", "week", "month", "quarter", "year"]));

/// The phrases that name a period, in file order, each with the first
/// period of [`Period::MARKS`] it is marked with, and the words they can
/// begin with ([`period_at`]).
static PERIODS: LazyLock<(Vec<(&'static Phrase, Period)>, Listed)> = LazyLock::new(|| {
    let phrases: Vec<(&'static Phrase, Period)> = PHRASES
        .iter()
        .filter_map(|phrase| {
            Period::MARKS
                .iter()
                .find(|(mark, _)| phrase.marks.iter().any(|listed| listed == mark))
                .map(|(_, period)| (phrase, *period))
        })
        .collect();
    let first = Listed::of(phrases.iter().map(|(phrase, _)| phrase.words[0].as_str()));
    (phrases, first)
});

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
    let marked = marked(mark);
    (0..tokens.len()).filter(move |start| marked.first.has(&tokens[*start])).flat_map(move |start| {
        marked
            .phrases
            .iter()
            .copied()
            .filter(move |phrase| matches_at(phrase, tokens, start))
            .map(move |phrase| (start, phrase.words.len(), phrase))
    })
}

/// Whether a word could begin an add-on phrase: [`addon`] finds none in a
/// text without such a word, so a reader can pass over a text that has none
/// without reading it (the parser asks of every "and"'s rest of clause,
/// which is quadratic in a long clause otherwise).
pub fn may_begin_addon(word: &str) -> bool {
    let first = &marked("addon").first;
    tokens(word).iter().any(|token| first.has(token))
}

/// Each occurrence of a phrase with `mark` that no negation before it
/// takes back ("no subscription", "без подписки").
fn said<'a>(tokens: &'a [String], mark: &'a str) -> impl Iterator<Item = (usize, usize, &'static Phrase)> + 'a {
    occurrences(tokens, mark).filter(move |(start, _, _)| !negated(tokens, *start))
}

/// Whether one word is listed with `mark`.
fn word_has_mark(word: &str, mark: &str) -> bool {
    marked(mark).single.has(word)
}

fn is_period_word(word: &str) -> bool {
    Period::MARKS.iter().any(|(mark, _)| word_has_mark(word, mark))
}

fn is_number(word: &str) -> bool {
    word.chars().all(|character| character.is_ascii_digit())
}

/// A count in digits or in words ("12", "twelve", "две").
fn count(word: &str) -> Option<u64> {
    word.parse().ok().or_else(|| super::text::number_word(word))
}

/// Whether the phrase at `start` is taken back by a negation right before
/// it (`@charges` in negations.txt), with at most a period word or the
/// "t" of a contraction between ("no monthly subscription", "doesn't
/// auto-renew").
fn negated(tokens: &[String], start: usize) -> bool {
    let mut at = start;
    for _ in 0..3 {
        let Some(before) = at.checked_sub(1) else { return false };
        let word = tokens[before].as_str();
        if NEGATIONS.has_mark(word, "charges") {
            return true;
        }
        if !(word == "t" || is_period_word(word)) {
            return false;
        }
        at = before;
    }
    false
}

/// A period phrase at `start`, scaled by a count right before it ("12
/// months" is a year, "3 months" a quarter, "52 weeks" a year).
fn period_at(tokens: &[String], start: usize) -> Option<Period> {
    let (phrases, first) = &*PERIODS;
    if !tokens.get(start).is_some_and(|word| first.has(word)) {
        return None;
    }
    let (_, period) = phrases.iter().find(|(phrase, _)| matches_at(phrase, tokens, start))?;
    let period = *period;
    let count = start.checked_sub(1).and_then(|before| count(&tokens[before]));
    Some(match (count, period) {
        (Some(3), Period::Month) => Period::Quarter,
        (Some(12), Period::Month) | (Some(52), Period::Week) | (Some(4), Period::Quarter) => Period::Year,
        _ => period,
    })
}

/// The first period the words name, if any.
pub fn period(tokens: &[String]) -> Option<Period> {
    (0..tokens.len()).find_map(|start| period_at(tokens, start))
}

/// A recurrence the words state with `@every` ("every 2 months", "каждые
/// две недели", "раз в месяц"): the period within three words after it.
fn every(tokens: &[String]) -> Option<(usize, Period)> {
    occurrences(tokens, "every").find_map(|(start, length, _)| {
        (start + length..tokens.len().min(start + length + 3))
            .find_map(|at| period_at(tokens, at))
            .map(|period| (start, period))
    })
}

/// The spans of `text` (byte ranges) of each of its [`tokens`], when they
/// can be had: a run of letters and digits as written, cut as the tokens
/// are. `None` when folding joins or splits them otherwise (an invisible
/// character inside a word): then the words are quoted folded.
fn spans(text: &str) -> Option<Vec<(usize, usize)>> {
    let mut found = Vec::new();
    let mut read = Vec::new();
    let mut start: Option<usize> = None;
    let close = |from: usize, to: usize, found: &mut Vec<(usize, usize)>, read: &mut Vec<String>| {
        for token in tokens(&text[from..to]) {
            found.push((from, to));
            read.push(token);
        }
    };
    for (at, character) in text.char_indices() {
        match (character.is_alphanumeric(), start) {
            (true, None) => start = Some(at),
            (false, Some(from)) => {
                close(from, at, &mut found, &mut read);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(from) = start {
        close(from, text.len(), &mut found, &mut read);
    }
    (read == tokens(text)).then_some(found)
}

/// The words `tokens[start..start + length]` of `text` as written
/// ("Subscribe & Save", "подписки"), else folded.
fn as_written(text: &str, tokens: &[String], start: usize, length: usize) -> String {
    match spans(text) {
        Some(spans) if length > 0 && start + length <= spans.len() => {
            crate::normalize::without_direction_controls(&text[spans[start].0..spans[start + length - 1].1])
        }
        _ => tokens[start..start + length].join(" "),
    }
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

/// Whether `text` (one of an item's texts) says its charge recurs: a
/// recurring or trial phrase that no negation takes back, no word after it
/// makes an option or a product ("subscription optional", "Free Trial
/// Pack") and no `@aside` words at the start of its clause make about
/// something else ("(not for use with HP Instant Ink subscription)"); or an
/// amount and a period after `@then` ("30 days free, then $14.95 a month",
/// "далее 299 ₽ в месяц"), a trial turning paid in other words. The period
/// is the one such a phrase names ("renews yearly"), else the first after
/// it, else any.
pub fn recurring(text: &str) -> Option<Recurring> {
    let tokens = tokens(text);
    let not_after = |end: usize| tokens.get(end).is_some_and(|word| word_has_mark(word, "not-after"));
    // Cut into clauses only when a phrase is found: most texts hold none.
    let clauses = std::cell::OnceCell::new();
    let aside = |start: usize| {
        let clause = clauses.get_or_init(|| clause_starts(text, &tokens)).get(start).copied().unwrap_or(0);
        let after_negation = if tokens.get(clause).is_some_and(|word| NEGATIONS.has_mark(word, "charges")) {
            clause + 1
        } else {
            clause
        };
        occurrences(&tokens, "aside").any(|(at, length, _)| at == after_negation && at + length <= start)
    };
    let mut found: Vec<(usize, usize, &Phrase, bool)> = said(&tokens, "recurring")
        .map(|(start, length, phrase)| (start, length, phrase, false))
        .chain(said(&tokens, "trial").map(|(start, length, phrase)| (start, length, phrase, true)))
        .filter(|(start, length, _, _)| !not_after(start + length) && !aside(*start))
        .collect();
    let then = said(&tokens, "then").find_map(|(start, length, phrase)| {
        let end = then_paid(&tokens, start + length)?;
        Some((start, end - start, phrase, true))
    });
    found.extend(then.filter(|(start, _, _, _)| !aside(*start)));
    let (start, length, _, trial) = *found.iter().min_by_key(|(start, _, _, _)| *start)?;
    let named = found.iter().find_map(|(_, _, phrase, _)| {
        Period::MARKS
            .iter()
            .find(|(mark, _)| phrase.marks.iter().any(|listed| listed == mark))
            .map(|(_, period)| *period)
    });
    let period = named.or_else(|| period(&tokens[start..])).or_else(|| period(&tokens));
    Some(Recurring { said: as_written(text, &tokens, start, length), trial, period })
}

/// After a `@then` word ending at `from`: an amount (a number within two
/// words) and then a period within four words of it ("$14.95 a month",
/// "$4.99/mo", "299 ₽ в месяц"); the end of the period word.
fn then_paid(tokens: &[String], from: usize) -> Option<usize> {
    let amount = (from..tokens.len().min(from + 2)).find(|at| is_number(&tokens[*at]))?;
    (amount + 1..tokens.len().min(amount + 5)).find(|at| period_at(tokens, *at).is_some()).map(|at| at + 1)
}

/// The index of the first token of each token's clause: a clause ends at a
/// parenthesis, a comma, a semicolon, a colon or a dash between words.
/// Every token is in one clause when the spans cannot be had.
fn clause_starts(text: &str, tokens: &[String]) -> Vec<usize> {
    let Some(spans) = spans(text) else { return vec![0; tokens.len()] };
    let mut starts = Vec::with_capacity(spans.len());
    let mut current = 0;
    for (index, (from, _)) in spans.iter().enumerate() {
        // Tokens of one run share its span: no gap between them.
        let gap = index.checked_sub(1).and_then(|before| text.get(spans[before].1..*from)).unwrap_or("");
        if gap.chars().any(|character| matches!(character, '(' | ')' | '[' | ']' | ',' | ';' | ':' | '—' | '–'))
            || gap.contains(" - ")
        {
            current = index;
        }
        starts.push(current);
    }
    starts
}

/// An add-on line: the phrase as the line writes it, and its kinds (the
/// `@cover`, `@wrap` … marks, else the listed phrase itself).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Addon {
    pub said: String,
    pub kinds: Vec<String>,
}

/// The kinds of an add-on phrase: its kind marks, else its own spelling.
fn kinds(phrase: &Phrase) -> Vec<String> {
    let marked: Vec<String> =
        phrase.marks.iter().filter(|mark| ADDON_KINDS.contains(&mark.as_str())).cloned().collect();
    if marked.is_empty() { vec![phrase.words.join(" ")] } else { marked }
}

/// The kinds an add-on may be of (marks of charges.txt).
const ADDON_KINDS: [&str; 5] = ["cover", "shipping-cover", "wrap", "tip", "donation"];

/// The add-on an item's name is, or `None` for a product. The phrase must
/// be the name's head: only digits, period words and the listed lead words
/// before it, and after it nothing, or a listed tail word, a digit or a
/// period word, and then anything; never one a product comes with
/// ("… Watch for Women w/ 1 Year Warranty": `a_feature`).
pub fn addon(name: &str) -> Option<Addon> {
    let tokens = tokens(name);
    occurrences(&tokens, "addon")
        .filter(|(start, length, _)| {
            let lead_ok = tokens[..*start]
                .iter()
                .all(|word| is_number(word) || word_has_mark(word, "addon-lead") || is_period_word(word));
            let tail_ok = tokens.get(start + length).is_none_or(|next| {
                is_number(next)
                    || word_has_mark(next, "addon-tail")
                    || is_period_word(next)
                    || occurrences(&tokens[start + length..], "addon").any(|(at, _, _)| at == 0)
            });
            // "Blender Protection Plan", "Product Protection Plan by
            // Asurion": a phrase of two words or more that ends the name, or
            // only its provider after "by", names the line whatever leads it
            // (one word, "Pen with Rubber Tip", would not).
            let rest = &tokens[start + length..];
            let by_provider = *length >= 2 && rest.first().is_some_and(|word| word == "by");
            let ends_the_name = *length >= 2 && (rest.is_empty() || by_provider);
            (lead_ok || ends_the_name) && (tail_ok || by_provider) && !a_feature(&tokens, *start)
        })
        // The last of a run of add-on phrases ("donation" of "Charity
        // donation"), then the longest at the earliest start ("gift
        // wrapping service" over "gift wrapping").
        .min_by_key(|(start, length, _)| {
            let another_follows = occurrences(&tokens[start + length..], "addon").any(|(at, _, _)| at == 0);
            (another_follows, *start, usize::MAX - length)
        })
        .map(|(start, length, phrase)| Addon { said: as_written(name, &tokens, start, length), kinds: kinds(phrase) })
}

/// Whether the add-on phrase at `start` is said of the product before it:
/// an `@addon-feature` word ("with", "w/", "incl.", "с") before it, past
/// its lead words, digits and periods ("Casio … Watch for Women w/ 1 Year
/// Warranty", "… с гарантией 2 года"). The line is that product, which
/// comes with the cover, not an add-on bought beside one.
fn a_feature(tokens: &[String], start: usize) -> bool {
    tokens[..start]
        .iter()
        .rev()
        .find(|word| !(is_number(word) || word_has_mark(word, "addon-lead") || is_period_word(word)))
        .is_some_and(|word| word_has_mark(word, "addon-feature"))
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
    /// The kinds of those add-ons (`@cover`, `@wrap` …).
    pub addon_kinds: Vec<String>,
}

/// Reads what `text` (the request and the person's clarifications) asks:
/// a recurring delivery (a wish phrase, an item's own recurring words, or
/// a period after `@every`), no extra charges, add-ons; none of them when
/// a negation takes it back.
pub fn asked(text: &str) -> Asked {
    let tokens = tokens(text);
    let wish = said(&tokens, "recurring-wish")
        .chain(said(&tokens, "recurring"))
        .map(|(start, _, _)| start)
        .min()
        .map(|start| period(&tokens[start..]).or_else(|| period(&tokens)))
        .or_else(|| every(&tokens).map(|(_, period)| Some(period)));
    let mut addons = Vec::new();
    let mut addon_kinds = Vec::new();
    for (start, length, phrase) in said(&tokens, "addon") {
        addons.push(tokens[start..start + length].join(" "));
        addon_kinds.extend(kinds(phrase));
    }
    addons.sort();
    addons.dedup();
    addon_kinds.sort();
    addon_kinds.dedup();
    Asked { recurring: wish, no_extra_charges: has_mark(&tokens, "no-fees"), addons, addon_kinds }
}

fn has_mark(tokens: &[String], mark: &str) -> bool {
    occurrences(tokens, mark).next().is_some()
}

/// Whether the add-on `found` (as [`addon`] reads a line's name) is one the
/// request asked for: of a kind the request names ("extended warranty" for
/// a protection plan, "с подарочной упаковкой" for "Подарочная упаковка").
pub fn addon_asked(found: &Addon, asked: &Asked) -> bool {
    found.kinds.iter().any(|kind| asked.addon_kinds.contains(kind))
}

/// What a requirement's words speak of when they say nothing but charges:
/// an add-on ("gift note", "добавьте пожертвование", "driver") or a
/// recurring delivery ("delivered every month", "year").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Speaks {
    Addon,
    Recurring,
}

/// What `text` speaks of when every word of it is charges' words (a word
/// of an add-on, recurring, trial, period or `@every` phrase, an add-on's
/// lead or tail word, a filler or a number) and one at least is a head (a
/// word of an add-on, recurring, trial, period or `@every` phrase); `None`
/// for any other text ("premium", "school fair").
pub fn speaks_of(text: &str) -> Option<Speaks> {
    let tokens = tokens(text);
    if tokens.is_empty() || !tokens.iter().all(|word| vocabulary(word)) {
        return None;
    }
    // A word of both ("year" of "year warranty" and of a period) speaks
    // of a recurrence unless an add-on's own word is there too.
    if tokens.iter().any(|word| addon_head(word) && !recurring_head(word)) {
        Some(Speaks::Addon)
    } else if tokens.iter().any(|word| recurring_head(word)) {
        Some(Speaks::Recurring)
    } else {
        None
    }
}

/// Whether a requirement speaks only of what is paid beyond the items: no
/// extra charges ("no hidden fees"), or an add-on or a recurring delivery in
/// charges' words alone ([`speaks_of`]: "gift-wrapped", "every month").
pub fn of_charges_only(text: &str) -> bool {
    speaks_of(text).is_some() || has_mark(&tokens(text), "no-fees")
}

/// Whether `text` says nothing but charges' words and the words of `line`
/// (an add-on line asked for, or the texts of an item whose charge recurs
/// as asked), so that the line says it: "2 donation to The Ocean Cleanup"
/// of "Donation to The Ocean Cleanup", "фонд" of "Пожертвование в
/// благотворительный фонд", "yearly digital subscription" of "The Economist
/// Digital, 12-month subscription, renews annually". Of a recurrence, one
/// word at least must be a recurring head; of an add-on, a head or a word
/// of the line that `elsewhere` (the other lines' words) does not say, so
/// that a product's requirement is still read against the product; or
/// it states terms in charges' words (a number and a unit of `units.txt`
/// that is a word of charges: "2 года", "24 months", not "55 inch"), each
/// the line's and no other line's, in whatever language each writes the
/// unit ("2 года" of "Extended Warranty - 2 Years" beside "… w/ 1 Year
/// Warranty").
pub fn said_beside(text: &str, speaks: Speaks, line: &str, elsewhere: &[String]) -> bool {
    let line_tokens = tokens(line);
    let tokens = tokens(text);
    let line: BTreeSet<&String> = line_tokens.iter().collect();
    let in_line = |word: &String| line.contains(word);
    if tokens.is_empty() || !tokens.iter().all(|word| vocabulary(word) || in_line(word)) {
        return false;
    }
    match speaks {
        Speaks::Recurring => tokens.iter().any(|word| recurring_head(word)),
        Speaks::Addon => {
            tokens.iter().any(|word| {
                addon_head(word)
                    || (in_line(word)
                        && count(word).is_none()
                        && !super::is_filler(word)
                        && !elsewhere.iter().any(|other| other == word))
            }) || {
                // Only a term said in charges' words ("2 года", "24 months"):
                // "55 inch" beside a protection plan is the product's size.
                let said_in_charges: Vec<String> =
                    tokens.iter().map(|word| if vocabulary(word) { word.clone() } else { String::new() }).collect();
                let asked = terms(&said_in_charges);
                let (said, said_elsewhere) = (terms(&line_tokens), terms(elsewhere));
                !asked.is_empty() && asked.iter().all(|term| said.contains(term) && !said_elsewhere.contains(term))
            }
        }
    }
}

/// The terms words state: a number and the unit the word after it spells
/// (`units.txt`: "года" and "years" are both `years`), in order.
fn terms(words: &[String]) -> Vec<(&str, &'static str)> {
    words
        .windows(2)
        .filter(|pair| is_number(&pair[0]))
        .filter_map(|pair| Some((pair[0].as_str(), super::class::UNITS.value(&pair[1])?)))
        .collect()
}

fn addon_head(word: &str) -> bool {
    ADDON_HEADS.has(word)
}

/// Trial words are no heads: "free" is a wish for free shipping as often.
fn recurring_head(word: &str) -> bool {
    RECURRING_HEADS.has(word)
}

/// A word of charges: a head, an add-on's lead or tail word, a count or a filler.
fn vocabulary(word: &str) -> bool {
    addon_head(word)
        || recurring_head(word)
        || word_has_mark(word, "addon-lead")
        || word_has_mark(word, "addon-tail")
        || count(word).is_some()
        || super::is_filler(word)
}

/// A part of what is paid that a payment line may be instead of a product.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Shipping,
    Tax,
    Discount,
    Fee,
}

impl Part {
    const MARKS: [(&'static str, Part); 4] = [
        ("part-shipping", Part::Shipping),
        ("part-tax", Part::Tax),
        ("part-discount", Part::Discount),
        ("part-fee", Part::Fee),
    ];
}

/// The part of the total a payment line's label names ("Shipping", "Sales
/// tax", "Discount (SAVE5)", "НДС 20%", "Сервисный сбор"), or `None` for a
/// product ("Tax Guide 2026", "Shipping Box 12x12"): every word before a
/// parenthesis or a colon is a part word, a qualifier, a filler or holds a
/// digit, and the first part word says which.
pub fn checkout_part(label: &str) -> Option<Part> {
    let head = label.split(['(', ':']).next().unwrap_or(label);
    let mut part = None;
    for word in tokens(head) {
        match Part::MARKS.iter().find(|(mark, _)| word_has_mark(&word, mark)) {
            Some((_, named)) => {
                part.get_or_insert(*named);
            }
            None if word_has_mark(&word, "part-qualifier")
                || super::is_filler(&word)
                || word.chars().any(|character| character.is_ascii_digit()) => {}
            None => return None,
        }
    }
    part
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
            ("Subscribe & Save", false, Some(Period::Month)),
            "quoted as the item writes it"
        );
        let trial = read("Free trial, then $9.99/month").unwrap();
        assert_eq!((trial.trial, trial.period), (true, Some(Period::Month)));
        assert_eq!(read("Billed weekly").unwrap().period, Some(Period::Week));
        assert_eq!(read("Кофе Lavazza, подписка с автопродлением каждый месяц").unwrap().period, Some(Period::Month));
        assert_eq!(read("Ёжик: автопродление").unwrap().said, "автопродление");
        assert_eq!(read("Кофе — без автопродления, подписки").unwrap().said, "подписки");
        // Folding that joins a word (an invisible character inside it) is quoted folded.
        assert_eq!(read("Sub\u{200b}scription").unwrap().said, "subscription");
        for product in ["Nike Pegasus 41", "Weekly Planner 2027", "Monthly budget notebook", "Trial-size shampoo"] {
            assert_eq!(read(product), None, "{product}");
        }
    }

    #[test]
    fn the_period_is_the_renewal_s_and_a_count_scales_it() {
        let period = |text: &str| recurring(text).unwrap().period;
        assert_eq!(period("Microsoft 365 Personal, 12-month subscription, auto-renews yearly"), Some(Period::Year));
        assert_eq!(period("Подписка на журнал на 12 месяцев"), Some(Period::Year));
        assert_eq!(period("Filters - auto-ship every 3 months"), Some(Period::Quarter));
        assert_eq!(period("Filters - auto-ship every 2 months"), Some(Period::Month));
    }

    #[test]
    fn a_negated_optional_or_product_phrase_is_no_recurring_charge() {
        for product in [
            "Lavazza Whole Bean Coffee - One-time purchase (no subscription)",
            "Omega-3, 200 капсул (разовая покупка, без подписки)",
            "Office 365, does not auto-renew",
            "HP DeskJet 4155e (Instant Ink eligible, subscription optional)",
            "Gillette Fusion5 Razor, Free Trial Pack",
            "Lavazza beans, no monthly subscription",
        ] {
            assert_eq!(recurring(product), None, "{product}");
        }
    }

    #[test]
    fn an_add_on_is_a_line_named_as_one_never_a_product_with_the_word() {
        for (name, phrase) in [
            ("2-Year Protection Plan for Footwear", "Protection Plan"),
            ("Extended Warranty - 3 years", "Extended Warranty"),
            ("Gift wrap", "Gift wrap"),
            ("Gift Wrapping Service", "Gift Wrapping Service"),
            ("Driver tip", "Driver tip"),
            ("Allstate Protection Plan", "Protection Plan"),
            // A phrase of two words that ends the name, or is followed only
            // by its provider, names the line whatever leads it.
            ("Blender Protection Plan", "Protection Plan"),
            ("Product Protection Plan by Asurion", "Protection Plan"),
            ("Shipping insurance", "Shipping insurance"),
            ("Round-up donation", "donation"),
            ("Подарочная упаковка", "Подарочная упаковка"),
            ("Расширенная гарантия 2 года", "гарантия"),
            ("Чаевые курьеру", "Чаевые"),
            ("Пожертвование в благотворительный фонд", "Пожертвование"),
        ] {
            assert_eq!(addon(name).map(|found| found.said).as_deref(), Some(phrase), "{name}");
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
            "Fiskars Bypass Pruning Shears, replaceable tip",
            "Ballpoint Pen with Rubber Tip",
            // A cover the product comes with (a ShoppingBench title).
            "Casio LTP-V005D-7B Watch for Women w/ 1 Year Warranty",
            "Blender with 2-Year Protection Plan",
            "Часы Casio с гарантией 2 года",
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
        assert!(addon_asked(&addon("Gift wrapping").unwrap(), &gift));
        assert!(!addon_asked(&addon("Protection plan").unwrap(), &gift));
        assert!(asked("a TV, no warranty").addons.is_empty());
        assert!(addon_asked(&addon("Extended Warranty").unwrap(), &asked("a TV with a 3 year warranty")));
    }

    #[test]
    fn a_request_asks_in_its_own_words_and_inflections() {
        // An item's recurring words, and a period after `@every`, ask for one.
        assert_eq!(asked("the Peloton App One membership, billed monthly").recurring, Some(Some(Period::Month)));
        assert_eq!(asked("кофе Jardin, доставка каждые две недели").recurring, Some(Some(Period::Week)));
        assert_eq!(asked("фильтры Brita раз в месяц").recurring, Some(Some(Period::Month)));
        assert_eq!(asked("подписка на журнал на год").recurring, Some(Some(Period::Year)));
        assert_eq!(asked("ежеквартальная доставка фильтров Brita").recurring, Some(Some(Period::Quarter)));
        assert_eq!(asked("кофе Jardin в зёрнах, без подписки").recurring, None);
        assert_eq!(asked("Microsoft 365, no auto-renewal").recurring, None);
        // An add-on asked in another word or form of its kind.
        for (request, line) in [
            ("телевизор Samsung с расширенной гарантией", "Расширенная гарантия 2 года"),
            ("набор посуды в подарочной упаковке", "Подарочная упаковка"),
            ("букет роз с чаевыми курьеру", "Чаевые курьеру"),
            ("the LEGO Orchid, gift-wrapped", "Gift wrapping"),
            ("a Dyson vacuum with an extended warranty", "3-Year Protection Plan by Allstate"),
            ("a sweater, with shipping insurance", "Route Package Protection"),
            ("a Weber grill, with insured shipping", "Shipping insurance"),
            ("a Galaxy S24 with accidental damage coverage", "Asurion 2-Year Accidental Damage Protection Plan"),
            ("кофеварка Bosch, упакуйте в подарок", "Подарочная упаковка"),
            ("смартфон Xiaomi с защитой от поломки", "Страховка от поломки и кражи на 1 год"),
            ("a Kindle, and round up my order for charity", "Round-up donation"),
        ] {
            assert!(addon_asked(&addon(line).unwrap(), &asked(request)), "{request}: {line}");
        }
        assert!(!addon_asked(&addon("Route Package Protection").unwrap(), &asked("a TV with a warranty")));
    }

    #[test]
    fn a_payment_line_named_as_a_part_of_the_total_is_one() {
        for (label, part) in [
            ("Shipping", Part::Shipping),
            ("Standard Shipping & Handling", Part::Shipping),
            ("Estimated tax", Part::Tax),
            ("Sales Tax (8.875%)", Part::Tax),
            ("Discount (SAVE5)", Part::Discount),
            ("Promo code: WELCOME10", Part::Discount),
            ("Service fee", Part::Fee),
            ("Доставка", Part::Shipping),
            ("НДС 20%", Part::Tax),
            ("Скидка", Part::Discount),
            ("Сервисный сбор", Part::Fee),
        ] {
            assert_eq!(checkout_part(label), Some(part), "{label}");
        }
        for product in ["Tax Guide 2026", "Shipping Box 12x12, 25 pack", "Nike Pegasus 41", "Delivery Bag, insulated"] {
            assert_eq!(checkout_part(product), None, "{product}");
        }
    }

    #[test]
    fn a_text_of_charges_words_only_speaks_of_them() {
        for (text, speaks) in [
            ("add a $3 tip", Some(Speaks::Addon)),
            ("leave a $5 tip", Some(Speaks::Addon)),
            ("оставьте чаевые курьеру", Some(Speaks::Addon)),
            ("insured shipping", Some(Speaks::Addon)),
            ("driver", Some(Speaks::Addon)),
            ("gift note", Some(Speaks::Addon)),
            ("добавьте пожертвование", Some(Speaks::Addon)),
            ("delivered every month", Some(Speaks::Recurring)),
            ("save every month", Some(Speaks::Recurring)),
            ("year", Some(Speaks::Recurring)),
            ("год", Some(Speaks::Recurring)),
            ("каждые две недели", Some(Speaks::Recurring)),
            ("2 year warranty", Some(Speaks::Addon)),
            ("premium", None),
            ("school fair", None),
            ("free shipping", None),
        ] {
            assert_eq!(speaks_of(text), speaks, "{text}");
        }
    }

    #[test]
    fn a_trial_turning_paid_in_other_words_and_a_subscription_of_something_else() {
        for (text, said) in [
            ("Project Hail Mary with Audible Premium Plus: 30 days free, then $14.95 a month", "then $14.95 a month"),
            ("Ring Video Doorbell + Ring Protect Basic, first month on us, then $4.99/mo", "then $4.99/mo"),
            (
                "Xiaomi Smart Band 9 + Mi Fitness Premium: 3 месяца бесплатно, далее 299 ₽ в месяц",
                "далее 299 ₽ в месяц",
            ),
        ] {
            let found = recurring(text).unwrap_or_else(|| panic!("{text}"));
            assert_eq!((found.said.as_str(), found.trial, found.period), (said, true, Some(Period::Month)), "{text}");
        }
        assert_eq!(
            recurring("Brush Heads, 4 pack - replenished every 3 months").unwrap().period,
            Some(Period::Quarter)
        );
        for product in [
            "Buy one, then get one 50% off",
            "HP 67XL Black Ink Cartridge (not for use with HP Instant Ink subscription)",
            "Tonerkartusche, compatible with Instant Ink subscription",
            "Картридж HP 123 (не для использования с подпиской Instant Ink)",
        ] {
            assert_eq!(recurring(product), None, "{product}");
        }
        // A run of letters folded into several words has no gap inside it.
        for odd in
            ["\u{a5e}a subscription", "\u{10780}\u{fe72} then 5 month", "(\u{a5e}a) not for use with a subscription"]
        {
            let _ = recurring(odd);
        }
        // An aside in another clause takes nothing back.
        assert!(recurring("Ink, Subscribe & Save (compatible with HP printers)").is_some());
        assert!(recurring("No commitment subscription, cancel anytime").is_some());
    }

    #[test]
    fn a_text_of_charges_words_and_a_line_s_words_is_said_beside_the_line() {
        let products = tokens("YETI Tundra 45 Hard Cooler");
        let line = "Donation to The Ocean Cleanup";
        assert!(said_beside("2 donation to The Ocean Cleanup", Speaks::Addon, line, &products));
        assert!(said_beside("Ocean Cleanup", Speaks::Addon, line, &products));
        assert!(!said_beside("Ocean Cleanup, white", Speaks::Addon, line, &products));
        assert!(!said_beside("the cooler", Speaks::Addon, "Cooler donation", &products), "a product's word");
        let economist = "The Economist Digital, 12-month subscription, renews annually";
        assert!(said_beside("yearly digital subscription", Speaks::Recurring, economist, &[]));
        assert!(!said_beside("digital", Speaks::Recurring, economist, &[]), "no recurring word");
    }

    #[test]
    fn a_term_in_another_language_is_said_by_the_line_that_states_it_alone() {
        // lookalikes3-addon-18's words: the watch comes with a year, the add-on line is two.
        let watch = tokens("Casio LTP-V005D-7B Watch for Women w/ 1 Year Warranty");
        let line = "Extended Warranty - 2 Years";
        assert!(said_beside("2 года", Speaks::Addon, line, &watch));
        assert!(said_beside("24 месяца", Speaks::Addon, "Дополнительная гарантия 24 months", &watch));
        assert!(!said_beside("3 года", Speaks::Addon, line, &watch), "another number");
        assert!(!said_beside("1 год", Speaks::Addon, "Protection Plan 1 Year", &watch), "the product says it too");
        assert!(!said_beside("2", Speaks::Addon, line, &watch), "a number alone is no term");
        let tv = tokens("Samsung TV 50 inch");
        assert!(!said_beside("55 inch", Speaks::Addon, "Protection Plan for 55 inch TVs", &tv), "the product's size");
    }
}
