//! Issue 29's dev set (`datasets/fees/`, written by `scripts/fees_devset.py`):
//! its shape, so that `scripts/fees_report.py` measures what the README says.
//! The decisions themselves are measured by the script, not asserted here.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

const KINDS: [&str; 5] = ["total", "fx", "fee", "recurring", "addon"];

fn rows(half: &str) -> Vec<Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/fees").join(format!("{half}.jsonl"));
    std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|error| panic!("{}: {error}: {line}", path.display())))
        .collect()
}

#[test]
fn each_half_holds_every_kind_shape_and_language_half_with_a_problem() {
    let mut total = 0;
    let mut ids = BTreeSet::new();
    for half in ["open", "heldout"] {
        let rows = rows(half);
        total += rows.len();
        for row in &rows {
            let id = row["id"].as_str().unwrap();
            assert!(id.starts_with(&format!("{half}-")) && ids.insert(id.to_owned()), "{id}");
            let problem = row["problem"].as_bool().unwrap();
            assert_eq!(row["expected"], if problem { "ask" } else { "proceed" }, "{id}");
            assert!(KINDS.contains(&row["kind"].as_str().unwrap()), "{id}");
            assert!(row["request"].as_str().is_some_and(|text| !text.is_empty()), "{id}");
            let cart = &row["cart"];
            match row["format"].as_str().unwrap() {
                "flat" => assert!(cart.is_array(), "{id}"),
                "acp" => assert!(cart["line_items"].is_array() && cart["capabilities"].is_object(), "{id}"),
                "ucp" => assert!(cart["line_items"].is_array() && cart["ucp"].is_object(), "{id}"),
                other => panic!("{id}: format {other}"),
            }
            if let Some(rates) = row.get("fx") {
                for rate in rates.as_array().unwrap() {
                    for key in ["from", "to", "rate", "date"] {
                        assert!(rate[key].is_string(), "{id}: fx {key}");
                    }
                }
            }
        }
        for kind in KINDS {
            let of_kind: Vec<&Value> = rows.iter().filter(|row| row["kind"] == kind).collect();
            let problems = of_kind.iter().filter(|row| row["problem"] == true).count();
            assert!(problems > 0 && problems * 2 == of_kind.len(), "{half} {kind}: {problems} of {}", of_kind.len());
            for field in ["format", "language"] {
                let seen: BTreeSet<&str> = of_kind.iter().map(|row| row[field].as_str().unwrap()).collect();
                assert!(seen.len() > 1, "{half} {kind}: one {field} only: {seen:?}");
            }
        }
        let languages: BTreeSet<&str> = rows.iter().map(|row| row["language"].as_str().unwrap()).collect();
        assert_eq!(languages, BTreeSet::from(["en", "ru"]), "{half}");
    }
    assert!(total >= 80, "the issue asks for at least 80 checkouts, there are {total}");
}

#[test]
fn the_look_alikes_are_open_rows_of_the_kinds_that_fell_short() {
    let rows = rows("lookalikes");
    let mut ids = BTreeSet::new();
    for row in &rows {
        let id = row["id"].as_str().unwrap();
        assert!(id.starts_with("lookalikes-") && ids.insert(id.to_owned()), "{id}");
        assert!(["total", "recurring", "addon"].contains(&row["kind"].as_str().unwrap()), "{id}");
        assert_eq!(row["expected"], if row["problem"] == true { "ask" } else { "proceed" }, "{id}");
    }
    for kind in ["total", "recurring", "addon"] {
        let clean = rows.iter().filter(|row| row["kind"] == kind && row["problem"] == false).count();
        let problems = rows.iter().filter(|row| row["kind"] == kind && row["problem"] == true).count();
        assert!(clean >= 20 && problems >= 3, "{kind}: {clean} clean, {problems} problems");
    }
}

#[test]
fn the_second_look_alikes_are_open_rows_of_every_kind_and_shape() {
    open_rows_of_every_shape("lookalikes2");
}

/// The third look-alikes (real ShoppingBench titles and WebShop requests)
/// hold at least 40 clean checkouts and 10 problems in every shape, as the
/// second do.
#[test]
fn the_third_look_alikes_are_open_rows_of_every_shape() {
    open_rows_of_every_shape("lookalikes3");
}

fn open_rows_of_every_shape(file: &str) {
    let rows = rows(file);
    let mut ids = BTreeSet::new();
    for row in &rows {
        let id = row["id"].as_str().unwrap();
        assert!(id.starts_with(&format!("{file}-")) && ids.insert(id.to_owned()), "{id}");
        assert!(KINDS.contains(&row["kind"].as_str().unwrap()), "{id}");
        assert_eq!(row["expected"], if row["problem"] == true { "ask" } else { "proceed" }, "{id}");
        let cart = &row["cart"];
        match row["format"].as_str().unwrap() {
            "flat" => assert!(cart.is_array(), "{id}"),
            "acp" => assert!(cart["line_items"].is_array() && cart["capabilities"].is_object(), "{id}"),
            "ucp" => assert!(cart["line_items"].is_array() && cart["ucp"].is_object(), "{id}"),
            "ap2" => assert!(cart["contents"]["payment_request"]["details"]["display_items"].is_array(), "{id}"),
            other => panic!("{id}: format {other}"),
        }
    }
    let clean = rows.iter().filter(|row| row["problem"] == false).count();
    assert!(clean >= 40 && rows.len() - clean >= 10, "{file}: {clean} clean of {}", rows.len());
    for field in ["format", "language"] {
        let seen: BTreeSet<&str> =
            rows.iter().filter(|row| row["problem"] == false).map(|row| row[field].as_str().unwrap()).collect();
        assert!(seen.len() > 1, "{file}: one {field} only: {seen:?}");
    }
    let shapes: BTreeSet<&str> = rows.iter().map(|row| row["format"].as_str().unwrap()).collect();
    assert_eq!(shapes, BTreeSet::from(["acp", "ap2", "flat", "ucp"]));
}
