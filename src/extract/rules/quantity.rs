//! Quantities in the units the person counts: "two cans", "3 packs of balls",
//! "a pair of shoes", "две банки", "6 пакетов".
//!
//! The number is kept as said: "3 packs" is 3 whatever a pack holds, because
//! guard.md §3 counts in the person's units and the cart side knows how many
//! units an item holds. A pack size is not a count: "a 6 pack of cookies",
//! "comes in a pack of two", "two piece swimsuit". Runs after money,
//! deadline, size and model have claimed their numbers.

use super::text::{Request, count, number_word};

/// The largest number read as a count.
const MAX_COUNT: u64 = 999;

/// Words after a number that make it anything but a count of items.
fn is_not_counted(word: &str) -> bool {
    matches!(
        word,
        "" | "%"
            | "day"
            | "days"
            | "week"
            | "weeks"
            | "hour"
            | "hours"
            | "minutes"
            | "year"
            | "years"
            | "months"
            | "дня"
            | "дней"
            | "день"
            | "недели"
            | "лет"
            | "года"
            | "am"
            | "pm"
            | "in"
            | "of"
            | "for"
            | "and"
            | "or"
            | "to"
            | "is"
            | "are"
            | "и"
            | "или"
            | "на"
            | "в"
            | "piece"
            | "ply"
            | "star"
            | "stars"
            | "player"
            | "players"
            | "people"
            | "persons"
            | "kids"
            | "times"
            | "colors"
            | "colours"
            | "shades"
    )
}

/// A stated count; consumes the number it reads.
pub fn extract(request: &mut Request) -> Option<(u64, usize)> {
    for index in 0..request.len() {
        if request.is_consumed(index) || !request.is_word(index) {
            continue;
        }
        if let Some(found) = count_at(request, index) {
            request.consume(index, index);
            return Some((found, index));
        }
    }
    None
}

fn count_at(request: &Request, index: usize) -> Option<u64> {
    let word = request.word(index);
    let next = request.word(index + 1);
    // "a pair of shoes", "one pair", "пара кроссовок".
    if matches!(word, "pair") && matches!(request.word_before(index, 1), "a" | "one") && next == "of" {
        return Some(1);
    }
    if matches!(word, "пара" | "пару") && request.is_word(index + 1) {
        return Some(1);
    }
    if word == "single" && request.word_before(index, 1) == "a" {
        return Some(1);
    }
    // "x2", "2x".
    if let Some(times) = word.strip_prefix(['x', '×']).or_else(|| word.strip_suffix(['x', '×'])) {
        return count(times).filter(|value| *value > 0 && times.bytes().all(|byte| byte.is_ascii_digit()));
    }
    let value = count(word)?;
    // Nobody orders 1992 of a thing; such numbers are years or part numbers.
    if value == 0 || value > MAX_COUNT {
        return None;
    }
    // "with 2 pillow shams", "spf 15", "style 2": a detail or a name, not a count.
    if matches!(
        request.word_before(index, 1),
        "with"
            | "spf"
            | "style"
            | "model"
            | "type"
            | "number"
            | "#"
            | "gen"
            | "series"
            | "version"
            | "no"
            | "no."
            | "с"
            | "со"
    ) {
        return None;
    }
    // A pack size: "pack of two", "set of 100", "a 6 pack", "a two pack".
    if request.preceded_by(index, 2, &[&["pack", "of"], &["set", "of"], &["packs", "of"], &["по"]])
        || (matches!(request.word_before(index, 1), "a" | "an")
            && (next.starts_with("pack") || next.ends_with("-pack")))
    {
        return None;
    }
    // "two of them": a count without a noun.
    if next == "of" && matches!(request.word(index + 2), "them" | "these" | "those" | "the") {
        return Some(value);
    }
    if is_not_counted(next) || !request.is_word(index + 1) || !request.same_clause(index, index + 1) {
        return None;
    }
    // "one" is also a pronoun ("the blue one", "one white one black" are lines).
    if number_word(word) == Some(1)
        && (matches!(request.word_before(index, 1), "the" | "a" | "this" | "that") || super::colour::is_colour(next))
    {
        return None;
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quantity(text: &str) -> Option<u64> {
        extract(&mut Request::new(text)).map(|(value, _)| value)
    }

    #[test]
    fn counts_in_the_persons_units() {
        assert_eq!(quantity("two cans of Penn"), Some(2));
        assert_eq!(quantity("3 packs of balls"), Some(3));
        assert_eq!(quantity("a pair of shoes"), Some(1));
        assert_eq!(quantity("две банки мячей"), Some(2));
        assert_eq!(quantity("6 пакетов молока"), Some(6));
        assert_eq!(quantity("a single can of Wilson"), Some(1));
        assert_eq!(quantity("super crema beans, two of them"), Some(2));
        assert_eq!(quantity("JBL Tune 510BT x2"), Some(2));
    }

    #[test]
    fn pack_sizes_pronouns_and_other_numbers_are_not_counts() {
        assert_eq!(quantity("a 6 pack of cookie assortments"), None);
        assert_eq!(quantity("a two pack of lip balm"), None);
        assert_eq!(quantity("comes in a pack of two"), None);
        assert_eq!(quantity("a two piece swimsuit"), None);
        assert_eq!(quantity("a black one for my husband"), None);
        assert_eq!(quantity("I'm a 5.0 player"), None);
        assert_eq!(quantity("a Moleskine notebook"), None);
        assert_eq!(quantity("cupcake picks with a 1992 theme"), None);
        assert_eq!(quantity("a bedspread set with 2 pillow shams"), None);
        assert_eq!(quantity("spf 15 sunscreen"), None);
    }
}
