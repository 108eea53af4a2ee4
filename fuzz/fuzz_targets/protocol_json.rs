//! Any bytes as a commerce protocol's document (issue 15): reading it as a
//! cart (UCP, ACP, AP2 CartMandate) or as a request (AP2 mandates) never
//! panics, and a cart read under a mandate read from the same bytes always
//! gets a verdict without panicking.
#![no_main]

use asasked::decision::run_with_mandate;
use asasked::protocols::{parse_cart, parse_request};
use asasked::{Facts, Verdict};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(serde_json::Value::Object(document)) = serde_json::from_slice::<serde_json::Value>(data) else { return };
    let today = chrono::NaiveDate::from_ymd_opt(2026, 11, 2).expect("a date");
    let mandate = parse_request(&document, "$.request").map(|request| request.mandate).unwrap_or_default();
    if let Ok(cart) = parse_cart(&document, "$.cart", today) {
        let facts = Facts { needs_refundable: true, deadline_days: Some(3), ..Facts::default() };
        let (facts, findings) = run_with_mandate(asasked::checks::CheckPolicy::Words, &facts, &mandate, &cart.cart, cart.payment.as_ref(), &[], today);
        let _ = Verdict::checked(findings, &facts.disputed, asasked::messages::Language::En);
    }
});
