//! The conformance runner: reads case files in the format of
//! `shared/conformance/FORMAT.md` and holds the guard to them.
//!
//! Decision cases pin (facts, cart) → decision and the sets of block and warn
//! codes; merge cases pin extractor outputs → merged facts. A case that cannot
//! be read is a failed case with an error, never skipped.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::cart::{Cart, Item, parse_item};
use crate::checks::CheckPolicy;
use crate::decision::{Verdict, run_with_mandate};
use crate::extract::merge::{MergePolicy, Output, Words, ground_and_merge};
use crate::facts::{FactKey, Facts, MandateFacts};
use crate::finding::Severity;
use crate::messages::Language;
use crate::normalize;
use crate::protocols::parse_cart;

/// Errors reading case files (as opposed to cases that fail).
#[derive(Debug, thiserror::Error)]
pub enum ConformError {
    #[error("cannot read {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("{path}: {message}")]
    Parse { path: PathBuf, message: String },
}

/// One case as found in a file, with where it came from.
#[derive(Debug, Clone)]
pub struct RawCase {
    pub origin: String,
    pub value: Value,
}

/// The outcome of one case, in the `--json` line shape of FORMAT.md.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(untagged)]
pub enum CaseResult {
    Decision { id: String, decision: String, block: Vec<String>, warn: Vec<String>, pass: bool },
    Merge { id: String, facts: Value, pass: bool },
    Error { id: String, error: String, pass: bool },
}

impl CaseResult {
    pub fn passed(&self) -> bool {
        match self {
            CaseResult::Decision { pass, .. } | CaseResult::Merge { pass, .. } | CaseResult::Error { pass, .. } => {
                *pass
            }
        }
    }

    pub fn id(&self) -> &str {
        match self {
            CaseResult::Decision { id, .. } | CaseResult::Merge { id, .. } | CaseResult::Error { id, .. } => id,
        }
    }
}

/// Collects the case files under `paths` (files as given; folders walked,
/// `.json` and `.jsonl` files in name order).
pub fn case_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, ConformError> {
    let mut files = Vec::new();
    for path in paths {
        collect(path, &mut files)?;
    }
    Ok(files)
}

fn collect(path: &Path, files: &mut Vec<PathBuf>) -> Result<(), ConformError> {
    let metadata = fs::metadata(path).map_err(|source| ConformError::Read { path: path.to_owned(), source })?;
    if metadata.is_dir() {
        let mut entries: Vec<PathBuf> = fs::read_dir(path)
            .map_err(|source| ConformError::Read { path: path.to_owned(), source })?
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .collect();
        entries.sort();
        for entry in entries {
            let is_case_file = entry.extension().is_some_and(|extension| extension == "json" || extension == "jsonl");
            if entry.is_dir() || is_case_file {
                collect(&entry, files)?;
            }
        }
    } else {
        files.push(path.to_owned());
    }
    Ok(())
}

/// Reads the cases of one file: one object, an array, or JSON Lines.
pub fn read_cases(path: &Path) -> Result<Vec<RawCase>, ConformError> {
    let text = fs::read_to_string(path).map_err(|source| ConformError::Read { path: path.to_owned(), source })?;
    let display = path.display().to_string();
    let is_jsonl = path.extension().is_some_and(|extension| extension == "jsonl");
    if is_jsonl {
        let mut cases = Vec::new();
        for (number, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let origin = format!("{display}:{}", number + 1);
            match serde_json::from_str::<Value>(line) {
                Ok(value) => cases.push(RawCase { origin, value }),
                Err(error) => {
                    cases.push(RawCase { origin: origin.clone(), value: json!({ "__parse_error": error.to_string() }) })
                }
            }
        }
        return Ok(cases);
    }
    let value: Value = serde_json::from_str(&text)
        .map_err(|error| ConformError::Parse { path: path.to_owned(), message: error.to_string() })?;
    Ok(match value {
        Value::Array(items) => items
            .into_iter()
            .enumerate()
            .map(|(index, value)| RawCase { origin: format!("{display}[{index}]"), value })
            .collect(),
        value => vec![RawCase { origin: display, value }],
    })
}

/// Runs one case.
pub fn run_case(case: &RawCase) -> CaseResult {
    let id = case.value.get("id").and_then(Value::as_str).map_or_else(|| case.origin.clone(), str::to_owned);
    let error = |message: String| CaseResult::Error {
        id: id.clone(),
        error: format!("{}: {message}", case.origin),
        pass: false,
    };
    if let Some(parse_error) = case.value.get("__parse_error").and_then(Value::as_str) {
        return error(format!("not JSON: {parse_error}"));
    }
    let Some(object) = case.value.as_object() else { return error("a case is a JSON object".into()) };
    if object.contains_key("extracted") {
        return match run_merge(object) {
            Ok((facts, pass)) => CaseResult::Merge { id, facts, pass },
            Err(message) => error(message),
        };
    }
    match run_decision(object) {
        Ok((decision, block, warn, pass)) => CaseResult::Decision { id, decision, block, warn, pass },
        Err(message) => error(message),
    }
}

fn parse_facts(value: Option<&Value>, path: &str) -> Result<Facts, String> {
    let value = value.cloned().unwrap_or_else(|| json!({}));
    Facts::from_value(value).map_err(|error| format!("{path}{}: {}", error.path.trim_start_matches('$'), error.message))
}

type DecisionOutcome = (String, Vec<String>, Vec<String>, bool);

fn run_decision(case: &Map<String, Value>) -> Result<DecisionOutcome, String> {
    let facts = parse_facts(case.get("facts"), "$.facts")?;
    // Extensions (FORMAT.md): `today`, `mandate`, and a cart in a commerce
    // protocol's shape; a case without them reads as it always did.
    let today = match case.get("today") {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => {
            Some(chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d").map_err(|error| format!("$.today: {error}"))?)
        }
        Some(_) => return Err("$.today: expected an ISO date".into()),
    };
    let mandate: MandateFacts = match case.get("mandate") {
        None | Some(Value::Null) => MandateFacts::default(),
        Some(value) => serde_json::from_value(value.clone()).map_err(|error| format!("$.mandate: {error}"))?,
    };
    let needs_today = mandate.expires_on.is_some() || case.get("cart").is_some_and(Value::is_object);
    let today = match today {
        Some(today) => today,
        None if needs_today => return Err("$.today: missing (the mandate's expiry or the checkout needs it)".into()),
        None => GROUNDED_CASE_TODAY,
    };
    let (cart, payment) = match case.get("cart").ok_or("$.cart: missing")? {
        Value::Object(document) => {
            let document = parse_cart(document, "$.cart", today).map_err(|error| error.to_string())?;
            (document.cart, document.payment)
        }
        list => (Cart::from_value(list).map_err(|error| error.to_string())?, None),
    };
    let allowed: Vec<Item> = match case.get("allowed_items") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(index, item)| parse_item(item, &format!("$.allowed_items[{index}]")))
            .collect::<Result<_, _>>()
            .map_err(|error| error.to_string())?,
        Some(_) => return Err("$.allowed_items: expected a list of items".into()),
    };
    let expected = case.get("expected").and_then(Value::as_object).ok_or("$.expected: missing or not an object")?;
    let expected_decision = expected.get("decision").and_then(Value::as_str).ok_or("$.expected.decision: missing")?;
    if expected_decision != "proceed" && expected_decision != "ask" {
        return Err(format!("$.expected.decision: {expected_decision:?} is neither proceed nor ask"));
    }
    let code_set = |key: &str| -> Result<BTreeSet<String>, String> {
        match expected.get(key) {
            None => Ok(BTreeSet::new()),
            Some(Value::Array(codes)) => codes
                .iter()
                .map(|code| {
                    let text = code.as_str().ok_or(format!("$.expected.{key}: codes are strings"))?;
                    crate::finding::Code::parse(text).ok_or(format!("$.expected.{key}: unknown code {text:?}"))?;
                    Ok(text.to_owned())
                })
                .collect(),
            Some(_) => Err(format!("$.expected.{key}: expected a list of codes")),
        }
    };
    let expected_block = code_set("block")?;
    let expected_warn = code_set("warn")?;

    let (facts, findings) =
        run_with_mandate(CheckPolicy::Spec, &facts, &mandate, &cart, payment.as_ref(), &allowed, today);
    let verdict = Verdict::checked(findings, &facts.disputed, Language::En);
    let block: Vec<String> = verdict.codes(Severity::Block).into_iter().map(str::to_owned).collect();
    let warn: Vec<String> = verdict.codes(Severity::Warn).into_iter().map(str::to_owned).collect();
    let pass = verdict.decision.as_str() == expected_decision
        && block.iter().cloned().collect::<BTreeSet<_>>() == expected_block
        && warn.iter().cloned().collect::<BTreeSet<_>>() == expected_warn;
    Ok((verdict.decision.as_str().to_owned(), block, warn, pass))
}

/// The today of a grounded merge case that names none: a Monday.
const GROUNDED_CASE_TODAY: chrono::NaiveDate = match chrono::NaiveDate::from_ymd_opt(2026, 11, 2) {
    Some(date) => date,
    None => panic!("2026-11-02 is a date"),
};

fn run_merge(case: &Map<String, Value>) -> Result<(Value, bool), String> {
    let extracted = case.get("extracted").and_then(Value::as_array).ok_or("$.extracted: expected a list")?;
    let outputs = extracted
        .iter()
        .enumerate()
        .map(|(index, value)| parse_facts(Some(value), &format!("$.extracted[{index}]")))
        .collect::<Result<Vec<_>, _>>()?;
    let policy = match case.get("merge_policy") {
        None | Some(Value::Null) => MergePolicy::Spec,
        Some(Value::String(name)) => {
            MergePolicy::parse(name).ok_or(format!("$.merge_policy: {name:?} is neither spec nor grounded"))?
        }
        Some(_) => return Err("$.merge_policy: expected a string".into()),
    };
    // Grounded merge cases give the person's words they ground in; a spec
    // merge reads none.
    let request = match policy {
        MergePolicy::Spec => "",
        MergePolicy::Grounded => {
            case.get("request").and_then(Value::as_str).ok_or("$.request: missing (merge_policy grounded)")?
        }
    };
    let today = match case.get("today").and_then(Value::as_str) {
        Some(text) if policy == MergePolicy::Grounded => {
            chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d").map_err(|error| format!("$.today: {error}"))?
        }
        _ => GROUNDED_CASE_TODAY,
    };
    let outputs: Vec<Output> = outputs.iter().map(|facts| Output { facts, quotes: &[] }).collect();
    let (merged, _) = ground_and_merge(policy, &outputs, Words { request, answers: &[], today });
    let merged = merged.map_err(|error| error.to_string())?;
    let merged_value = serde_json::to_value(&merged).map_err(|error| error.to_string())?;
    let expected = case.get("expected_facts").and_then(Value::as_object).ok_or("$.expected_facts: missing")?;
    // Validate the expectation's field names against the facts type, so a
    // misspelt field is an error rather than a silently ignored comparison.
    parse_facts(Some(&Value::Object(expected.clone())), "$.expected_facts")?;
    let mut pass = true;
    for (key, expected_value) in expected {
        let actual_value = merged_value.get(key).cloned().unwrap_or(Value::Null);
        if canonical(expected_value) != canonical(&actual_value) {
            pass = false;
        }
    }
    if !expected.contains_key(FactKey::Disputed.as_str()) && !merged.disputed.is_empty() {
        // `disputed` is always compared; absent means "nothing disputed".
        pass = false;
    }
    Ok((merged_value, pass))
}

/// Comparison form: strings folded, lists of strings as sorted sets, objects
/// field-wise with nulls dropped, and an empty list the same as a left-out
/// field (FORMAT.md: a left-out list is `[]`), so `"model_any": []` pins
/// that a list the merged facts leave out is empty.
fn canonical(value: &Value) -> Value {
    match value {
        Value::Array(items) if items.is_empty() => Value::Null,
        Value::String(text) => Value::String(normalize::fold(text)),
        Value::Array(items) if items.iter().all(Value::is_string) => {
            let set: BTreeSet<String> = items.iter().filter_map(Value::as_str).map(normalize::fold).collect();
            Value::Array(set.into_iter().map(Value::String).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        Value::Object(object) => Value::Object(
            object
                .iter()
                .filter(|(_, value)| !value.is_null())
                .map(|(key, value)| (key.clone(), canonical(value)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Runs every case under `paths`, in file order.
pub fn run_paths(paths: &[PathBuf]) -> Result<Vec<CaseResult>, ConformError> {
    let mut results = Vec::new();
    for file in case_files(paths)? {
        for case in read_cases(&file)? {
            results.push(run_case(&case));
        }
    }
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decision_case_passes_and_a_wrong_expectation_fails() {
        let case = |expected: Value| RawCase {
            origin: "test".into(),
            value: json!({"id": "x", "facts": {"color": "black"},
                "cart": [{"item": {"color": "White/Black", "name": "Shoe"}, "quantity": 1}],
                "expected": expected}),
        };
        assert!(run_case(&case(json!({"decision": "ask", "block": ["color"], "warn": []}))).passed());
        assert!(!run_case(&case(json!({"decision": "proceed", "block": [], "warn": []}))).passed());
        assert!(!run_case(&case(json!({"decision": "ask", "block": ["colour"]}))).passed(), "unknown code is an error");
    }

    #[test]
    fn unreadable_cases_are_errors_not_skips() {
        let result = run_case(&RawCase {
            origin: "f:1".into(),
            value: json!({"id": "y", "facts": {"colour": "x"}, "cart": []}),
        });
        assert!(matches!(result, CaseResult::Error { .. }), "{result:?}");
        assert!(!result.passed());
    }

    #[test]
    fn merge_cases_compare_only_pinned_fields_and_always_disputed() {
        let case = |expected: Value| RawCase {
            origin: "m".into(),
            value: json!({"id": "m", "extracted": [{"size_label": "42", "color": "red"}, {"size_label": "43", "color": "RED"}], "expected_facts": expected}),
        };
        assert!(run_case(&case(json!({"size_label": "42", "disputed": ["size_label"]}))).passed());
        assert!(!run_case(&case(json!({"size_label": "42"}))).passed(), "disputed is always compared");
        assert!(!run_case(&case(json!({"size_label": "43", "disputed": ["size_label"]}))).passed());
    }
}
