//! Parsing the `today` a check counts deadlines from: an ISO date
//! (`2026-11-02`) or the free text people and agents write ("Monday,
//! 2 November 2026", "2 Nov 2026", "November 2, 2026").
//!
//! A weekday that contradicts the date is an error rather than a guess: one
//! of the two is wrong, and a deadline counted from the wrong day can let a
//! late delivery through. Pure: never reads the clock (the caller supplies the
//! default date).

use std::sync::LazyLock;

use chrono::{Datelike, NaiveDate, Weekday};

use crate::words::class;

/// A `today` that could not be read; the message names the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct TodayError {
    pub field: String,
    pub message: String,
}

/// English month names in calendar order: the values of `months.txt`.
static MONTHS: LazyLock<Vec<&str>> = LazyLock::new(|| class::MONTHS.values());

/// English weekday names from Monday: the values of `weekdays.txt`.
static WEEKDAYS: LazyLock<Vec<(&str, Weekday)>> = LazyLock::new(|| {
    let days = [Weekday::Mon, Weekday::Tue, Weekday::Wed, Weekday::Thu, Weekday::Fri, Weekday::Sat, Weekday::Sun];
    class::WEEKDAYS.values().into_iter().zip(days).collect()
});

/// Matches a full name or an abbreviation of at least three letters
/// ("Nov", "Sept", "Wed").
fn matches_name(word: &str, full: &str) -> bool {
    word.len() >= 3 && full.starts_with(word)
}

fn month_of(word: &str) -> Option<u32> {
    MONTHS.iter().position(|month| matches_name(word, month)).and_then(|index| u32::try_from(index + 1).ok())
}

fn weekday_of(word: &str) -> Option<Weekday> {
    WEEKDAYS.iter().find(|(name, _)| matches_name(word, name)).map(|(_, weekday)| *weekday)
}

/// Parses `text` as the date of today. `field` names the argument in errors
/// (`today`, `--today`).
pub fn parse(text: &str, field: &str) -> Result<NaiveDate, TodayError> {
    let fail = |message: String| TodayError { field: field.to_owned(), message };
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(fail("empty: give an ISO date (2026-11-02) or a date like \"Monday, 2 November 2026\"".into()));
    }
    if let Ok(date) = NaiveDate::parse_from_str(trimmed, "%Y-%m-%d") {
        return Ok(date);
    }
    let lowered = trimmed.to_lowercase();
    let words: Vec<&str> = lowered
        .split(|character: char| character.is_whitespace() || character == ',' || character == '.')
        .filter(|word| !word.is_empty())
        .collect();
    let (mut weekday, mut month, mut day, mut year) = (None, None, None, None);
    for word in &words {
        let number = word.trim_end_matches(|character: char| character.is_ascii_alphabetic());
        if !number.is_empty() && number.chars().all(|character| character.is_ascii_digit()) {
            let value: u32 = number.parse().map_err(|_| fail(format!("{word:?} is not a day or a year")))?;
            if number.len() == 4 && year.is_none() {
                year = Some(i32::try_from(value).map_err(|_| fail(format!("{word:?} is not a year")))?);
            } else if number.len() <= 2 && day.is_none() {
                day = Some(value);
            } else {
                return Err(fail(format!("{word:?}: expected one day and one four-digit year")));
            }
        } else if let Some(found) = month_of(word).filter(|_| month.is_none()) {
            month = Some(found);
        } else if let Some(found) = weekday_of(word).filter(|_| weekday.is_none()) {
            weekday = Some(found);
        } else if *word != "the" && *word != "of" {
            return Err(fail(format!("{trimmed:?}: cannot read {word:?} as part of a date")));
        }
    }
    let (Some(year), Some(month), Some(day)) = (year, month, day) else {
        return Err(fail(format!("{trimmed:?}: needs a day, a month and a year (e.g. \"Monday, 2 November 2026\")")));
    };
    let date = NaiveDate::from_ymd_opt(year, month, day).ok_or_else(|| fail(format!("{trimmed:?} is not a date")))?;
    if let Some(stated) = weekday
        && stated != date.weekday()
    {
        return Err(fail(format!(
            "{trimmed:?}: {} is a {}, not a {}",
            date.format("%Y-%m-%d"),
            WEEKDAYS[date.weekday().num_days_from_monday() as usize].0,
            WEEKDAYS[stated.num_days_from_monday() as usize].0
        )));
    }
    Ok(date)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(year: i32, month: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(year, month, day).unwrap()
    }

    #[test]
    fn month_and_weekday_names_are_the_word_classes_values_in_calendar_order() {
        assert_eq!((MONTHS.len(), MONTHS[0], MONTHS[4], MONTHS[11]), (12, "january", "may", "december"));
        let weekdays: Vec<&str> = WEEKDAYS.iter().map(|(name, _)| *name).collect();
        assert_eq!(weekdays, ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]);
        assert_eq!(WEEKDAYS[6].1, Weekday::Sun);
    }

    #[test]
    fn iso_and_free_text_dates() {
        assert_eq!(parse("2026-11-02", "today"), Ok(date(2026, 11, 2)));
        assert_eq!(parse("Monday, 2 November 2026", "today"), Ok(date(2026, 11, 2)));
        assert_eq!(parse("2 Nov 2026", "today"), Ok(date(2026, 11, 2)));
        assert_eq!(parse("November 2, 2026", "today"), Ok(date(2026, 11, 2)));
        assert_eq!(parse("Mon 2nd Nov. 2026", "today"), Ok(date(2026, 11, 2)));
    }

    #[test]
    fn contradicting_weekday_and_nonsense_name_the_field() {
        let error = parse("Tuesday, 2 November 2026", "today").unwrap_err();
        assert_eq!(error.field, "today");
        assert!(error.to_string().starts_with("today: "), "{error}");
        assert!(error.message.contains("is a monday, not a tuesday"), "{error}");
        assert!(parse("next week", "--today").unwrap_err().to_string().starts_with("--today: "));
        assert!(parse("31 February 2026", "today").is_err());
        assert!(parse("", "today").is_err());
        assert!(parse("2 November", "today").is_err(), "a year is required");
    }
}
