//! `asasked extract`: each extractor's facts and the merged facts of one
//! request, without a cart, a check or evidence.

use std::io::Write;

use serde_json::Value;

use super::args::ExtractArguments;
use super::{CommandError, Outcome, runtime};
use crate::catalog::Catalog;
use crate::extract::ExtractInput;
use crate::extract::rules::{ClauseReading, RulesExtractor};
use crate::extract::set::SetOutcome;
use crate::facts::Facts;

/// Runs `asasked extract`; flagged when the check would fail closed.
pub fn extract(
    arguments: &ExtractArguments,
    env: &dyn Fn(&str) -> Option<String>,
    out: &mut impl Write,
) -> Result<Outcome, CommandError> {
    let today = match &arguments.today {
        Some(text) => crate::today::parse(text, "--today")?,
        None => chrono::Utc::now().date_naive(),
    };
    let set = crate::extractors::build_choice(&arguments.extractors.choice(), env, None)?;
    let input = ExtractInput { request: arguments.request.clone(), today, answers: Vec::new() };
    let outcome = runtime()?.block_on(set.extract(&input));
    // What each clause became is the `rules` parser's account of the words
    // (issue 12, "nothing said vanishes"); it is shown whenever `rules` is in
    // the set, read with the same vocabulary the set's `rules` uses.
    let clauses = if set.names().contains(&"rules") {
        RulesExtractor::for_catalog(&Catalog::embedded().map_err(super::SetupError::from)?)
            .read_clauses(&arguments.request, today)
    } else {
        Vec::new()
    };
    if arguments.json {
        let mut value = serde_json::to_value(&*outcome)?;
        if let Some(object) = value.as_object_mut() {
            object.insert("clauses".to_owned(), clauses_json(&clauses));
        }
        serde_json::to_writer_pretty(&mut *out, &value)?;
        writeln!(out)?;
    } else {
        print_extraction(out, &outcome)?;
        print_clauses(out, &clauses)?;
    }
    Ok(if outcome.merged.is_ok() { Outcome::Clear } else { Outcome::Flagged })
}

/// Prints an extraction outcome for people: each extractor's facts (or
/// error), then the merged facts with `disputed`.
fn print_extraction(out: &mut impl Write, outcome: &SetOutcome) -> std::io::Result<()> {
    for report in &outcome.reports {
        writeln!(out, "{} ({} ms):", report.name, report.cost.latency_ms)?;
        match (&report.facts, &report.error) {
            (Some(facts), _) => writeln!(out, "  {}", compact_facts(facts))?,
            (None, Some(error)) => writeln!(out, "  failed: {error}")?,
            (None, None) => writeln!(out, "  no output")?,
        }
    }
    match &outcome.merged {
        Ok(facts) => writeln!(out, "merged:\n  {}", compact_facts(facts)),
        Err(error) => writeln!(out, "merged: none: {error}"),
    }
}

/// The facts as one JSON line, leaving out fields that are not stated.
fn compact_facts(facts: &Facts) -> String {
    let value = serde_json::to_value(facts).unwrap_or(Value::Null);
    let stated: serde_json::Map<String, Value> = value
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(_, value)| match value {
            Value::Null | Value::Bool(false) => false,
            Value::Array(items) => !items.is_empty(),
            _ => true,
        })
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    Value::Object(stated).to_string()
}

/// Each clause as `{"text", "parts": [{"text", "became"}]}`, `became` being
/// a fact field, `other`, `other_optional`, `product` or `filler`.
fn clauses_json(clauses: &[ClauseReading]) -> Value {
    Value::Array(
        clauses
            .iter()
            .map(|clause| {
                let parts = clause
                    .parts
                    .iter()
                    .map(|part| serde_json::json!({"text": part.text, "became": part.became.as_str()}))
                    .collect();
                serde_json::json!({"text": clause.text, "parts": Value::Array(parts)})
            })
            .collect(),
    )
}

/// Prints what each clause became, one clause a line, each run of words
/// followed by its outcome: `"under $50" → explicit_max_cents`.
fn print_clauses(out: &mut impl Write, clauses: &[ClauseReading]) -> std::io::Result<()> {
    if clauses.is_empty() {
        return Ok(());
    }
    writeln!(out, "clauses (rules):")?;
    for clause in clauses {
        let parts: Vec<String> =
            clause.parts.iter().map(|part| format!("{:?} → {}", part.text, part.became.as_str())).collect();
        writeln!(out, "  {:?}: {}", clause.text, parts.join("; "))?;
    }
    Ok(())
}
