//! Merging several extractors' facts into one set, by the fixed rules of
//! guard.md §4.2. Pure: the same outputs in the same order merge the same way.
//!
//! The asymmetries are deliberate. Deadlines and limits take the strictest
//! value without a dispute (extractors miss stated limits far more often than
//! they invent them, and a wrong value costs one question); excluded brands
//! are a union; refundability conflicts resolve to `true`. Everything else
//! that the extractors do not agree on is kept (the first found value) and
//! marked `disputed`, which turns its findings into notes, not blocks.

use std::collections::BTreeSet;

use chrono::NaiveDate;

use super::Quote;
use super::ground::{Grounding, ground};
use crate::facts::{Facts, FieldName, FieldRef, Line};
use crate::normalize;

/// Why a merge could not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    #[error("no extractor output to merge")]
    Empty,
}

/// Which merge rules a set uses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MergePolicy {
    /// guard.md §4.2 exactly, on the extractors' raw facts. The library's
    /// default, so a set built in code merges as the spec says; the command
    /// line defaults to `grounded`.
    #[default]
    Spec,
    /// Grounded values only (`extract::ground`), merged by [`merge_grounded`].
    Grounded,
}

impl MergePolicy {
    pub fn as_str(self) -> &'static str {
        match self {
            MergePolicy::Spec => "spec",
            MergePolicy::Grounded => "grounded",
        }
    }

    pub fn parse(text: &str) -> Option<MergePolicy> {
        match text {
            "spec" => Some(MergePolicy::Spec),
            "grounded" => Some(MergePolicy::Grounded),
            _ => None,
        }
    }
}

/// One extractor's output as the merge takes it: its facts and the quotes
/// it gave for them.
#[derive(Debug, Clone, Copy)]
pub struct Output<'a> {
    pub facts: &'a Facts,
    pub quotes: &'a [Quote],
}

/// The person's words the outputs are grounded in, and the day they count
/// dates from.
#[derive(Debug, Clone, Copy)]
pub struct Words<'a> {
    pub request: &'a str,
    pub answers: &'a [String],
    pub today: NaiveDate,
}

/// The one path from extractor outputs to merged facts, for a check
/// (`extract::set`) and a conformance merge case alike, so the two cannot
/// drift apart: under `grounded`, each output is grounded in `words` and the
/// grounded facts merged by [`merge_grounded`]; under `spec`, the raw facts
/// are merged by [`merge`] and nothing is grounded. Also returns each
/// output's grounding, in order (`None` under `spec`).
pub fn ground_and_merge(
    policy: MergePolicy,
    outputs: &[Output],
    words: Words,
) -> (Result<Facts, MergeError>, Vec<Option<Grounding>>) {
    match policy {
        MergePolicy::Spec => {
            let facts: Vec<Facts> = outputs.iter().map(|output| output.facts.clone()).collect();
            (merge(&facts), vec![None; outputs.len()])
        }
        MergePolicy::Grounded => {
            let (grounded, groundings): (Vec<GroundedFacts>, Vec<Option<Grounding>>) = outputs
                .iter()
                .map(|output| {
                    let (facts, grounding) =
                        ground(output.facts, output.quotes, words.request, words.answers, words.today);
                    (GroundedFacts { facts, soft_grounded: grounding.soft_grounded.clone() }, Some(grounding))
                })
                .unzip();
            (merge_grounded(&grounded), groundings)
        }
    }
}

/// One extractor's grounded facts and the `soft` entries its words support.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GroundedFacts {
    pub facts: Facts,
    pub soft_grounded: BTreeSet<FieldRef>,
}

/// The `grounded` policy (docs/semantics.md): every value is one the
/// person's words support, so a value one extractor found and another did
/// not is the value, undisputed (a null is not a disagreement); conflicting
/// brands, colours, sizes, models (that do not nest, `merge_model`) and
/// quantities become the base value and its candidates (`brand_any`,
/// `color_any`, `size_any`, `model_any`, `quantity_any`), undisputed, so an
/// item that fails every candidate blocks and one that matches any passes:
/// both readings are words the person said, so neither is a guess to relax
/// into a note (level and price preference, which have no candidates, stay
/// disputed); deadlines and limits take the
/// strictest value; exclusions, alternatives and `other` are unions; a field
/// is soft only when the words mark it optional, or when at least two
/// extractors stated it and every one of them marks it soft.
pub fn merge_grounded(outputs: &[GroundedFacts]) -> Result<Facts, MergeError> {
    if outputs.is_empty() {
        return Err(MergeError::Empty);
    }
    let all: Vec<&Facts> = outputs.iter().map(|output| &output.facts).collect();
    let mut disputed: BTreeSet<FieldRef> = BTreeSet::new();

    let (brand, brand_more) = candidates(all.iter().map(|facts| facts.brand.as_deref()), normalize::fold);
    let (color, color_more) = candidates(all.iter().map(|facts| facts.color.as_deref()), colour_key);
    let (size_label, size_more) = candidates(all.iter().map(|facts| facts.size_label.as_deref()), size_key);
    let (model, model_more) = merge_model(all.iter().map(|facts| facts.model.as_deref()));
    let (level, level_disputed) = merge_found(all.iter().map(|facts| facts.level));
    let (price_preference, price_disputed) = merge_found(all.iter().map(|facts| facts.price_preference));
    let (quantity, quantity_more) = candidates_by(all.iter().map(|facts| facts.quantity), |count| *count);
    for (field, is_disputed) in [(FieldName::Level, level_disputed), (FieldName::PricePreference, price_disputed)] {
        if is_disputed {
            disputed.insert(FieldRef::Shared(field));
        }
    }
    let needs_refundable = all.iter().any(|facts| facts.needs_refundable);
    let deadline_days = all.iter().filter_map(|facts| facts.deadline_days).min();
    let explicit_max_cents = all.iter().filter_map(|facts| facts.explicit_max_cents).min();
    let owned: Vec<Facts> = all.iter().map(|facts| (*facts).clone()).collect();
    let (explicit_max_currency, currency_disputed) = merge_currency(&owned, explicit_max_cents);
    if currency_disputed {
        disputed.insert(FieldName::ExplicitMaxCents.into());
    }
    let (price_min_cents, price_min_currency, floor_disputed) = merge_floor(&owned);
    if floor_disputed {
        disputed.insert(FieldName::PriceMinCents.into());
    }
    let free_shipping = all.iter().any(|facts| facts.free_shipping);
    let brand_not = union_text(all.iter().flat_map(|facts| facts.brand_not.iter()), &[]);
    let color_not = union_text(all.iter().flat_map(|facts| facts.color_not.iter()), &[]);
    let alternatives = |base: &Option<String>, more: Vec<String>, lists: Vec<&String>| -> Vec<String> {
        let except: Vec<String> = base.clone().into_iter().collect();
        if base.is_none() { Vec::new() } else { union_text(more.iter().chain(lists), &except) }
    };
    let brand_any = alternatives(&brand, brand_more, all.iter().flat_map(|facts| facts.brand_any.iter()).collect());
    let color_any = alternatives(&color, color_more, all.iter().flat_map(|facts| facts.color_any.iter()).collect());
    let size_any = alternatives(&size_label, size_more, all.iter().flat_map(|facts| facts.size_any.iter()).collect());
    let model_any = alternatives(&model, model_more, all.iter().flat_map(|facts| facts.model_any.iter()).collect());
    let quantity_any = match quantity {
        None => Vec::new(),
        Some(base) => {
            union_counts(quantity_more.iter().chain(all.iter().flat_map(|facts| facts.quantity_any.iter())), base)
        }
    };

    // Lines: a list only one extractor found is that list, undisputed; the
    // same count merges per field by the rules above (candidates per line
    // field); different non-zero counts keep the first and dispute `lines`,
    // as under `spec`.
    let non_empty: Vec<&Vec<Line>> = all.iter().map(|facts| &facts.lines).filter(|lines| !lines.is_empty()).collect();
    let lines = match non_empty.first() {
        None => Vec::new(),
        Some(reference) if non_empty.iter().any(|lines| lines.len() != reference.len()) => {
            disputed.insert(FieldName::Lines.into());
            (*reference).clone()
        }
        Some(reference) => (0..reference.len())
            .map(|index| {
                // Each line field by the shared field's rule: candidates, not
                // disputes (both readings are the person's words).
                let line_values: Vec<&Line> = non_empty.iter().map(|lines| &lines[index]).collect();
                let (model, model_more) = merge_model(line_values.iter().map(|line| line.model.as_deref()));
                let (color, color_more) = candidates(line_values.iter().map(|line| line.color.as_deref()), colour_key);
                let (size_label, size_more) =
                    candidates(line_values.iter().map(|line| line.size_label.as_deref()), size_key);
                let (quantity, quantity_more) =
                    candidates_by(line_values.iter().map(|line| line.quantity), |count| *count);
                let prices = line_prices(line_values.iter().copied());
                Line {
                    product: merge_product(line_values.iter().map(|line| line.product.as_deref())),
                    other: union_text(line_values.iter().flat_map(|line| line.other.iter()), &[]),
                    explicit_max_cents: prices.0,
                    explicit_max_currency: prices.1,
                    price_min_cents: prices.2,
                    price_min_currency: prices.3,
                    model_any: alternatives(
                        &model,
                        model_more,
                        line_values.iter().flat_map(|line| line.model_any.iter()).collect(),
                    ),
                    color_any: alternatives(
                        &color,
                        color_more,
                        line_values.iter().flat_map(|line| line.color_any.iter()).collect(),
                    ),
                    size_any: alternatives(
                        &size_label,
                        size_more,
                        line_values.iter().flat_map(|line| line.size_any.iter()).collect(),
                    ),
                    quantity_any: match quantity {
                        None => Vec::new(),
                        Some(base) => union_counts(
                            quantity_more.iter().chain(line_values.iter().flat_map(|line| line.quantity_any.iter())),
                            base,
                        ),
                    },
                    model,
                    color,
                    size_label,
                    quantity,
                }
            })
            .collect(),
    };

    let other = union_text(all.iter().flat_map(|facts| facts.other.iter()), &[]);
    let other_optional = union_text(all.iter().flat_map(|facts| facts.other_optional.iter()), &other);

    let mut soft: BTreeSet<FieldRef> = BTreeSet::new();
    let claimed: BTreeSet<FieldRef> = all.iter().flat_map(|facts| facts.soft.iter().copied()).collect();
    for field in claimed {
        let grounded = outputs.iter().any(|output| output.soft_grounded.contains(&field));
        let stating: Vec<&Facts> = all.iter().copied().filter(|facts| states(facts, field)).collect();
        let consensus = stating.len() >= 2 && stating.iter().all(|facts| facts.soft.contains(&field));
        if grounded || consensus {
            soft.insert(field);
        }
    }

    Ok(Facts {
        product: merge_product(all.iter().map(|facts| facts.product.as_deref())),
        brand,
        brand_any,
        brand_not,
        model,
        model_any,
        color,
        color_any,
        color_not,
        size_label,
        size_any,
        level,
        price_preference,
        explicit_max_cents,
        explicit_max_currency,
        price_min_cents,
        price_min_currency,
        free_shipping,
        asked: Default::default(),
        quantity,
        quantity_any,
        needs_refundable,
        deadline_days,
        lines,
        other,
        other_optional,
        soft,
        disputed,
    })
}

/// Colours are one reading when they have the same colour words.
fn colour_key(value: &str) -> String {
    format!("{:?}", normalize::ColourWords::new(value))
}

/// Sizes are one reading when they are the same size.
fn size_key(value: &str) -> String {
    normalize::Size::parse(value).value
}

/// Whether `facts` states the field a `soft` entry names.
fn states(facts: &Facts, field: FieldRef) -> bool {
    match field {
        FieldRef::Shared(name) => match name {
            FieldName::Product => facts.product.is_some(),
            FieldName::PriceMinCents => facts.price_min_cents.is_some(),
            FieldName::FreeShipping => facts.free_shipping,
            FieldName::Brand => facts.brand.is_some(),
            FieldName::BrandNot => !facts.brand_not.is_empty(),
            FieldName::Model => facts.model.is_some(),
            FieldName::Color => facts.color.is_some(),
            FieldName::ColorNot => !facts.color_not.is_empty(),
            FieldName::SizeLabel => facts.size_label.is_some(),
            FieldName::Level => facts.level.is_some(),
            FieldName::PricePreference => facts.price_preference.is_some(),
            FieldName::ExplicitMaxCents => facts.explicit_max_cents.is_some(),
            FieldName::Quantity => facts.quantity.is_some(),
            FieldName::NeedsRefundable => facts.needs_refundable,
            FieldName::DeadlineDays => facts.deadline_days.is_some(),
            FieldName::Lines => !facts.lines.is_empty(),
            FieldName::Other => !facts.other.is_empty(),
            FieldName::OtherOptional => !facts.other_optional.is_empty(),
        },
        FieldRef::Line { index, field } => facts.lines.get(index).is_some_and(|line| match field {
            FieldName::Model => line.model.is_some(),
            FieldName::Color => line.color.is_some(),
            FieldName::SizeLabel => line.size_label.is_some(),
            FieldName::Quantity => line.quantity.is_some(),
            FieldName::Product => line.product.is_some(),
            _ => false,
        }),
    }
}

/// The first found value and whether another found value differs (nulls
/// are not a disagreement: every value here is grounded).
fn merge_found<T: PartialEq + Clone>(values: impl Iterator<Item = Option<T>>) -> (Option<T>, bool) {
    let found: Vec<T> = values.flatten().collect();
    let disputed = found.windows(2).any(|pair| pair[0] != pair[1]);
    (found.first().cloned(), disputed)
}

/// The kind of thing asked for, under either policy (docs/semantics.md,
/// "The item's words"). Readings with the same words are one reading. A
/// reading whose words are all among another's and that ends in the same
/// word, its head noun ("shoes" and "running shoes", "belt" and "leather
/// belt"), gives way to the longer one: the product check reads the head
/// with the modifiers its lexicon knows as one kind ("running shoe" is a
/// kind of shoe), so the longer reading names the same thing or a
/// narrower kind of it, every word of it is the person's (grounding keeps
/// no other), and line assignment tells "leather belt" from "tactical
/// belt" only by them. Anything else ("iPhone" and "iPhone case", "чехол"
/// and "чехол для iPhone 15", "shoes" and "socks") leaves no product: it
/// is not a fact of guard.md §3, so it is never disputed, and no product
/// leaves the check nothing to check, which can only ever spare a block.
fn merge_product<'a>(values: impl Iterator<Item = Option<&'a str>>) -> Option<String> {
    let readings: Vec<(&str, Vec<String>)> =
        values.flatten().map(|value| (value, normalize::words(value))).filter(|(_, words)| !words.is_empty()).collect();
    // The longest reading, the first said of equal length.
    let mut longest = readings.first()?;
    for reading in &readings {
        if reading.1.len() > longest.1.len() {
            longest = reading;
        }
    }
    let (longest, longest_words) = longest;
    let head = longest_words.last()?;
    readings
        .iter()
        .all(|(_, words)| words.last() == Some(head) && words.iter().all(|word| longest_words.contains(word)))
        .then(|| (*longest).to_owned())
}

/// Models under `grounded`: the base model and its candidates, never
/// disputed. Readings with the same words are one reading. A reading whose
/// words are all among the words of another ("AIRism" and "AIRism Crew
/// Neck") gives way to it: every word of the longer one is the person's
/// (grounding dropped any other), the model check is word-wise, so an item
/// without the shorter model's words fails the longer one too, and the
/// words only one extractor read are still words the person said ("Gift
/// Card $50" and "Gift Card": a $25 card is not what they asked for). Like
/// the strictest limit, the reading that says more wins. Readings that do
/// not nest ("Pegasus 41" and "Vomero 17") are both the person's words:
/// the first is the base and the others are candidates (`model_any`), so an
/// item that is none of them blocks, as for brands, colours and sizes.
fn merge_model<'a>(values: impl Iterator<Item = Option<&'a str>>) -> (Option<String>, Vec<String>) {
    let words_of = |value: &&str| -> BTreeSet<String> { normalize::words(value).into_iter().collect() };
    let (Some(first), more) = candidates_by(values, |value| words_of(value)) else { return (None, Vec::new()) };
    let readings: Vec<&str> = std::iter::once(first).chain(more).collect();
    let word_sets: Vec<BTreeSet<String>> = readings.iter().map(words_of).collect();
    // Distinct word sets, so "not a subset of another" is "not a strict subset".
    let said_more = |index: usize| {
        word_sets.iter().enumerate().any(|(other, words)| other != index && word_sets[index].is_subset(words))
    };
    let mut kept =
        readings.iter().enumerate().filter(|(index, _)| !said_more(*index)).map(|(_, value)| (*value).to_owned());
    let base = kept.next();
    (base, kept.collect())
}

/// The first found value of `values` as given, and the other found values
/// whose `key` differs from every earlier one, in order, as alternatives.
fn candidates_by<T: Clone, K: PartialEq>(
    values: impl Iterator<Item = Option<T>>,
    key: impl Fn(&T) -> K,
) -> (Option<T>, Vec<T>) {
    let found: Vec<T> = values.flatten().collect();
    let Some(first) = found.first() else { return (None, Vec::new()) };
    let mut seen = vec![key(first)];
    let mut more = Vec::new();
    for value in &found[1..] {
        let value_key = key(value);
        if !seen.contains(&value_key) {
            seen.push(value_key);
            more.push(value.clone());
        }
    }
    (Some(first.clone()), more)
}

/// [`candidates_by`] for text, owned.
fn candidates<'a>(
    values: impl Iterator<Item = Option<&'a str>>,
    key: impl Fn(&str) -> String,
) -> (Option<String>, Vec<String>) {
    let (first, more) = candidates_by(values, |value: &&str| key(value));
    (first.map(str::to_owned), more.into_iter().map(str::to_owned).collect())
}

/// Counts without repeats, in order, leaving out `base`.
fn union_counts<'a>(values: impl Iterator<Item = &'a u64>, base: u64) -> Vec<u64> {
    let mut seen: BTreeSet<u64> = BTreeSet::from([base]);
    values.copied().filter(|count| seen.insert(*count)).collect()
}

/// Merges extractor outputs, in extractor order (the first is the tie-breaker).
pub fn merge(outputs: &[Facts]) -> Result<Facts, MergeError> {
    let Some(first) = outputs.first() else { return Err(MergeError::Empty) };
    if outputs.len() == 1 {
        // A single extractor is allowed; then nothing is disputed (§4.2).
        let mut single = first.clone();
        single.disputed.clear();
        return Ok(single);
    }
    let mut disputed: BTreeSet<FieldRef> = BTreeSet::new();
    let mut note = |field: FieldRef, is_disputed: bool| {
        if is_disputed {
            disputed.insert(field);
        }
    };

    let (brand, brand_disputed) = merge_text(outputs.iter().map(|facts| facts.brand.as_deref()));
    note(FieldRef::Shared(FieldName::Brand), brand_disputed);
    let (model, model_disputed) = merge_text(outputs.iter().map(|facts| facts.model.as_deref()));
    note(FieldRef::Shared(FieldName::Model), model_disputed);
    let (color, color_disputed) = merge_text(outputs.iter().map(|facts| facts.color.as_deref()));
    note(FieldRef::Shared(FieldName::Color), color_disputed);
    let (size_label, size_disputed) = merge_text(outputs.iter().map(|facts| facts.size_label.as_deref()));
    note(FieldRef::Shared(FieldName::SizeLabel), size_disputed);
    let (level, level_disputed) = merge_value(outputs.iter().map(|facts| facts.level));
    note(FieldRef::Shared(FieldName::Level), level_disputed);
    let (price_preference, price_disputed) = merge_value(outputs.iter().map(|facts| facts.price_preference));
    note(FieldRef::Shared(FieldName::PricePreference), price_disputed);
    let (quantity, quantity_disputed) = merge_value(outputs.iter().map(|facts| facts.quantity));
    note(FieldRef::Shared(FieldName::Quantity), quantity_disputed);

    let needs_refundable = outputs.iter().any(|facts| facts.needs_refundable);
    let refund_disputed = outputs.iter().any(|facts| facts.needs_refundable != needs_refundable);
    note(FieldRef::Shared(FieldName::NeedsRefundable), refund_disputed);

    let deadline_days = outputs.iter().filter_map(|facts| facts.deadline_days).min();
    let explicit_max_cents = outputs.iter().filter_map(|facts| facts.explicit_max_cents).min();
    let (explicit_max_currency, currency_disputed) = merge_currency(outputs, explicit_max_cents);
    note(FieldRef::Shared(FieldName::ExplicitMaxCents), currency_disputed);
    // Read by `rules` alone for now (models' schema has no place for them):
    // one extractor's floor or free shipping is no disagreement.
    let (price_min_cents, price_min_currency, floor_disputed) = merge_floor(outputs);
    note(FieldRef::Shared(FieldName::PriceMinCents), floor_disputed);
    let free_shipping = outputs.iter().any(|facts| facts.free_shipping);

    let brand_not = union_text(outputs.iter().flat_map(|facts| facts.brand_not.iter()), &[]);
    let color_not = union_text(outputs.iter().flat_map(|facts| facts.color_not.iter()), &[]);

    // Alternatives (extensions of §3): what any extractor heard accepted
    // stays accepted, like the union of exclusions; a base field whose
    // alternatives the extractors heard differently is disputed.
    let (brand_any, brand_any_disputed) =
        merge_alternatives(outputs.iter().map(|facts| &facts.brand_any), brand.as_deref());
    note(FieldRef::Shared(FieldName::Brand), brand_any_disputed);
    let (color_any, color_any_disputed) =
        merge_alternatives(outputs.iter().map(|facts| &facts.color_any), color.as_deref());
    note(FieldRef::Shared(FieldName::Color), color_any_disputed);
    let (size_any, size_any_disputed) =
        merge_alternatives(outputs.iter().map(|facts| &facts.size_any), size_label.as_deref());
    note(FieldRef::Shared(FieldName::SizeLabel), size_any_disputed);
    // No extractor returns model or quantity candidates (only the grounded
    // merge writes them), but facts given in code or a case may carry them:
    // kept by the same rule, never silently dropped.
    let (model_any, model_any_disputed) =
        merge_alternatives(outputs.iter().map(|facts| &facts.model_any), model.as_deref());
    note(FieldRef::Shared(FieldName::Model), model_any_disputed);
    let quantity_lists: Vec<BTreeSet<u64>> =
        outputs.iter().map(|facts| facts.quantity_any.iter().copied().collect()).collect();
    note(FieldRef::Shared(FieldName::Quantity), quantity_lists.windows(2).any(|pair| pair[0] != pair[1]));
    let quantity_any = match quantity {
        None => Vec::new(),
        Some(base) => union_counts(outputs.iter().flat_map(|facts| facts.quantity_any.iter()), base),
    };

    let (lines, line_disputes) = merge_lines(outputs);
    disputed.extend(line_disputes);

    // other: the longest list; disputed if some extractor returned none while
    // another returned some.
    let other = outputs
        .iter()
        .map(|facts| &facts.other)
        .fold(&first.other, |longest, list| if list.len() > longest.len() { list } else { longest })
        .clone();
    let other_disputed = !other.is_empty() && outputs.iter().any(|facts| facts.other.is_empty());
    if other_disputed {
        disputed.insert(FieldRef::Shared(FieldName::Other));
    }
    let other_optional = union_text(outputs.iter().flat_map(|facts| facts.other_optional.iter()), &other);

    let soft: BTreeSet<FieldRef> = outputs.iter().flat_map(|facts| facts.soft.iter().copied()).collect();
    disputed.extend(outputs.iter().flat_map(|facts| facts.disputed.iter().copied()));

    Ok(Facts {
        product: merge_product(outputs.iter().map(|facts| facts.product.as_deref())),
        brand,
        brand_any,
        brand_not,
        model,
        model_any,
        color,
        color_any,
        color_not,
        size_label,
        size_any,
        level,
        price_preference,
        explicit_max_cents,
        explicit_max_currency,
        price_min_cents,
        price_min_currency,
        free_shipping,
        asked: Default::default(),
        quantity,
        quantity_any,
        needs_refundable,
        deadline_days,
        lines,
        other,
        other_optional,
        soft,
        disputed,
    })
}

/// Strings: all equal (case-insensitively, after Unicode folding) → that
/// value, undisputed; otherwise the first found value, disputed. All `None`
/// is agreement on "not stated".
fn merge_text<'a>(values: impl Iterator<Item = Option<&'a str>>) -> (Option<String>, bool) {
    let values: Vec<Option<&str>> = values.collect();
    let folded: Vec<Option<String>> = values.iter().map(|value| value.map(normalize::fold)).collect();
    let agree = folded.windows(2).all(|pair| pair[0] == pair[1]);
    let found = values.iter().flatten().next().map(|value| (*value).to_owned());
    (found, !agree)
}

/// Any other comparable value, by the same rule as [`merge_text`].
fn merge_value<T: PartialEq + Copy>(values: impl Iterator<Item = Option<T>>) -> (Option<T>, bool) {
    let values: Vec<Option<T>> = values.collect();
    let agree = values.windows(2).all(|pair| pair[0] == pair[1]);
    (values.iter().flatten().next().copied(), !agree)
}

/// A union of strings without case-insensitive repeats (first spelling
/// kept), leaving out anything in `except`.
fn union_text<'a>(values: impl Iterator<Item = &'a String>, except: &[String]) -> Vec<String> {
    let mut seen: BTreeSet<String> = except.iter().map(|value| normalize::fold(value)).collect();
    let mut out = Vec::new();
    for value in values {
        if seen.insert(normalize::fold(value)) {
            out.push(value.clone());
        }
    }
    out
}

/// Alternatives: the union of every extractor's list without the merged
/// base value; disputed when the extractors' lists differ (as folded sets).
fn merge_alternatives<'a>(lists: impl Iterator<Item = &'a Vec<String>>, base: Option<&str>) -> (Vec<String>, bool) {
    let lists: Vec<&Vec<String>> = lists.collect();
    let folded: Vec<BTreeSet<String>> =
        lists.iter().map(|list| list.iter().map(|value| normalize::fold(value)).collect()).collect();
    let disputed = folded.windows(2).any(|pair| pair[0] != pair[1]);
    let except: Vec<String> = base.map(str::to_owned).into_iter().collect();
    let merged = if base.is_some() { union_text(lists.into_iter().flatten(), &except) } else { Vec::new() };
    (merged, disputed)
}

/// The limit's currency: the one stated with the strictest limit (the first
/// such extractor's); the limit is disputed when extractors that stated a
/// limit named different currencies, as two amounts in different currencies
/// are not one limit.
fn merge_currency(outputs: &[Facts], strictest: Option<u64>) -> (Option<String>, bool) {
    let Some(strictest) = strictest else { return (None, false) };
    let currency = outputs
        .iter()
        .find(|facts| facts.explicit_max_cents == Some(strictest))
        .and_then(|facts| facts.explicit_max_currency.clone());
    let stated: BTreeSet<String> = outputs
        .iter()
        .filter(|facts| facts.explicit_max_cents.is_some())
        .filter_map(|facts| facts.explicit_max_currency.as_deref().map(str::to_ascii_uppercase))
        .collect();
    (currency, stated.len() > 1)
}

/// The price floor, under either policy: the strictest (the highest) any
/// extractor read, as the strictest limit is taken (a floor too strict
/// costs one question, one too loose lets a cheaper item through); its
/// currency is the one stated with it, and the floor is disputed when
/// extractors that stated one named different currencies.
fn merge_floor(outputs: &[Facts]) -> (Option<u64>, Option<String>, bool) {
    let Some(strictest) = outputs.iter().filter_map(|facts| facts.price_min_cents).max() else {
        return (None, None, false);
    };
    let currency = outputs
        .iter()
        .find(|facts| facts.price_min_cents == Some(strictest))
        .and_then(|facts| facts.price_min_currency.clone());
    let stated: BTreeSet<String> = outputs
        .iter()
        .filter(|facts| facts.price_min_cents.is_some())
        .filter_map(|facts| facts.price_min_currency.as_deref().map(str::to_ascii_uppercase))
        .collect();
    (Some(strictest), currency, stated.len() > 1)
}

/// A line's prices over extractors: the strictest ceiling (the lowest) and
/// floor (the highest), each with the currency said with it.
fn line_prices<'a>(
    lines: impl Iterator<Item = &'a Line> + Clone,
) -> (Option<u64>, Option<String>, Option<u64>, Option<String>) {
    let ceiling =
        lines.clone().filter(|line| line.explicit_max_cents.is_some()).min_by_key(|line| line.explicit_max_cents);
    let floor = lines.filter(|line| line.price_min_cents.is_some()).max_by_key(|line| line.price_min_cents);
    (
        ceiling.and_then(|line| line.explicit_max_cents),
        ceiling.and_then(|line| line.explicit_max_currency.clone()),
        floor.and_then(|line| line.price_min_cents),
        floor.and_then(|line| line.price_min_currency.clone()),
    )
}

/// Lines: equal → that list. A different number of lines among extractors
/// (an empty list included) → the first non-empty list, `lines` disputed.
/// The same number but a field differing → that field merged like any other
/// field, disputed as `lines[i].FIELD`.
fn merge_lines(outputs: &[Facts]) -> (Vec<Line>, Vec<FieldRef>) {
    let first_non_empty = outputs.iter().map(|facts| &facts.lines).find(|lines| !lines.is_empty());
    let Some(reference) = first_non_empty else { return (Vec::new(), Vec::new()) };
    if outputs.iter().any(|facts| facts.lines.len() != reference.len()) {
        return (reference.clone(), vec![FieldRef::Shared(FieldName::Lines)]);
    }
    let mut disputes = Vec::new();
    let mut merged = Vec::with_capacity(reference.len());
    for index in 0..reference.len() {
        let line_of = |facts: &'_ Facts| facts.lines[index].clone();
        let all: Vec<Line> = outputs.iter().map(line_of).collect();
        let (model, model_disputed) = merge_text(all.iter().map(|line| line.model.as_deref()));
        let (color, color_disputed) = merge_text(all.iter().map(|line| line.color.as_deref()));
        let (size_label, size_disputed) = merge_text(all.iter().map(|line| line.size_label.as_deref()));
        let (quantity, quantity_disputed) = merge_value(all.iter().map(|line| line.quantity));
        // Candidates (only facts given in code or a case carry them here):
        // the union, the field disputed when the lists differ, as shared.
        let (model_any, model_any_disputed) =
            merge_alternatives(all.iter().map(|line| &line.model_any), model.as_deref());
        let (color_any, color_any_disputed) =
            merge_alternatives(all.iter().map(|line| &line.color_any), color.as_deref());
        let (size_any, size_any_disputed) =
            merge_alternatives(all.iter().map(|line| &line.size_any), size_label.as_deref());
        let counts: Vec<BTreeSet<u64>> = all.iter().map(|line| line.quantity_any.iter().copied().collect()).collect();
        let quantity_any = match quantity {
            None => Vec::new(),
            Some(base) => union_counts(all.iter().flat_map(|line| line.quantity_any.iter()), base),
        };
        for (field, is_disputed) in [
            (FieldName::Model, model_disputed || model_any_disputed),
            (FieldName::Color, color_disputed || color_any_disputed),
            (FieldName::SizeLabel, size_disputed || size_any_disputed),
            (FieldName::Quantity, quantity_disputed || counts.windows(2).any(|pair| pair[0] != pair[1])),
        ] {
            if is_disputed {
                disputes.push(FieldRef::Line { index, field });
            }
        }
        // guard.md §3 has no product nor requirements per line: under `spec`
        // they merge as under `grounded` (`merge_product`, the union).
        let product = merge_product(all.iter().map(|line| line.product.as_deref()));
        let other = union_text(all.iter().flat_map(|line| line.other.iter()), &[]);
        let (explicit_max_cents, explicit_max_currency, price_min_cents, price_min_currency) = line_prices(all.iter());
        merged.push(Line {
            product,
            other,
            explicit_max_cents,
            explicit_max_currency,
            price_min_cents,
            price_min_currency,
            model,
            model_any,
            color,
            color_any,
            size_label,
            size_any,
            quantity,
            quantity_any,
        });
    }
    (merged, disputes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(json: &str) -> Facts {
        serde_json::from_str(json).unwrap()
    }

    fn disputed(merged: &Facts) -> Vec<String> {
        merged.disputed.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn strictest_deadline_and_limit_are_not_disputed() {
        let merged =
            merge(&[facts(r#"{"deadline_days": 5, "explicit_max_cents": 30000}"#), facts(r#"{"deadline_days": 3}"#)])
                .unwrap();
        assert_eq!((merged.deadline_days, merged.explicit_max_cents), (Some(3), Some(30000)));
        assert!(merged.disputed.is_empty());
    }

    #[test]
    fn issue_28_the_highest_floor_and_any_free_shipping_merge_undisputed() {
        let rules = facts(r#"{"price_min_cents": 5000, "price_min_currency": "USD", "free_shipping": true}"#);
        let model = facts("{}");
        let grounded = |facts: &Facts| GroundedFacts { facts: facts.clone(), soft_grounded: BTreeSet::new() };
        for merged in [
            merge(&[rules.clone(), model.clone()]).unwrap(),
            merge_grounded(&[grounded(&model), grounded(&rules)]).unwrap(),
        ] {
            assert_eq!((merged.price_min_cents, merged.price_min_currency.as_deref()), (Some(5000), Some("USD")));
            assert!(merged.free_shipping);
            assert!(merged.disputed.is_empty(), "{:?}", merged.disputed);
        }
        let other = facts(r#"{"price_min_cents": 7000, "price_min_currency": "EUR"}"#);
        let merged = merge(&[rules, other]).unwrap();
        assert_eq!((merged.price_min_cents, merged.price_min_currency.as_deref()), (Some(7000), Some("EUR")));
        assert_eq!(disputed(&merged), vec!["price_min_cents"]);
        // Facts without them merge to facts without them.
        let merged = merge(&[model.clone(), model]).unwrap();
        assert_eq!((merged.price_min_cents, merged.free_shipping), (None, false));
    }

    #[test]
    fn one_sided_and_conflicting_values_are_disputed() {
        let merged = merge(&[
            facts(r#"{"size_label": "42", "color": "Black"}"#),
            facts(r#"{"size_label": "43", "color": "black", "brand": "Nike"}"#),
        ])
        .unwrap();
        assert_eq!(merged.size_label.as_deref(), Some("42"));
        assert_eq!(merged.color.as_deref(), Some("Black"));
        assert_eq!(merged.brand.as_deref(), Some("Nike"));
        assert_eq!(disputed(&merged), vec!["brand", "size_label"]);
    }

    #[test]
    fn refundability_conflict_is_true_and_disputed() {
        let merged = merge(&[facts("{}"), facts(r#"{"needs_refundable": true}"#)]).unwrap();
        assert!(merged.needs_refundable);
        assert_eq!(disputed(&merged), vec!["needs_refundable"]);
    }

    #[test]
    fn excluded_brands_are_a_union() {
        let merged =
            merge(&[facts(r#"{"brand_not": ["Wilson"]}"#), facts(r#"{"brand_not": ["wilson", "Head"]}"#)]).unwrap();
        assert_eq!(merged.brand_not, vec!["Wilson", "Head"]);
        assert!(merged.disputed.is_empty());
    }

    #[test]
    fn line_count_and_line_field_disagreements_differ() {
        let two = r#"{"lines": [{"size_label": "40"}, {"size_label": "43"}]}"#;
        let count = merge(&[facts("{}"), facts(two)]).unwrap();
        assert_eq!(count.lines.len(), 2);
        assert_eq!(disputed(&count), vec!["lines"]);
        let field = merge(&[facts(two), facts(r#"{"lines": [{"size_label": "40"}, {"size_label": "44"}]}"#)]).unwrap();
        assert_eq!(field.lines[1].size_label.as_deref(), Some("43"));
        assert_eq!(disputed(&field), vec!["lines[1].size_label"]);
    }

    #[test]
    fn other_is_the_longest_and_optional_the_union() {
        let merged = merge(&[
            facts(r#"{"other": ["gluten-free"], "other_optional": ["gift wrap"], "soft": ["color"]}"#),
            facts(r#"{"other": ["gluten-free", "vegan"], "other_optional": ["Gift wrap", "vegan"], "soft": ["size_label"]}"#),
        ])
        .unwrap();
        assert_eq!(merged.other, vec!["gluten-free", "vegan"]);
        assert_eq!(merged.other_optional, vec!["gift wrap"]);
        assert_eq!(merged.soft.iter().map(ToString::to_string).collect::<Vec<_>>(), vec!["color", "size_label"]);
        assert!(merged.disputed.is_empty());
        let missing = merge(&[facts("{}"), facts(r#"{"other": ["vegan"]}"#)]).unwrap();
        assert_eq!(disputed(&missing), vec!["other"]);
    }

    fn grounded(json: &str, soft_grounded: &[&str]) -> GroundedFacts {
        GroundedFacts {
            facts: facts(json),
            soft_grounded: soft_grounded.iter().map(|name| FieldRef::parse(name).unwrap()).collect(),
        }
    }

    #[test]
    fn grounded_one_sided_is_the_value_and_conflicts_are_candidates() {
        let merged = merge_grounded(&[
            grounded(r#"{"size_label": "42", "color": "black", "quantity": 2}"#, &[]),
            grounded(r#"{"size_label": "43", "brand_not": ["Head"]}"#, &[]),
        ])
        .unwrap();
        assert_eq!(merged.size_label.as_deref(), Some("42"));
        assert_eq!(merged.size_any, vec!["43"]);
        assert_eq!((merged.color.as_deref(), merged.quantity), (Some("black"), Some(2)));
        assert_eq!(merged.brand_not, vec!["Head"]);
        assert!(merged.disputed.is_empty(), "{:?}", merged.disputed);
    }

    #[test]
    fn grounded_nested_models_take_every_word_said() {
        let nested = merge_grounded(&[
            grounded(r#"{"model": "AIRism Crew Neck"}"#, &[]),
            grounded(r#"{"model": "airism"}"#, &[]),
        ])
        .unwrap();
        assert_eq!(nested.model.as_deref(), Some("AIRism Crew Neck"));
        assert!(nested.disputed.is_empty(), "{:?}", nested.disputed);
        let apart = merge_grounded(&[
            grounded(r#"{"model": "iPhone 15 Silicone Case"}"#, &[]),
            grounded(r#"{"model": "iPhone 16 Silicone Case"}"#, &[]),
        ])
        .unwrap();
        assert_eq!(apart.model.as_deref(), Some("iPhone 15 Silicone Case"));
        assert_eq!(apart.model_any, vec!["iPhone 16 Silicone Case"]);
        assert!(apart.disputed.is_empty(), "both models were said: candidates, not a dispute: {:?}", apart.disputed);
    }

    #[test]
    fn grounded_models_that_do_not_nest_are_candidates_and_nested_ones_give_way() {
        let merged = merge_grounded(&[
            grounded(r#"{"model": "Pegasus 41"}"#, &[]),
            grounded(r#"{"model": "Vomero 17"}"#, &[]),
            grounded(r#"{"model": "pegasus 41"}"#, &[]),
            grounded(r#"{"model": "Pegasus"}"#, &[]),
        ])
        .unwrap();
        assert_eq!(merged.model.as_deref(), Some("Pegasus 41"));
        assert_eq!(merged.model_any, vec!["Vomero 17"], "a repeat is one reading, a nested one gives way");
        assert!(merged.disputed.is_empty(), "{:?}", merged.disputed);
        let shorter_first = merge_grounded(&[
            grounded(r#"{"model": "Pegasus"}"#, &[]),
            grounded(r#"{"model": "Vomero 17"}"#, &[]),
            grounded(r#"{"model": "Pegasus 41 Trail"}"#, &[]),
        ])
        .unwrap();
        assert_eq!(shorter_first.model.as_deref(), Some("Vomero 17"));
        assert_eq!(shorter_first.model_any, vec!["Pegasus 41 Trail"]);
    }

    #[test]
    fn grounded_quantity_conflicts_are_candidates() {
        let merged = merge_grounded(&[
            grounded(r#"{"quantity": 2}"#, &[]),
            grounded(r#"{"quantity": 6}"#, &[]),
            grounded(r#"{"quantity": 2}"#, &[]),
            grounded(r#"{"quantity": 3, "quantity_any": [6, 4]}"#, &[]),
        ])
        .unwrap();
        assert_eq!((merged.quantity, merged.quantity_any.as_slice()), (Some(2), &[6, 3, 4][..]));
        assert!(merged.disputed.is_empty(), "{:?}", merged.disputed);
        let one = merge_grounded(&[grounded("{}", &[]), grounded(r#"{"quantity": 6}"#, &[])]).unwrap();
        assert_eq!((one.quantity, one.quantity_any.len()), (Some(6), 0));
        let level =
            merge_grounded(&[grounded(r#"{"level": "pro"}"#, &[]), grounded(r#"{"level": "beginner"}"#, &[])]).unwrap();
        assert_eq!(disputed(&level), vec!["level"], "a level has no candidates: still disputed");
    }

    #[test]
    fn grounded_line_field_conflicts_are_candidates_per_line() {
        let merged = merge_grounded(&[
            grounded(
                r#"{"lines": [{"size_label": "40", "quantity": 1}, {"model": "Pegasus 41", "color": "black"}]}"#,
                &[],
            ),
            grounded(
                r#"{"lines": [{"size_label": "41", "quantity": 2}, {"model": "Vomero 17", "color": "Black"}]}"#,
                &[],
            ),
        ])
        .unwrap();
        assert!(merged.disputed.is_empty(), "{:?}", merged.disputed);
        assert_eq!(
            (merged.lines[0].size_label.as_deref(), merged.lines[0].size_any.as_slice()),
            (Some("40"), &["41".to_owned()][..])
        );
        assert_eq!((merged.lines[0].quantity, merged.lines[0].quantity_any.as_slice()), (Some(1), &[2][..]));
        assert_eq!(merged.lines[1].model_any, vec!["Vomero 17"]);
        assert!(merged.lines[1].color_any.is_empty(), "the same colour words are one reading");
        let spec = merge(&[
            facts(r#"{"lines": [{"size_label": "40"}, {"size_label": "43"}]}"#),
            facts(r#"{"lines": [{"size_label": "40"}, {"size_label": "44"}]}"#),
        ])
        .unwrap();
        assert!(spec.lines[1].size_any.is_empty());
        assert_eq!(disputed(&spec), vec!["lines[1].size_label"], "spec is unchanged");
    }

    #[test]
    fn spec_merge_still_disputes_model_and_quantity_conflicts() {
        let merged = merge(&[
            facts(r#"{"model": "Pegasus 41", "quantity": 2}"#),
            facts(r#"{"model": "Vomero 17", "quantity": 6}"#),
        ])
        .unwrap();
        assert_eq!((merged.model.as_deref(), merged.quantity), (Some("Pegasus 41"), Some(2)));
        assert!(merged.model_any.is_empty() && merged.quantity_any.is_empty());
        assert_eq!(disputed(&merged), vec!["model", "quantity"]);
        let given = merge(&[
            facts(r#"{"model": "Pegasus 41", "model_any": ["Vomero 17"], "quantity": 2, "quantity_any": [6]}"#),
            facts(r#"{"model": "Pegasus 41", "model_any": ["vomero 17"], "quantity": 2, "quantity_any": [6]}"#),
        ])
        .unwrap();
        assert_eq!(
            (given.model_any.as_slice(), given.quantity_any.as_slice()),
            (&["Vomero 17".to_owned()][..], &[6][..])
        );
        assert!(given.disputed.is_empty(), "the same candidates are agreement: {:?}", given.disputed);
    }

    #[test]
    fn grounded_soft_needs_the_words_or_every_stating_extractor() {
        let lone = merge_grounded(&[
            grounded(r#"{"color": "black"}"#, &[]),
            grounded(r#"{"color": "black", "size_label": "42", "soft": ["color", "size_label"]}"#, &[]),
        ])
        .unwrap();
        assert!(lone.soft.is_empty(), "one extractor alone never softens: {:?}", lone.soft);
        let both = merge_grounded(&[
            grounded(r#"{"color": "black", "soft": ["color"]}"#, &[]),
            grounded(r#"{"color": "black", "soft": ["color"]}"#, &[]),
        ])
        .unwrap();
        assert_eq!(both.soft.len(), 1);
        let said = merge_grounded(&[
            grounded(r#"{"color": "black", "soft": ["color"]}"#, &["color"]),
            grounded(r#"{"color": "black"}"#, &[]),
        ])
        .unwrap();
        assert_eq!(said.soft.len(), 1);
    }

    #[test]
    fn a_single_extractor_disputes_nothing() {
        let merged = merge(&[facts(r#"{"color": "black"}"#)]).unwrap();
        assert!(merged.disputed.is_empty());
        assert_eq!(merge(&[]), Err(MergeError::Empty));
    }

    #[test]
    fn a_line_s_prices_merge_to_the_strictest_with_their_currency() {
        let one = facts(
            r#"{"lines": [{"product": "belt", "explicit_max_cents": 21200, "explicit_max_currency": "PHP", "price_min_cents": 2500}, {"size_label": "M"}]}"#,
        );
        let two = facts(
            r#"{"lines": [{"product": "belt", "explicit_max_cents": 9000, "price_min_cents": 4000, "price_min_currency": "PHP"}, {"size_label": "M"}]}"#,
        );
        let grounded = |facts: Facts| GroundedFacts { facts, soft_grounded: BTreeSet::new() };
        let both = merge_grounded(&[grounded(one.clone()), grounded(two.clone())]).unwrap();
        for merged in [merge(&[one, two]).unwrap(), both] {
            let line = &merged.lines[0];
            assert_eq!((line.explicit_max_cents, line.explicit_max_currency.as_deref()), (Some(9000), None));
            assert_eq!((line.price_min_cents, line.price_min_currency.as_deref()), (Some(4000), Some("PHP")));
            assert_eq!(line.product.as_deref(), Some("belt"));
        }
    }

    #[test]
    fn products_that_nest_on_one_head_give_the_longer_and_others_give_none() {
        let product = |values: &[&str]| merge_product(values.iter().map(|value| Some(*value)));
        assert_eq!(product(&["Running Shoes", "running shoes"]).as_deref(), Some("Running Shoes"), "the first said");
        assert_eq!(product(&["shoes", "running shoes"]).as_deref(), Some("running shoes"));
        assert_eq!(product(&["running shoes", "shoes"]).as_deref(), Some("running shoes"));
        assert_eq!(product(&["belt", "leather belt", "men's leather belt"]).as_deref(), Some("men's leather belt"));
        assert_eq!(merge_product([None, Some("чехол"), None].into_iter()).as_deref(), Some("чехол"), "one said");
        for apart in [
            &["shoes", "socks"][..],
            &["running shoes", "trail shoes"],
            &["iPhone", "iPhone case"],
            &["чехол", "чехол для iPhone 15"],
            &["belt", "leather belt", "canvas belt"],
        ] {
            assert_eq!(product(apart), None, "{apart:?}");
        }
        assert_eq!(merge_product([None, None].into_iter()), None);
        // Under either policy, shared and per line, and never disputed.
        let short = facts(r#"{"product": "shoes", "lines": [{"product": "belt"}, {"product": "bag"}]}"#);
        let long = facts(r#"{"product": "running shoes", "lines": [{"product": "leather belt"}, {"product": "hat"}]}"#);
        let grounded = |facts: &Facts| GroundedFacts { facts: facts.clone(), soft_grounded: BTreeSet::new() };
        let both = merge_grounded(&[grounded(&short), grounded(&long)]).unwrap();
        for merged in [merge(&[short.clone(), long.clone()]).unwrap(), both] {
            assert_eq!(merged.product.as_deref(), Some("running shoes"));
            assert_eq!(merged.lines[0].product.as_deref(), Some("leather belt"));
            assert_eq!(merged.lines[1].product, None);
            assert!(
                !merged.disputed.iter().any(|field| field.to_string().ends_with("product")),
                "{:?}",
                merged.disputed
            );
        }
    }
}
