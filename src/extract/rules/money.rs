//! Spending limits: "under $120", "at most 300 euros", "до 5000 рублей".
//!
//! An amount is a limit only when a limit word says so ("under", "max", "до",
//! "budget"); a price mentioned any other way ("a $25 gift card") and a
//! minimum ("above $50", "exceeds `170`") are not. Hyperbole ("I'd pay
//! anything", "хоть миллион") carries no digits and so never becomes a limit.
//! The limit is in minor units of whatever currency the person used; the
//! currency itself is not a fact (guard.md §3 has no field for it). Every
//! amount with a currency is consumed, so "$30" is never read as 30 cans.

use super::text::{Request, hundredths, whole_number};

/// Words or signs that make a number money.
fn is_currency(word: &str) -> bool {
    matches!(
        word,
        "$" | "€"
            | "£"
            | "₽"
            | "usd"
            | "eur"
            | "gbp"
            | "rub"
            | "dollar"
            | "dollars"
            | "bucks"
            | "euro"
            | "euros"
            | "quid"
            | "rubles"
            | "roubles"
            | "ruble"
            | "руб"
            | "р"
            | "евро"
            | "долларов"
            | "доллара"
            | "баксов"
    ) || word.starts_with("рубл")
}

/// Words before an amount that make it a ceiling.
const LIMIT_BEFORE: [&[&str]; 26] = [
    &["budget's"],
    &["under"],
    &["below"],
    &["less", "than"],
    &["no", "more", "than"],
    &["not", "more", "than"],
    &["spend", "more", "than"],
    &["at", "most"],
    &["max"],
    &["maximum"],
    &["up", "to"],
    &["upto"],
    &["within"],
    &["budget"],
    &["cheaper", "than"],
    &["cap"],
    &["до"],
    &["дороже"],
    &["больше"],
    &["более"],
    &["максимум"],
    &["бюджет"],
    &["пределах"],
    &["дешевле"],
    &["limit"],
    &["лимит"],
];

/// Words after an amount that make it a ceiling ("$150 max").
const LIMIT_AFTER: [&[&str]; 7] =
    [&["max"], &["maximum"], &["tops"], &["or", "less"], &["at", "most"], &["максимум"], &["or", "under"]];

/// Words before an amount that make it a floor, not a limit.
const MINIMUM_BEFORE: [&[&str]; 9] = [
    &["above"],
    &["over"],
    &["at", "least"],
    &["from"],
    &["exceeds"],
    &["minimum"],
    &["от"],
    &["starting"],
    &["priced", "more", "than"],
];

/// An amount in the request and whether it is a ceiling.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Amount {
    hundredths: u64,
    first: usize,
    last: usize,
}

/// A stated limit: its amount in minor units, where it starts, and whether
/// it is per unit ("under $15 each"), which the caller multiplies by the
/// count, since `explicit_max_cents` limits the cart total.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    pub hundredths: u64,
    pub at: usize,
    pub per_unit: bool,
}

/// The strictest stated spending limit; consumes every amount it reads.
pub fn extract(request: &mut Request) -> Option<Limit> {
    let amounts = amounts(request);
    let mut limits = Vec::new();
    for amount in &amounts {
        request.consume(amount.first, amount.last);
        if is_limit(request, amount) {
            let per_unit = request.followed_by(
                amount.last,
                2,
                &[
                    &["each"],
                    &["apiece"],
                    &["per"],
                    &["a", "piece"],
                    &["за", "штуку"],
                    &["за", "банку"],
                    &["за", "пару"],
                ],
            );
            limits.push(Limit { hundredths: amount.hundredths, at: amount.first, per_unit });
        }
    }
    limits.into_iter().min_by_key(|limit| limit.hundredths)
}

fn amounts(request: &Request) -> Vec<Amount> {
    let mut found = Vec::new();
    let mut index = 0;
    while index < request.len() {
        let Some((value, number_end)) = number_at(request, index) else {
            index += 1;
            continue;
        };
        let currency_before = is_currency(request.word_before(index, 1));
        let currency_after = is_currency(request.word(number_end + 1));
        let budget_bare = request.preceded_by(index, 4, &[&["budget"], &["budget's"], &["бюджет"]]);
        if currency_before || currency_after || budget_bare {
            let first = if currency_before { index - 1 } else { index };
            let last = if currency_after { number_end + 1 } else { number_end };
            found.push(Amount { hundredths: value, first, last });
            index = last + 1;
        } else {
            index = number_end + 1;
        }
    }
    found
}

/// A number starting at `index` in minor units (×100), with thousands written
/// "15 000", "5k", "5 тыс", and where it ends.
fn number_at(request: &Request, index: usize) -> Option<(u64, usize)> {
    let word = request.word(index);
    let (digits, multiplier) = match word.strip_suffix(['k', 'к']) {
        Some(digits) if !digits.is_empty() => (digits, 1000),
        _ => (word, 1),
    };
    let mut value = hundredths(digits)?.checked_mul(multiplier)?;
    let mut end = index;
    // "15 000 рублей": a group of exactly three digits continues the number.
    while multiplier == 1 && request.word(end + 1).len() == 3 && whole_number(request.word(end + 1)).is_some() {
        let group = whole_number(request.word(end + 1))?;
        value = value.checked_mul(1000)?.checked_add(group.checked_mul(100)?)?;
        end += 1;
    }
    if matches!(request.word(end + 1), "тыс" | "тысяч" | "тысячи" | "thousand") {
        value = value.checked_mul(1000)?;
        end += 1;
    }
    Some((value, end))
}

fn is_limit(request: &Request, amount: &Amount) -> bool {
    let first = amount.first;
    if request.preceded_by(first, 3, &MINIMUM_BEFORE)
        || (request.preceded_by(first, 2, &[&["more", "than"]])
            && !request.preceded_by(first, 4, &[&["no", "more"], &["not", "more"], &["spend", "more"]]))
    {
        return false;
    }
    // "не дороже", "не больше": the Russian comparatives are limits only negated.
    let russian_comparative = request.preceded_by(first, 2, &[&["дороже"], &["больше"], &["более"]]);
    if russian_comparative {
        return request.preceded_by(first, 3, &[&["не", "дороже"], &["не", "больше"], &["не", "более"]]);
    }
    if request.preceded_by(first, 2, &[&["between"], &["от"]]) {
        return false;
    }
    request.preceded_by(first, 5, &LIMIT_BEFORE)
        || request.followed_by(amount.last, 2, &LIMIT_AFTER)
        || request.preceded_by(first, 4, &[&["and"], &["и"], &["до"]]) && request.preceded_by(first, 6, &[&["between"]])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limit(text: &str) -> Option<u64> {
        extract(&mut Request::new(text)).map(|limit| limit.hundredths)
    }

    #[test]
    fn stated_limits_in_every_currency() {
        assert_eq!(limit("a racket under $120"), Some(12000));
        assert_eq!(limit("at most 300 euros"), Some(30000));
        assert_eq!(limit("max £50"), Some(5000));
        assert_eq!(limit("до 5000 рублей"), Some(500000));
        assert_eq!(limit("budget 80 bucks"), Some(8000));
        assert_eq!(limit("budget $150 max"), Some(15000));
        assert_eq!(limit("don't spend more than $50"), Some(5000));
        assert_eq!(limit("no more than $30 total"), Some(3000));
        assert_eq!(limit("не дороже 1000 рублей"), Some(100000));
        assert_eq!(limit("до 15 000 ₽"), Some(1500000));
        assert_eq!(limit("under $12.50"), Some(1250));
        assert_eq!(limit("My budget is only `425`, exceeds `170`"), Some(42500));
        assert_eq!(limit("between 75 and 95 dollars"), Some(9500));
    }

    #[test]
    fn hyperbole_minimums_and_plain_prices_are_not_limits() {
        assert_eq!(limit("I'd pay anything"), None);
        assert_eq!(limit("money is no object"), None);
        assert_eq!(limit("whatever it costs"), None);
        assert_eq!(limit("любые деньги, хоть миллион"), None);
        assert_eq!(limit("above $50 is fine"), None);
        assert_eq!(limit("more than $50"), None);
        assert_eq!(limit("a $25 gift card"), None);
        assert_eq!(limit("дороже 1000 рублей"), None);
        assert_eq!(limit("under 30"), None);
    }

    #[test]
    fn per_unit_limits_say_so() {
        let limit = extract(&mut Request::new("3 cans under $15 each")).unwrap();
        assert_eq!((limit.hundredths, limit.per_unit), (1500, true));
    }

    #[test]
    fn amounts_are_consumed() {
        let mut request = Request::new("4 cans, under $30");
        extract(&mut request);
        assert!(!request.is_consumed(0));
        assert!(request.is_consumed(4) && request.is_consumed(5));
    }
}
