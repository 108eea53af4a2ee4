//! The shopping brief (`brief_order`): the facts of a request read when
//! shopping starts, not at checkout, put back to the agent in plain words
//! with what is unclear and a question to settle it now.
//!
//! Pure: the request, today and the extractor set's outcome in, the brief
//! out. The extraction itself is the service's (through the same
//! [`ExtractorSet`](crate::extract::set::ExtractorSet) and cache as a check,
//! so a later check of the same request and today calls no model). No
//! record is sealed: a brief decides nothing.

use std::collections::BTreeSet;

use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::extract::set::SetOutcome;
use crate::facts::{Facts, FieldName, FieldRef};
use crate::messages::{Language, Message, Spoken, field_words};

/// The arguments of `brief_order`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BriefRequest {
    /// The person's own words to you, verbatim: what they asked you to buy,
    /// with every condition they stated. Pass the very same text to
    /// `check_order` later: its facts are then already read.
    pub request: String,
    /// Today's date, ISO (`2026-11-02`) or as written ("Monday, 2 November
    /// 2026"); deadlines are counted from it. Default: the server's date.
    /// Pass the same `today` to `check_order`.
    #[serde(default)]
    pub today: Option<String>,
}

/// Why a fact is unclear.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum UnclearKind {
    /// The extractors read different values; the check uses the first one.
    Disputed,
    /// An extractor read a value the person's words do not support; it was
    /// dropped and the check ignores it.
    Ungrounded,
    /// The request could not be read at all: a check would ask the person.
    CouldNotCheck,
}

/// One thing the brief could not settle from the person's words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Unclear {
    /// The fact field (`color`, `lines[1].size_label`), or `$` when the
    /// request could not be read.
    pub field: String,
    pub kind: UnclearKind,
    /// One sentence for the person: what was read, by which extractor.
    pub detail: String,
}

/// The brief (the `brief_order` tool's output).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BriefResult {
    /// The person's words as they will be checked (trimmed): pass exactly
    /// this as `request` to `check_order`.
    pub request: String,
    /// What the person asked for, in plain words, built from the facts:
    /// shop for this.
    pub summary: String,
    /// The facts extracted from the request (with `soft` and `disputed`);
    /// null when the request could not be read.
    pub facts: Option<Facts>,
    /// What the words leave unclear: disputed fields, values an extractor
    /// read that the words do not say, or a request that could not be read.
    pub unclear: Vec<Unclear>,
    /// When something is unclear: a question to show the person now,
    /// verbatim, before you shop.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    /// The date deadlines were counted from (ISO); pass it as `today` to
    /// `check_order`.
    pub today: String,
}

/// The brief of `request` read on `today` into `outcome`.
pub fn brief(request: String, today: NaiveDate, outcome: &SetOutcome) -> BriefResult {
    let mut unclear = Vec::new();
    let mut questions = Vec::new();
    match &outcome.merged {
        Ok(facts) => {
            for field in &facts.disputed {
                let readings = readings(outcome, *field);
                let spoken = field_words(Language::En, &Spoken::Field(*field));
                let detail = readings
                    .iter()
                    .map(|(name, value)| format!("{name} read {spoken} as {value}"))
                    .collect::<Vec<_>>()
                    .join("; ");
                let distinct: BTreeSet<&str> = readings.iter().map(|(_, value)| value.as_str()).collect();
                questions.push(format!(
                    "Which {} do you want: {}?",
                    spoken.strip_prefix("the ").unwrap_or(&spoken),
                    distinct.into_iter().collect::<Vec<_>>().join(" or ")
                ));
                unclear.push(Unclear { field: field.to_string(), kind: UnclearKind::Disputed, detail });
            }
            for report in &outcome.reports {
                for dropped in report.grounding.iter().flat_map(|grounding| &grounding.dropped) {
                    let field = dropped.field.strip_prefix("soft:").unwrap_or(&dropped.field);
                    let spoken = field_words(Language::En, &Spoken::parse(field));
                    let question = if dropped.field.starts_with("soft:") {
                        format!("Is {spoken} optional for you? Your words do not say so.")
                    } else {
                        format!("Should {spoken} be “{}”? Your words do not say so.", dropped.value)
                    };
                    if !questions.contains(&question) {
                        questions.push(question);
                    }
                    unclear.push(Unclear {
                        field: field.to_owned(),
                        kind: UnclearKind::Ungrounded,
                        detail: dropped.note(&report.name).to_string(),
                    });
                }
            }
        }
        Err(failure) => {
            let detail = Message::CouldNotCheck { found: failure.found() }.to_string();
            unclear.push(Unclear { field: "$".to_owned(), kind: UnclearKind::CouldNotCheck, detail });
            questions.push("I could not read your request. What would you like me to buy, in a few words?".to_owned());
        }
    }
    let question = (!questions.is_empty()).then(|| {
        let lines: Vec<String> = questions.iter().map(|question| format!("\u{2013} {question}")).collect();
        format!("Before I start shopping, please tell me:\n{}", lines.join("\n"))
    });
    let summary = match &outcome.merged {
        Ok(facts) => plain_words(facts, today),
        Err(_) => "I could not read the request yet.".to_owned(),
    };
    BriefResult {
        request,
        summary,
        facts: outcome.merged.as_ref().ok().cloned(),
        unclear,
        question,
        today: today.to_string(),
    }
}

/// What each extractor read for `field`, as (extractor, quoted value).
fn readings(outcome: &SetOutcome, field: FieldRef) -> Vec<(String, String)> {
    outcome
        .reports
        .iter()
        .filter_map(|report| {
            let facts = report.facts.as_ref()?;
            Some((report.name.clone(), spoken_value(field, &value_at(facts, field))))
        })
        .collect()
}

/// The value of one field of `facts`, as JSON (null when absent).
fn value_at(facts: &Facts, field: FieldRef) -> Value {
    // Facts are plain data: serialising them cannot fail.
    let value = serde_json::to_value(facts).unwrap_or(Value::Null);
    match field {
        FieldRef::Shared(name) => value[name.as_str()].clone(),
        FieldRef::Line { index, field } => value["lines"][index][field.as_str()].clone(),
    }
}

/// A fact value as a person reads it: quoted words, an amount, yes or no.
fn spoken_value(field: FieldRef, value: &Value) -> String {
    let name = match field {
        FieldRef::Shared(name) | FieldRef::Line { field: name, .. } => name,
    };
    match value {
        Value::Null => "nothing".to_owned(),
        Value::Bool(true) => "yes".to_owned(),
        Value::Bool(false) => "no".to_owned(),
        Value::Number(number) if name == FieldName::ExplicitMaxCents => {
            number.as_u64().map_or_else(|| number.to_string(), |cents| amount(cents, None))
        }
        Value::Number(number) => number.to_string(),
        Value::String(text) => format!("“{text}”"),
        Value::Array(values) if values.is_empty() => "nothing".to_owned(),
        Value::Array(values) => values.iter().map(|value| spoken_value(field, value)).collect::<Vec<_>>().join(", "),
        Value::Object(_) => value.to_string(),
    }
}

fn amount(cents: u64, currency: Option<&str>) -> String {
    let number = format!("{}.{:02}", cents / 100, cents % 100);
    match currency {
        Some(currency) => format!("{number} {currency}"),
        None => number,
    }
}

/// The facts as one sentence: "You asked for: Nike Pegasus 41, white, size
/// 42, at most 150.00 USD, delivered within 5 days (by 2026-11-07)."
pub fn plain_words(facts: &Facts, today: NaiveDate) -> String {
    let optional = |field: FieldName, text: String| {
        if facts.soft.contains(&FieldRef::Shared(field)) { format!("{text} (optional)") } else { text }
    };
    let alternatives = |first: &Option<String>, others: &[String]| {
        first.as_ref().map(|first| {
            let mut all = vec![first.clone()];
            all.extend(others.iter().cloned());
            all.join(" or ")
        })
    };
    let mut parts: Vec<String> = Vec::new();
    let mut product = Vec::new();
    if let Some(brand) = alternatives(&facts.brand, &facts.brand_any) {
        product.push(optional(FieldName::Brand, brand));
    }
    if let Some(model) = &facts.model {
        product.push(optional(FieldName::Model, model.clone()));
    }
    if !product.is_empty() {
        parts.push(product.join(" "));
    }
    if let Some(color) = alternatives(&facts.color, &facts.color_any) {
        parts.push(optional(FieldName::Color, color));
    }
    if let Some(size) = alternatives(&facts.size_label, &facts.size_any) {
        parts.push(optional(FieldName::SizeLabel, format!("size {size}")));
    }
    if let Some(level) = facts.level {
        parts.push(optional(FieldName::Level, format!("{} level", level.as_str())));
    }
    if let Some(quantity) = facts.quantity {
        parts.push(optional(FieldName::Quantity, format!("{quantity} of them")));
    }
    for (index, line) in facts.lines.iter().enumerate() {
        let mut words = Vec::new();
        if let Some(quantity) = line.quantity {
            words.push(format!("{quantity} ×"));
        }
        for text in [&line.model, &line.color].into_iter().flatten() {
            words.push(text.clone());
        }
        if let Some(size) = &line.size_label {
            words.push(format!("size {size}"));
        }
        parts.push(format!("item {}: {}", index + 1, words.join(" ")));
    }
    if let Some(preference) = facts.price_preference {
        let text = match preference {
            crate::facts::PricePreference::Cheap => "as cheap as possible",
            crate::facts::PricePreference::Premium => "a premium one",
        };
        parts.push(optional(FieldName::PricePreference, text.to_owned()));
    }
    if let Some(cents) = facts.explicit_max_cents {
        let limit = format!("at most {}", amount(cents, facts.explicit_max_currency.as_deref()));
        parts.push(optional(FieldName::ExplicitMaxCents, limit));
    }
    if facts.needs_refundable {
        parts.push(optional(FieldName::NeedsRefundable, "returnable".to_owned()));
    }
    if let Some(days) = facts.deadline_days {
        let by = i64::try_from(days).ok().and_then(|days| today.checked_add_signed(chrono::Duration::days(days)));
        let text = match by {
            Some(date) => format!("delivered within {days} days (by {date})"),
            None => format!("delivered within {days} days"),
        };
        parts.push(optional(FieldName::DeadlineDays, text));
    }
    if !facts.brand_not.is_empty() {
        parts.push(format!("not {}", facts.brand_not.join(" nor ")));
    }
    if !facts.color_not.is_empty() {
        parts.push(format!("not in {}", facts.color_not.join(" nor ")));
    }
    if !facts.other.is_empty() {
        parts.push(format!("it must be: {}", facts.other.join("; ")));
    }
    if !facts.other_optional.is_empty() {
        parts.push(format!("nice to have: {}", facts.other_optional.join("; ")));
    }
    if parts.is_empty() {
        return "You asked for: nothing I could read as a condition; any item would pass the check.".to_owned();
    }
    format!("You asked for: {}.", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::Cost;
    use crate::extract::ground::{Dropped, Grounding};
    use crate::extract::set::{ExtractorReport, FailClosed};

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, 2).unwrap()
    }

    fn report(name: &str, facts: Facts, dropped: Vec<Dropped>) -> ExtractorReport {
        ExtractorReport {
            name: name.to_owned(),
            facts: Some(facts),
            raw: None,
            error: None,
            cost: Cost::default(),
            grounding: Some(Grounding { supported: vec![], dropped, soft_grounded: BTreeSet::new() }),
        }
    }

    #[test]
    fn plain_words_name_every_condition_and_mark_the_optional_ones() {
        let facts = Facts {
            brand: Some("Nike".into()),
            model: Some("Pegasus 41".into()),
            color: Some("white".into()),
            color_any: vec!["grey".into()],
            size_label: Some("42".into()),
            explicit_max_cents: Some(15000),
            explicit_max_currency: Some("USD".into()),
            deadline_days: Some(5),
            needs_refundable: true,
            soft: [FieldRef::Shared(FieldName::Color)].into_iter().collect(),
            ..Facts::default()
        };
        assert_eq!(
            plain_words(&facts, today()),
            "You asked for: Nike Pegasus 41, white or grey (optional), size 42, at most 150.00 USD, returnable, \
             delivered within 5 days (by 2026-11-07)."
        );
    }

    #[test]
    fn disputed_and_ungrounded_fields_are_unclear_with_one_question() {
        let white = Facts { color: Some("white".into()), ..Facts::default() };
        let black = Facts { color: Some("black".into()), ..Facts::default() };
        let merged = Facts {
            color: Some("white".into()),
            disputed: [FieldRef::Shared(FieldName::Color)].into_iter().collect(),
            ..Facts::default()
        };
        let dropped = Dropped { field: "size_label".into(), value: "43".into() };
        let outcome = SetOutcome {
            reports: vec![report("fast", white, vec![]), report("slow", black, vec![dropped])],
            merged: Ok(merged),
        };
        let brief = brief("white shoes".into(), today(), &outcome);
        let kinds: Vec<(&str, UnclearKind)> =
            brief.unclear.iter().map(|unclear| (unclear.field.as_str(), unclear.kind)).collect();
        assert_eq!(kinds, [("color", UnclearKind::Disputed), ("size_label", UnclearKind::Ungrounded)]);
        assert_eq!(brief.unclear[0].detail, "fast read the colour as “white”; slow read the colour as “black”");
        assert_eq!(
            brief.question.as_deref(),
            Some(
                "Before I start shopping, please tell me:\n\u{2013} Which colour do you want: “black” or “white”?\n\
                 \u{2013} Should the size be “43”? Your words do not say so."
            )
        );
        assert_eq!(brief.today, "2026-11-02");
    }

    #[test]
    fn a_request_that_could_not_be_read_asks_again_and_a_clear_one_asks_nothing() {
        let failed = SetOutcome {
            reports: vec![],
            merged: Err(FailClosed { detail: "1 of 2 extractors succeeded".into(), screened: vec![] }),
        };
        let brief_failed = brief("shoes".into(), today(), &failed);
        assert_eq!(brief_failed.facts, None);
        assert_eq!(brief_failed.unclear[0].kind, UnclearKind::CouldNotCheck);
        assert!(brief_failed.question.unwrap().contains("I could not read your request."));

        let clear =
            SetOutcome { reports: vec![], merged: Ok(Facts { brand: Some("Nike".into()), ..Facts::default() }) };
        let brief_clear = brief("Nike".into(), today(), &clear);
        assert!(brief_clear.unclear.is_empty() && brief_clear.question.is_none());
        assert_eq!(brief_clear.summary, "You asked for: Nike.");
    }
}
