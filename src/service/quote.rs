//! Reasons that quote the person (issue 11 item 4): where grounding kept the
//! words that support a value, a size or model finding says what the person
//! said rather than the extracted value: `You asked for "size 42"; the cart
//! has EU 44: Nike Pegasus 41.`
//!
//! Pure: findings, the cart and the extractors' grounding in, findings out.
//! Only the reason changes, rebuilt from the finding's own values (never by
//! editing a sentence); codes, severities and ids stay as the guard made
//! them. Without grounding (or without words beyond the bare value),
//! nothing changes.

use std::sync::LazyLock;

use chrono::NaiveDate;

use crate::cart::Cart;
use crate::extract::set::ExtractorReport;
use crate::facts::{FieldName, FieldRef, KeyRef};
use crate::finding::{Code, Compared, Finding};
use crate::messages::{ItemName, Message};

/// Quotes the person's words in the reasons of size and model findings whose
/// expected value some extractor's grounding supports with words of the
/// request. Colour spans are windows around a colour word ("41 in black"),
/// not a phrase to quote, so colour keeps its reason; so does a size with
/// alternatives, which no single quote covers.
///
/// A deadline finding names dates, counted from `today` as guard.md §4.3
/// counts days, and quotes the deadline's word when it is a weekday,
/// "today", "tomorrow" or "weekend".
pub fn quote_reasons(
    findings: Vec<Finding>,
    cart: &Cart,
    reports: &[ExtractorReport],
    today: NaiveDate,
) -> Vec<Finding> {
    findings
        .into_iter()
        .map(|finding| {
            if finding.code == Code::Deadline {
                return match deadline_message(&finding, cart, reports, today) {
                    Some(message) => finding.say(message),
                    None => finding,
                };
            }
            let field = match finding.code {
                Code::Size => FieldName::SizeLabel,
                Code::Model => FieldName::Model,
                _ => return finding,
            };
            let (Compared::Text(expected), Some(entry)) = (&finding.expected, finding.entry) else {
                return finding;
            };
            let field = match finding.line {
                Some(index) => FieldRef::Line { index, field },
                None => FieldRef::Shared(field),
            };
            let Some(quote) = words_for(reports, field, expected) else {
                return finding;
            };
            let Some(item) = cart.entries.get(entry).map(|entry| &entry.item) else {
                return finding;
            };
            let message = match finding.code {
                Code::Size => match &item.size {
                    Some(size) => {
                        Message::SizeQuoted { quote: quote.to_owned(), size: size.clone(), item: ItemName::of(item) }
                    }
                    None => return finding,
                },
                _ => Message::ModelQuoted { quote: quote.to_owned(), item: ItemName::of(item) },
            };
            finding.say(message)
        })
        .collect()
}

/// `You asked for it by “Friday” (Friday, 6 November); it would arrive in 8
/// days (Tuesday, 10 November): Nike Pegasus 41.`
fn deadline_message(finding: &Finding, cart: &Cart, reports: &[ExtractorReport], today: NaiveDate) -> Option<Message> {
    let (
        Compared::DeliveryWithin { delivery_days_at_most: deadline },
        Compared::Delivery { delivery_days: Some(arrives) },
    ) = (&finding.expected, &finding.actual)
    else {
        return None;
    };
    let (deadline, arrives) = (*deadline, *arrives);
    let item = &cart.entries.get(finding.entry?)?.item;
    let quoted = words_for(reports, FieldName::DeadlineDays.into(), &deadline.to_string())
        .filter(|words| DEADLINE_WORDS.contains(&words.to_lowercase().as_str()))
        .map(str::to_owned);
    Some(Message::DeadlineDated {
        days: deadline,
        by: today.checked_add_days(chrono::Days::new(deadline))?,
        quoted,
        arrives,
        arrives_on: today.checked_add_days(chrono::Days::new(arrives))?,
        item: ItemName::of(item),
    })
}

/// Deadline words worth quoting after "by": grounding's span of a deadline
/// is often one word of a longer phrase ("November" of "November 5", "a" of
/// "a week"), which only these name alone. English words only: a Russian
/// weekday is inflected ("до пятницы"), so the Russian table names the date
/// in its own case instead of quoting.
/// The weekdays' English names (`weekdays.txt`) and `date-words.txt`'s
/// `@quotable` words.
static DEADLINE_WORDS: LazyLock<Vec<&str>> = LazyLock::new(|| {
    let mut words = crate::words::class::WEEKDAYS.values();
    words.extend(crate::words::class::DATE_WORDS.words_marked("quotable"));
    words
});

/// The request words that support `value` for `field`: the longest span any
/// extractor's grounding kept ("size 42" over a bare "42", which may be the
/// 42 of "Pegasus 42"), and only one that says more than the value itself;
/// a bare value quotes nothing the reason does not already say.
fn words_for<'a>(reports: &'a [ExtractorReport], field: FieldRef, value: &str) -> Option<&'a str> {
    let field = KeyRef::from(field);
    reports
        .iter()
        .filter_map(|report| report.grounding.as_ref())
        .flat_map(|grounding| grounding.supported.iter())
        .filter(|support| support.field == field && support.value == value && support.span.source == "request")
        .map(|support| support.span.text.trim())
        .fold(None, |longest: Option<&str>, text| match longest {
            Some(kept) if kept.len() >= text.len() => Some(kept),
            _ => Some(text),
        })
        .filter(|text| !text.eq_ignore_ascii_case(value.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::{CartEntry, Item};
    use crate::extract::ground::{Grounding, Span, Support};
    use crate::extract::set::ExtractorReport;
    use crate::facts::{Facts, FieldName};

    fn report(field: FieldName, value: &str, text: &str) -> ExtractorReport {
        ExtractorReport {
            name: "rules".into(),
            facts: None,
            raw: None,
            error: None,
            cost: Default::default(),
            quotes: Vec::new(),
            grounding: Some(Grounding {
                supported: vec![Support {
                    field: field.into(),
                    value: value.into(),
                    span: Span { source: "request".into(), start: 0, end: text.len(), text: text.into() },
                }],
                ..Grounding::default()
            }),
        }
    }

    /// Monday, 2 November 2026.
    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, 2).unwrap()
    }

    #[test]
    fn issue_13_a_deadline_reason_names_the_days_as_dates() {
        let facts = Facts { deadline_days: Some(4), ..Facts::default() };
        let item = Item { name: Some("Nike Pegasus 41".into()), delivery_days: Some(8), ..Item::default() };
        let cart = Cart { shipping: None, charges: Default::default(), entries: vec![CartEntry { item, quantity: 1 }] };
        let findings = crate::decision::run(&facts, &cart, &[]);
        let reason =
            |reports: &[ExtractorReport]| quote_reasons(findings.clone(), &cart, reports, today())[0].reason.clone();
        assert_eq!(
            reason(&[report(FieldName::DeadlineDays, "4", "Friday")]),
            "You asked for it by \u{201c}Friday\u{201d} (Friday, 6 November); it would arrive in 8 days (Tuesday, 10 November): Nike Pegasus 41."
        );
        assert_eq!(
            reason(&[]),
            "You asked for it within 4 days (by Friday, 6 November); it would arrive in 8 days (Tuesday, 10 November): Nike Pegasus 41."
        );
        assert_eq!(reason(&[report(FieldName::DeadlineDays, "4", "4")]), reason(&[]), "a bare number is not quoted");
        assert_eq!(reason(&[report(FieldName::DeadlineDays, "4", "a")]), reason(&[]), "nor a word of a longer phrase");
    }

    #[test]
    fn issue_11_a_size_reason_quotes_the_person() {
        let facts = Facts { size_label: Some("42".into()), model: Some("Pegasus 42".into()), ..Facts::default() };
        let item = Item { name: Some("Nike Pegasus 41".into()), size: Some("EU 44".into()), ..Item::default() };
        let cart = Cart { shipping: None, charges: Default::default(), entries: vec![CartEntry { item, quantity: 1 }] };
        let findings = crate::decision::run(&facts, &cart, &[]);
        let reports =
            [report(FieldName::SizeLabel, "42", "size 42"), report(FieldName::Model, "Pegasus 42", "Pegasus-42")];
        let quoted = quote_reasons(findings.clone(), &cart, &reports, today());
        let reasons: Vec<&str> = quoted.iter().map(|finding| finding.reason.as_str()).collect();
        assert_eq!(
            reasons,
            [
                "You asked for \u{201c}Pegasus-42\u{201d}; the cart has Nike Pegasus 41.",
                "You asked for \u{201c}size 42\u{201d}; the cart has EU 44: Nike Pegasus 41.",
            ]
        );
        let same = |finding: &Finding| (finding.id.clone(), finding.code, finding.severity, finding.field);
        assert_eq!(quoted.iter().map(same).collect::<Vec<_>>(), findings.iter().map(same).collect::<Vec<_>>());
        assert_eq!(quoted[1].field, FieldName::SizeLabel);

        // No grounding (the spec policy) or words for another value: the reason stays.
        assert_eq!(quote_reasons(findings.clone(), &cart, &[], today()), findings);
        assert_eq!(
            quote_reasons(findings.clone(), &cart, &[report(FieldName::SizeLabel, "43", "size 43")], today()),
            findings
        );
        // A bare "42" may be the 42 of "Pegasus 42": the longest span wins, and a bare value alone quotes nothing.
        let both = [report(FieldName::SizeLabel, "42", "42"), report(FieldName::SizeLabel, "42", "EU 42")];
        assert!(
            quote_reasons(findings.clone(), &cart, &both, today())[1]
                .reason
                .starts_with("You asked for \u{201c}EU 42\u{201d}")
        );
        assert_eq!(
            quote_reasons(findings.clone(), &cart, &[report(FieldName::SizeLabel, "42", "42")], today()),
            findings
        );
    }
}
