//! Property tests: the decision step never panics on arbitrary facts and
//! carts, is deterministic, and (without lines) does not depend on the order
//! of the cart.

use asasked::cart::{Cart, CartEntry, Item, ItemLevel};
use asasked::facts::{Facts, FieldRef, Level, Line, PricePreference};
use asasked::{Severity, check};
use proptest::prelude::*;
use serde_json::Value;

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("Nike".to_owned()),
        Just("nike".to_owned()),
        Just("Wilson".to_owned()),
        Just("Pegasus 41".to_owned()),
        Just("White/Black".to_owned()),
        Just("чёрный".to_owned()),
        Just("EU 42".to_owned()),
        Just("42,5".to_owned()),
        Just("Medium".to_owned()),
        Just("4 3/8".to_owned()),
        "\\PC{0,12}",
    ]
}

fn item() -> impl Strategy<Value = Item> {
    (
        (proptest::option::of(text()), proptest::option::of(text()), proptest::option::of(text())),
        (
            proptest::option::of(text()),
            proptest::option::of(prop_oneof![
                Just(ItemLevel::Beginner),
                Just(ItemLevel::Intermediate),
                Just(ItemLevel::Pro),
                Just(ItemLevel::Any)
            ]),
        ),
        (proptest::option::of(any::<bool>()), proptest::option::of(0u64..30), proptest::option::of(1u64..25)),
        (
            proptest::option::of(0u64..1_000_000),
            proptest::option::of(prop_oneof![Just("USD".to_owned()), Just("EUR".to_owned())]),
        ),
    )
        .prop_map(
            |((brand, name, color), (size, level), (final_sale, delivery_days, units), (price_cents, currency))| Item {
                id: None,
                brand,
                name,
                color,
                size,
                level,
                final_sale,
                delivery_days,
                units,
                price_cents,
                currency,
                sku: None,
                merchant: None,
                words: Default::default(),
            },
        )
}

fn line() -> impl Strategy<Value = Line> {
    (
        proptest::option::of(text()),
        proptest::option::of(text()),
        proptest::option::of(text()),
        proptest::option::of(1u64..5),
    )
        .prop_map(|(model, color, size_label, quantity)| Line {
            model,
            color,
            size_label,
            quantity,
            ..Line::default()
        })
}

fn facts(with_lines: bool) -> impl Strategy<Value = Facts> {
    let field_names = prop_oneof![
        Just("color".to_owned()),
        Just("size_label".to_owned()),
        Just("brand".to_owned()),
        Just("lines".to_owned()),
        Just("lines[0].color".to_owned()),
        Just("quantity".to_owned()),
        Just("other".to_owned()),
    ];
    (
        (proptest::option::of(text()), proptest::collection::vec(text(), 0..2), proptest::option::of(text())),
        (proptest::option::of(text()), proptest::option::of(text())),
        (
            proptest::option::of(prop_oneof![Just(Level::Beginner), Just(Level::Pro)]),
            proptest::option::of(prop_oneof![Just(PricePreference::Cheap), Just(PricePreference::Premium)]),
        ),
        (
            proptest::option::of(0u64..2_000_000),
            proptest::option::of(1u64..10),
            any::<bool>(),
            proptest::option::of(0u64..20),
        ),
        proptest::collection::vec(line(), if with_lines { 1..5 } else { 0..1 }),
        (proptest::collection::vec(text(), 0..2), proptest::collection::vec(text(), 0..2)),
        (
            proptest::collection::btree_set(field_names.clone(), 0..3),
            proptest::collection::btree_set(field_names, 0..3),
        ),
    )
        .prop_map(
            |(
                (brand, brand_not, model),
                (color, size_label),
                (level, price_preference),
                (explicit_max_cents, quantity, needs_refundable, deadline_days),
                lines,
                (other, other_optional),
                (soft, disputed),
            )| Facts {
                brand,
                brand_not,
                model,
                color,
                size_label,
                level,
                price_preference,
                explicit_max_cents,
                quantity,
                needs_refundable,
                deadline_days,
                lines,
                other,
                other_optional,
                soft: soft.iter().filter_map(|name: &String| FieldRef::parse(name)).collect(),
                disputed: disputed.iter().filter_map(|name: &String| FieldRef::parse(name)).collect(),
                ..Facts::default()
            },
        )
}

fn cart() -> impl Strategy<Value = Cart> {
    proptest::collection::vec((item(), 1u64..5), 1..7).prop_map(|entries| Cart {
        shipping: None,
        charges: Default::default(),
        entries: entries.into_iter().map(|(item, quantity)| CartEntry { item, quantity }).collect(),
    })
}

/// The findings as an order-free multiset, without cart positions.
fn signature(verdict: &asasked::Verdict) -> Vec<(String, Severity, String)> {
    let mut list: Vec<(String, Severity, String)> = verdict
        .findings
        .iter()
        .map(|finding| (finding.code.as_str().to_owned(), finding.severity, finding.field.as_str().to_owned()))
        .collect();
    list.sort();
    list
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn deterministic_and_order_free_without_lines(facts in facts(false), cart in cart(), allowed in proptest::collection::vec(item(), 0..4), rotation in 0usize..7) {
        let first = check(&facts, &cart, &allowed);
        let again = check(&facts, &cart, &allowed);
        prop_assert_eq!(&first, &again);
        prop_assert_eq!(first.decision == asasked::Decision::Ask, first.findings.iter().any(|finding| finding.severity == Severity::Block));
        let mut rotated = cart.clone();
        let shift = rotation % rotated.entries.len();
        rotated.entries.rotate_left(shift);
        let other_order = check(&facts, &rotated, &allowed);
        prop_assert_eq!(first.decision, other_order.decision);
        prop_assert_eq!(signature(&first), signature(&other_order));
    }

    #[test]
    fn lines_never_panic_and_are_deterministic(facts in facts(true), cart in cart()) {
        let first = check(&facts, &cart, &[]);
        prop_assert_eq!(&first, &check(&facts, &cart, &[]));
        // Every line is either served by one entry or reported missing.
        let missing = first.findings.iter().filter(|finding| finding.code == asasked::Code::Missing).count();
        let extra = first.findings.iter().filter(|finding| finding.code == asasked::Code::Extra).count();
        prop_assert_eq!(facts.lines.len() - missing, cart.entries.len() - extra);
    }

    #[test]
    fn cart_parsing_never_panics(value in arbitrary_json()) {
        let _ = Cart::from_value(&value);
    }
}

fn arbitrary_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_filter("finite", |number| number.is_finite()).prop_map(Value::from),
        "\\PC{0,8}".prop_map(Value::String),
        prop_oneof![Just("item"), Just("quantity"), Just("price"), Just("name"), Just("returnable")]
            .prop_map(|key| Value::String(key.to_owned())),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::btree_map(
                prop_oneof![
                    Just("item".to_owned()),
                    Just("quantity".to_owned()),
                    Just("price".to_owned()),
                    Just("name".to_owned()),
                    Just("units".to_owned()),
                    "[a-z_]{1,8}"
                ],
                inner,
                0..6
            )
            .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}
