//! Any bytes as facts: parsing and validation never panic, and valid facts
//! checked against a fixed cart never panic.
#![no_main]

use asasked::cart::{CartEntry, Item};
use asasked::{Cart, Facts, check};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else { return };
    if let Ok(facts) = Facts::from_value(value) {
        let item = Item {
            brand: Some("Nike".into()),
            name: Some("Nike Pegasus 41".into()),
            color: Some("White/Black".into()),
            size: Some("EU 42".into()),
            units: Some(1),
            price_cents: Some(12999),
            currency: Some("USD".into()),
            ..Item::default()
        };
        let cart = Cart { shipping: None, charges: Default::default(), entries: vec![CartEntry { item: item.clone(), quantity: 1 }, CartEntry { item, quantity: 2 }] };
        let _ = check(&facts, &cart, &[]);
    }
});
