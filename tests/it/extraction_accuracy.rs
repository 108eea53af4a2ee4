//! Per-field accuracy of the `rules` extractor on the hand-labelled requests
//! in tests/extraction/labelled.jsonl (see tests/extraction/README.md).
//!
//! Exact match per field: strings compared after `normalize::fold`, lists as
//! sets, null = null correct. The floors are the measured figures minus a
//! small margin, so a regression fails and an improvement is free; raise
//! them when the parser gets better. `cargo test --test it extraction_accuracy::
//! -- --nocapture` prints the table and every miss.

use std::collections::BTreeSet;
use std::path::PathBuf;

use asasked::Facts;
use asasked::extract::rules::{RulesExtractor, Vocabulary};
use asasked::facts::FactKey;
use asasked::sandbox::compare::{FIELDS, field_matches};
use chrono::NaiveDate;
use serde::Deserialize;

#[derive(Deserialize)]
struct Labelled {
    id: String,
    request: String,
    today: NaiveDate,
    #[serde(default)]
    answers: Vec<String>,
    gold: Facts,
}

/// The vocabulary the labels assume: brands and product names like the
/// sandbox catalog's, written here so the test does not depend on it.
const CATALOG: &[(&str, &str)] = &[
    ("Nike", "Nike Pegasus 41"),
    ("Nike", "Nike Pegasus 40"),
    ("Nike", "Nike Vaporfly 3"),
    ("Nike", "Nike Dri-FIT Miler Running T-Shirt"),
    ("Nike", "Nike Dri-FIT Miler Running Tank"),
    ("Nike", "Nike Everyday Cushioned Crew Socks 6-Pack"),
    ("Adidas", "Adidas Adizero SL"),
    ("Adidas", "Adidas Own The Run Tee"),
    ("Asics", "Asics Gel-Kayano 30"),
    ("Asics", "Asics Gel-Nimbus 26"),
    ("Hoka", "Hoka Clifton 9"),
    ("Brooks", "Brooks Ghost 16"),
    ("Salomon", "Salomon Speedcross 6"),
    ("Babolat", "Babolat Pure Drive"),
    ("Babolat", "Babolat Pure Drive Team"),
    ("Babolat", "Babolat Pure Aero"),
    ("Babolat", "Babolat Evo Drive"),
    ("Babolat", "Babolat Gold Championship, single can"),
    ("Wilson", "Wilson Clash 100"),
    ("Wilson", "Wilson Clash 100L"),
    ("Wilson", "Wilson Pro Staff 97"),
    ("Wilson", "Wilson Championship Regular Duty, single can"),
    ("Wilson", "Wilson US Open Extra Duty, 4-can box"),
    ("Head", "Head Speed MP"),
    ("Head", "Head Ti S6"),
    ("Head", "Head Tour, single can"),
    ("Yonex", "Yonex EZONE 98"),
    ("Yonex", "Yonex EZONE 100"),
    ("Penn", "Penn Championship Extra Duty, single can"),
    ("Penn", "Penn Tour Extra Duty, 4-can box"),
    ("Dunlop", "Dunlop ATP Championship, single can"),
    ("Uniqlo", "Uniqlo AIRism Crew Neck T-Shirt"),
    ("Lululemon", "Lululemon Pace Breaker Short 7\""),
    ("Balega", "Balega Hidden Comfort Running Socks 3-Pack"),
    ("Under Armour", "Under Armour Rival Fleece Hoodie"),
    ("Apple", "Apple iPhone 15 Silicone Case with MagSafe"),
    ("Apple", "Apple AirPods Pro 2"),
    ("OtterBox", "OtterBox Defender iPhone 15"),
    ("Spigen", "Spigen Ultra Hybrid iPhone 15"),
    ("Spigen", "Spigen Tough Armor iPhone 15"),
    ("Caseology", "Caseology Parallax iPhone 15"),
    ("Sony", "Sony WH-1000XM5"),
    ("Sony", "Sony WH-CH520"),
    ("Bose", "Bose QuietComfort 45"),
    ("JBL", "JBL Tune 510BT"),
    ("JBL", "JBL Tune 520BT"),
    ("Ember", "Ember Mug 2 10 oz"),
    ("LEGO", "LEGO Icons Bonsai Tree 10281"),
    ("Moleskine", "Moleskine Classic Notebook Large"),
    ("Stanley", "Stanley Quencher H2.0 40 oz Tumbler"),
    ("Barilla", "Barilla Spaghetti No. 5"),
    ("Barilla", "Barilla Gluten Free Spaghetti"),
    ("Lavazza", "Lavazza Super Crema Whole Bean Coffee"),
    ("Oatly", "Oatly Oat Milk Barista Edition"),
    ("Alpro", "Alpro Soy Drink, 6-pack"),
    ("Lindt", "Lindt Excellence 70% Cocoa Dark Chocolate"),
    ("Clif", "Clif Bar Chocolate Chip"),
];

/// Measured accuracy minus a margin of about one request (1.1%), per field.
///
/// `size_label` is lower than the rest since issue 12: three labels here
/// (ru-023 "1 кг", webshop-016 "10.6 ounce", webshop-024 "8 inch") call a
/// measure not introduced by "size" a size, which LABELLING.md says it is
/// not ("Storage, volume, weight, dimensions … are not sizes unless the
/// person says 'size'"); the parser follows LABELLING.md and keeps them in
/// `other`.
///
/// `other` is lower for the same reason since issue 12 ("nothing said
/// vanishes": every condition the parser cannot read is kept): 17 labels
/// here leave out what LABELLING.md puts in `other` — pack sizes
/// (webshop-004, -014, -019, -020: "a pack size … is `other` ('pack of 2')"),
/// measures (ru-023, webshop-016, -024) and garment features (webshop-005,
/// -006, -007, -009, -012, -017, -018, -021, -025, shoppingbench-006: "short
/// sleeves", "elastic waist", "straight leg", "rubber soles", which
/// real.jsonl labels as `other`). Without them the field would be 95.7%.
const FLOORS: [(&str, f64); 15] = [
    ("brand", 0.98),
    ("brand_not", 0.98),
    ("model", 0.95),
    ("color", 0.97),
    ("size_label", 0.95),
    ("level", 0.98),
    ("price_preference", 0.98),
    ("explicit_max_cents", 0.98),
    ("quantity", 0.98),
    ("needs_refundable", 0.98),
    ("deadline_days", 0.98),
    ("lines", 0.98),
    ("other", 0.76),
    ("other_optional", 0.97),
    ("soft", 0.97),
];

/// Whether labelled.jsonl labels a field: it was written before the facts
/// had `brand_any`, `color_any`, `size_any`, `color_not` and
/// `explicit_max_currency`, so those are scored on real.jsonl only.
fn labelled_field(field: FactKey) -> bool {
    !asasked::sandbox::devset::EXTENSION_KEYS.contains(&field)
}

#[test]
fn rules_extractor_accuracy_per_field() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/extraction/labelled.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let labelled: Vec<Labelled> =
        text.lines().filter(|line| !line.trim().is_empty()).map(|line| serde_json::from_str(line).unwrap()).collect();
    assert!(labelled.len() >= 80, "only {} labelled requests", labelled.len());
    let ids: BTreeSet<&str> = labelled.iter().map(|item| item.id.as_str()).collect();
    assert_eq!(ids.len(), labelled.len(), "duplicate ids");

    // The labels are guard.md §3's shape: several products in `other`.
    let extractor =
        RulesExtractor::new(Vocabulary::from_catalog_names(CATALOG.iter().copied())).with_products_in_other();
    let mut correct = [0usize; FIELDS.len()];
    let mut misses: Vec<String> = Vec::new();
    for item in &labelled {
        item.gold.validate().unwrap_or_else(|error| panic!("{}: gold invalid: {error}", item.id));
        let facts = extractor.parse(&item.request, &item.answers, item.today).into_facts(item.today);
        facts.validate().unwrap_or_else(|error| panic!("{}: extracted facts invalid: {error}", item.id));
        let got = serde_json::to_value(&facts).unwrap();
        let want = serde_json::to_value(&item.gold).unwrap();
        // The same exact-match rules as `asasked compare`.
        for (position, field) in FIELDS.iter().enumerate() {
            if !labelled_field(*field) {
                continue;
            }
            if field_matches(*field, &facts, &item.gold) {
                correct[position] += 1;
            } else {
                misses.push(format!("{} {field}: got {} want {}", item.id, got[field.as_str()], want[field.as_str()]));
            }
        }
    }
    let total = labelled.len() as f64;
    println!("rules extractor on {} labelled requests", labelled.len());
    println!("{:<20} {:>8} {:>9} {:>7}", "field", "correct", "accuracy", "floor");
    let mut failures = Vec::new();
    for (position, field) in FIELDS.iter().enumerate().filter(|(_, field)| labelled_field(**field)) {
        let accuracy = correct[position] as f64 / total;
        let floor = FLOORS.iter().find(|(name, _)| *name == field.as_str()).map_or(1.0, |(_, floor)| *floor);
        println!("{field:<20} {:>8} {:>8.1}% {:>6.1}%", correct[position], accuracy * 100.0, floor * 100.0);
        if accuracy < floor {
            failures.push(format!("{field}: {:.1}% < floor {:.1}%", accuracy * 100.0, floor * 100.0));
        }
    }
    println!("\nmisses:\n{}", misses.join("\n"));
    assert!(failures.is_empty(), "accuracy below floor: {failures:?}");
}

/// The real-request dev set (tests/extraction/real.jsonl), scored by
/// `asasked::sandbox::devset` with the extractor the binary ships: `rules`
/// over the embedded sandbox catalog.
mod real {
    use asasked::catalog::Catalog;
    use asasked::extract::rules::RulesExtractor;
    use asasked::sandbox::devset::{self, Half, HalfReport, Row};

    /// The rows of one batch: `real.jsonl` (the first, 364 rows) or
    /// `real2.jsonl` (the second, 184 rows drawn and labelled on 2026-12-01
    /// after the parser's rules were written, so its held-out half is the
    /// one no rule was ever tuned near).
    pub(super) fn rows(file: &str, count: usize) -> Vec<Row> {
        let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/extraction").join(file);
        let rows: Vec<Row> = devset::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert_eq!(rows.len(), count, "{file}");
        rows
    }

    fn report(half: Half) -> HalfReport {
        score(&rows("real.jsonl", 364), half)
    }

    /// One half of a later batch: its table (with the misses only for the
    /// open half) and aggregate floors, each the figure measured in the
    /// round that last read the batch with about one request's slack.
    pub(super) fn check(
        file: &str,
        count: usize,
        half: Half,
        precision_floor: f64,
        recall_floor: f64,
        invented_ceiling: f64,
    ) {
        let report = score(&rows(file, count), half);
        println!("{}", report.markdown(half == Half::Open));
        let recall = report.target_recall().unwrap_or(0.0);
        let precision = report.fact_precision().unwrap_or(0.0);
        let invented = report.invented_share().unwrap_or(1.0);
        assert!(recall >= recall_floor, "recall over the target fields {recall:.3} < {recall_floor}");
        assert!(precision >= precision_floor, "precision over the facts {precision:.3} < {precision_floor}");
        assert!(invented <= invented_ceiling, "requests with an invented fact {invented:.3} > {invented_ceiling}");
    }

    pub(super) fn score(rows: &[Row], half: Half) -> HalfReport {
        // The labels are guard.md §3's shape: several products in `other`
        // (LABELLING.md); product lines are measured by scripts/item_report.py.
        let extractor = RulesExtractor::for_catalog(&Catalog::embedded().unwrap()).with_products_in_other();
        devset::evaluate(rows, half, |row| {
            let facts = extractor.parse(&row.request, &[], row.today).into_facts(row.today);
            facts.validate().unwrap_or_else(|error| panic!("{}: extracted facts invalid: {error}", row.id));
            serde_json::to_value(&facts).unwrap()
        })
    }

    /// Open half, per field: (precision floor, recall floor), each the
    /// measured figure with one more miss allowed (two points for `other`),
    /// so a regression fails and an improvement is free; raise them when the
    /// parser gets better. A field with one or two labels gets a floor of 0.
    const OPEN_FLOORS: [(&str, f64, f64); 20] = [
        ("brand", 0.81, 0.40),
        ("brand_any", 0.0, 0.0),
        ("brand_not", 0.75, 0.75),
        ("model", 0.0, 0.0),
        ("color", 0.98, 0.94),
        ("color_any", 0.0, 0.0),
        ("color_not", 0.66, 0.66),
        ("size_label", 0.96, 0.92),
        ("size_any", 0.0, 0.0),
        ("level", 0.66, 0.66),
        ("price_preference", 0.80, 0.80),
        ("explicit_max_cents", 0.97, 0.97),
        ("explicit_max_currency", 0.85, 0.85),
        ("quantity", 0.94, 0.93),
        ("needs_refundable", 0.75, 0.75),
        ("deadline_days", 0.92, 0.92),
        ("lines", 0.75, 0.50),
        ("other", 0.77, 0.86),
        ("other_optional", 0.0, 0.0),
        ("soft", 0.75, 0.50),
    ];

    /// The open half: the table and every miss (this half is for fixing the
    /// parser), and a floor per field.
    #[test]
    fn real_open_half() {
        let report = report(Half::Open);
        println!("{}", report.markdown(true));
        let mut failures = Vec::new();
        for (field, precision_floor, recall_floor) in OPEN_FLOORS {
            let counts = report.field(field);
            if counts.precision().is_some_and(|precision| precision < precision_floor) {
                failures.push(format!("{field} precision {:?} < {precision_floor}", counts.precision()));
            }
            if counts.recall().is_some_and(|recall| recall < recall_floor) {
                failures.push(format!("{field} recall {:?} < {recall_floor}", counts.recall()));
            }
        }
        assert!(report.invented_share().is_some_and(|share| share <= 0.03), "invented facts: {}", report.invented);
        assert!(failures.is_empty(), "below floor: {failures:?}");
    }

    /// The held-out half: aggregate figures only, never its misses or a
    /// row's expectation (it is never used to tune the parser). Floors are the
    /// figures measured at the end of issue 12 minus about two points; the
    /// issue's targets (precision 97% per field, recall 80%, invented 3%)
    /// are not met yet, see tests/extraction/README.md.
    #[test]
    fn real_heldout_half() {
        let report = report(Half::Heldout);
        println!("{}", report.markdown(false));
        let recall = report.target_recall().unwrap_or(0.0);
        let precision = report.fact_precision().unwrap_or(0.0);
        let invented = report.invented_share().unwrap_or(1.0);
        assert!(recall >= 0.75, "recall over the target fields {recall:.3} < 0.75");
        assert!(precision >= 0.85, "precision over the facts {precision:.3} < 0.85");
        assert!(invented <= 0.13, "requests with an invented fact {invented:.3} > 0.13");
    }
}

/// The second batch of the dev set (tests/extraction/real2.jsonl), apart:
/// its open half joined the rows read while fixing the parser on
/// 2026-12-01; its held-out half is reported as aggregates only.
mod real2 {
    use asasked::sandbox::devset::Half;

    fn check(half: Half, precision_floor: f64, recall_floor: f64, invented_ceiling: f64) {
        super::real::check("real2.jsonl", 184, half, precision_floor, recall_floor, invented_ceiling);
    }

    /// Measured: precision 100.0%, recall 89.7%, invented 0 of 93 (issue 12,
    /// product phrases; before: 94.0%, 88.5%, 4 of 93).
    #[test]
    fn real2_open_half() {
        check(Half::Open, 0.98, 0.87, 0.022);
    }

    /// Measured: precision 92.5%, recall 71.4%, invented 5 of 91.
    #[test]
    fn real2_heldout_half() {
        check(Half::Heldout, 0.89, 0.69, 0.077);
    }
}

/// The third batch of the dev set (tests/extraction/real3.jsonl): 140
/// WebShop goals no earlier round read (not in either batch, nor in any
/// unlabelled sample read by hand), 30 Russian marketplace requests and 30
/// English chat requests written by labellers who never saw the parser.
/// Measured before any rule was tuned on it, then its open half was read.
mod real3 {
    use asasked::sandbox::devset::Half;

    fn check(half: Half, precision_floor: f64, recall_floor: f64, invented_ceiling: f64) {
        super::real::check("real3.jsonl", 200, half, precision_floor, recall_floor, invented_ceiling);
    }

    /// Measured before any rule was tuned on this batch: precision 87.9%,
    /// recall 75.0%, invented 13 of 101; after reading this half: 98.4%,
    /// 88.4%, 2 of 101 (tests/extraction/README.md, sixth round).
    #[test]
    fn real3_open_half() {
        check(Half::Open, 0.97, 0.87, 0.03);
    }

    /// Measured (aggregates only): before 87.1%, 73.6%, 11 of 99; after the
    /// sixth round 88.2%, 75.2%, 11 of 99; after the eighth 89.2%, 77.5%,
    /// 10 of 99.
    #[test]
    fn real3_heldout_half() {
        check(Half::Heldout, 0.86, 0.73, 0.13);
    }
}

/// The fourth batch (tests/extraction/real4.jsonl): 60 English chat and 40
/// Russian marketplace requests written and labelled by two labellers who
/// never saw the parser, measured before any rule was tuned on it.
mod real4 {
    use asasked::sandbox::devset::Half;

    fn check(half: Half, precision_floor: f64, recall_floor: f64, invented_ceiling: f64) {
        super::real::check("real4.jsonl", 100, half, precision_floor, recall_floor, invented_ceiling);
    }

    /// Measured before any rule was tuned on this batch: precision 80.7%,
    /// recall 77.5%, invented 18 of 52; after reading this half: 93.4%,
    /// 85.3%, 8 of 52.
    #[test]
    fn real4_open_half() {
        check(Half::Open, 0.92, 0.83, 0.17);
    }

    /// Measured (aggregates only): before 88.1%, 70.7%, 10 of 48; after the
    /// open half was read, the same; after the eighth round 88.2%, 72.8%,
    /// 10 of 48.
    #[test]
    fn real4_heldout_half() {
        check(Half::Heldout, 0.86, 0.68, 0.23);
    }
}

/// The fifth batch (tests/extraction/real5.jsonl): 100 WebShop goals no
/// earlier round could have read (`scripts/sample_real_requests_batch5.py`),
/// 50 English chat and 50 Russian marketplace requests written and labelled
/// by four labellers who never saw the parser; measured before any rule was
/// tuned on it.
mod real5 {
    use asasked::sandbox::devset::Half;

    fn check(half: Half, precision_floor: f64, recall_floor: f64, invented_ceiling: f64) {
        super::real::check("real5.jsonl", 200, half, precision_floor, recall_floor, invented_ceiling);
    }

    /// Measured before any rule was tuned on this batch: precision 89.0%,
    /// recall 58.6%, invented 15 of 106; after reading this half (the eighth
    /// round): 95.5%, 75.1%, 7 of 106.
    #[test]
    fn real5_open_half() {
        check(Half::Open, 0.94, 0.73, 0.076);
    }

    /// Measured (aggregates only): before 89.0%, 69.4%, 9 of 94; after the
    /// eighth round 88.2%, 72.0%, 10 of 94.
    #[test]
    fn real5_heldout_half() {
        check(Half::Heldout, 0.86, 0.70, 0.12);
    }
}
