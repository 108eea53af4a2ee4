//! The shopping brief (`brief_order`): the facts of a request read when
//! shopping starts, not at checkout, put back to the agent in plain words
//! with what is unclear and a question to settle it now.
//!
//! Pure: the request, today and the extractor set's outcome in, the brief
//! out. The extraction itself is the service's (through the same
//! [`ExtractorSet`](crate::extract::set::ExtractorSet) and cache as a check,
//! so a later check of the same request and today calls no model). No
//! record is sealed: a brief decides nothing.

use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::extract::set::SetOutcome;
use crate::facts::{Facts, FieldName, FieldRef};
use crate::messages::{
    BriefAsk, BriefKind, BriefPart, BriefValue, Language, Message, Money, Spoken, field_words, render,
};

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
    /// The language of the summary and question: `en` or `ru`. Default:
    /// the request's (Russian when at least a quarter of its letters are
    /// Cyrillic), as for `check_order`.
    #[serde(default)]
    pub language: Option<Language>,
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

/// The brief of `request` read on `today` into `outcome`, in `language`.
/// The summary and question are the person's (from the message tables);
/// each `unclear` entry's `detail` is for the agent and stays English.
pub fn brief(request: String, today: NaiveDate, outcome: &SetOutcome, language: Language) -> BriefResult {
    let mut unclear = Vec::new();
    let mut asks: Vec<BriefAsk> = Vec::new();
    match &outcome.merged {
        Ok(facts) => {
            for field in &facts.disputed {
                let readings = readings(outcome, *field);
                let spoken = field_words(Language::En, &Spoken::Field(*field));
                let detail = readings
                    .iter()
                    .map(|(name, value)| format!("{name} read {spoken} as {}", agent_words(value)))
                    .collect::<Vec<_>>()
                    .join("; ");
                let mut values: Vec<BriefValue> = Vec::new();
                for (_, value) in readings {
                    if !values.contains(&value) {
                        values.push(value);
                    }
                }
                asks.push(BriefAsk::Which { field: Spoken::Field(*field), values });
                unclear.push(Unclear { field: field.to_string(), kind: UnclearKind::Disputed, detail });
            }
            for report in &outcome.reports {
                for dropped in report.grounding.iter().flat_map(|grounding| &grounding.dropped) {
                    // Grounding drops values, never a soft mark.
                    let field = dropped.field.to_string();
                    let ask = BriefAsk::Confirm { field: Spoken::parse(&field), value: dropped.value.clone() };
                    if !asks.contains(&ask) {
                        asks.push(ask);
                    }
                    unclear.push(Unclear {
                        field,
                        kind: UnclearKind::Ungrounded,
                        detail: dropped.note(&report.name).to_string(),
                    });
                }
            }
        }
        Err(failure) => {
            let detail = Message::CouldNotCheck { found: failure.found() }.to_string();
            unclear.push(Unclear { field: "$".to_owned(), kind: UnclearKind::CouldNotCheck, detail });
            asks.push(BriefAsk::Unreadable);
        }
    }
    let question = (!asks.is_empty()).then(|| render(language, &Message::BriefQuestion { asks }));
    let summary = match &outcome.merged {
        Ok(facts) => render(language, &plain_words(facts, today)),
        Err(_) => render(language, &Message::BriefNotRead),
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

/// A value as the agent's English detail names it.
fn agent_words(value: &BriefValue) -> String {
    match value {
        BriefValue::Nothing => "nothing".to_owned(),
        BriefValue::Yes => "yes".to_owned(),
        BriefValue::No => "no".to_owned(),
        BriefValue::Amount(amount) => amount.to_string(),
        BriefValue::Number(number) => number.to_string(),
        BriefValue::Words(words) => format!("“{words}”"),
    }
}

/// What each extractor read for `field`, as (extractor, value).
fn readings(outcome: &SetOutcome, field: FieldRef) -> Vec<(String, BriefValue)> {
    outcome
        .reports
        .iter()
        .filter_map(|report| {
            let facts = report.facts.as_ref()?;
            Some((report.name.clone(), brief_value(field, &value_at(facts, field))))
        })
        .collect()
}

/// The value of one field of `facts`, as JSON (null when absent).
fn value_at(facts: &Facts, field: FieldRef) -> Value {
    // Facts are plain data: serialising them cannot fail.
    let value = serde_json::to_value(facts).unwrap_or(Value::Null);
    match field {
        FieldRef::Shared(name) => value[name.as_str()].clone(),
        FieldRef::Line { index, field } => value[FieldName::Lines.as_str()][index][field.as_str()].clone(),
    }
}

/// A fact value as a person reads it: words, an amount, yes or no.
fn brief_value(field: FieldRef, value: &Value) -> BriefValue {
    let name = match field {
        FieldRef::Shared(name) | FieldRef::Line { field: name, .. } => name,
    };
    match value {
        Value::Null => BriefValue::Nothing,
        Value::Bool(true) => BriefValue::Yes,
        Value::Bool(false) => BriefValue::No,
        Value::Number(number) => match number.as_u64() {
            Some(cents) if name == FieldName::ExplicitMaxCents => BriefValue::Amount(Money::new(cents, None)),
            Some(count) => BriefValue::Number(count),
            None => BriefValue::Words(number.to_string()),
        },
        Value::String(text) => BriefValue::Words(text.clone()),
        Value::Array(values) if values.is_empty() => BriefValue::Nothing,
        Value::Array(values) => BriefValue::Words(
            values
                .iter()
                .map(|value| value.as_str().map_or_else(|| value.to_string(), str::to_owned))
                .collect::<Vec<_>>()
                .join(", "),
        ),
        Value::Object(_) => BriefValue::Words(value.to_string()),
    }
}

/// The facts as the parts of one sentence: "You asked for: Nike Pegasus
/// 41, white, size 42, at most 150.00 USD, delivered within 5 days (by
/// Saturday, 7 November)."
pub fn plain_words(facts: &Facts, today: NaiveDate) -> Message {
    let optional = |field: FieldName| facts.soft.contains(&FieldRef::Shared(field));
    let all = |first: &Option<String>, others: &[String]| {
        first.as_ref().map(|first| {
            let mut all = vec![first.clone()];
            all.extend(others.iter().cloned());
            all
        })
    };
    let mut parts: Vec<BriefPart> = Vec::new();
    let mut push = |kind: BriefKind, optional: bool| parts.push(BriefPart { kind, optional });
    let mut product = Vec::new();
    if let Some(brands) = all(&facts.brand, &facts.brand_any) {
        product.push(brands.join(" / "));
    }
    // Candidate models (the grounded merge's `model_any`) are named like
    // accepted brands: they are not disputed, so this is where the person
    // sees them.
    if let Some(models) = all(&facts.model, &facts.model_any) {
        product.push(models.join(" / "));
    }
    if !product.is_empty() {
        push(BriefKind::Product(product.join(" ")), optional(FieldName::Brand) || optional(FieldName::Model));
    }
    if let Some(colours) = all(&facts.color, &facts.color_any) {
        push(BriefKind::Colours(colours), optional(FieldName::Color));
    }
    if let Some(sizes) = all(&facts.size_label, &facts.size_any) {
        push(BriefKind::Sizes(sizes), optional(FieldName::SizeLabel));
    }
    if let Some(level) = facts.level {
        push(BriefKind::Level(level), optional(FieldName::Level));
    }
    if let Some(quantity) = facts.quantity {
        let counts = std::iter::once(quantity).chain(facts.quantity_any.iter().copied()).collect();
        push(BriefKind::Quantity(counts), optional(FieldName::Quantity));
    }
    for (index, line) in facts.lines.iter().enumerate() {
        let words = [&line.model, &line.color].into_iter().flatten().cloned().collect();
        push(BriefKind::Line { index, quantity: line.quantity, words, size: line.size_label.clone() }, false);
    }
    if let Some(preference) = facts.price_preference {
        let kind = match preference {
            crate::facts::PricePreference::Cheap => BriefKind::Cheap,
            crate::facts::PricePreference::Premium => BriefKind::Premium,
        };
        push(kind, optional(FieldName::PricePreference));
    }
    if let Some(cents) = facts.explicit_max_cents {
        push(
            BriefKind::Limit(Money::new(cents, facts.explicit_max_currency.as_deref())),
            optional(FieldName::ExplicitMaxCents),
        );
    }
    if facts.needs_refundable {
        push(BriefKind::Returnable, optional(FieldName::NeedsRefundable));
    }
    if let Some(days) = facts.deadline_days {
        let by = i64::try_from(days).ok().and_then(|days| today.checked_add_signed(chrono::Duration::days(days)));
        push(BriefKind::Deadline { days, by }, optional(FieldName::DeadlineDays));
    }
    if !facts.brand_not.is_empty() {
        push(BriefKind::NotBrands(facts.brand_not.clone()), false);
    }
    if !facts.color_not.is_empty() {
        push(BriefKind::NotColours(facts.color_not.clone()), false);
    }
    if !facts.other.is_empty() {
        push(BriefKind::MustBe(facts.other.clone()), false);
    }
    if !facts.other_optional.is_empty() {
        push(BriefKind::NiceToHave(facts.other_optional.clone()), false);
    }
    Message::BriefSummary { parts }
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
            quotes: Vec::new(),
            grounding: Some(Grounding { supported: vec![], dropped, ..Grounding::default() }),
        }
    }

    #[test]
    fn plain_words_name_candidate_models_and_counts() {
        let facts = Facts {
            brand: Some("Nike".into()),
            model: Some("Pegasus 41".into()),
            model_any: vec!["Vomero 17".into()],
            quantity: Some(2),
            quantity_any: vec![6],
            ..Facts::default()
        };
        assert_eq!(
            render(Language::En, &plain_words(&facts, today())),
            "You asked for: Nike Pegasus 41 / Vomero 17, 2 or 6 of them."
        );
        assert_eq!(
            render(Language::Ru, &plain_words(&facts, today())),
            "Вы просили: Nike Pegasus 41 / Vomero 17, 2 или 6 шт."
        );
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
            render(Language::En, &plain_words(&facts, today())),
            "You asked for: Nike Pegasus 41, white or grey (optional), size 42, at most 150.00 USD, returnable, \
             delivered within 5 days (by Saturday, 7 November)."
        );
        assert_eq!(
            render(Language::Ru, &plain_words(&facts, today())),
            "Вы просили: Nike Pegasus 41, «белый» или «серый» (необязательно), размер 42, не дороже 150,00 USD, \
             с возможностью возврата, с доставкой за 5 дней (к субботе, 7 ноября)."
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
        let dropped = Dropped { field: crate::facts::FactKey::SizeLabel.into(), value: "43".into() };
        let outcome = SetOutcome {
            reports: vec![report("fast", white, vec![]), report("slow", black, vec![dropped])],
            merged: Ok(merged),
        };
        let brief = brief("white shoes".into(), today(), &outcome, Language::En);
        let kinds: Vec<(&str, UnclearKind)> =
            brief.unclear.iter().map(|unclear| (unclear.field.as_str(), unclear.kind)).collect();
        assert_eq!(kinds, [("color", UnclearKind::Disputed), ("size_label", UnclearKind::Ungrounded)]);
        assert_eq!(brief.unclear[0].detail, "fast read the colour as “white”; slow read the colour as “black”");
        assert_eq!(
            brief.question.as_deref(),
            Some(
                "Before I start shopping, please tell me:\n\u{2013} Which do you mean for the colour: “white” or “black”?\n\
                 \u{2013} Should the size be “43”? Your words do not say so."
            )
        );
        assert_eq!(brief.today, "2026-11-02");
        let russian = super::brief("белые кроссовки".into(), today(), &outcome, Language::Ru);
        assert_eq!(
            russian.question.as_deref(),
            Some(
                "Прежде чем искать, подскажите, пожалуйста:\n\u{2013} Что вы имели в виду — цвет: «white» или «black»?\n\
                 \u{2013} Нужно ли условие «размер»: «43»? В ваших словах этого нет."
            )
        );
    }

    #[test]
    fn a_request_that_could_not_be_read_asks_again_and_a_clear_one_asks_nothing() {
        let failed = SetOutcome {
            reports: vec![],
            merged: Err(FailClosed { detail: "1 of 2 extractors succeeded".into(), screened: vec![] }),
        };
        let brief_failed = brief("shoes".into(), today(), &failed, Language::En);
        assert_eq!(brief_failed.facts, None);
        assert_eq!(brief_failed.unclear[0].kind, UnclearKind::CouldNotCheck);
        assert!(brief_failed.question.unwrap().contains("I could not read your request."));

        let clear =
            SetOutcome { reports: vec![], merged: Ok(Facts { brand: Some("Nike".into()), ..Facts::default() }) };
        let brief_clear = brief("Nike".into(), today(), &clear, Language::En);
        assert!(brief_clear.unclear.is_empty() && brief_clear.question.is_none());
        assert_eq!(brief_clear.summary, "You asked for: Nike.");
    }
}
