//! The decision step's speed: facts + cart → verdict, no extraction.
//! Targets (issue 2, 2-core machine): ≤ 20 µs median for a 1-item cart with
//! every fact stated, ≤ 5 ms for lines 64×64. Issue 28: the item check (the
//! product read in the item's title, free-text musts read three ways in its
//! name, options and attributes) ≤ 50 µs per item: "item words, one item"
//! is a whole check of one such item, "item words, 4 lines" a cart of four
//! products against four product lines (every pair is read in assignment).

#[path = "common/allocator.rs"]
mod allocator;

use std::hint::black_box;

use asasked::cart::{Cart, CartEntry, Item, ItemLevel, ItemWords, NamedValue};
use asasked::facts::{Facts, Level, Line, PricePreference};
use criterion::{Criterion, criterion_group, criterion_main};

fn shoe(index: usize, size: u32) -> Item {
    Item {
        id: Some(format!("shoe-{index}")),
        brand: Some("Nike".into()),
        name: Some("Nike Pegasus 41".into()),
        color: Some("White/Black".into()),
        size: Some(format!("EU {size}")),
        level: Some(ItemLevel::Any),
        final_sale: Some(false),
        delivery_days: Some(3),
        units: Some(1),
        price_cents: Some(12999),
        currency: Some("USD".into()),
        sku: None,
        merchant: None,
        words: Default::default(),
    }
}

fn every_fact() -> Facts {
    Facts {
        brand: Some("Nike".into()),
        brand_not: vec!["Adidas".into()],
        model: Some("Pegasus 41".into()),
        color: Some("white".into()),
        size_label: Some("42".into()),
        level: Some(Level::Intermediate),
        price_preference: Some(PricePreference::Cheap),
        explicit_max_cents: Some(20000),
        quantity: Some(1),
        needs_refundable: true,
        deadline_days: Some(5),
        other: vec!["must have a wide toe box".into()],
        other_optional: vec!["gift wrap".into()],
        ..Facts::default()
    }
}

fn lines_case(count: usize) -> (Facts, Cart) {
    let facts = Facts {
        brand: Some("Nike".into()),
        lines: (0..count)
            .map(|index| Line { size_label: Some(format!("{}", 30 + index)), quantity: Some(1), ..Line::default() })
            .collect(),
        ..Facts::default()
    };
    // The cart lists the sizes in reverse, so the assignment has work to do.
    let cart = Cart {
        shipping: None,
        charges: Default::default(),
        entries: (0..count)
            .rev()
            .map(|index| CartEntry { item: shoe(index, 30 + index as u32), quantity: 1 })
            .collect(),
    };
    (facts, cart)
}

/// A marketplace item as the ShoppingBench answers give one: a long
/// title, SKU options and attributes.
fn listed(title: &str, attributes: &[(&str, &str)]) -> Item {
    Item {
        name: Some(title.into()),
        price_cents: Some(19_900),
        currency: Some("PHP".into()),
        words: ItemWords {
            attributes: attributes
                .iter()
                .map(|(name, value)| NamedValue { name: (*name).into(), value: (*value).into() })
                .collect(),
            ..ItemWords::default()
        },
        ..Item::default()
    }
}

fn belt_line(product: &str, other: &[&str]) -> Line {
    Line {
        product: Some(product.into()),
        other: other.iter().map(|text| (*text).to_owned()).collect(),
        explicit_max_cents: Some(21_200),
        price_min_cents: Some(2_400),
        ..Line::default()
    }
}

fn item_words(criterion: &mut Criterion) {
    let belt = listed(
        "MEN LEATHER BUSINESS CASUAL BELT Genuine Cowhide Automatic Buckle",
        &[("Belt material", "leather"), ("Pattern", "plain"), ("Belt styles", "casual"), ("Color", "brown")],
    );
    let facts = Facts {
        product: Some("leather business casual belt".into()),
        other: vec!["made of leather".into(), "simple pattern".into(), "relaxed style".into(), "40mm wide".into()],
        ..Facts::default()
    };
    let one = Cart {
        shipping: None,
        charges: Default::default(),
        entries: vec![CartEntry { item: belt.clone(), quantity: 1 }],
    };
    criterion.bench_function("item words, one item", |bench| {
        bench.iter(|| asasked::check(black_box(&facts), black_box(&one), &[]))
    });

    let items = [
        belt,
        listed("Tactical belt mens adjustable heavy military tactical belt", &[("Belt material", "canvas")]),
        listed("Portable Electric Shaver for men Mini Shaver Rechargeable Razor", &[("Features", "waterproof")]),
        listed("Moroccan Ceramic Serving Plate High Quality Ceramic 27cm", &[("Material", "ceramic")]),
    ];
    let facts = Facts {
        lines: vec![
            belt_line("leather belt", &["made of leather", "simple pattern"]),
            belt_line("tactical belt", &["crafted from canvas", "one size fits all"]),
            belt_line("travel shaver", &["waterproof"]),
            belt_line("ceramic square plate", &["27 cm diameter", "textured pattern"]),
        ],
        ..Facts::default()
    };
    let four = Cart {
        shipping: None,
        charges: Default::default(),
        entries: items.iter().rev().map(|item| CartEntry { item: item.clone(), quantity: 1 }).collect(),
    };
    criterion.bench_function("item words, 4 lines", |bench| {
        bench.iter(|| asasked::check(black_box(&facts), black_box(&four), &[]))
    });
}

fn benches(criterion: &mut Criterion) {
    let facts = every_fact();
    let one = Cart {
        shipping: None,
        charges: Default::default(),
        entries: vec![CartEntry { item: shoe(0, 42), quantity: 1 }],
    };
    let allowed: Vec<Item> = (0..20).map(|index| shoe(index + 1, 40 + (index % 5) as u32)).collect();
    criterion.bench_function("one item, every fact", |bench| {
        bench.iter(|| asasked::check(black_box(&facts), black_box(&one), black_box(&allowed)))
    });

    let ten = Cart {
        shipping: None,
        charges: Default::default(),
        entries: (0..10).map(|index| CartEntry { item: shoe(index, 42), quantity: 1 }).collect(),
    };
    let mut ten_facts = every_fact();
    ten_facts.quantity = Some(10);
    ten_facts.explicit_max_cents = Some(200_000);
    criterion.bench_function("ten items", |bench| {
        bench.iter(|| asasked::check(black_box(&ten_facts), black_box(&ten), black_box(&allowed)))
    });

    for count in [8, 64] {
        let (facts, cart) = lines_case(count);
        criterion.bench_function(&format!("lines {count}x{count}"), |bench| {
            bench.iter(|| asasked::check(black_box(&facts), black_box(&cart), &[]))
        });
    }
}

criterion_group!(decision, benches, item_words);
criterion_main!(decision);
