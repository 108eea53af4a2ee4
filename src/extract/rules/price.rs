//! A stated price preference: "cheap", "cheapest", "budget option",
//! "подешевле" → cheap; "premium", "top of the line" → premium.
//!
//! Tolerance is not preference: "cheap stuff is fine" says cheap is allowed,
//! not wanted. A comparative with an amount ("дешевле 1000 рублей") is a
//! limit, read by `money`, not a preference. Both preferences at once cancel.

use std::sync::LazyLock;

use crate::facts::PricePreference;
use crate::words::class::{PRICE_PREFERENCE, phrase_list};
use crate::words::text::Request;

static CHEAP_PHRASES: LazyLock<Vec<&[&str]>> = phrase_list!(PRICE_PREFERENCE, "cheap");

static PREMIUM_PHRASES: LazyLock<Vec<&[&str]>> = phrase_list!(PRICE_PREFERENCE, "premium");

/// Where every premium or cheap phrase is, (first, last token), so that all
/// of them are read into the preference ("premium …, top of the line").
pub fn phrases(request: &Request) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    for index in 0..request.len() {
        for phrase in CHEAP_PHRASES.iter().chain(PREMIUM_PHRASES.iter()) {
            if request.phrase_at(index, phrase) {
                found.push((index, index + phrase.len() - 1));
            }
        }
    }
    found
}

/// The stated preference and the token that states it.
pub fn extract(request: &Request) -> Option<(PricePreference, usize)> {
    let mut cheap = None;
    let mut premium = None;
    for index in 0..request.len() {
        if request.is_consumed(index) {
            continue;
        }
        let word = request.word(index);
        let negated = request.preceded_by(index, 2, &[&["not"], &["nothing"], &["не"], &["no"]])
            || request.followed_by(index, 2, &[&["не", "нужен"], &["не", "нужно"], &["не", "надо"]]);
        let tolerated = request.followed_by(index, 3, &[&["is", "fine"], &["fine"], &["ok"], &["is", "ok"]]);
        if negated || tolerated {
            continue;
        }
        let says_cheap = PRICE_PREFERENCE.has_mark(word, "cheap-word")
            || word.starts_with("подешевл")
            || word.starts_with("дешев")
            || word.starts_with("недорог")
            || CHEAP_PHRASES.iter().any(|phrase| request.phrase_at(index, phrase));
        let comparative = matches!(word, "cheaper") || word.starts_with("дешевле");
        let with_amount = comparative
            && (request.word(index + 1).bytes().next().is_some_and(|byte| byte.is_ascii_digit())
                || request.word(index + 1) == "than");
        if says_cheap && !with_amount {
            cheap = cheap.or(Some(index));
        }
        if PREMIUM_PHRASES.iter().any(|phrase| request.phrase_at(index, phrase)) || word.starts_with("топов") {
            premium = premium.or(Some(index));
        }
    }
    match (cheap, premium) {
        (Some(at), None) => Some((PricePreference::Cheap, at)),
        (None, Some(at)) => Some((PricePreference::Premium, at)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn preference(text: &str) -> Option<PricePreference> {
        extract(&Request::new(text)).map(|(preference, _)| preference)
    }

    #[test]
    fn stated_preferences() {
        assert_eq!(preference("cheap as possible"), Some(PricePreference::Cheap));
        assert_eq!(preference("the cheapest you can find"), Some(PricePreference::Cheap));
        assert_eq!(preference("cheapest 4 cans of Wilson"), Some(PricePreference::Cheap));
        assert_eq!(preference("budget option please"), Some(PricePreference::Cheap));
        assert_eq!(preference("что-нибудь подешевле"), Some(PricePreference::Cheap));
        assert_eq!(preference("самые дешёвые"), Some(PricePreference::Cheap));
        assert_eq!(preference("premium headphones"), Some(PricePreference::Premium));
        assert_eq!(preference("top of the line"), Some(PricePreference::Premium));
        assert_eq!(preference("телевизор 55 дюймов самый лучший"), Some(PricePreference::Premium));
    }

    #[test]
    fn tolerance_negation_and_limits_are_not_preferences() {
        assert_eq!(preference("cheap stuff is fine"), None);
        assert_eq!(preference("премиум не нужен"), None);
        assert_eq!(preference("not cheap please"), None);
        assert_eq!(preference("дешевле 1000 рублей"), None);
        assert_eq!(preference("budget 80 bucks"), None);
    }
}
