//! What reads request text before any model, on any input: the injection
//! screen (no panic, bounded flags and excerpts) and the offline rules
//! extractor (no panic, and its output is valid facts).
#![no_main]

use asasked::extract::rules::RulesExtractor;
use asasked::extract::screen::{EXCERPT_CHARS, MAX_FLAGS, screen};
use chrono::NaiveDate;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let flags = screen(text, "request");
    assert!(flags.len() <= MAX_FLAGS, "{} flags", flags.len());
    for flag in &flags {
        // The cut adds one ellipsis character.
        assert!(flag.excerpt.chars().count() <= EXCERPT_CHARS + 1, "{:?}", flag.excerpt);
    }
    let extractor = RulesExtractor::default();
    let today = NaiveDate::from_ymd_opt(2026, 11, 2).expect("a valid date");
    let facts = extractor.parse(text, &[], today).into_facts(today);
    facts.validate().expect("the rules extractor returns valid facts");
});
