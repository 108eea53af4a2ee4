//! The offline extractor's cost: request text → facts with `rules` over the
//! embedded sandbox catalog (what `asasked check --request` runs by default).
//! Target (issue 12, 2-core machine, release): ≤ 200 µs median per request.
//!
//! "dev set, one request" parses the next request of the open half of
//! tests/extraction/real.jsonl on every iteration, so each sample is a mean
//! over the mix of short WebShop goals, Russian requests and long
//! ShoppingBench queries; the named cases are the shortest and the longest kinds.

#[path = "common/allocator.rs"]
mod allocator;

use std::hint::black_box;
use std::path::PathBuf;

use asasked::catalog::Catalog;
use asasked::extract::rules::RulesExtractor;
use asasked::sandbox::devset::{self, Half};
use chrono::NaiveDate;
use criterion::{Criterion, criterion_group, criterion_main};

fn benches(criterion: &mut Criterion) {
    let extractor = RulesExtractor::for_catalog(&Catalog::embedded().expect("embedded catalog"));
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/extraction/real.jsonl");
    let text = std::fs::read_to_string(path).expect("tests/extraction/real.jsonl");
    let rows: Vec<_> =
        devset::parse(&text).expect("dev set").into_iter().filter(|row| row.half == Half::Open).collect();
    let today = NaiveDate::from_ymd_opt(2026, 11, 2).expect("a date");

    let mut next = 0usize;
    criterion.bench_function("dev set, one request", |bench| {
        bench.iter(|| {
            let row = &rows[next % rows.len()];
            next += 1;
            black_box(extractor.parse(black_box(&row.request), &[], row.today))
        })
    });
    let short = "Nike Pegasus 41 in black ideally, white is fine, size 42, under $120, by Friday, returnable";
    criterion.bench_function("short English request", |bench| {
        bench.iter(|| black_box(extractor.parse(black_box(short), &[], today)))
    });
    let russian = "джинсы levis 501 W32 L34 синие, можно и черные. чтобы можно было обменять если не сядут";
    criterion.bench_function("short Russian request", |bench| {
        bench.iter(|| black_box(extractor.parse(black_box(russian), &[], today)))
    });
    // The open half once over, with the several-product lines (issue 28)
    // and without them (`with_products_in_other`, what the parser read
    // before those lines): the part of the cost that is that reading.
    // `scripts/profile_extraction.sh BIN '^every open' OUT extraction::parse_all`
    // counts one pass's instructions.
    let without_lines = extractor.clone().with_products_in_other();
    let mut every = criterion.benchmark_group("every open request");
    every.sample_size(10);
    every.bench_function("as parsed", |bench| bench.iter(|| parse_all(&extractor, &rows)));
    every.bench_function("products in other", |bench| bench.iter(|| parse_all(&without_lines, &rows)));
    every.finish();
    let longest = rows.iter().max_by_key(|row| row.request.len()).expect("rows");
    criterion.bench_function("longest open request", |bench| {
        bench.iter(|| black_box(extractor.parse(black_box(&longest.request), &[], longest.today)))
    });
    // Hostile input: one clause repeated 3,000 times (~20-50 KB). Linear
    // passes keep this near a millisecond per KB; a pass that went
    // quadratic would show here first (the unit test beside the parser
    // only pins that such input parses and validates).
    let mut hostile = criterion.benchmark_group("hostile input, 3000 repeats");
    hostile.sample_size(10);
    for word in ["today ", "ideally ", "must be x ", "Wilson ", "size 42 and 43 ", "one white one black ", "vegan "] {
        let text = word.repeat(3000);
        hostile.bench_function(word.trim(), |bench| {
            bench.iter(|| black_box(extractor.parse(black_box(&text), &[], today)))
        });
    }
    hostile.finish();
}

/// Every row once: a function of its own, so a profiler can count one pass.
#[inline(never)]
fn parse_all(extractor: &RulesExtractor, rows: &[devset::Row]) -> usize {
    rows.iter().map(|row| black_box(extractor.parse(black_box(&row.request), &[], row.today)).lines.len()).sum()
}

criterion_group!(extraction, benches);
criterion_main!(extraction);
