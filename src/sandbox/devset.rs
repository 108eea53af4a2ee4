//! The real-request dev set (`tests/extraction/real.jsonl`): parsing its rows
//! and scoring an extractor on them with per-field precision and recall.
//!
//! This module owns the scoring rules of the dev set; it reads no file (the
//! caller passes the text) and runs no extractor itself (the caller passes a
//! function from a row to facts), so the same figures come out of
//! `tests/it/extraction_accuracy.rs`, a bench or a script.
//!
//! Scoring, per field. A prediction is *filled* when it is non-null, non-empty
//! or true; every element of a list counts once. An extracted element is
//! *correct* when it matches some gold element of the same field, and a gold
//! element is *found* when some extracted element matches it; precision is
//! correct / filled and recall is found / stated (for a single value both
//! numerators are the same). Matching:
//! - strings after [`normalize::fold`](crate::normalize::fold); colours (`color`, `color_any`,
//!   `color_not`, line colours) as [`ColourWords`], so "gray" = "grey";
//!   sizes (`size_label`, `size_any`, line sizes) by [`Size::matches`], so
//!   "XL" = "X-Large" and "EU 42" = "42";
//! - `other` and `other_optional`: an extracted phrase matches a gold phrase
//!   when it holds at least half of the gold phrase's content words (its
//!   words minus the function words of [`FUNCTION_WORDS`]), so a paraphrase
//!   or a longer quote of the same condition is not a miss. One long phrase
//!   may so match several gold phrases; the per-element precision keeps that
//!   honest only in one direction, which is why `other` is reported but not
//!   among the fields the recall target is computed over;
//! - `lines` element by element (model, colour, size, quantity all equal).
//!
//! A request has an *invented fact* when some field other than `other` and
//! `other_optional` holds an element the gold does not state.
//!
//! The five keys the gold uses beyond guard.md §3 (`brand_any`, `color_any`,
//! `size_any`, `color_not`, `explicit_max_currency`) are kept apart from the
//! [`Facts`] when the facts type does not know them, and scored from JSON:
//! every comparison here is by field name over `serde_json::Value`, so a
//! field the facts type gains is scored as soon as an extractor fills it.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use chrono::NaiveDate;
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::facts::{FactKey, Facts};
use crate::normalize::{ColourWords, Size, fold, words};

/// The fields scored, in report order: the comparison's (guard.md §3
/// without `disputed`, then `other`, `other_optional` and `soft`), so the
/// dev set and `asasked compare` score the same fields.
pub const FIELDS: [FactKey; 20] = super::compare::FIELDS;

/// The fields the recall target of issue 12 is computed over.
pub const RECALL_TARGET_FIELDS: [FactKey; 8] = [
    FactKey::Brand,
    FactKey::BrandNot,
    FactKey::Color,
    FactKey::SizeLabel,
    FactKey::ExplicitMaxCents,
    FactKey::Quantity,
    FactKey::DeadlineDays,
    FactKey::NeedsRefundable,
];

/// Gold keys beyond the facts of guard.md §3 (see tests/extraction/README.md).
pub const EXTENSION_KEYS: [FactKey; 5] =
    [FactKey::BrandAny, FactKey::ColorAny, FactKey::SizeAny, FactKey::ColorNot, FactKey::ExplicitMaxCurrency];

/// Words that carry no condition of their own, for matching free-text
/// requirements: articles, prepositions, conjunctions, copulas, pronouns.
pub const FUNCTION_WORDS: &[&str] = &[
    "a",
    "an",
    "the",
    "of",
    "with",
    "for",
    "in",
    "on",
    "at",
    "to",
    "and",
    "or",
    "that",
    "which",
    "is",
    "are",
    "be",
    "it",
    "its",
    "it's",
    "as",
    "by",
    "from",
    "this",
    "these",
    "those",
    "has",
    "have",
    "comes",
    "i",
    "my",
    "me",
    "s",
    "и",
    "в",
    "во",
    "на",
    "с",
    "со",
    "для",
    "по",
    "а",
    "или",
    "чтобы",
    "чтоб",
    "это",
];

/// Which half of the dev set a row is in (README: by a hash of the id).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Half {
    Open,
    Heldout,
}

impl Half {
    pub fn as_str(self) -> &'static str {
        match self {
            Half::Open => "open",
            Half::Heldout => "heldout",
        }
    }
}

/// One labelled request.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub id: String,
    pub source: String,
    pub lang: String,
    pub half: Half,
    pub today: NaiveDate,
    pub request: String,
    /// The gold facts the facts type can hold.
    pub gold: Facts,
    /// The whole gold object as written, extension keys included.
    pub gold_json: Value,
}

/// A row that could not be read, with its line.
#[derive(Debug, thiserror::Error)]
pub enum DevsetError {
    #[error("line {line}: {message}")]
    Row { line: usize, message: String },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRow {
    id: String,
    source: String,
    lang: String,
    split: String,
    today: NaiveDate,
    request: String,
    gold: Map<String, Value>,
    #[serde(default)]
    #[allow(dead_code)]
    note: Option<String>,
}

/// Parses the JSON Lines text of the dev set. Extension keys the facts type
/// rejects are moved aside before the gold becomes [`Facts`], and kept in
/// [`Row::gold_json`] for scoring.
pub fn parse(text: &str) -> Result<Vec<Row>, DevsetError> {
    let mut rows = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let error = |message: String| DevsetError::Row { line: index + 1, message };
        let raw: RawRow = serde_json::from_str(line).map_err(|source| error(source.to_string()))?;
        let half = match raw.split.as_str() {
            "open" => Half::Open,
            "heldout" => Half::Heldout,
            other => return Err(error(format!("unknown split {other:?}"))),
        };
        let gold_json = Value::Object(raw.gold.clone());
        let gold = match serde_json::from_value::<Facts>(gold_json.clone()) {
            Ok(gold) => gold,
            Err(_) => {
                let mut core = raw.gold;
                for key in EXTENSION_KEYS {
                    core.remove(key.as_str());
                }
                serde_json::from_value(Value::Object(core)).map_err(|source| error(format!("gold: {source}")))?
            }
        };
        rows.push(Row {
            id: raw.id,
            source: raw.source,
            lang: raw.lang,
            half,
            today: raw.today,
            request: raw.request,
            gold,
            gold_json,
        });
    }
    Ok(rows)
}

/// Counts for one field.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FieldCounts {
    /// Elements the extractor filled.
    pub filled: u64,
    /// Filled elements that match a gold element.
    pub correct: u64,
    /// Elements the gold states.
    pub stated: u64,
    /// Gold elements some filled element matches.
    pub found: u64,
    /// Filled elements that match no gold element but are a looser form of
    /// one: a chosen colour with fewer of the gold's words ("yellow" for
    /// "sun yellow"). The colour check passes an item when every word of the
    /// wanted colour is in the item's, so a looser colour passes every item
    /// the gold's passes: it can stop no cart the person would accept.
    pub looser: u64,
}

impl FieldCounts {
    pub fn precision(&self) -> Option<f64> {
        (self.filled > 0).then(|| self.correct as f64 / self.filled as f64)
    }

    pub fn recall(&self) -> Option<f64> {
        (self.stated > 0).then(|| self.found as f64 / self.stated as f64)
    }

    fn add(&mut self, other: FieldCounts) {
        self.filled += other.filled;
        self.correct += other.correct;
        self.stated += other.stated;
        self.found += other.found;
        self.looser += other.looser;
    }
}

/// One field's disagreement on one row, for the list of misses.
#[derive(Debug, Clone, PartialEq)]
pub struct Miss {
    pub id: String,
    pub field: FactKey,
    pub got: Value,
    pub want: Value,
}

/// The scores of one half.
#[derive(Debug, Clone, PartialEq)]
pub struct HalfReport {
    pub half: Half,
    pub requests: u64,
    pub fields: BTreeMap<&'static str, FieldCounts>,
    /// Requests with an element in a non-`other` field the gold does not state.
    pub invented: u64,
    /// Requests with such an element that is not even a looser form of a
    /// gold element ([`FieldCounts::looser`]): a fact that can stop a cart
    /// the person would accept.
    pub stopping: u64,
    pub misses: Vec<Miss>,
}

impl HalfReport {
    pub fn field(&self, name: &str) -> FieldCounts {
        self.fields.get(name).copied().unwrap_or_default()
    }

    /// The counts of `fields` added up.
    pub fn total(&self, fields: &[FactKey]) -> FieldCounts {
        let mut total = FieldCounts::default();
        for field in fields {
            total.add(self.field(field.as_str()));
        }
        total
    }

    /// Found / stated over [`RECALL_TARGET_FIELDS`].
    pub fn target_recall(&self) -> Option<f64> {
        self.total(&RECALL_TARGET_FIELDS).recall()
    }

    /// Correct / filled over every field but `other` and `other_optional`:
    /// how often a fact the extractor states is the person's.
    pub fn fact_precision(&self) -> Option<f64> {
        let facts: Vec<FactKey> =
            FIELDS.iter().copied().filter(|field| !matches!(field, FactKey::Other | FactKey::OtherOptional)).collect();
        self.total(&facts).precision()
    }

    pub fn invented_share(&self) -> Option<f64> {
        (self.requests > 0).then(|| self.invented as f64 / self.requests as f64)
    }

    /// Correct or looser / filled over the fields of [`Self::fact_precision`]:
    /// how often a fact the extractor states stops no cart the gold accepts.
    pub fn fact_precision_by_check(&self) -> Option<f64> {
        let facts: Vec<FactKey> =
            FIELDS.iter().copied().filter(|field| !matches!(field, FactKey::Other | FactKey::OtherOptional)).collect();
        let total = self.total(&facts);
        (total.filled > 0).then(|| (total.correct + total.looser) as f64 / total.filled as f64)
    }

    pub fn stopping_share(&self) -> Option<f64> {
        (self.requests > 0).then(|| self.stopping as f64 / self.requests as f64)
    }

    /// The lowest precision over the fields filled at all, and its field.
    pub fn lowest_precision(&self) -> Option<(&'static str, f64)> {
        self.fields
            .iter()
            .filter(|(field, _)| ![FactKey::Other.as_str(), FactKey::OtherOptional.as_str()].contains(*field))
            .filter_map(|(field, counts)| counts.precision().map(|precision| (*field, precision)))
            .min_by(|first, second| first.1.total_cmp(&second.1))
    }

    /// The report as a Markdown table, with the misses when `with_misses`.
    pub fn markdown(&self, with_misses: bool) -> String {
        let percent = |value: Option<f64>| value.map_or("–".to_owned(), |value| format!("{:.1}%", value * 100.0));
        let mut out = String::new();
        let _ = writeln!(out, "### {} half: {} requests\n", self.half.as_str(), self.requests);
        let _ = writeln!(out, "| field | stated | filled | correct | found | precision | recall |");
        let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|");
        for field in FIELDS {
            let counts = self.field(field.as_str());
            let _ = writeln!(
                out,
                "| {field} | {} | {} | {} | {} | {} | {} |",
                counts.stated,
                counts.filled,
                counts.correct,
                counts.found,
                percent(counts.precision()),
                percent(counts.recall())
            );
        }
        let _ = writeln!(
            out,
            "\nrecall over {}: {}  \nprecision over every field but other and other_optional: {}  \nrequests with an invented fact: {} of {} ({})  \nthe same two counting a looser colour as right (it stops no cart the gold accepts): {}, {} of {} ({})",
            RECALL_TARGET_FIELDS.map(FactKey::as_str).join(", "),
            percent(self.target_recall()),
            percent(self.fact_precision()),
            self.invented,
            self.requests,
            percent(self.invented_share()),
            percent(self.fact_precision_by_check()),
            self.stopping,
            self.requests,
            percent(self.stopping_share())
        );
        if with_misses && !self.misses.is_empty() {
            let _ = writeln!(out, "\nmisses:\n");
            for miss in &self.misses {
                let _ = writeln!(out, "- {} {}: got {} want {}", miss.id, miss.field, miss.got, miss.want);
            }
        }
        out
    }
}

/// Scores `extract` on the rows of one half. `extract` returns the facts as
/// JSON (a serialised [`Facts`], or anything with its field names).
pub fn evaluate(rows: &[Row], half: Half, mut extract: impl FnMut(&Row) -> Value) -> HalfReport {
    let mut report =
        HalfReport { half, requests: 0, fields: BTreeMap::new(), invented: 0, stopping: 0, misses: Vec::new() };
    for row in rows.iter().filter(|row| row.half == half) {
        report.requests += 1;
        let got = extract(row);
        let mut invented = false;
        let mut stopping = false;
        for field in FIELDS {
            let got_value = got.get(field.as_str()).cloned().unwrap_or(Value::Null);
            let want_value = row.gold_json.get(field.as_str()).cloned().unwrap_or(Value::Null);
            let counts = score_field(field, &got_value, &want_value);
            report.fields.entry(field.as_str()).or_default().add(counts);
            if counts.correct < counts.filled && !matches!(field, FactKey::Other | FactKey::OtherOptional) {
                invented = true;
                stopping |= counts.correct + counts.looser < counts.filled;
            }
            if counts.correct < counts.filled || counts.found < counts.stated {
                report.misses.push(Miss { id: row.id.clone(), field, got: got_value, want: want_value });
            }
        }
        report.invented += u64::from(invented);
        report.stopping += u64::from(stopping);
    }
    report
}

/// The elements a value fills: none for null, false, "" and []; the items of
/// a list; the value itself otherwise.
fn elements(value: &Value) -> Vec<&Value> {
    match value {
        Value::Null | Value::Bool(false) => Vec::new(),
        Value::String(text) if text.trim().is_empty() => Vec::new(),
        Value::Array(items) => items.iter().filter(|item| !elements(item).is_empty()).collect(),
        other => vec![other],
    }
}

/// Counts for one field of one row.
pub fn score_field(field: FactKey, got: &Value, want: &Value) -> FieldCounts {
    let got = elements(got);
    let want = elements(want);
    let matches = |extracted: &Value, gold: &Value| element_matches(field, extracted, gold);
    let looser = |extracted: &Value, gold: &Value| {
        matches!(field, FactKey::Color | FactKey::ColorAny)
            && matches!((extracted, gold), (Value::String(got), Value::String(want))
                if { let got = ColourWords::new(got); !got.is_empty() && got.all_in(&ColourWords::new(want)) })
    };
    FieldCounts {
        filled: got.len() as u64,
        correct: got.iter().filter(|extracted| want.iter().any(|gold| matches(extracted, gold))).count() as u64,
        looser: got
            .iter()
            .filter(|extracted| {
                !want.iter().any(|gold| matches(extracted, gold)) && want.iter().any(|gold| looser(extracted, gold))
            })
            .count() as u64,
        stated: want.len() as u64,
        found: want.iter().filter(|gold| got.iter().any(|extracted| matches(extracted, gold))).count() as u64,
    }
}

fn element_matches(field: FactKey, extracted: &Value, gold: &Value) -> bool {
    match field {
        FactKey::Color | FactKey::ColorAny | FactKey::ColorNot => same_colour(extracted, gold),
        FactKey::SizeLabel | FactKey::SizeAny => same_size(extracted, gold),
        FactKey::Other | FactKey::OtherOptional => {
            matches!((extracted, gold), (Value::String(got), Value::String(want)) if phrase_matches(got, want))
        }
        FactKey::Lines => same_line(extracted, gold),
        _ => match (extracted, gold) {
            (Value::String(got), Value::String(want)) => fold(got) == fold(want),
            (got, want) => got == want,
        },
    }
}

fn same_colour(extracted: &Value, gold: &Value) -> bool {
    match (extracted, gold) {
        (Value::String(got), Value::String(want)) => {
            let (got, want) = (ColourWords::new(got), ColourWords::new(want));
            !got.is_empty() && got == want
        }
        (Value::Null, Value::Null) => true,
        _ => false,
    }
}

fn same_size(extracted: &Value, gold: &Value) -> bool {
    match (extracted, gold) {
        (Value::String(got), Value::String(want)) => Size::parse(got).matches(&Size::parse(want)),
        (Value::Null, Value::Null) => true,
        _ => false,
    }
}

fn same_line(extracted: &Value, gold: &Value) -> bool {
    let part = |line: &Value, key: FactKey| line.get(key.as_str()).cloned().unwrap_or(Value::Null);
    let text_equal = |key: FactKey| match (part(extracted, key), part(gold, key)) {
        (Value::String(got), Value::String(want)) => fold(&got) == fold(&want),
        (got, want) => got == want,
    };
    text_equal(FactKey::Model)
        && same_colour(&part(extracted, FactKey::Color), &part(gold, FactKey::Color))
        && same_size(&part(extracted, FactKey::SizeLabel), &part(gold, FactKey::SizeLabel))
        && part(extracted, FactKey::Quantity) == part(gold, FactKey::Quantity)
}

/// The content words of a phrase: its words without [`FUNCTION_WORDS`].
pub fn content_words(phrase: &str) -> Vec<String> {
    let mut list: Vec<String> =
        words(phrase).into_iter().filter(|word| !FUNCTION_WORDS.contains(&word.as_str())).collect();
    list.sort();
    list.dedup();
    list
}

/// Whether an extracted phrase holds at least half of the gold phrase's
/// content words (all of them when the gold has only function words).
pub fn phrase_matches(extracted: &str, gold: &str) -> bool {
    let wanted = content_words(gold);
    let have = words(extracted);
    if wanted.is_empty() {
        return fold(extracted) == fold(gold);
    }
    let shared = wanted.iter().filter(|word| have.contains(word)).count();
    2 * shared >= wanted.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const ROWS: &str = r#"{"id": "a-1", "source": "s", "lang": "en", "split": "open", "today": "2026-11-02", "request": "black or navy, not red", "gold": {"color": "black", "color_any": ["navy"], "color_not": ["red"]}}
{"id": "a-2", "source": "s", "lang": "en", "split": "heldout", "today": "2026-11-02", "request": "x", "gold": {}}
"#;

    #[test]
    fn extension_keys_are_kept_apart_from_the_facts() {
        let rows = parse(ROWS).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].gold.color.as_deref(), Some("black"));
        assert_eq!(rows[0].gold_json["color_not"], json!(["red"]));
        assert_eq!((rows[0].half, rows[1].half), (Half::Open, Half::Heldout));
        assert!(parse("{\"id\": 1}").is_err());
    }

    #[test]
    fn colours_sizes_and_phrases_match_by_meaning() {
        assert_eq!(score_field(FactKey::Color, &json!("gray"), &json!("grey")).correct, 1);
        assert_eq!(score_field(FactKey::SizeLabel, &json!("XL"), &json!("X-Large")).found, 1);
        assert_eq!(score_field(FactKey::SizeLabel, &json!("US 9"), &json!("EU 9")).correct, 0);
        assert!(phrase_matches("must be gluten free", "gluten free"));
        assert!(phrase_matches("made of heathers cotton", "heathers cotton"));
        assert!(!phrase_matches("cotton", "machine washable"));
        let counts = score_field(FactKey::Other, &json!(["vegan", "red"]), &json!(["vegan leather"]));
        assert_eq!((counts.filled, counts.correct, counts.stated, counts.found), (2, 1, 1, 1));
    }

    #[test]
    fn a_looser_colour_is_wrong_but_stops_no_cart_the_gold_accepts() {
        let counts = score_field(FactKey::Color, &json!("yellow"), &json!("sun yellow"));
        assert_eq!((counts.correct, counts.looser, counts.found), (0, 1, 0));
        // Stricter or another colour is not looser.
        assert_eq!(score_field(FactKey::Color, &json!("sun yellow"), &json!("yellow")).looser, 0);
        assert_eq!(score_field(FactKey::Color, &json!("blue"), &json!("sun yellow")).looser, 0);
        // An exclusion said more broadly excludes more: never looser.
        assert_eq!(score_field(FactKey::ColorNot, &json!(["red"]), &json!(["dark red"])).looser, 0);
        let rows = parse(ROWS).unwrap();
        let report =
            evaluate(&rows, Half::Open, |_| json!({"color": "black", "color_any": ["navy"], "color_not": ["red"]}));
        assert_eq!((report.invented, report.stopping), (0, 0));
        let shade = r#"{"id": "b-1", "source": "s", "lang": "en", "split": "open", "today": "2026-11-02", "request": "a sun yellow rug", "gold": {"color": "sun yellow"}}"#;
        let report = evaluate(&parse(shade).unwrap(), Half::Open, |_| json!({"color": "yellow"}));
        assert_eq!((report.invented, report.stopping), (1, 0));
        assert_eq!((report.fact_precision(), report.fact_precision_by_check()), (Some(0.0), Some(1.0)));
    }

    #[test]
    fn precision_recall_and_invented_facts() {
        let rows = parse(ROWS).unwrap();
        let report = evaluate(&rows, Half::Open, |_| json!({"color": "red", "quantity": 2}));
        assert_eq!(report.requests, 1);
        assert_eq!(report.field("color"), FieldCounts { filled: 1, correct: 0, stated: 1, found: 0, looser: 0 });
        assert_eq!(report.field("color_not").stated, 1);
        assert_eq!((report.invented, report.stopping), (1, 1));
        let perfect = evaluate(&rows, Half::Open, |row| row.gold_json.clone());
        assert_eq!((perfect.invented, perfect.misses.len()), (0, 0));
        assert_eq!(perfect.lowest_precision().map(|(_, precision)| precision), Some(1.0));
        assert!(perfect.markdown(true).contains("| color_any | 1 | 1 | 1 | 1 | 100.0% | 100.0% |"));
    }
}
