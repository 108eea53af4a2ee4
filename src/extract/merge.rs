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

use crate::facts::{Facts, FieldName, FieldRef, Line};
use crate::normalize;

/// Why a merge could not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    #[error("no extractor output to merge")]
    Empty,
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
        brand,
        brand_any,
        brand_not,
        model,
        color,
        color_any,
        color_not,
        size_label,
        size_any,
        level,
        price_preference,
        explicit_max_cents,
        explicit_max_currency,
        quantity,
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
        for (field, is_disputed) in [
            (FieldName::Model, model_disputed),
            (FieldName::Color, color_disputed),
            (FieldName::SizeLabel, size_disputed),
            (FieldName::Quantity, quantity_disputed),
        ] {
            if is_disputed {
                disputes.push(FieldRef::Line { index, field });
            }
        }
        merged.push(Line { model, color, size_label, quantity });
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

    #[test]
    fn a_single_extractor_disputes_nothing() {
        let merged = merge(&[facts(r#"{"color": "black"}"#)]).unwrap();
        assert!(merged.disputed.is_empty());
        assert_eq!(merge(&[]), Err(MergeError::Empty));
    }
}
