//! The `today` parser on any UTF-8: no panic, and a date it accepts reads
//! back the same from its ISO form and from the long English form, so a
//! check counts deadlines from the day the caller meant.
#![no_main]

use asasked::today::parse;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(date) = parse(text, "today") else { return };
    let iso = date.format("%Y-%m-%d").to_string();
    assert_eq!(parse(&iso, "today"), Ok(date), "{text:?} -> {iso}");
    // chrono pads years beyond four digits with a sign; the long form is only
    // defined for the four-digit years the parser reads.
    if (1000..=9999).contains(&chrono::Datelike::year(&date)) {
        let long = date.format("%A, %-d %B %Y").to_string();
        assert_eq!(parse(&long, "today"), Ok(date), "{text:?} -> {long}");
    }
});
