//! The offline rules extractor on any request text: no panic, and its output
//! is valid facts.
#![no_main]

use asasked::extract::rules::RulesExtractor;
use chrono::NaiveDate;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let extractor = RulesExtractor::default();
    let today = NaiveDate::from_ymd_opt(2026, 11, 2).expect("a valid date");
    let facts = extractor.parse(text, &[], today).into_facts(today);
    facts.validate().expect("the rules extractor returns valid facts");
});
