//! The `noisy:SEED:RATE` extractor: the gold facts with seeded perturbations
//! of the kinds real extractors make, so the merge rules' effect (what a
//! second extractor catches, what it only disputes) can be studied offline.
//!
//! Each [`Perturbation`] is tried once per task, in the fixed order of
//! [`Perturbation::ALL`], and applied with probability RATE; a kind that does
//! not apply to the task (no deadline to drop) changes nothing. The draw for
//! each (seed, task id, kind) comes from its own stream, so the same seed
//! always perturbs the same tasks the same way, and raising RATE only adds
//! perturbations. The list is documented in `datasets/README.md`.

use std::sync::Arc;

use serde::Serialize;

use super::gold::{GoldBook, offline_extraction};
use super::random::Stream;
use crate::extract::name::NOISY_PREFIX;
use crate::extract::{ExtractError, ExtractFuture, ExtractInput, ExtractedFacts, Extractor};
use crate::normalize;

/// One kind of extraction mistake.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Perturbation {
    /// A stated deadline missed: `deadline_days` → null.
    DropDeadline,
    /// A stated spending limit missed: `explicit_max_cents` → null.
    DropLimit,
    /// The colour of the first line that has one copied into every other line
    /// ("one blue and one white" read as two blue).
    CopyColour,
    /// Hyperbole ("money is no object", "хоть миллион") read as a limit, on a
    /// request that has such a phrase and no stated limit.
    HyperboleLimit,
    /// One entry of `soft` lost ("black ideally" read as a must).
    LoseSoft,
    /// A size system added to a bare number ("42" → "EU 42", "9" → "US 9") or
    /// dropped from a stated one ("US 10" → "10"), in the shared size or else
    /// the first line's.
    SizeSystem,
    /// A named brand missed: `brand` → null.
    DropBrand,
    /// A value read from the wrong span of the same request: another number
    /// of the request (a price, a size, a model number) taken as the quantity.
    WrongSpan,
    /// A value the request does not say: a colour invented where none is
    /// stated.
    InventValue,
    /// A requirement paraphrased instead of quoted: the words of one `other`
    /// entry reordered and one replaced by a synonym, as a model rewords.
    ParaphraseQuote,
}

impl Perturbation {
    pub const ALL: [Perturbation; 10] = [
        Perturbation::DropDeadline,
        Perturbation::DropLimit,
        Perturbation::CopyColour,
        Perturbation::HyperboleLimit,
        Perturbation::LoseSoft,
        Perturbation::SizeSystem,
        Perturbation::DropBrand,
        Perturbation::WrongSpan,
        Perturbation::InventValue,
        Perturbation::ParaphraseQuote,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Perturbation::DropDeadline => "drop-deadline",
            Perturbation::DropLimit => "drop-limit",
            Perturbation::CopyColour => "copy-colour",
            Perturbation::HyperboleLimit => "hyperbole-limit",
            Perturbation::LoseSoft => "lose-soft",
            Perturbation::SizeSystem => "size-system",
            Perturbation::DropBrand => "drop-brand",
            Perturbation::WrongSpan => "wrong-span",
            Perturbation::InventValue => "invent-value",
            Perturbation::ParaphraseQuote => "paraphrase-quote",
        }
    }
}

/// Phrases of hyperbole about money, folded. A model that reads one as a
/// limit is the mistake [`Perturbation::HyperboleLimit`] imitates.
pub const HYPERBOLE_PHRASES: [&str; 9] = [
    "money is no object",
    "pay anything",
    "pay whatever",
    "whatever it costs",
    "price doesn't matter",
    "деньги не вопрос",
    "цена не важна",
    "хоть миллион",
    "a million",
];

/// The limits a hyperbole is read as, in minor units, when the phrase names
/// no number: the round sums a model reaches for.
const GUESSED_LIMITS: [u64; 3] = [5_000, 10_000, 20_000];

/// Applies the perturbations drawn for `(seed, task_id)` at `rate`; returns
/// the perturbed facts and the kinds that changed something, in order.
pub fn perturb(
    gold: &ExtractedFacts,
    request: &str,
    seed: u64,
    task_id: &str,
    rate: f64,
) -> (ExtractedFacts, Vec<Perturbation>) {
    let mut facts = gold.clone();
    let mut applied = Vec::new();
    for kind in Perturbation::ALL {
        let mut stream = Stream::new(seed, &[task_id, kind.as_str()]);
        if !stream.chance(rate) {
            continue;
        }
        if apply(kind, &mut facts, request, &mut stream) {
            applied.push(kind);
        }
    }
    (facts, applied)
}

/// Applies one kind; returns whether it changed the facts.
fn apply(kind: Perturbation, facts: &mut ExtractedFacts, request: &str, stream: &mut Stream) -> bool {
    match kind {
        Perturbation::DropDeadline => facts.deadline_days.take().is_some(),
        Perturbation::DropLimit => facts.explicit_max_cents.take().is_some(),
        Perturbation::DropBrand => facts.brand.take().is_some(),
        Perturbation::WrongSpan => match other_number(request, facts.quantity) {
            Some(number) if facts.lines.is_empty() => {
                facts.quantity = Some(number);
                true
            }
            _ => false,
        },
        Perturbation::InventValue => {
            if facts.color.is_some() || facts.lines.iter().any(|line| line.color.is_some()) {
                return false;
            }
            let folded = normalize::fold(request);
            let Some(colour) = INVENTED_COLOURS.iter().find(|colour| !folded.contains(*colour)) else { return false };
            facts.color = Some((*colour).to_owned());
            true
        }
        Perturbation::ParaphraseQuote => {
            if facts.other.is_empty() {
                return false;
            }
            let index = stream.below(facts.other.len());
            match paraphrase(&facts.other[index]) {
                Some(reworded) => {
                    facts.other[index] = reworded;
                    true
                }
                None => false,
            }
        }
        Perturbation::CopyColour => {
            let Some(colour) = facts.lines.iter().find_map(|line| line.color.clone()) else { return false };
            let mut changed = false;
            for line in &mut facts.lines {
                if line.color.as_deref() != Some(colour.as_str()) {
                    line.color = Some(colour.clone());
                    changed = true;
                }
            }
            changed
        }
        Perturbation::HyperboleLimit => {
            if facts.explicit_max_cents.is_some() {
                return false;
            }
            let folded = normalize::fold(request);
            let said: Vec<&str> = HYPERBOLE_PHRASES.iter().copied().filter(|phrase| folded.contains(phrase)).collect();
            if said.is_empty() {
                return false;
            }
            // A phrase with a number in it is read as that number.
            let limit = if said.iter().any(|phrase| phrase.contains("миллион") || phrase.contains("million")) {
                100_000_000
            } else {
                GUESSED_LIMITS[stream.below(GUESSED_LIMITS.len())]
            };
            facts.explicit_max_cents = Some(limit);
            true
        }
        Perturbation::LoseSoft => {
            if facts.soft.is_empty() {
                return false;
            }
            let index = stream.below(facts.soft.len());
            facts.soft.remove(index);
            true
        }
        Perturbation::SizeSystem => {
            let size = match facts.size_label.as_mut() {
                Some(size) => size,
                None => match facts.lines.iter_mut().find_map(|line| line.size_label.as_mut()) {
                    Some(size) => size,
                    None => return false,
                },
            };
            match toggle_size_system(size) {
                Some(changed) => {
                    *size = changed;
                    true
                }
                None => false,
            }
        }
    }
}

/// Colours an invented value is drawn from, in order: the first the request
/// does not mention.
const INVENTED_COLOURS: [&str; 4] = ["black", "white", "blue", "red"];

/// Words a paraphrase swaps (each way), as a model rewords a requirement.
const SYNONYMS: [(&str, &str); 8] = [
    ("waterproof", "water resistant"),
    ("lightweight", "light"),
    ("free", "without"),
    ("large", "big"),
    ("small", "little"),
    ("long", "extended"),
    ("fast", "quick"),
    ("with", "having"),
];

/// The first number of the request (digits, up to 999, not 0) other than
/// `stated`: what a model reading the wrong span takes as the quantity.
fn other_number(request: &str, stated: Option<u64>) -> Option<u64> {
    request
        .split(|character: char| !character.is_ascii_digit())
        .filter_map(|digits| digits.parse::<u64>().ok())
        .find(|value| (1..=999).contains(value) && Some(*value) != stated)
}

/// "water resistant jacket lining" → "lining jacket waterproof": the last
/// word first and one synonym swapped; `None` when nothing would change.
fn paraphrase(phrase: &str) -> Option<String> {
    let mut words: Vec<String> = phrase.split_whitespace().map(str::to_owned).collect();
    if let Some(last) = words.pop() {
        words.insert(0, last);
    }
    let mut text = words.join(" ");
    for (one, other) in SYNONYMS {
        let padded = format!(" {text} ");
        if padded.contains(&format!(" {one} ")) {
            text = padded.replacen(&format!(" {one} "), &format!(" {other} "), 1).trim().to_owned();
            break;
        }
        if padded.contains(&format!(" {other} ")) {
            text = padded.replacen(&format!(" {other} "), &format!(" {one} "), 1).trim().to_owned();
            break;
        }
    }
    (text != phrase).then_some(text)
}

/// "EU 42" → "42"; "42" → "EU 42" (numbers from 30 up read as European,
/// smaller ones as US); letter and grip sizes have no system to add.
fn toggle_size_system(size: &str) -> Option<String> {
    let trimmed = size.trim();
    for system in ["EU", "US", "UK"] {
        if let Some(rest) = trimmed.strip_prefix(system).or_else(|| trimmed.strip_prefix(&system.to_lowercase()))
            && rest.starts_with(' ')
        {
            return Some(rest.trim().to_owned());
        }
    }
    let number: f64 = trimmed.replace(',', ".").parse().ok()?;
    let system = if number >= 30.0 { "EU" } else { "US" };
    Some(format!("{system} {trimmed}"))
}

/// The `noisy:SEED:RATE` extractor.
#[derive(Debug, Clone)]
pub struct NoisyExtractor {
    name: String,
    book: Arc<GoldBook>,
    seed: u64,
    rate: f64,
}

impl NoisyExtractor {
    pub fn new(book: Arc<GoldBook>, seed: u64, rate: f64) -> NoisyExtractor {
        NoisyExtractor { name: format!("{NOISY_PREFIX}{seed}:{rate}"), book, seed, rate }
    }

    /// Keeps the name exactly as the person wrote it, so `noisy:1:0.20` in
    /// `--extractors` is found again in reports.
    pub fn named(mut self, name: &str) -> NoisyExtractor {
        self.name = name.to_owned();
        self
    }
}

impl Extractor for NoisyExtractor {
    fn name(&self) -> &str {
        &self.name
    }

    fn extract<'a>(&'a self, input: &'a ExtractInput) -> ExtractFuture<'a> {
        Box::pin(async move {
            let Some((task_id, gold)) = self.book.lookup(input) else {
                return Err(ExtractError::NotRecorded(input.request.clone()));
            };
            let (facts, _) = perturb(gold, &input.request, self.seed, task_id, self.rate);
            offline_extraction(facts)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::ExtractedLine as Line;

    fn gold() -> ExtractedFacts {
        ExtractedFacts {
            brand: Some("Nike".into()),
            model: Some("Pegasus 41".into()),
            size_label: Some("EU 40".into()),
            deadline_days: Some(4),
            explicit_max_cents: Some(30_000),
            lines: vec![
                Line { color: Some("blue".into()), ..Line::default() },
                Line { color: Some("white".into()), ..Line::default() },
            ],
            soft: vec!["color".into()],
            ..ExtractedFacts::default()
        }
    }

    #[test]
    fn rate_zero_is_gold_and_rate_one_applies_every_kind_that_fits() {
        assert_eq!(perturb(&gold(), "x", 1, "t", 0.0), (gold(), vec![]));
        let (facts, applied) = perturb(&gold(), "x", 1, "t", 1.0);
        assert_eq!(
            applied,
            vec![
                Perturbation::DropDeadline,
                Perturbation::DropLimit,
                Perturbation::CopyColour,
                Perturbation::LoseSoft,
                Perturbation::SizeSystem,
                Perturbation::DropBrand
            ],
            "no hyperbole and no other number in the request, a colour on the lines, no other; the limit was dropped first"
        );
        assert_eq!(facts.deadline_days, None);
        assert_eq!(facts.brand, None);
        assert_eq!(facts.size_label.as_deref(), Some("40"));
        assert_eq!(facts.lines[1].color.as_deref(), Some("blue"));
        assert!(facts.soft.is_empty());
    }

    #[test]
    fn perturbations_are_seeded_per_task() {
        let draw = |seed, task: &str| perturb(&gold(), "x", seed, task, 0.5);
        assert_eq!(draw(1, "v1-001"), draw(1, "v1-001"));
        let tasks: Vec<String> = (0..40).map(|index| format!("v1-{index:03}")).collect();
        let seed_one: Vec<_> = tasks.iter().map(|task| draw(1, task).1).collect();
        let seed_two: Vec<_> = tasks.iter().map(|task| draw(2, task).1).collect();
        assert_ne!(seed_one, seed_two, "another seed perturbs other tasks");
        // Raising the rate only adds perturbations: each kind has its own draw.
        for task in &tasks {
            let low = perturb(&gold(), "x", 9, task, 0.2).1;
            let high = perturb(&gold(), "x", 9, task, 0.6).1;
            assert!(low.iter().all(|kind| high.contains(kind)), "{task}: {low:?} vs {high:?}");
        }
    }

    #[test]
    fn hyperbole_becomes_a_limit_only_where_said() {
        let plain = ExtractedFacts { brand: Some("Babolat".into()), ..ExtractedFacts::default() };
        let (facts, applied) = perturb(&plain, "Babolat Pure Aero. Цена не важна, хоть миллион", 1, "t", 1.0);
        assert!(applied.contains(&Perturbation::HyperboleLimit));
        assert_eq!(facts.explicit_max_cents, Some(100_000_000));
        let (facts, _) = perturb(&plain, "Babolat, money is no object", 1, "t", 1.0);
        assert!(GUESSED_LIMITS.contains(&facts.explicit_max_cents.unwrap()));
        let (facts, applied) = perturb(&plain, "Babolat Pure Aero", 1, "t", 1.0);
        assert_eq!(facts.explicit_max_cents, None);
        assert!(!applied.contains(&Perturbation::HyperboleLimit));
    }

    /// Issue 11 item 5: errors beside drops.
    #[test]
    fn wrong_span_invented_value_and_paraphrase() {
        let plain = ExtractedFacts {
            brand: Some("Nike".into()),
            other: vec!["waterproof upper".into()],
            ..ExtractedFacts::default()
        };
        let (facts, applied) = perturb(&plain, "Nike Pegasus 41 in blue, under $120", 1, "t", 1.0);
        assert!(applied.contains(&Perturbation::WrongSpan));
        assert_eq!(facts.quantity, Some(41), "the model number read as the count");
        assert_eq!(facts.color.as_deref(), Some("black"), "invented: the first colour not said");
        assert_eq!(facts.other, ["upper water resistant"]);
        assert_eq!(other_number("2 pairs for $30", Some(2)), Some(30));
        assert_eq!(other_number("two pairs", None), None);
        assert_eq!(paraphrase("x"), None);
    }

    #[test]
    fn size_systems_toggle() {
        assert_eq!(toggle_size_system("42").as_deref(), Some("EU 42"));
        assert_eq!(toggle_size_system("9").as_deref(), Some("US 9"));
        assert_eq!(toggle_size_system("42,5").as_deref(), Some("EU 42,5"));
        assert_eq!(toggle_size_system("US 10").as_deref(), Some("10"));
        assert_eq!(toggle_size_system("M"), None);
        assert_eq!(toggle_size_system("4 3/8"), None);
    }

    #[test]
    fn every_kind_is_documented_in_the_datasets_readme() {
        let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/datasets/README.md")).unwrap();
        for kind in Perturbation::ALL {
            assert!(
                readme.contains(&format!("| `{}` |", kind.as_str())),
                "{} is not in datasets/README.md",
                kind.as_str()
            );
        }
        for phrase in HYPERBOLE_PHRASES {
            assert!(readme.contains(&format!("`{phrase}`")), "hyperbole phrase {phrase:?} is not documented");
        }
    }
}
