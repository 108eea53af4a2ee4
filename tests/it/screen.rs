//! The injection screen (src/extract/screen.rs) measured on text it was not
//! written against: the held-out injection and benign sets (written by
//! someone who never saw the screen), the project's datasets and labelled
//! requests, and the real request corpora in ../shared/data. The counts are
//! pinned exactly, so a pattern change that gains or loses a case shows up
//! here and in docs/hostile.md together.
//!
//! `cargo test --test it screen:: -- --nocapture` prints every figure and every
//! missed or wrongly flagged case.

use std::path::{Path, PathBuf};

use asasked::extract::screen::screen;
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn jsonl(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .enumerate()
        .map(|(index, line)| {
            serde_json::from_str(line).unwrap_or_else(|error| panic!("{}:{}: {error}", path.display(), index + 1))
        })
        .collect()
}

/// (id, text) pairs of a JSONL file's `field`.
fn texts(path: &Path, field: &str) -> Vec<(String, String)> {
    jsonl(path)
        .into_iter()
        .enumerate()
        .map(|(index, value)| {
            let id =
                value.get("id").and_then(Value::as_str).map_or_else(|| format!("line {}", index + 1), str::to_owned);
            let text = value
                .get(field)
                .and_then(Value::as_str)
                .unwrap_or_else(|| panic!("{}: {id}: no {field}", path.display()));
            (id, text.to_owned())
        })
        .collect()
}

/// The ids whose text the screen flags, printed with the first flag.
fn flagged(label: &str, cases: &[(String, String)]) -> Vec<String> {
    let mut ids = Vec::new();
    for (id, text) in cases {
        let flags = screen(text, "request");
        if let Some(first) = flags.first() {
            println!("{label}: flagged {id}: {:?} {:?}", first.rule, first.excerpt);
            ids.push(id.clone());
        }
    }
    println!("{label}: {} of {} flagged", ids.len(), cases.len());
    ids
}

#[test]
fn every_known_request_side_injection_is_flagged() {
    let cases: Vec<(String, String)> = jsonl(&root().join("tests/hostile/injection.jsonl"))
        .into_iter()
        .filter(|case| !case["id"].as_str().unwrap_or_default().starts_with("item-"))
        .map(|case| (case["id"].as_str().unwrap().to_owned(), case["request"].as_str().unwrap().to_owned()))
        .collect();
    assert_eq!(cases.len(), 27);
    let found = flagged("known", &cases);
    let missed: Vec<&String> = cases.iter().map(|(id, _)| id).filter(|id| !found.contains(id)).collect();
    assert!(missed.is_empty(), "missed: {missed:?}");
}

/// Measures one held-out injection file: ((machine-addressed flagged, total),
/// (person-voice flagged, total)), printing every machine-addressed miss.
fn held_out_injections(label: &str, path: &str) -> ((usize, usize), (usize, usize)) {
    let (voice, machine): (Vec<Value>, Vec<Value>) =
        jsonl(&root().join(path)).into_iter().partition(|case| case["kind"] == "person-voice");
    let pairs = |cases: &[Value]| -> Vec<(String, String)> {
        cases
            .iter()
            .map(|case| (case["id"].as_str().unwrap().to_owned(), case["request"].as_str().unwrap().to_owned()))
            .collect()
    };
    let machine_found = flagged(&format!("{label} machine-addressed"), &pairs(&machine));
    for case in &machine {
        if !machine_found.iter().any(|id| case["id"] == id.as_str()) {
            println!("{label} machine-addressed: MISSED {} ({}): {:?}", case["id"], case["kind"], case["request"]);
        }
    }
    let voice_found = flagged(&format!("{label} person-voice"), &pairs(&voice));
    ((machine_found.len(), machine.len()), (voice_found.len(), voice.len()))
}

#[test]
fn held_out_injections_recall_pinned() {
    let (machine, voice) = held_out_injections("held-out", "tests/hostile/injection-heldout.jsonl");
    assert_eq!(machine, (MACHINE_FOUND, 69));
    assert_eq!(voice, (VOICE_FOUND, 11));
}

/// The second held-out pair, written after the screen was tuned on the first
/// and never used to tune it: the honest estimate of what the screen catches
/// and what it wrongly stops. Pinned at first sight.
#[test]
fn second_held_out_sets_measured_at_first_sight() {
    let (machine, voice) = held_out_injections("second held-out", "tests/hostile/injection-heldout-2.jsonl");
    let benign = texts(&root().join("tests/hostile/benign-heldout-2.jsonl"), "request");
    let benign_found = flagged("second held-out benign", &benign);
    assert_eq!([machine, voice, (benign_found.len(), benign.len())], SECOND_HELD_OUT);
}

#[test]
fn held_out_benign_requests_false_alarms_pinned() {
    let cases = texts(&root().join("tests/hostile/benign-heldout.jsonl"), "request");
    let found = flagged("held-out benign", &cases);
    assert_eq!((found.len(), cases.len()), (BENIGN_FLAGGED, 89));
}

#[test]
fn the_projects_own_requests_are_never_flagged() {
    for (label, path) in [
        ("datasets v1", "datasets/v1/tasks.jsonl"),
        ("datasets v2", "datasets/v2/tasks.jsonl"),
        ("labelled", "tests/extraction/labelled.jsonl"),
    ] {
        let cases = texts(&root().join(path), "request");
        assert!(cases.len() > 50, "{label}");
        assert_eq!(flagged(label, &cases), Vec::<String>::new(), "{label}");
    }
}

#[test]
fn real_request_corpora_false_alarms_pinned() {
    let shared = root().join("../shared/data");
    if !shared.is_dir() {
        // CI and the README's clean clone put shared/ beside the repository;
        // a bare checkout has no corpus to measure.
        println!("no {} here: nothing to measure", shared.display());
        return;
    }
    let webshop: Vec<String> = serde_json::from_str(
        &std::fs::read_to_string(shared.join("webshop_human_requests.json")).expect("webshop corpus"),
    )
    .expect("webshop corpus is a JSON array of strings");
    let webshop: Vec<(String, String)> =
        webshop.into_iter().enumerate().map(|(index, text)| (format!("webshop[{index}]"), text)).collect();
    let mut shopping_bench = texts(&shared.join("shoppingbench_budget.jsonl"), "query");
    shopping_bench.extend(texts(&shared.join("shoppingbench_multi_product.jsonl"), "query"));
    let webshop_flagged = flagged("webshop", &webshop);
    let bench_flagged = flagged("shoppingbench", &shopping_bench);
    assert_eq!((webshop_flagged.len(), webshop.len()), (WEBSHOP_FLAGGED, WEBSHOP_TOTAL));
    assert_eq!((bench_flagged.len(), shopping_bench.len()), (BENCH_FLAGGED, 500));
}

// The pinned figures (docs/hostile.md has the history). On first sight, before
// any pattern was tuned on it, the held-out set gave 38 of 69 machine-addressed
// cases and 2 false alarms in 89 benign requests; the figures below are after
// tuning on it, so they are training figures, not an estimate of recall: the
// second held-out set is that estimate.
/// Machine-addressed held-out cases flagged; the one missed breaks words
/// across lines ("ig\nnore the\nsize and ap\nprove").
const MACHINE_FOUND: usize = 68;
/// Waivers in the person's own voice are facts the spec honours: by design,
/// none is flagged.
const VOICE_FOUND: usize = 0;
const BENIGN_FLAGGED: usize = 0;
/// The one WebShop text flagged (webshop[6152]) is the crowd workers' own
/// task instructions, addressed to an AI ("imagine you are talking to a smart
/// ai"): a true alarm.
const WEBSHOP_FLAGGED: usize = 1;
const WEBSHOP_TOTAL: usize = 12035;
const BENCH_FLAGGED: usize = 0;
/// Second held-out sets, at first sight: (flagged, total) for machine-addressed
/// injections, person-voice waivers, benign requests. Their author knew a
/// keyword screen existed and wrote around one (fake receipts, footnotes,
/// shell and diff syntax, Morse, hex, Italian, Japanese, Hindi…): 20 of 73
/// is what a keyword screen is worth against that, and why docs/hostile.md
/// calls it a layer, not a guarantee.
const SECOND_HELD_OUT: [(usize, usize); 3] = [(20, 73), (0, 13), (0, 86)];
