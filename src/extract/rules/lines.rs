//! Several variants in one order: "size 40 for my wife and 43 for me", "one
//! white one black", "синюю размер M и чёрную размер S".
//!
//! Two or more different chosen sizes make lines; with as many colours, they
//! pair up in the order said. Two or more colours alone make lines only when
//! each has its own count ("one white one black", "синие 10 шт и черные 5
//! шт"): without counts, "silver jars with black lids" or "white cheddar
//! black pepper" name parts and flavours, not variants. A count right before
//! a variant ("2 in size 40", "one white"), or right after a colour with a
//! counting word ("синие 10 шт"), is that line's quantity. Two of the same
//! variant ("two Pro Staff 97s") is a quantity, not lines. Fallback and
//! either-or values never make a line.

use crate::words::class::COUNT_WORDS;
use crate::words::class::MarkedWords;
use std::sync::LazyLock;

use super::colour::ColourMention;
use crate::extract::ExtractedLine as Line;
use crate::words::class::LIST_WORDS;
use crate::words::size::SizeMention;
use crate::words::text::{Request, count};

/// Words that may sit between a line's count and its value ("2 in size 40").
static BETWEEN: LazyLock<MarkedWords> = LazyLock::new(|| LIST_WORDS.marked_words("count-between"));

/// A count said right before token `start`, skipping `BETWEEN` words; when
/// `loose`, skipping any words of the same clause ("2 pairs of socks in
/// size M").
fn count_before(request: &Request, start: usize, loose: bool) -> Option<(u64, usize)> {
    let mut at = start;
    for _ in 0..5 {
        at = at.checked_sub(1)?;
        let word = request.word(at);
        if let Some(value) = count(word).filter(|value| *value > 0) {
            return (!request.is_consumed(at)).then_some((value, at));
        }
        let skippable = BETWEEN.contains(&word) || (loose && request.is_word(at) && request.same_clause(at, start));
        if !skippable {
            return None;
        }
    }
    None
}

/// "синие 10 шт", "black, 2 pairs": a count with a counting word right after
/// the colour at `start`.
fn count_after(request: &Request, start: usize) -> Option<(u64, usize)> {
    let at = if request.word(start + 1) == "," { start + 2 } else { start + 1 };
    let value = count(request.word(at)).filter(|value| *value > 0)?;
    let counted = COUNT_WORDS.has_mark(request.word(at + 1), "counted-after");
    (counted && !request.is_consumed(at)).then_some((value, at))
}

/// Lines from the chosen sizes and colours (already de-duplicated, in
/// order), or empty when the request names one variant. Consumes the counts
/// it gives to lines.
pub fn assemble(request: &mut Request, sizes: &[&SizeMention], colours: &[&ColourMention]) -> Vec<Line> {
    // "twin xl twin size", "size 10 8.5 us": sizes said back to back are one
    // size said twice or in two systems, not variants; variants are joined
    // ("40 for my wife and 43 for me", "M и S", "one in 10, one in 11").
    let joined = |first: &SizeMention, second: &SizeMention| {
        (first.end + 1..second.start).any(|at| {
            matches!(request.word(at), "," | ";" | "+") || LIST_WORDS.has_mark(request.word(at), "size-joiner")
        })
    };
    if sizes.len() >= 2 && sizes.windows(2).any(|pair| !joined(pair[0], pair[1])) {
        return Vec::new();
    }
    let variants: Vec<(Option<&str>, Option<&str>, usize)> = if sizes.len() >= 2 && sizes.len() == colours.len() {
        sizes
            .iter()
            .zip(colours)
            .map(|(size, colour)| (Some(size.label.as_str()), Some(colour.colour.as_str()), colour.at.min(size.start)))
            .collect()
    } else if sizes.len() >= 2 {
        sizes.iter().map(|size| (Some(size.label.as_str()), None, size.start)).collect()
    } else if colours.len() >= 2 {
        colours.iter().map(|colour| (None, Some(colour.colour.as_str()), colour.at)).collect()
    } else {
        Vec::new()
    };
    let colours_only = sizes.len() < 2;
    let mut quantities: Vec<Option<(u64, usize)>> = variants
        .iter()
        .map(|(_, _, start)| {
            count_before(request, *start, false)
                .or_else(|| if colours_only { count_after(request, *start) } else { None })
        })
        .collect();
    // "grey, and a black one for my husband": another one said as such.
    let another_one = colours.iter().any(|colour| matches!(request.word(colour.at + 1), "one" | "ones"))
        && colours
            .iter()
            .any(|colour| request.word_before(colour.at, 2) == "and" || request.word_before(colour.at, 1) == "and");
    // "три штуки: белую, черную и синюю", "3 of them: red, blue and green":
    // a count, then a colon and as many colours, is one of each.
    let total_before_colon = || {
        let first = colours.first()?;
        let colon = (first.at.saturating_sub(3)..first.at).find(|at| request.word(*at) == ":")?;
        count_before(request, colon, true)
            .filter(|(total, _)| usize::try_from(*total).is_ok_and(|n| n == colours.len()))
    };
    if colours_only
        && quantities.iter().all(Option::is_none)
        && let Some((_, at)) = total_before_colon()
    {
        request.consume(at, at);
        return colours
            .iter()
            .map(|colour| Line { color: Some(colour.colour.clone()), quantity: Some(1), ..Line::default() })
            .collect();
    }
    if colours_only && quantities.iter().any(Option::is_none) && !another_one {
        return Vec::new();
    }
    // When some lines carry a count ("… and 1 in L"), the others' counts may
    // sit further back ("2 pairs of socks in size M").
    if quantities.iter().any(Option::is_some) {
        for (quantity, (_, _, start)) in quantities.iter_mut().zip(&variants) {
            if quantity.is_none() {
                *quantity = count_before(request, *start, true);
            }
        }
    }
    variants
        .iter()
        .zip(quantities)
        .map(|((size, colour, _), quantity)| {
            if let Some((_, at)) = quantity {
                request.consume(at, at);
            }
            Line {
                color: colour.map(str::to_owned),
                size_label: size.map(str::to_owned),
                quantity: quantity.map(|(value, _)| value),
                ..Line::default()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::colour;
    use super::*;
    use crate::words::size;

    fn lines(text: &str) -> Vec<Line> {
        let mut request = Request::new(text);
        let sizes = size::extract(&mut request);
        let colours = colour::extract(&mut request);
        let sizes: Vec<&SizeMention> = sizes.iter().collect();
        let colours: Vec<&ColourMention> = colours.iter().collect();
        assemble(&mut request, &sizes, &colours)
    }

    fn line(size: Option<&str>, colour: Option<&str>, quantity: Option<u64>) -> Line {
        Line { color: colour.map(Into::into), size_label: size.map(Into::into), quantity, ..Line::default() }
    }

    #[test]
    fn a_count_then_as_many_colours_is_one_of_each() {
        assert_eq!(
            lines("Футболки детские рост 128 три штуки: белую, черную и синюю"),
            [line(None, Some("white"), Some(1)), line(None, Some("black"), Some(1)), line(None, Some("blue"), Some(1))]
        );
        // Not as many colours as the count: no lines.
        assert!(lines("three packs: black and white").is_empty());
    }

    #[test]
    fn sizes_colours_and_pairs_make_lines() {
        assert_eq!(
            lines("size 40 for my wife and 43 for me"),
            [line(Some("40"), None, None), line(Some("43"), None, None)]
        );
        assert_eq!(
            lines("2 in size 40 and 1 in size 41"),
            [line(Some("40"), None, Some(2)), line(Some("41"), None, Some(1))]
        );
        assert_eq!(
            lines("one white one black, both XL"),
            [line(None, Some("white"), Some(1)), line(None, Some("black"), Some(1))]
        );
        assert_eq!(
            lines("синюю размер M и чёрную размер S"),
            [line(Some("M"), Some("blue"), None), line(Some("S"), Some("black"), None)]
        );
        assert!(lines("size 42, black").is_empty());
        assert_eq!(
            lines("ручки гелевые pilot: синие 10 шт и черные 5 шт"),
            [line(None, Some("blue"), Some(10)), line(None, Some("black"), Some(5))]
        );
        assert!(lines("silver plastic jars with black flat top lids").is_empty());
        assert_eq!(
            lines("Spigen Tough Armor for iPhone 15, grey, and a black one for my husband"),
            [line(None, Some("grey"), None), line(None, Some("black"), None)]
        );
        assert!(lines("a pack of 18 white cheddar black pepper snack mix").is_empty());
        assert_eq!(
            lines("2 pairs of socks in size M and 1 in L"),
            [line(Some("M"), None, Some(2)), line(Some("L"), None, Some(1))]
        );
    }
}
