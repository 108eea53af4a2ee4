//! Services of a shop or an offer in a requirement and in an item's words
//! (issue 28 §4): "with LazMall perks", "supports cash on delivery",
//! "LazFlash deals". Such a requirement is about the offer, not the thing:
//! `super::requirement` meets it only where the item's words name the same
//! service (a marketplace's badge or payment option carried as an
//! attribute), and the words that only dress it ("deals", "perks",
//! "available") ask nothing of their own. The services and those words are
//! data (`extractors/words/shop-services.txt`).

use std::collections::BTreeSet;
use std::ops::Range;
use std::sync::LazyLock;

use super::class::SHOP_SERVICES;
use super::text::Request;

/// The longest service phrase the class lists has this many words.
const LONGEST: usize = 3;

/// The first word of every service phrase: a word that begins none is
/// passed over without joining the words after it into phrases to look
/// up (an item's words are read for services for each requirement that
/// names one, issue 28's speed target).
static FIRST_WORDS: LazyLock<BTreeSet<&'static str>> =
    LazyLock::new(|| SHOP_SERVICES.spellings().filter_map(|spelling| spelling.split(' ').next()).collect());

/// The services a text's folded words name, each with the words it spans:
/// the longest listed phrase first at each position.
pub fn named(words: &[&str]) -> Vec<(Range<usize>, &'static str)> {
    let mut found = Vec::new();
    let mut at = 0;
    while at < words.len() {
        if !FIRST_WORDS.contains(words[at]) {
            at += 1;
            continue;
        }
        let matched = (1..=LONGEST.min(words.len() - at)).rev().find_map(|length| {
            let phrase = words[at..at + length].join(" ");
            let service = SHOP_SERVICES.value(&phrase).filter(|_| !is_perk(&phrase));
            service.map(|service| (length, service))
        });
        match matched {
            Some((length, service)) => {
                found.push((at..at + length, service));
                at += length;
            }
            None => at += 1,
        }
    }
    found
}

/// Whether word `at` of `words` is inside a service phrase, past its first
/// word ("on" of "cash on delivery"): no connector there, as a phrase that
/// names one service is one requirement.
pub fn continues_a_service(words: &[&str], at: usize) -> bool {
    let from = at.saturating_sub(LONGEST - 1);
    let to = (at + LONGEST).min(words.len());
    named(&words[from..to]).iter().any(|(range, _)| range.start + from < at && at < range.end + from)
}

/// Whether token `index` of a request continues a service phrase ("on"
/// and "delivery" of "with cash on delivery and costing more than …"): no
/// connector cuts there, and no fact's cue words reach into it.
pub fn within_a_service(request: &Request, index: usize) -> bool {
    let from = index.saturating_sub(LONGEST - 1);
    let words: Vec<&str> = (from..(index + LONGEST).min(request.len())).map(|at| request.word(at)).collect();
    continues_a_service(&words, index - from)
}

/// Whether token `index` lies in the list of what a named service offers
/// ("LazMall benefits like authenticity guarantee and easy returns",
/// "LazMall perks such as guaranteed authenticity, easy returns"): the
/// members describe the service and ask nothing of their own, so "easy
/// returns" there is no wish that the item be returnable.
///
/// The list opens with an `@examples` word ("like", "such") right after a
/// service or a perk word ("LazMall like …", "benefits like …"), which
/// keeps "I'd like easy returns" a wish; it is looked for at most twelve
/// tokens back (`EXAMPLES_REACH`), never past the end of a sentence.
pub fn in_examples_of_a_service(request: &Request, index: usize) -> bool {
    let mut at = index;
    while at > 0 && index - at < EXAMPLES_REACH {
        at -= 1;
        let word = request.word(at);
        if matches!(word, "." | ";" | "!" | "?") {
            return false;
        }
        if SHOP_SERVICES.has_mark(word, "examples") {
            let from = at.saturating_sub(LONGEST + 1);
            let words: Vec<&str> = (from..at).map(|before| request.word(before)).collect();
            let service_ends_here = named(&words).iter().any(|(range, _)| range.end == words.len());
            let perk_before = words.last().is_some_and(|word| is_perk(word));
            return (service_ends_here || perk_before) && !named(&words).is_empty();
        }
    }
    false
}

/// How far back [`in_examples_of_a_service`] looks for the word that opens
/// a service's list: a list of three or four perks of a few words each.
const EXAMPLES_REACH: usize = 12;

/// Whether a folded word, beside a service, asks nothing more ("deals",
/// "perks", "available").
pub fn is_perk(word: &str) -> bool {
    SHOP_SERVICES.has_mark(word, "perk")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn services(text: &str) -> Vec<&'static str> {
        let words: Vec<String> = text.split_whitespace().map(str::to_lowercase).collect();
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        named(&words).into_iter().map(|(_, service)| service).collect()
    }

    #[test]
    fn each_service_is_read_as_the_one_it_names() {
        assert_eq!(
            services("with LazMall perks like guaranteed authenticity and quick returns"),
            vec!["official store", "official store", "official store"]
        );
        assert_eq!(services("supports COD"), vec!["cash on delivery"]);
        assert_eq!(services("LazFlash deals and cash on delivery"), vec!["flash sale", "cash on delivery"]);
        assert!(services("Nike Pegasus 41 running shoe deals").is_empty(), "a perk word alone names no service");
        assert!(is_perk("deals") && !is_perk("lazmall"));
        let in_list = |text: &str, word: &str| {
            let request = Request::new(text);
            let at = (0..request.len()).rev().find(|at| request.word(*at) == word).expect("the word");
            in_examples_of_a_service(&request, at)
        };
        assert!(in_list("a bike light with LazMall benefits like authenticity guarantee and easy returns", "returns"));
        assert!(in_list("with LazMall perks such as guaranteed authenticity, easy returns", "returns"));
        assert!(!in_list("from LazMall, I'd like easy returns", "returns"), "\"like\" after a person is a wish");
        assert!(!in_list("perks like free gifts. I need easy returns", "returns"), "a sentence ends the list");
        assert!(!in_list("shoes like these with easy returns", "returns"), "no service named before the list");
        let words = ["with", "cash", "on", "delivery", "and", "costing"];
        let inside: Vec<usize> = (0..words.len()).filter(|at| continues_a_service(&words, *at)).collect();
        assert_eq!(inside, vec![2, 3]);
    }
}
