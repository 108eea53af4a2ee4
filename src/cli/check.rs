//! `asasked check`: the deterministic guard on given facts (`--facts`), or
//! the whole check on the person's words (`--request`), sealed as evidence.

use std::io::Write;

use super::args::CheckArguments;
use super::{
    CommandError, InputError, Outcome, build_service, read_cart, read_facts, read_flag_json, read_items, runtime,
};
use crate::decision::{self, Decision, Verdict};
use crate::service::{Answer, CheckError, CheckRequest, CheckResult, Format};

/// Runs `asasked check`; the outcome is the decision.
pub fn check(
    arguments: &CheckArguments,
    env: &dyn Fn(&str) -> Option<String>,
    out: &mut impl Write,
) -> Result<Outcome, CommandError> {
    // clap makes the two exclusive and requires one.
    match (&arguments.facts, &arguments.request) {
        (Some(facts), _) => check_facts(arguments, facts, out),
        (None, Some(request)) => check_request(arguments, request, env, out),
        (None, None) => Err(InputError::NothingToCheck.into()),
    }
}

fn check_facts(
    arguments: &CheckArguments,
    facts: &std::path::Path,
    out: &mut impl Write,
) -> Result<Outcome, CommandError> {
    let facts = read_facts(facts)?;
    let cart = read_cart(&arguments.cart)?;
    let allowed = match &arguments.allowed {
        Some(path) => read_items(path)?,
        None => Vec::new(),
    };
    let language = arguments.language.unwrap_or_default();
    let verdict = Verdict::checked(decision::run(&facts, &cart, &allowed), &facts.disputed, language);
    if arguments.json {
        serde_json::to_writer_pretty(&mut *out, &verdict)?;
        writeln!(out)?;
    } else {
        print_verdict(out, &verdict)?;
    }
    Ok(verdict.decision.into())
}

fn check_request(
    arguments: &CheckArguments,
    request: &str,
    env: &dyn Fn(&str) -> Option<String>,
    out: &mut impl Write,
) -> Result<Outcome, CommandError> {
    let checked = &arguments.checked;
    let cart: serde_json::Value = read_flag_json("--cart", &arguments.cart)?;
    let allowed_items = match &arguments.allowed {
        Some(path) => Some(read_flag_json("--allowed", path)?),
        None => None,
    };
    let answers: Vec<Answer> = match &checked.answers {
        Some(path) => read_flag_json("--answers", path)?,
        None => Vec::new(),
    };
    // `@FILE` reads the request from a JSON file: the words as a string, or
    // an AP2 mandate holding them; `@@…` is a request that begins with `@`.
    let request = match request.strip_prefix('@') {
        Some(literal) if literal.starts_with('@') => serde_json::Value::String(literal.to_owned()),
        Some(path) => read_flag_json("--request", std::path::Path::new(path))?,
        None => serde_json::Value::String(request.to_owned()),
    };
    let check_request = CheckRequest {
        request,
        cart,
        answers,
        today: checked.today.clone(),
        allowed_items,
        previous_record_id: checked.previous_record_id.clone(),
        format: checked.format.as_ref().map(|_| Format::AcfV01),
        language: arguments.language,
        // `--fx` configures the service's rates (ServiceArguments).
        fx: Vec::new(),
    };
    let service = build_service(&checked.service.options(), env)?;
    let result = runtime()?.block_on(service.check_order(check_request)).map_err(|error| match error {
        CheckError::InvalidArgument { .. } => CommandError::InvalidArgument(error),
        other => CommandError::Check(other),
    })?;
    // Where the record went, on stderr so that stdout stays the result (JSON
    // with --json): the default data folder is named nowhere else.
    eprintln!("asasked: record {} sealed in {}", result.record_id, service.evidence_location());
    if arguments.json || checked.format.is_some() {
        serde_json::to_writer_pretty(&mut *out, &result)?;
        writeln!(out)?;
    } else {
        print_check_result(out, &result)?;
    }
    Ok(result.decision.into())
}

/// Prints a verdict for people.
fn print_verdict(out: &mut impl Write, verdict: &Verdict) -> std::io::Result<()> {
    print_decision(out, verdict.decision, &verdict.reasons, &verdict.notes, verdict.question.as_deref())
}

/// Prints a decision with its reasons, notes and question.
fn print_decision(
    out: &mut impl Write,
    decision: Decision,
    reasons: &[String],
    notes: &[String],
    question: Option<&str>,
) -> std::io::Result<()> {
    writeln!(out, "decision: {}", decision.as_str())?;
    if !reasons.is_empty() {
        writeln!(out, "reasons:")?;
        for reason in reasons {
            writeln!(out, "  \u{2013} {reason}")?;
        }
    }
    if !notes.is_empty() {
        writeln!(out, "notes:")?;
        for note in notes {
            writeln!(out, "  \u{2013} {note}")?;
        }
    }
    if let Some(question) = question {
        writeln!(out, "question for the person:")?;
        for line in question.lines() {
            writeln!(out, "  {line}")?;
        }
    }
    Ok(())
}

/// Prints a service check result for people: the decision, then its record.
fn print_check_result(out: &mut impl Write, result: &CheckResult) -> std::io::Result<()> {
    print_decision(out, result.decision, &result.reasons, &result.notes, result.question.as_deref())?;
    writeln!(out, "record: {} (attempt {})", result.record_id, result.attempt)?;
    if let Some(receipt) = &result.receipt {
        writeln!(out, "receipt (for whoever takes the payment; `asasked verify`): {receipt}")?;
    }
    Ok(())
}
