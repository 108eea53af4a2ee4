//! Spending limits: "under $120", "at most 300 euros", "до 5000 рублей",
//! "under twenty dollars", "from 324 to 623 pesos", "в пределах 8-12 тыс р".
//!
//! An amount is money when a currency (a sign, a code or a word in any common
//! currency, before or after it, also glued: "5000р") or a budget word says
//! so; a bare number is not ("under 30"). Money is a limit only when a limit
//! word says so ("under", "max", "до", "budget", "не дороже") or when it is
//! the upper end of a range ("from X to Y", "between X and Y", "X–Y", "от X
//! до Y": the limit is Y). A price mentioned any other way ("a $25 gift card")
//! and a minimum alone ("over 98 pesos", "above $50", "exceeds `170`") are
//! not limits. Hyperbole ("I'd pay anything", "хоть миллион") names no
//! currency amount and so never becomes a limit.
//!
//! The limit is in minor units of the currency the person used, and the
//! currency is reported as its ISO 4217 code when one was said. Every money
//! amount is consumed, limit or not, so "98 pesos" is never read as 98 items.
//!
//! Floors ([`Floor`], issue 28 §5) are read beside the limits: a minimum
//! word before the amount ("above $50", "over 98 pesos", "at least 20
//! euros", "дороже 1000 рублей") or the lower end of a range ("from 15 to
//! 37", "between 1 and 68 PHP" → floor 1, limit 68). A minimum that is
//! negated or said of something else than the item's price is no floor:
//! "nothing over $50", "don't spend over $50", "free shipping on orders over
//! $50", "above $200 is fine" (a tolerance).

use super::class::NUMBERS;
use std::sync::LazyLock;

use super::class::{CURRENCIES, MONEY_WORDS, WordClass, phrase_list};
use super::text::{Request, hundredths, number_words_at, whole_number};

/// Words before an amount that say it is the whole order's (`money-words.txt`, `@order-before`).
static ORDER_BEFORE: LazyLock<Vec<&[&str]>> = phrase_list!(MONEY_WORDS, "order-before");

/// Words after an amount that say it is the whole order's (`money-words.txt`, `@order-after`).
static ORDER_AFTER: LazyLock<Vec<&[&str]>> = phrase_list!(MONEY_WORDS, "order-after");

/// Words after a limit that make it a price per unit (`money-words.txt`, `@per-unit-after`).
static PER_UNIT_AFTER: LazyLock<Vec<&[&str]>> = phrase_list!(MONEY_WORDS, "per-unit-after");

/// Words before a limit that make it the whole order's budget (`money-words.txt`, `@budget-before`).
static BUDGET_BEFORE: LazyLock<Vec<&[&str]>> = phrase_list!(MONEY_WORDS, "budget-before");

/// Words after a limit that make it the whole order's budget (`money-words.txt`, `@budget-after`).
static BUDGET_AFTER: LazyLock<Vec<&[&str]>> = phrase_list!(MONEY_WORDS, "budget-after");

/// Words before a number that make it money without a currency (`money-words.txt`, `@bare-budget-before`).
static BARE_BUDGET_BEFORE: LazyLock<Vec<&[&str]>> = phrase_list!(MONEY_WORDS, "bare-budget-before");

/// The ISO 4217 code of a currency sign, code or word, if the token is one
/// (`currencies.txt`, `@amount`).
pub fn currency_of(word: &str) -> Option<&'static str> {
    let class: &'static WordClass = &CURRENCIES;
    class.has_mark(word, "amount").then(|| class.value(word)).flatten()
}

/// A currency before a number: every currency except the bare "р", which
/// before a number is the Russian size mark ("р. 39").
fn currency_before(word: &str) -> Option<&'static str> {
    currency_of(word).filter(|_| word != "р")
}

/// Words before an amount that make it a ceiling.
static LIMIT_BEFORE: LazyLock<Vec<&[&str]>> = phrase_list!(MONEY_WORDS, "limit-before");

/// Words after an amount that make it a ceiling ("$150 max").
static LIMIT_AFTER: LazyLock<Vec<&[&str]>> = phrase_list!(MONEY_WORDS, "limit-after");

/// Words before an amount that make it a floor, not a limit.
static MINIMUM_BEFORE: LazyLock<Vec<&[&str]>> = phrase_list!(MONEY_WORDS, "minimum-before");

/// Words before a minimum that make it no floor of the item's price: a
/// negation ("nothing over $50", "не дороже" is a limit, read apart), or
/// spending and a shop's terms ("don't spend over", "orders over $50").
static NOT_A_FLOOR_BEFORE: LazyLock<Vec<&[&str]>> = phrase_list!(MONEY_WORDS, "not-a-floor-before");

/// Words right before a minimum that make it a shop's shipping terms
/// ("free shipping over $50"), not a floor of the item's price.
static SHIPPING_TERMS: LazyLock<Vec<&[&str]>> = phrase_list!(MONEY_WORDS, "shipping-terms");

/// Words after a minimum that make it a tolerance or a ceiling, not a
/// floor ("above $200 is fine", "anything over $100 is too much").
static TOLERANCE_AFTER: LazyLock<Vec<&[&str]>> = phrase_list!(MONEY_WORDS, "tolerance-after");

/// A money amount in the request.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Amount {
    hundredths: u64,
    first: usize,
    last: usize,
    currency: Option<&'static str>,
    /// The upper end of a range ("from 324 to 623 pesos"), or a limit word
    /// inside the amount ("тысяч до пяти"): a limit without a word before.
    range: bool,
    /// The lower end of a range, when the amount is one ("from 15 to 37",
    /// "8-12 тыс"), in hundredths.
    low: Option<u64>,
}

/// A stated limit: its amount in minor units, where it starts, whether it is
/// per unit ("under $15 each"), which the caller multiplies by the count,
/// since `explicit_max_cents` limits the cart total, and its currency.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    pub hundredths: u64,
    pub at: usize,
    /// The last token of the amount.
    pub end: usize,
    pub per_unit: bool,
    pub currency: Option<&'static str>,
    /// Said of the whole order ("my budget is", "$200 in total"), not of one
    /// product's price.
    pub budget: bool,
}

/// A stated price floor: the least one item may cost ("above $50", the lower
/// end of "from 15 to 37"), in minor units, where its words start and end,
/// and its currency. A floor is a condition on each item's price, the way a
/// shop's price filter is, never on the cart total.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Floor {
    pub hundredths: u64,
    pub at: usize,
    /// The last token of the amount (of the whole range, for a range).
    pub end: usize,
    pub currency: Option<&'static str>,
    /// Said of the whole order ("a budget between $100 and $200 in
    /// total"): a floor on the total, which no fact holds.
    pub budget: bool,
}

/// The limits and floors of one request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Prices {
    pub limits: Vec<Limit>,
    pub floors: Vec<Floor>,
}

/// Every limit the parser reads in `text`, with the words that state it as
/// the person wrote them: grounding's witness for a limit said in a form
/// its own number reading does not know ("тысячи за две", "до 6 тыщ").
pub(crate) fn limits_in(text: &str) -> Vec<(u64, String)> {
    let mut request = Request::new(text);
    extract(&mut request).into_iter().map(|limit| (limit.hundredths, request.original(limit.at, limit.end))).collect()
}

/// Every floor the parser reads in `text`, with its words as written: the
/// witness grounding keeps a floor by.
pub(crate) fn floors_in(text: &str) -> Vec<(u64, String)> {
    let mut request = Request::new(text);
    read(&mut request)
        .floors
        .into_iter()
        .map(|floor| (floor.hundredths, request.original(floor.at, floor.end)))
        .collect()
}

/// Every stated spending limit, in order; consumes every amount it reads.
pub fn extract(request: &mut Request) -> Vec<Limit> {
    read(request).limits
}

/// Every stated limit and floor, in order; consumes every amount it reads.
pub fn read(request: &mut Request) -> Prices {
    let amounts = amounts(request);
    let mut limits = Vec::new();
    let mut floors = Vec::new();
    for amount in &amounts {
        request.consume(amount.first, amount.last);
        let said_of_the_order = |request: &Request| {
            request.preceded_by(amount.first, 5, &ORDER_BEFORE) || request.followed_by(amount.last, 3, &ORDER_AFTER)
        };
        if let Some(low) = amount.low.filter(|low| *low > 0) {
            floors.push(Floor {
                hundredths: low,
                at: amount.first,
                end: amount.last,
                currency: amount.currency,
                budget: said_of_the_order(request),
            });
        } else if !amount.range && is_floor(request, amount) {
            floors.push(Floor {
                hundredths: amount.hundredths,
                at: floor_start(request, amount.first),
                end: amount.last,
                currency: amount.currency,
                budget: said_of_the_order(request),
            });
        }
        if amount.range || is_limit(request, amount) {
            let per_unit = request.followed_by(amount.last, 2, &PER_UNIT_AFTER);
            let budget = request.preceded_by(
                amount.first,
                5,
                &BUDGET_BEFORE,
            )
                || request.followed_by(
                    amount.last,
                    3,
                    &BUDGET_AFTER,
                )
                // "don't spend more than 30 CAD": spending is the whole order's.
                || request.preceded_by(amount.first, 4, &[&["spend"], &["spending"], &["потратить"]]);
            limits.push(Limit {
                hundredths: amount.hundredths,
                at: amount.first,
                end: amount.last,
                per_unit,
                currency: amount.currency,
                budget,
            });
        }
    }
    Prices { limits, floors }
}

/// Whether the amount is a floor: a minimum word before it, not negated
/// and not said of spending or of a shop's terms, and no tolerance after.
fn is_floor(request: &Request, amount: &Amount) -> bool {
    let first = amount.first;
    let minimum = request.preceded_by(first, 3, &FLOOR_BEFORE)
        || (request.preceded_by(first, 2, &[&["more", "than"]])
            && !request.preceded_by(first, 4, &[&["no", "more"], &["not", "more"], &["spend", "more"]]))
        // "дороже 1000 рублей": the comparatives are floors unnegated.
        || (request.preceded_by(first, 2, &[&["дороже"], &["больше"], &["более"], &["выше"]])
            && !request.preceded_by(first, 3, &[&["не", "дороже"], &["не", "больше"], &["не", "более"], &["не", "выше"]]));
    // "with free shipping and priced above 40 pesos": the words before the
    // item's own price word are not said of this amount.
    let priced = (1..=4).find(|back| {
        first.checked_sub(*back).is_some_and(|at| matches!(request.word(at), "priced" | "price" | "costing" | "costs"))
    });
    let window = priced.map_or(4, |back| back - 1);
    let negated = (1..=4).any(|back| {
        first.checked_sub(back).is_some_and(|at| {
            request.same_clause(at, first)
                && (super::negation::is_requirement_negation(request.word(at)) || request.word(at).ends_with("n't"))
        })
    });
    let shipping_terms = request.preceded_by(floor_start(request, first), 1, &SHIPPING_TERMS);
    minimum
        && !negated
        && !shipping_terms
        && (window == 0 || !request.preceded_by(first, window, &NOT_A_FLOOR_BEFORE))
        && !request.followed_by(amount.last, 2, &TOLERANCE_AFTER)
}

/// Where a floor's words start: its minimum word, when it is right before
/// the amount ("above $50", "at least 20 euros"), else the amount.
fn floor_start(request: &Request, first: usize) -> usize {
    (1..=3)
        .filter_map(|back| first.checked_sub(back))
        .find(|&start| {
            FLOOR_BEFORE
                .iter()
                .chain([&["more", "than"][..]].iter())
                .any(|phrase| start + phrase.len() == first && request.phrase_at(start, phrase))
        })
        .unwrap_or(first)
}

/// Words before an amount that make it a floor of the item's price. Fewer
/// than [`MINIMUM_BEFORE`]: "from" and "от" alone ("a gift card from $25")
/// and "starting" say no floor; a range's lower end is read apart.
static FLOOR_BEFORE: LazyLock<Vec<&[&str]>> = phrase_list!(MONEY_WORDS, "floor-before");

/// The strictest of `limits` (the smallest: a limit too strict costs one
/// question, one too loose can let a cart through).
pub fn strictest(limits: &[Limit]) -> Option<Limit> {
    limits.iter().min_by_key(|limit| limit.hundredths).copied()
}

/// A number starting at `index`, in hundredths, and where it ends: digits
/// ("120", "12.50", "1,200", "15 000", "5k", "5 тыс"), a range in one token
/// ("8-12": its upper end, with `true`), a currency glued on ("5000р"), or
/// words ("twenty", "пять тысяч") when `words` allows.
fn number_at(request: &Request, index: usize, words: bool) -> Option<Number> {
    let word = request.word(index);
    if let Some((low, high)) = word.split_once('-') {
        // "50-70к": the range's upper end may carry the thousands.
        let (high, scale) = match high.strip_suffix(['k', 'к']) {
            Some(digits) => (digits, 1000),
            None => (high, 1),
        };
        if let (Some(low), Some(high)) = (hundredths(low), hundredths(high))
            && low < high
        {
            let mut number = Number {
                hundredths: high.checked_mul(scale)?,
                end: index,
                glued: None,
                range: true,
                scaled: scale > 1,
                low: Some(low.checked_mul(scale)?),
            };
            scale_thousands(request, &mut number)?;
            return Some(number);
        }
    }
    // "5000р", "100usd", "5k".
    let digits_end = word.find(|character: char| !(character.is_ascii_digit() || matches!(character, '.' | ',')));
    let (digits, suffix) = match digits_end {
        Some(end) if end > 0 => (word.get(..end)?, word.get(end..)?),
        _ => (word, ""),
    };
    if let Some(value) = hundredths(digits) {
        let (multiplier, glued) = match suffix {
            "" => (1, None),
            "k" | "к" => (1000, None),
            other => (1, Some(currency_of(other)?)),
        };
        let mut number = Number {
            hundredths: value.checked_mul(multiplier)?,
            end: index,
            glued,
            range: false,
            scaled: multiplier > 1,
            low: None,
        };
        if multiplier == 1 && glued.is_none() {
            // "15 000 рублей": a group of exactly three digits continues the number.
            while request.word(number.end + 1).len() == 3 && whole_number(request.word(number.end + 1)).is_some() {
                let group = whole_number(request.word(number.end + 1))?;
                number.hundredths = number.hundredths.checked_mul(1000)?.checked_add(group.checked_mul(100)?)?;
                number.end += 1;
            }
            scale_thousands(request, &mut number)?;
        }
        return Some(number);
    }
    if words {
        let (value, end) = number_words_at(request, index)?;
        return Some(Number {
            hundredths: value.checked_mul(100)?,
            end,
            glued: None,
            range: false,
            scaled: false,
            low: None,
        });
    }
    None
}

/// "5 тыс", "5 thousand": multiplies in place and moves the end.
fn scale_thousands(request: &Request, number: &mut Number) -> Option<()> {
    if NUMBERS.has_mark(request.word(number.end + 1), "thousands") {
        number.hundredths = number.hundredths.checked_mul(1000)?;
        number.low = match number.low {
            Some(low) => Some(low.checked_mul(1000)?),
            None => None,
        };
        number.end += 1;
        number.scaled = true;
    }
    Some(())
}

/// A number read by [`number_at`].
struct Number {
    hundredths: u64,
    end: usize,
    glued: Option<&'static str>,
    range: bool,
    /// Said in thousands ("20 тыс", "5k", "50-70к"): an amount of money
    /// after a limit word even without a currency, as no date or measure is.
    scaled: bool,
    /// The lower end of a range in one token ("8-12"), in hundredths.
    low: Option<u64>,
}

fn amounts(request: &Request) -> Vec<Amount> {
    let mut found: Vec<Amount> = Vec::new();
    let mut index = 0;
    while index < request.len() {
        if request.is_consumed(index) {
            index += 1;
            continue;
        }
        // "тысяч до пяти", "тысячи за две": thousands said first, then the
        // limit (or the price aimed at) and how many.
        if matches!(request.word(index), "тысяч" | "тысячи" | "тыщ" | "тыщи")
            && matches!(request.word(index + 1), "до" | "за")
            && let Some(number) = number_at(request, index + 2, true)
            && (1..1000 * 100).contains(&number.hundredths)
            && !number.scaled
            && number.glued.is_none()
        {
            found.push(Amount {
                hundredths: number.hundredths.saturating_mul(1000),
                first: index,
                last: number.end,
                currency: None,
                range: true,
                low: None,
            });
            index = number.end + 1;
            continue;
        }
        // Words are money only with a currency after them ("twenty dollars").
        let words_allowed =
            number_words_at(request, index).is_some_and(|(_, end)| currency_of(request.word(end + 1)).is_some());
        let Some(number) = number_at(request, index, words_allowed) else {
            index += 1;
            continue;
        };
        let before = currency_before(request.word_before(index, 1));
        let after = currency_of(request.word(number.end + 1)).filter(|_| number.glued.is_none());
        // "40 bucks AUD": a code after the currency word names which one.
        let code_after = after.and_then(|_| {
            let code = request.word(number.end + 2);
            (code.len() == 3 && request.same_clause(number.end, number.end + 2)).then(|| currency_of(code)).flatten()
        });
        let after = code_after.or(after);
        // "не дороже 8000": the Russian price comparatives say money without
        // a currency.
        let budget_bare = request.preceded_by(index, 4, &BARE_BUDGET_BEFORE);
        // "до 20 тыс", "under 5k": thousands after a limit word.
        let scaled_bare = number.scaled && request.preceded_by(index, 3, &LIMIT_BEFORE);
        // "игрушка … до 1500": a bare amount of three digits or more after
        // "до" that ends its clause (a date, an age or a measure has its word
        // after the number: "до 10 ноября", "до 5 лет", "до 30 см").
        let russian_bare = request.word_before(index, 1) == "до"
            && number.hundredths >= 10_000
            && !number.range
            && !request.is_word(number.end + 1)
            && request.is_cyrillic();
        if before.is_some() || after.is_some() || number.glued.is_some() || budget_bare || scaled_bare || russian_bare {
            let first = if before.is_some() { index - 1 } else { index };
            let last = match (code_after, after) {
                (Some(_), _) => number.end + 2,
                (None, Some(_)) => number.end + 1,
                _ => number.end,
            };
            let currency = before.or(after).or(number.glued);
            let mut amount =
                Amount { hundredths: number.hundredths, first, last, currency, range: number.range, low: number.low };
            if let Some((lower_start, mut low)) = range_start(request, first) {
                // "от 5 до 10 тыс": the lower end said without the thousands
                // the upper end carries.
                if number.scaled && !low.scaled && low.hundredths.saturating_mul(1000) <= number.hundredths {
                    low.hundredths = low.hundredths.saturating_mul(1000);
                }
                amount.first = lower_start;
                amount.range = true;
                amount.low = Some(low.hundredths);
            }
            found.push(amount);
            index = last + 1;
        } else {
            index = number.end + 1;
        }
    }
    found
}

/// Where the lower end of a range starts, and the lower end, when the amount
/// at `first` is the upper end of one: "from 324 to 623", "between 75 and
/// 95", "$20 - $30", "от 500 до 1000".
fn range_start(request: &Request, first: usize) -> Option<(usize, Number)> {
    let joiner = request.word_before(first, 1);
    if !(matches!(joiner, "-" | "–" | "—") || MONEY_WORDS.has_mark(joiner, "range-joiner")) {
        return None;
    }
    let mut lower = first.checked_sub(2)?;
    let number = number_at(request, lower, false)?;
    if number.end != lower {
        return None;
    }
    if currency_before(request.word_before(lower, 1)).is_some() {
        lower -= 1;
    }
    let opener = request.word_before(lower, 1);
    let opened = match joiner {
        "and" => opener == "between",
        "до" => opener == "от",
        _ => true,
    };
    opened.then_some((lower, number))
}

fn is_limit(request: &Request, amount: &Amount) -> bool {
    let first = amount.first;
    // "wine from France under 40 dollars", "a dress from Zara under $40":
    // the cue nearest the amount is the one said of it; of two ending
    // together the longer ("не выше 500" holds the minimum word "выше").
    let minimum_nearest = nearest_phrase(request, first, 3, &MINIMUM_BEFORE)
        .is_some_and(|minimum| nearest_phrase(request, first, 3, &LIMIT_BEFORE).is_none_or(|limit| minimum > limit));
    if minimum_nearest
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
    request.preceded_by(first, 5, &LIMIT_BEFORE) || request.followed_by(amount.last, 2, &LIMIT_AFTER)
}

/// How near to `index` the nearest of `phrases` that ends within `window`
/// tokens before it, inside its clause, ends, and then how long it is: the
/// larger, the nearer.
fn nearest_phrase(request: &Request, index: usize, window: usize, phrases: &[&[&str]]) -> Option<(usize, usize)> {
    (index.saturating_sub(window)..index)
        .filter(|&start| request.same_clause(start, index))
        .flat_map(|start| {
            phrases
                .iter()
                .filter(move |phrase| start + phrase.len() <= index && request.starts_phrase(start, phrase))
                .map(move |phrase| (start + phrase.len(), phrase.len()))
        })
        .max()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limit(text: &str) -> Option<u64> {
        strictest(&extract(&mut Request::new(text))).map(|limit| limit.hundredths)
    }

    fn currency(text: &str) -> Option<&'static str> {
        strictest(&extract(&mut Request::new(text))).and_then(|limit| limit.currency)
    }

    #[test]
    fn issue_12_fourth_batch_currencies() {
        assert_eq!((limit("under 40 bucks AUD"), currency("under 40 bucks AUD")), (Some(4000), Some("AUD")));
        assert_eq!((limit("Under A$150."), currency("Under A$150.")), (Some(15000), Some("AUD")));
        assert_eq!((limit("within Rs 3000"), currency("within Rs 3000")), (Some(300000), Some("INR")));
        assert_eq!(currency("under $40"), Some("USD"));
        assert_eq!(currency("keep it under a $150 budget"), Some("USD"));
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
        let together = extract(&mut Request::new("комбез синий, шапка любого цвета. всё вместе не дороже 6 тыс"));
        assert!(together.iter().all(|limit| limit.budget), "said of the whole order");
        assert_eq!(limit("не дороже 1000 рублей"), Some(100000));
        assert_eq!(limit("до 15 000 ₽"), Some(1500000));
        assert_eq!(limit("under $12.50"), Some(1250));
        assert_eq!(limit("My budget is only `425`, exceeds `170`"), Some(42500));
        assert_eq!(limit("under 500 pesos"), Some(50000));
        assert_eq!(limit("below ₱300"), Some(30000));
        assert_eq!(limit("up to 40 PHP"), Some(4000));
        assert_eq!(limit("до 5000р"), Some(500000));
        assert_eq!(limit("до 20 тыс р"), Some(2000000));
        assert_eq!(limit("under 10,000 yen"), Some(1000000));
        assert_eq!(limit("price lower than 40.00 dollars"), Some(4000));
        assert_eq!(limit("кроссовки 42 размера не дороже 8000"), Some(800000));
    }

    #[test]
    fn numbers_in_words() {
        assert_eq!(limit("under twenty dollars"), Some(2000));
        assert_eq!(limit("no more than fifty bucks"), Some(5000));
        assert_eq!(limit("не дороже пяти тысяч рублей").or(limit("до пять тысяч рублей")), Some(500000));
        assert_eq!(limit("до тысячи рублей"), Some(100000));
        // Thousands first, then the limit: colloquial Russian.
        assert_eq!(limit("Вернуть чтобы можно было. Тысяч до пяти"), Some(500000));
        assert_eq!(limit("конструктор типа Cobi. Тысячи за две."), Some(200000));
        assert_eq!(limit("тысяч до 7"), Some(700000));
    }

    #[test]
    fn ranges_limit_at_their_upper_end() {
        assert_eq!(limit("between 75 and 95 dollars"), Some(9500));
        assert_eq!(limit("priced from 324 to 623 pesos"), Some(62300));
        assert_eq!(limit("$20 - $30"), Some(3000));
        assert_eq!(limit("в пределах 8-12 тыс р"), Some(1200000));
        // Issue 12, third batch: thousands and a bare "до N" mean money.
        assert_eq!(limit("робот пылесос, только не xiaomi, до 20 тыс"), Some(2000000));
        assert_eq!(limit("ноут не acer, бюджет 50-70к"), Some(7000000));
        assert_eq!(limit("a used bike under 5k"), Some(500000));
        assert_eq!(limit("игрушку для собаки из каучука, до 1500"), Some(150000));
        assert_eq!(limit("куртка до 1500, размер 48"), Some(150000));
        assert_eq!(limit("успеть до 10 ноября"), None);
        assert_eq!(limit("пазл на ребёнка до 5 лет"), None);
        assert_eq!(limit("коврик до 150 см"), None);
        assert_eq!(limit("до 20"), None);
        assert_eq!(limit("for kids under 5"), None);
        assert_eq!(limit("5k running shoes"), None);
        assert_eq!(limit("от 500 до 1000 рублей"), Some(100000));
    }

    #[test]
    fn hyperbole_minimums_and_plain_prices_are_not_limits() {
        assert_eq!(limit("I'd pay anything"), None);
        assert_eq!(limit("money is no object"), None);
        assert_eq!(limit("whatever it costs"), None);
        assert_eq!(limit("любые деньги, хоть миллион"), None);
        assert_eq!(limit("above $50 is fine"), None);
        assert_eq!(limit("more than $50"), None);
        assert_eq!(limit("costs over 98 pesos"), None);
        assert_eq!(limit("priced above 375 PHP"), None);
        assert_eq!(limit("a $25 gift card"), None);
        assert_eq!(limit("дороже 1000 рублей"), None);
        assert_eq!(limit("under 30"), None);
        assert_eq!(limit("candy corn 5 pound"), None);
        assert_eq!(limit("до 20 ноября"), None);
    }

    #[test]
    fn the_cue_nearest_the_amount_is_said_of_it() {
        assert_eq!(limit("wine from France under 40 dollars"), Some(4000));
        assert_eq!(limit("a dress from Zara under $40"), Some(4000));
        assert_eq!(limit("чехол не выше 500 рублей"), Some(50000));
        assert_eq!(limit("куртка меньше 3000 рублей"), Some(300000));
        assert_eq!(limit("куртка не меньше 3000 рублей"), None);
        // A minimum word nearer the amount than the limit word is its own.
        assert_eq!(limit("under budget, from $40"), None);
        assert_eq!(limit("a gift card from $25"), None);
    }

    #[test]
    fn currencies_are_iso_codes() {
        assert_eq!(currency("under $50"), Some("USD"));
        assert_eq!(currency("max £50"), Some("GBP"));
        assert_eq!(currency("до 5000 рублей"), Some("RUB"));
        assert_eq!(currency("до 900р"), Some("RUB"));
        assert_eq!(currency("between 75 and 95 pesos"), Some("PHP"));
        assert_eq!(currency("under 40 euros"), Some("EUR"));
        assert_eq!(currency("My budget is only `425`"), None);
    }

    #[test]
    fn per_unit_limits_say_so() {
        let limit = strictest(&extract(&mut Request::new("3 cans under $15 each"))).unwrap();
        assert_eq!((limit.hundredths, limit.per_unit), (1500, true));
    }

    fn floor(text: &str) -> Option<(u64, Option<&'static str>)> {
        let floors = read(&mut Request::new(text)).floors;
        floors
            .iter()
            .filter(|floor| !floor.budget)
            .max_by_key(|floor| floor.hundredths)
            .map(|floor| (floor.hundredths, floor.currency))
    }

    #[test]
    fn issue_28_minimums_and_ranges_are_floors() {
        assert_eq!(floor("a gift above $50"), Some((5000, Some("USD"))));
        assert_eq!(floor("costs over 98 pesos"), Some((9800, Some("PHP"))));
        assert_eq!(floor("priced above 375 PHP"), Some((37500, Some("PHP"))));
        assert_eq!(floor("more than 42 pesos"), Some((4200, Some("PHP"))));
        assert_eq!(floor("at least 20 euros"), Some((2000, Some("EUR"))));
        assert_eq!(floor("дороже 1000 рублей"), Some((100000, Some("RUB"))));
        assert_eq!(floor("from 15 to 37 pesos"), Some((1500, Some("PHP"))));
        assert_eq!(floor("between 1 and 68 PHP"), Some((100, Some("PHP"))));
        assert_eq!(floor("$20 - $30"), Some((2000, Some("USD"))));
        assert_eq!(floor("от 500 до 1000 рублей"), Some((50000, Some("RUB"))));
        assert_eq!(floor("в пределах 8-12 тыс р"), Some((800000, Some("RUB"))));
        assert_eq!(floor("от 5 до 10 тыс рублей"), Some((500000, Some("RUB"))));
        // The range's upper end is still the limit.
        assert_eq!(limit("between 1 and 68 PHP"), Some(6800));
        assert_eq!(limit("from 15 to 37 pesos"), Some(3700));
    }

    #[test]
    fn issue_28_negated_minimums_shop_terms_and_tolerances_are_no_floors() {
        assert_eq!(floor("above $50 is fine"), None);
        assert_eq!(floor("anything over $100 is too much"), None);
        assert_eq!(floor("nothing over $50"), None);
        assert_eq!(floor("don't spend over $50"), None);
        assert_eq!(floor("not more than $30"), None);
        assert_eq!(floor("free shipping on orders over $50"), None);
        assert_eq!(floor("free shipping over $50"), None);
        assert_eq!(floor("доставка от 1000 рублей"), None);
        assert_eq!(floor("a car accessory with cash on delivery for more than 83 PHP"), Some((8300, Some("PHP"))));
        assert_eq!(floor("a car accessory with free shipping for more than 83 PHP"), Some((8300, Some("PHP"))));
        assert!(floor("a notebook with free shipping and priced above 40 pesos").is_some());
        assert_eq!(floor("a notebook not priced above 40 pesos"), None);
        assert_eq!(floor("не дороже 1000 рублей"), None);
        assert_eq!(floor("under $50"), None);
        assert_eq!(floor("a gift card from $25"), None);
        assert_eq!(floor("a $25 gift card"), None);
        assert_eq!(floor("over 30"), None);
        // A range said of the whole order is a floor of the total: budget.
        let floors = read(&mut Request::new("a budget between $100 and $200 in total")).floors;
        assert!(floors.iter().all(|floor| floor.budget));
    }

    #[test]
    fn issue_28_a_floor_names_its_words() {
        assert_eq!(floors_in("socks above $5, black"), vec![(500, "above $5".to_owned())]);
        assert_eq!(floors_in("priced from 324 to 623 pesos"), vec![(32400, "324 to 623 pesos".to_owned())]);
    }

    #[test]
    fn amounts_are_consumed() {
        let mut request = Request::new("4 cans, under $30");
        extract(&mut request);
        assert!(!request.is_consumed(0));
        assert!(request.is_consumed(4) && request.is_consumed(5));
        let mut request = Request::new("costs over 98 pesos");
        extract(&mut request);
        assert!(request.is_consumed(2));
        let mut request = Request::new("priced from 324 to 623 pesos");
        extract(&mut request);
        assert!(request.is_consumed(2) && request.is_consumed(4));
    }
}
