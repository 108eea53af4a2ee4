//! Extraction: turning the person's words into intent facts (guard.md §4).
//!
//! This module owns the [`Extractor`] trait that every method implements (the
//! offline `rules` parser, hosted providers, recorded replays), the wire shape
//! an extractor returns ([`ExtractedFacts`], whose JSON Schema is the contract
//! with models), the weekday-to-days conversion done by code, and the merge of
//! several extractors' facts. It never runs checks.

pub mod ground;
pub mod merge;
pub mod name;
pub mod prompt;
pub mod replay;
pub mod rules;
pub mod schema;
pub mod screen;
pub mod set;
pub mod strict_subset;

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::facts::{Facts, FieldRef, Level, Line, PricePreference};

pub use crate::words::date::{Weekday, days_until};

// One line as an extractor returns it: `Line` without the candidates, which
// only a merge writes. Named `Line` in the schema, and its doc comment (the
// schema's description) is `Line`'s own, so the schema models are held to
// is exactly what it was before lines had candidates.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Line")]
/// One variant of a multi-variant order ("size 40 for my wife and 43 for me").
/// Fields left `None` fall back to the shared facts.
pub struct ExtractedLine {
    /// What kind of thing this line asks for, when the lines are different
    /// products: the head noun phrase in the person's words ("leather
    /// belt"); an empty string when the line is the same product as the
    /// others or none is named.
    // An empty string, not null, on the wire (see `ExtractedFacts::product`).
    #[serde(default, deserialize_with = "empty_is_none", serialize_with = "none_is_empty")]
    #[schemars(with = "String")]
    pub product: Option<String>,
    /// This line's own must-have requirements (`rules` only, for now).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(skip)]
    pub other: Vec<String>,
    /// The most this line's item may cost each (`rules` only, for now).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(skip)]
    pub explicit_max_cents: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(skip)]
    pub explicit_max_currency: Option<String>,
    /// The least this line's item may cost each (`rules` only, for now).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(skip)]
    pub price_min_cents: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(skip)]
    pub price_min_currency: Option<String>,
    #[serde(default)]
    pub model: Option<String>,
    #[serde(default)]
    pub color: Option<String>,
    #[serde(default)]
    pub size_label: Option<String>,
    #[serde(default)]
    pub quantity: Option<u64>,
}

impl ExtractedLine {
    /// The line as facts hold it, without candidates.
    pub fn into_line(self) -> Line {
        Line {
            product: self.product,
            other: self.other,
            explicit_max_cents: self.explicit_max_cents,
            explicit_max_currency: self.explicit_max_currency,
            price_min_cents: self.price_min_cents,
            price_min_currency: self.price_min_currency,
            model: self.model,
            color: self.color,
            size_label: self.size_label,
            quantity: self.quantity,
            ..Line::default()
        }
    }

    /// The extractor's shape of a line: its values, its candidates left out.
    pub fn of(line: &Line) -> ExtractedLine {
        ExtractedLine {
            product: line.product.clone(),
            other: line.other.clone(),
            explicit_max_cents: line.explicit_max_cents,
            explicit_max_currency: line.explicit_max_currency.clone(),
            price_min_cents: line.price_min_cents,
            price_min_currency: line.price_min_currency.clone(),
            model: line.model.clone(),
            color: line.color.clone(),
            size_label: line.size_label.clone(),
            quantity: line.quantity,
        }
    }
}

/// One extractor's output on the wire: the facts of guard.md §3 without
/// `disputed` (only a merge can dispute), plus `deadline_weekday` for named
/// weekdays, which code turns into days. This is the type whose JSON Schema
/// models are held to.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExtractedFacts {
    /// What kind of thing the person asked for: the head noun phrase, in
    /// the person's words ("running shoes", "чехол"), without what it is
    /// for or fits; an empty string when the request names none.
    // An empty string, not null, on the wire: Anthropic's strict mode
    // takes at most 16 parameters with `anyOf` or a type array, and the
    // schema had 16 before `product` (`strict_subset`). Read back as
    // `None`, so facts never hold an empty product; written as "" for
    // `None`, so an extractor's raw output (a `rules` recording) replays.
    #[serde(default, deserialize_with = "empty_is_none", serialize_with = "none_is_empty")]
    #[schemars(with = "String")]
    pub product: Option<String>,
    /// Brand the person chose; null if none or only excluded. With several
    /// accepted brands ("brand A or brand B"), the first named.
    #[serde(default)]
    pub brand: Option<String>,
    /// The other brands the person accepts besides `brand` ("brand A or brand B" → ["brand B"]).
    #[serde(default)]
    pub brand_any: Vec<String>,
    /// Brands the person excluded ("anything but Wilson").
    #[serde(default)]
    pub brand_not: Vec<String>,
    /// Model or product line as named, without the brand.
    #[serde(default)]
    pub model: Option<String>,
    /// Colour chosen; null if none or only excluded. With several accepted
    /// colours ("black or navy"), the first named.
    #[serde(default)]
    pub color: Option<String>,
    /// The other colours the person accepts besides `color` ("black ideally, white is fine" → ["white"]).
    #[serde(default)]
    pub color_any: Vec<String>,
    /// Colours the person excluded ("not red", "any colour except pink").
    #[serde(default)]
    pub color_not: Vec<String>,
    /// Size as stated ("42", "4 3/8", "M"). With several accepted sizes, the first named.
    #[serde(default)]
    pub size_label: Option<String>,
    /// The other sizes the person accepts besides `size_label` ("42 or 43" → ["43"]).
    #[serde(default)]
    pub size_any: Vec<String>,
    #[serde(default)]
    pub level: Option<Level>,
    #[serde(default)]
    pub price_preference: Option<PricePreference>,
    /// A stated spending limit in minor units (cents). Hyperbole is not a limit.
    #[serde(default)]
    pub explicit_max_cents: Option<u64>,
    /// The limit's currency as ISO 4217 ("USD" for $ or dollars, "RUB" for рублей), null if none is said.
    #[serde(default)]
    pub explicit_max_currency: Option<String>,
    /// The least one item may cost, in minor units ("above $50"). Read by
    /// the `rules` extractor only for now, like `product`: not in the
    /// schema models are held to (issue 28 §5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(skip)]
    pub price_min_cents: Option<u64>,
    /// The floor's currency as ISO 4217, when said. Not in the schema.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(skip)]
    pub price_min_currency: Option<String>,
    /// The person asked for free shipping or delivery. Not in the schema.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[schemars(skip)]
    pub free_shipping: bool,
    /// How many, in the units the person counts.
    #[serde(default)]
    pub quantity: Option<u64>,
    /// True if the person wants to be able to return or exchange.
    #[serde(default)]
    pub needs_refundable: bool,
    /// Days until a stated deadline that is not a named weekday.
    #[serde(default)]
    pub deadline_days: Option<u64>,
    /// A deadline stated as a weekday ("by Friday"); code counts the days.
    #[serde(default)]
    pub deadline_weekday: Option<Weekday>,
    /// Several variants in one order; empty otherwise.
    #[serde(default)]
    pub lines: Vec<ExtractedLine>,
    /// Must-have requirements no other field holds, in the person's words.
    #[serde(default)]
    pub other: Vec<String>,
    /// Nice-to-have requirements, in the person's words.
    #[serde(default)]
    pub other_optional: Vec<String>,
    /// Names of fields the person marked optional.
    // Strings in Rust, so that an unknown name is a located validation
    // error rather than a serde failure; the schema says which names exist.
    #[serde(default)]
    #[schemars(with = "Vec<FieldRef>")]
    pub soft: Vec<String>,
    /// For each field filled, the person's words that state it, copied
    /// exactly (the shortest such words).
    // A model's own claim of where it read each value: grounding checks
    // that the quote is the person's words and shows it as the support
    // (docs/semantics.md, "Quotes"). Not a fact: `into_facts` leaves it out.
    #[serde(default)]
    pub evidence: Vec<Quote>,
}

/// One quote: the field it supports and the words, verbatim.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Quote {
    /// The field (`size_label`, `lines[1].color`); a quote for an
    /// alternative or an exclusion names the field itself (`color`).
    #[schemars(with = "FieldRef")]
    pub field: String,
    /// The request's (or an answer's) words, exactly as written.
    pub quote: String,
}

/// Reads a string fact whose "not stated" is an empty string on the wire
/// (`product`): blank is `None`, anything else is the value as written.
fn empty_is_none<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    let text = Option::<String>::deserialize(deserializer)?;
    Ok(text.filter(|text| !text.trim().is_empty()))
}

/// Writes such a fact back: `None` as the empty string the schema asks for.
fn none_is_empty<S: serde::Serializer>(value: &Option<String>, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(value.as_deref().unwrap_or_default())
}

impl ExtractedFacts {
    /// Resolves a weekday deadline against `today` and returns plain facts.
    /// When both a weekday and days are given, the stricter counts.
    pub fn into_facts(self, today: NaiveDate) -> Facts {
        let weekday_days = self.deadline_weekday.map(|weekday| days_until(today, weekday));
        let deadline_days = match (self.deadline_days, weekday_days) {
            (Some(days), Some(weekday)) => Some(days.min(weekday)),
            (days, weekday) => days.or(weekday),
        };
        Facts {
            product: self.product,
            brand: self.brand,
            brand_any: self.brand_any,
            brand_not: self.brand_not,
            model: self.model,
            // Candidates are the grounded merge's, never an extractor's.
            model_any: Vec::new(),
            color: self.color,
            color_any: self.color_any,
            color_not: self.color_not,
            size_label: self.size_label,
            size_any: self.size_any,
            level: self.level,
            price_preference: self.price_preference,
            explicit_max_cents: self.explicit_max_cents,
            price_min_cents: self.price_min_cents,
            price_min_currency: self.price_min_currency,
            free_shipping: self.free_shipping,
            asked: Default::default(),
            explicit_max_currency: self.explicit_max_currency,
            quantity: self.quantity,
            quantity_any: Vec::new(),
            needs_refundable: self.needs_refundable,
            deadline_days,
            lines: self.lines.into_iter().map(ExtractedLine::into_line).collect(),
            other: self.other,
            other_optional: self.other_optional,
            // `schema::validate` refused any name that does not parse, and the
            // rules extractor writes names from `FieldName`.
            soft: self.soft.iter().filter_map(|name| FieldRef::parse(name)).collect(),
            disputed: Default::default(),
        }
    }
}

/// What one extraction is asked.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ExtractInput {
    /// The person's words, verbatim.
    pub request: String,
    /// The date deadlines are counted from; an input, never the clock.
    pub today: NaiveDate,
    /// The person's own clarifications after an earlier question, in order.
    pub answers: Vec<String>,
}

/// What an extraction cost, as the provider reported it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Cost {
    pub latency_ms: u64,
    /// Every prompt token, cached or not (Anthropic's `input_tokens` plus its
    /// cache reads and writes; OpenAI's `prompt_tokens`), so that
    /// `cached_input_tokens / input_tokens` is the cached share.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    /// Of `input_tokens`, those read from the provider's prompt cache
    /// (Anthropic `cache_read_input_tokens`, OpenAI
    /// `prompt_tokens_details.cached_tokens`); absent when the provider did not say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cached_input_tokens: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
}

/// One extractor's successful output.
#[derive(Debug, Clone, PartialEq)]
pub struct Extraction {
    /// The validated output, weekday not yet resolved.
    pub extracted: ExtractedFacts,
    /// The raw output as the method produced it, for evidence and replay.
    pub raw: serde_json::Value,
    pub cost: Cost,
}

/// Why an extractor produced no facts. Every variant fails the check closed.
#[derive(Debug, thiserror::Error)]
pub enum ExtractError {
    #[error("http error: {0}")]
    Http(String),
    #[error("timed out after {0:?}")]
    Timeout(Duration),
    #[error("provider returned status {status}: {body}")]
    Status { status: u16, body: String },
    #[error("malformed output: {0}")]
    Malformed(String),
    #[error("output does not match the facts schema: {0}")]
    SchemaInvalid(String),
    #[error("the model refused: {0}")]
    Refused(String),
    #[error("output was cut off at the token limit")]
    Truncated,
    #[error("missing API key: environment variable {0} is not set")]
    MissingKey(String),
    #[error("no recorded output for this request: {0}")]
    NotRecorded(String),
    #[error("{0}")]
    Other(String),
}

/// A boxed future, so extractors can be used as trait objects in a
/// configured set.
pub type ExtractFuture<'a> = Pin<Box<dyn Future<Output = Result<Extraction, ExtractError>> + Send + 'a>>;

/// One independent method of extracting facts from a request.
pub trait Extractor: Send + Sync {
    /// The configured name (`rules`, `claude`, `local`…), used in `--extractors`,
    /// evidence and reports.
    fn name(&self) -> &str;

    /// Extracts facts from one request.
    fn extract<'a>(&'a self, input: &'a ExtractInput) -> ExtractFuture<'a>;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(text: &str) -> NaiveDate {
        NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn weekdays_count_inclusive_from_today() {
        // 2026-11-02 is a Monday.
        assert_eq!(days_until(date("2026-11-02"), Weekday::Friday), 4);
        assert_eq!(days_until(date("2026-11-02"), Weekday::Monday), 0);
        assert_eq!(days_until(date("2026-11-06"), Weekday::Friday), 0, "by Friday on a Friday is today");
        assert_eq!(days_until(date("2026-11-07"), Weekday::Friday), 6);
        assert_eq!(days_until(date("2026-11-29"), Weekday::Monday), 1, "from Sunday");
    }

    #[test]
    fn weekday_becomes_days_and_the_stricter_wins() {
        let extracted = ExtractedFacts { deadline_weekday: Some(Weekday::Friday), ..ExtractedFacts::default() };
        assert_eq!(extracted.clone().into_facts(date("2026-11-02")).deadline_days, Some(4));
        let both = ExtractedFacts { deadline_days: Some(2), ..extracted };
        assert_eq!(both.into_facts(date("2026-11-02")).deadline_days, Some(2));
    }
}
