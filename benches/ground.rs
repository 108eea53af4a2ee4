//! Grounding's cost per extraction: one extractor's facts against the
//! request's words (extract::ground). Target (issue 11): ≤ 20 µs median for
//! a request of everyday length with most facts stated.

#[path = "common/allocator.rs"]
mod allocator;

use std::hint::black_box;

use asasked::extract::Quote;
use asasked::extract::ground::ground;
use asasked::facts::Facts;
use chrono::NaiveDate;
use criterion::{Criterion, criterion_group, criterion_main};

fn bench(criterion: &mut Criterion) {
    let today = NaiveDate::from_ymd_opt(2026, 11, 2).expect("a date");
    let request = "I'd like the black Nike Pegasus 41, size 42,5, ideally by Friday, under $150, \
                   two pairs, returnable please, not Adidas, any colour but red";
    let facts: Facts = serde_json::from_str(
        r#"{"brand": "Nike", "model": "Pegasus 41", "color": "black", "size_label": "42.5",
            "deadline_days": 4, "explicit_max_cents": 15000, "explicit_max_currency": "USD",
            "quantity": 2, "needs_refundable": true, "brand_not": ["Adidas"], "color_not": ["red"],
            "soft": ["deadline_days"]}"#,
    )
    .expect("facts");
    criterion.bench_function("ground every fact", |bencher| {
        bencher.iter(|| ground(black_box(&facts), &[], black_box(request), &[], today))
    });
    // A model's output: the same facts, each with its quote (one misquoted).
    let quotes: Vec<Quote> = [
        ("brand", "Nike"),
        ("model", "Nike Pegasus 41"),
        ("color", "the black"),
        ("size_label", "size 42,5"),
        ("deadline_days", "by Friday"),
        ("explicit_max_cents", "under $150"),
        ("quantity", "two pairs"),
        ("needs_refundable", "returnable"),
        ("brand_not", "not Adidas"),
        ("color_not", "any color but red"),
    ]
    .into_iter()
    .map(|(field, quote)| Quote { field: field.into(), quote: quote.into() })
    .collect();
    criterion.bench_function("ground every fact with quotes", |bencher| {
        bencher.iter(|| ground(black_box(&facts), black_box(&quotes), black_box(request), &[], today))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
