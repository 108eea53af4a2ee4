//! The text normalisers on any UTF-8: no panic, and folding is idempotent.
#![no_main]

use asasked::normalize::{ColourWords, Size, fold, skeleton, words};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let folded = fold(text);
    assert_eq!(fold(&folded), folded, "fold is idempotent");
    let _ = words(text);
    let _ = skeleton(text);
    let size = Size::parse(text);
    assert!(size.matches(&Size::parse(text)), "a size matches itself");
    let colour = ColourWords::new(text);
    assert!(colour.all_in(&colour));
});
