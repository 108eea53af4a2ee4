//! Runs the shipped case suite (tests/cases/) and, when the steering repo's
//! shared/ folder sits beside this checkout, its conformance examples too.

use std::path::PathBuf;

use asasked::conform::{CaseResult, run_paths};

fn assert_all_pass(results: &[CaseResult]) {
    let failed: Vec<String> =
        results.iter().filter(|result| !result.passed()).map(|result| serde_json::to_string(result).unwrap()).collect();
    assert!(failed.is_empty(), "{} of {} cases failed:\n{}", failed.len(), results.len(), failed.join("\n"));
}

#[test]
fn shipped_case_suite_passes() {
    let cases = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let results = run_paths(&[cases]).unwrap();
    assert!(results.len() >= 120, "the suite shrank to {} cases", results.len());
    let merge_cases = results.iter().filter(|result| matches!(result, CaseResult::Merge { .. })).count();
    assert!(merge_cases >= 25, "only {merge_cases} merge cases");
    assert_all_pass(&results);
}

#[test]
fn shared_conformance_examples_pass() {
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance");
    if !shared.exists() {
        // A checkout without the steering repo beside it: the same examples
        // are shipped in tests/cases/shared-examples*.jsonl.
        eprintln!("note: {} not found; its examples run from tests/cases", shared.display());
        return;
    }
    let results = run_paths(&[shared]).unwrap();
    assert!(!results.is_empty());
    assert_all_pass(&results);
}
