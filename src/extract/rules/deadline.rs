//! Deadlines: "by Friday", "within 3 days", "tomorrow", "к пятнице", "за 3 дня".
//!
//! A named weekday is returned as a weekday, and code counts the days
//! (guard.md §4.3), so "by Friday" said on a Friday is today (0). Two
//! readings are decided here and documented because people disagree on them:
//!
//! - "next Friday" is the first Friday after today, never today: said on a
//!   Friday it is 7, said on a Wednesday it is 2 (the datasets' convention).
//! - "next week" is the end of next week (its Sunday), and "by next week" is
//!   next Monday; "this week" / "end of the week" is this Sunday.
//!
//! When several deadlines are stated, the strictest counts: a deadline that is
//! too strict costs one question, one that is too loose can let a late
//! delivery through.

use chrono::{Datelike, NaiveDate};

use super::text::{Request, count};
use crate::extract::{Weekday, days_until};

/// What the request says about when the order must arrive.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Deadline {
    pub weekday: Option<Weekday>,
    pub days: Option<u64>,
    /// The first token of the strongest mention, for soft markers.
    pub at: Option<usize>,
}

const WEEKDAYS: [(&str, Weekday); 7] = [
    ("monday", Weekday::Monday),
    ("tuesday", Weekday::Tuesday),
    ("wednesday", Weekday::Wednesday),
    ("thursday", Weekday::Thursday),
    ("friday", Weekday::Friday),
    ("saturday", Weekday::Saturday),
    ("sunday", Weekday::Sunday),
];

/// Russian weekday stems; среда is matched by its forms only, since "сред"
/// also starts "среднего" (intermediate).
const RUSSIAN_WEEKDAYS: [(&str, Weekday); 6] = [
    ("понедельник", Weekday::Monday),
    ("вторник", Weekday::Tuesday),
    ("четверг", Weekday::Thursday),
    ("пятниц", Weekday::Friday),
    ("суббот", Weekday::Saturday),
    ("воскресен", Weekday::Sunday),
];

/// Words that make a weekday a deadline rather than an event.
const DEADLINE_BEFORE: [&[&str]; 12] = [
    &["by"],
    &["before"],
    &["until"],
    &["till"],
    &["later", "than"],
    &["latest"],
    &["к"],
    &["до"],
    &["позже"],
    &["позднее"],
    &["arrive"],
    &["here"],
];

/// A weekday named by one token, allowing one slip of the keyboard in long
/// names ("thrusday", "wendesday").
fn weekday_of(word: &str) -> Option<Weekday> {
    let plain = word.trim_end_matches("'s");
    for (name, weekday) in WEEKDAYS {
        if plain == name || plain.strip_suffix('s') == Some(name) {
            return Some(weekday);
        }
    }
    if matches!(plain, "среда" | "среды" | "среду" | "среде") {
        return Some(Weekday::Wednesday);
    }
    for (stem, weekday) in RUSSIAN_WEEKDAYS {
        if plain.starts_with(stem) {
            return Some(weekday);
        }
    }
    if plain.chars().count() >= 6 && plain.is_ascii() {
        for (name, weekday) in WEEKDAYS {
            if near(plain, name) {
                return Some(weekday);
            }
        }
    }
    None
}

/// Damerau–Levenshtein distance of at most 1 (one edit or one swap).
fn near(typed: &str, name: &str) -> bool {
    let a: Vec<char> = typed.chars().collect();
    let b: Vec<char> = name.chars().collect();
    if a.len().abs_diff(b.len()) > 1 {
        return false;
    }
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a.iter().rev().zip(b.iter().rev()).take_while(|(x, y)| x == y).count();
    let longest = a.len().max(b.len());
    if prefix + suffix + 1 >= longest {
        return true;
    }
    // One swap of neighbours.
    a.len() == b.len()
        && a.len() >= prefix + 2
        && a.get(prefix) == b.get(prefix + 1)
        && a.get(prefix + 1) == b.get(prefix)
        && a.get(prefix + 2..) == b.get(prefix + 2..)
}

/// "fri", "sat.": read only after "by"/"before"/"on", where nothing else fits.
fn abbreviated_weekday(word: &str) -> Option<Weekday> {
    Some(match word {
        "mon" => Weekday::Monday,
        "tue" | "tues" => Weekday::Tuesday,
        "wed" => Weekday::Wednesday,
        "thu" | "thur" | "thurs" => Weekday::Thursday,
        "fri" => Weekday::Friday,
        "sat" => Weekday::Saturday,
        "sun" => Weekday::Sunday,
        _ => return None,
    })
}

fn is_day_unit(word: &str) -> bool {
    matches!(word, "day" | "days" | "дня" | "дней" | "день" | "суток" | "сутки")
}

fn is_week_unit(word: &str) -> bool {
    matches!(word, "week" | "weeks" | "неделю" | "недели" | "недель" | "неделя")
}

/// Days from `today` to the end of the week `weeks_ahead` weeks on (its Sunday).
fn days_to_sunday(today: NaiveDate, weeks_ahead: u64) -> u64 {
    u64::from(6 - today.weekday().num_days_from_monday()) + 7 * weeks_ahead
}

/// The deadline stated in the request; consumes the tokens it reads.
pub fn extract(request: &mut Request, today: NaiveDate) -> Deadline {
    let mut strong_weekday: Option<(Weekday, usize)> = None;
    let mut weak_weekday: Option<(Weekday, usize)> = None;
    let mut days: Vec<(u64, usize)> = Vec::new();
    for index in 0..request.len() {
        if request.is_consumed(index) {
            continue;
        }
        let word = request.word(index).to_owned();
        if let Some(weekday) = weekday_of(&word) {
            request.consume(index, index);
            if request.preceded_by(index, 2, &[&["next"], &["следующей"], &["следующего"], &["следующую"]])
            {
                let until = days_until(today, weekday);
                days.push((if until == 0 { 7 } else { until }, index));
            } else if request.preceded_by(index, 3, &DEADLINE_BEFORE) {
                strong_weekday = strong_weekday.or(Some((weekday, index)));
            } else {
                weak_weekday = weak_weekday.or(Some((weekday, index)));
            }
            continue;
        }
        // "by the weekend", "к выходным": the weekend starts on Saturday.
        let weekend = matches!(word.as_str(), "weekend" | "выходным" | "выходных" | "выходные");
        let abbreviation = abbreviated_weekday(&word);
        if (weekend || abbreviation.is_some())
            && request.preceded_by(index, 3, &[&["by"], &["before"], &["until"], &["к"], &["до"], &["on"], &["for"]])
        {
            request.consume(index, index);
            strong_weekday = strong_weekday.or(Some((abbreviation.unwrap_or(Weekday::Saturday), index)));
            continue;
        }
        match word.as_str() {
            "завтрашнему" | "завтрашнего" => {
                days.push((1, index));
                request.consume(index, index);
            }
            "tomorrow" | "завтра" => {
                let after = request.word_before(index, 1) == "after" && request.word_before(index, 3) == "day";
                days.push((if after { 2 } else { 1 }, index));
                request.consume(index, index);
            }
            "послезавтра" => {
                days.push((2, index));
                request.consume(index, index);
            }
            "today" | "tonight" | "сегодня" => {
                // "today" is a deadline when a need or a delivery word leads up
                // to it in its clause, not in "I ordered one today".
                let in_context = request.preceded_by(
                    index,
                    8,
                    &[
                        &["need"],
                        &["needs"],
                        &["needed"],
                        &["by"],
                        &["for"],
                        &["arrive"],
                        &["here"],
                        &["deliver"],
                        &["delivered"],
                        &["нужно"],
                        &["нужен"],
                        &["нужна"],
                        &["надо"],
                        &["доставить"],
                    ],
                ) || request.followed_by(index, 2, &[&["нужно"], &["нужен"], &["надо"]])
                    || clause_is_only(request, index);
                if in_context {
                    days.push((0, index));
                    request.consume(index, index);
                }
            }
            _ => {}
        }
        if (is_day_unit(&word) || is_week_unit(&word))
            && let Some(stated) = relative_days(request, index, today)
        {
            days.push((stated, index));
        }
    }
    let weekday = strong_weekday.or(weak_weekday);
    let first_days = days.iter().min_by_key(|(value, _)| *value).copied();
    Deadline {
        weekday: weekday.map(|(weekday, _)| weekday),
        days: first_days.map(|(value, _)| value),
        at: weekday.map(|(_, at)| at).or(first_days.map(|(_, at)| at)),
    }
}

/// Whether a token is alone in its clause (", сегодня"): its neighbours are
/// punctuation or in other clauses. Looks only at the neighbours, so a
/// request of many "today"s stays linear.
fn clause_is_only(request: &Request, index: usize) -> bool {
    let alone_before = index == 0 || !request.same_clause(index - 1, index) || !request.is_word(index - 1);
    let alone_after = !request.same_clause(index, index + 1) || !request.is_word(index + 1);
    alone_before && alone_after
}

/// "within 3 days", "in two days", "за 3 дня", "within a week", "next week".
fn relative_days(request: &mut Request, unit: usize, today: NaiveDate) -> Option<u64> {
    let unit_word = request.word(unit).to_owned();
    let before = request.word_before(unit, 1).to_owned();
    let number = count(&before).or(match before.as_str() {
        "a" | "one" => Some(1),
        _ => None,
    });
    let lead = |request: &Request, at: usize| {
        request.preceded_by(
            at,
            2,
            &[
                &["within"],
                &["in"],
                &["за"],
                &["через"],
                &["течение"],
                &["next"],
                &["takes"],
                &["than"],
                &["max"],
                &["maximum"],
                &["most"],
                &["to"],
                &["максимум"],
            ],
        )
    };
    if is_week_unit(&unit_word) {
        if matches!(before.as_str(), "next" | "следующей" | "следующую") {
            request.consume(unit - 1, unit);
            let by = request.preceded_by(unit - 1, 1, &[&["by"], &["к"], &["до"]]);
            return Some(if by {
                let monday = days_until(today, Weekday::Monday);
                if monday == 0 { 7 } else { monday }
            } else {
                days_to_sunday(today, 1)
            });
        }
        if matches!(before.as_str(), "this" | "этой") || request.preceded_by(unit, 3, &[&["end", "of", "the"]]) {
            request.consume(unit - 1, unit);
            return Some(days_to_sunday(today, 0));
        }
        if let Some(weeks) = number
            && lead(request, unit - 1)
        {
            request.consume(unit - 1, unit);
            return weeks.checked_mul(7);
        }
        if matches!(unit_word.as_str(), "неделю") && lead(request, unit) {
            request.consume(unit, unit);
            return Some(7);
        }
        return None;
    }
    let number_at = unit.checked_sub(1)?;
    let days = number?;
    if lead(request, number_at) || request.followed_by(unit, 2, &[&["max"], &["at", "most"], &["максимум"]]) {
        request.consume(number_at, unit);
        return Some(days);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-11-02 is a Monday.
    fn date(text: &str) -> NaiveDate {
        NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
    }

    fn deadline(text: &str, today: &str) -> Deadline {
        extract(&mut Request::new(text), date(today))
    }

    #[test]
    fn weekdays_are_returned_as_weekdays() {
        assert_eq!(deadline("by Friday", "2026-11-02").weekday, Some(Weekday::Friday));
        assert_eq!(deadline("need it by thrusday", "2026-11-02").weekday, Some(Weekday::Thursday));
        assert_eq!(deadline("к пятнице", "2026-11-02").weekday, Some(Weekday::Friday));
        assert_eq!(deadline("к среде", "2026-11-02").weekday, Some(Weekday::Wednesday));
        assert_eq!(deadline("delivered by Sat", "2026-11-02").weekday, Some(Weekday::Saturday));
        assert_eq!(deadline("before the weekend", "2026-11-02").weekday, Some(Weekday::Saturday));
        assert_eq!(deadline("к выходным", "2026-11-02").weekday, Some(Weekday::Saturday));
        assert_eq!(deadline("срочно к завтрашнему дню", "2026-11-02").days, Some(1));
        assert_eq!(deadline("the sun is out", "2026-11-02").weekday, None);
        assert_eq!(deadline("для среднего уровня", "2026-11-02").weekday, None);
        let race = deadline("MUST arrive by Saturday, we're running a race on Sunday", "2026-11-04");
        assert_eq!(race.weekday, Some(Weekday::Saturday));
    }

    #[test]
    fn by_friday_on_a_friday_is_today() {
        let friday = date("2026-11-06");
        let facts = crate::extract::ExtractedFacts {
            deadline_weekday: deadline("by Friday", "2026-11-06").weekday,
            ..Default::default()
        };
        assert_eq!(facts.into_facts(friday).deadline_days, Some(0));
        assert_eq!(deadline("need it next Friday", "2026-11-06").days, Some(7));
        assert_eq!(deadline("need it next Friday", "2026-11-04").days, Some(2));
    }

    #[test]
    fn relative_deadlines_count_days() {
        assert_eq!(deadline("within 3 days", "2026-11-02").days, Some(3));
        assert_eq!(deadline("in two days", "2026-11-02").days, Some(2));
        assert_eq!(deadline("I need it tomorrow", "2026-11-02").days, Some(1));
        assert_eq!(deadline("need it today", "2026-11-02").days, Some(0));
        assert_eq!(deadline("I need 6 cartons of Oatly Barista today", "2026-11-02").days, Some(0));
        assert_eq!(deadline("за 3 дня", "2026-11-02").days, Some(3));
        assert_eq!(deadline("в течение 2 дней", "2026-11-02").days, Some(2));
        assert_eq!(deadline("завтра нужно", "2026-11-02").days, Some(1));
        assert_eq!(deadline("within a week", "2026-11-02").days, Some(7));
        assert_eq!(deadline("next week", "2026-11-02").days, Some(13));
        assert_eq!(deadline("by next week", "2026-11-04").days, Some(5));
        assert_eq!(deadline("I ordered one today for my son", "2026-11-02").days, None);
        assert_eq!(deadline("3 pairs of socks", "2026-11-02").days, None);
    }
}
