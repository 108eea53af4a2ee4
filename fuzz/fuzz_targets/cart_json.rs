//! Any bytes as a cart: parsing never panics, and a parsed cart always gets
//! a verdict without panicking.
#![no_main]

use asasked::{Cart, Facts, check};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else { return };
    if let Ok(cart) = Cart::from_value(&value) {
        let facts = Facts { quantity: Some(3), explicit_max_cents: Some(10_000), ..Facts::default() };
        let _ = check(&facts, &cart, &[]);
    }
});
