//! Drives the built `asasked` binary through `replay` and `compare` on the
//! shipped datasets: determinism of the JSON output, the files compare
//! writes, and dataset errors that name file:line.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn asasked(arguments: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_asasked")).args(arguments).current_dir(root()).output().unwrap()
}

/// A fresh folder in the system's temp folder, unique per process and test.
fn scratch(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("asasked-sandbox-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&path);
    std::fs::create_dir_all(&path).unwrap();
    path
}

fn stdout(output: &Output) -> String {
    assert!(output.status.success(), "stderr: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout.clone()).unwrap()
}

#[test]
fn replay_json_is_identical_for_a_fixed_seed() {
    let arguments =
        ["replay", "datasets/v2", "--agent", "careful", "--seed", "7", "--extractors", "gold,noisy:4:0.3", "--json"];
    let first = stdout(&asasked(&arguments));
    let again = stdout(&asasked(&arguments));
    assert_eq!(first, again);
    let parsed: serde_json::Value = serde_json::from_str(&first).unwrap();
    assert_eq!(parsed["settings"]["seed"], 7);
    assert_eq!(parsed["figures"]["tasks"], 74);
    let other_seed = stdout(&asasked(&["replay", "datasets/v2", "--agent", "careful", "--seed", "8", "--json"]));
    assert_ne!(first, other_seed);
}

#[test]
fn replay_prints_the_figures_and_writes_a_report() {
    let folder = scratch("replay");
    let report = folder.join("v1-naive.md");
    let text = stdout(&asasked(&[
        "replay",
        "datasets/v1",
        "--agent",
        "naive",
        "--extractors",
        "gold",
        "--split",
        "heldout",
        "--report",
        report.to_str().unwrap(),
    ]));
    assert!(text.starts_with("Naive agent (buys the first search result), dataset v1, 64 heldout tasks"), "{text}");
    assert!(text.contains("| wrong purchases with the guard | 0 |"), "{text}");
    let markdown = std::fs::read_to_string(&report).unwrap();
    assert!(markdown.contains("## By code") && markdown.contains("## By category"), "{markdown}");
}

#[test]
fn compare_writes_tables_json_and_chart() {
    let folder = scratch("compare");
    let text = stdout(&asasked(&[
        "compare",
        "datasets/v2",
        "--pair",
        "gold,noisy:1:0.2",
        "--pair",
        "gold,noisy:2:0.2",
        "--out",
        folder.to_str().unwrap(),
    ]));
    // Every pair runs under both merge policies, side by side.
    assert!(text.contains("| gold + noisy:1:0.2 (spec) |"), "{text}");
    assert!(text.contains("| gold + noisy:1:0.2 (grounded) |"), "{text}");
    for file in ["compare.md", "compare.json", "compare.svg"] {
        assert!(Path::new(&folder.join(file)).exists(), "{file}");
    }
    let svg = std::fs::read_to_string(folder.join("compare.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("deadline_days"));
}

#[test]
fn bad_datasets_and_names_are_errors_with_where() {
    let folder = scratch("bad");
    let good = std::fs::read_to_string(root().join("datasets/v1/tasks.jsonl")).unwrap();
    let mut lines: Vec<&str> = good.lines().take(3).collect();
    let broken = lines[2].replacen("\"request\"", "\"requets\"", 1);
    lines[2] = &broken;
    std::fs::write(folder.join("tasks.jsonl"), lines.join("\n")).unwrap();
    let output = asasked(&["replay", folder.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("tasks.jsonl:3: requets: unknown task field"), "{stderr}");

    let output = asasked(&["replay", "datasets/v1", "--extractors", "gold,telepathy"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("unknown extractor \"telepathy\""));
    let output = asasked(&["compare", "datasets/v1", "--pair", "gold"]);
    assert_eq!(output.status.code(), Some(2));
}

/// An error whose text already names its cause is printed without repeating
/// it (anyhow's `{:#}` used to print "… (os error 2): … (os error 2)").
#[test]
fn an_error_says_its_cause_once() {
    let output = asasked(&["conform", "/nonexistent/cases.jsonl"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("cannot read /nonexistent/cases.jsonl"), "{stderr}");
    assert_eq!(stderr.matches("os error 2").count(), 1, "{stderr}");
}

/// Issue 12 item 3: `asasked extract` shows, per clause, what each run of
/// words became, for people and as JSON.
#[test]
fn extract_shows_what_each_clause_became() {
    let request = "a bronze floor lamp with a glass shade, under $50, please";
    let human = asasked(&["extract", "--extractors", "rules", "--today", "2026-11-02", "--request", request]);
    let text = stdout(&human);
    assert!(text.contains("clauses (rules):"), "{text}");
    assert!(text.contains("\"under $50\" → explicit_max_cents"), "{text}");
    assert!(text.contains("→ product"), "{text}");
    assert!(text.contains("\"glass shade\" → other"), "{text}");

    let json = asasked(&["extract", "--extractors", "rules", "--today", "2026-11-02", "--request", request, "--json"]);
    let value: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    let parts: Vec<(String, String)> = value["clauses"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|clause| clause["parts"].as_array().unwrap().clone())
        .map(|part| (part["text"].as_str().unwrap().to_owned(), part["became"].as_str().unwrap().to_owned()))
        .collect();
    assert!(parts.contains(&("under $50".to_owned(), "explicit_max_cents".to_owned())), "{parts:?}");
    assert!(parts.iter().any(|(_, became)| became == "filler"), "{parts:?}");
    assert_eq!(value["merged"]["explicit_max_cents"], 5000, "{value}");
}
