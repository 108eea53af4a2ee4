//! `fee` (issue 29; the `words` check policy only): every fee line the
//! checkout states (a `fee` total of UCP or ACP, "Service fee", "Сервисный
//! сбор"; a flat entry's `fees`) is named to the person. It blocks when the
//! person asked for no extra charges ("no extra fees", "без комиссии", read
//! from the request's words: `words::charges::asked`), or when it is what
//! takes the payment past the spending limit (within it without the fees,
//! above it with them); otherwise it is a note.

use super::explicit_max::paid;
use crate::cart::Cart;
use crate::facts::{Facts, FieldName};
use crate::finding::{Code, Compared, Finding, Severity};
use crate::messages::{FeeBlocks, Message, Money};

pub fn findings(facts: &Facts, cart: &Cart) -> Vec<Finding> {
    let fees = &cart.charges.fees;
    if fees.iter().all(|fee| fee.minor == 0) {
        return Vec::new();
    }
    let currency = cart.charges.currency.as_deref();
    // The limit, when the fees are what takes the payment past it: the
    // same currency, above it with the fees and within it without them.
    let past_limit = facts.explicit_max_cents.filter(|max| {
        let same_currency = match (facts.explicit_max_currency.as_deref(), currency) {
            (Some(limit), Some(cart_currency)) => limit == cart_currency,
            _ => true,
        };
        let Some(paid) = paid(cart) else { return false };
        let fees_total = cart.charges.fees_total().unwrap_or(u64::MAX);
        same_currency && paid.paid > *max && paid.paid.saturating_sub(fees_total) <= *max
    });
    fees.iter()
        .enumerate()
        .filter(|(_, fee)| fee.minor > 0)
        .map(|(index, fee)| {
            let blocks = if facts.asked.no_extra_charges {
                FeeBlocks::NoExtraCharges
            } else if let Some(max) = past_limit {
                FeeBlocks::PastLimit { max: Money::new(max, currency) }
            } else {
                FeeBlocks::No
            };
            let severity = if blocks == FeeBlocks::No { Severity::Warn } else { Severity::Block };
            Finding {
                id: format!("{}[{index}]@$.cart", Code::Fee),
                code: Code::Fee,
                severity,
                field: if matches!(blocks, FeeBlocks::PastLimit { .. }) {
                    FieldName::ExplicitMaxCents
                } else {
                    FieldName::Other
                },
                line: None,
                path: "$.cart".to_owned(),
                entry: None,
                expected: Compared::Nothing,
                actual: Compared::Total { currency: currency.map(str::to_owned), total_minor: Some(fee.minor) },
                reason: String::new(),
                message: None,
            }
            .say(Message::Fee {
                label: fee.label.clone(),
                amount: Money::new(fee.minor, currency),
                blocks,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::{CartEntry, Charges, Fee, Item};
    use crate::words::charges::asked;

    fn cart(fee: u64) -> Cart {
        let item = Item {
            name: Some("Shoe".into()),
            price_cents: Some(19_000),
            currency: Some("USD".into()),
            ..Item::default()
        };
        Cart {
            entries: vec![CartEntry { item, quantity: 1 }],
            shipping: None,
            charges: Charges {
                currency: Some("USD".into()),
                fees: vec![Fee { label: "Service fee".into(), minor: fee }],
                ..Charges::default()
            },
        }
    }

    #[test]
    fn a_fee_is_a_note_unless_it_passes_the_limit_or_none_was_wanted() {
        let note = findings(&Facts::default(), &cart(250));
        assert_eq!((note.len(), note[0].severity), (1, Severity::Warn));
        assert_eq!(note[0].reason, "The checkout adds a fee: \u{201c}Service fee\u{201d}, 2.50 USD.");
        let limit = Facts { explicit_max_cents: Some(20_000), ..Facts::default() };
        let past = findings(&limit, &cart(1_500));
        assert_eq!(past[0].severity, Severity::Block);
        assert!(past[0].reason.contains("past your limit of 200.00 USD"), "{}", past[0].reason);
        assert_eq!(findings(&limit, &cart(500))[0].severity, Severity::Warn);
        let none = Facts { asked: asked("Nike Pegasus 41, no hidden fees"), ..Facts::default() };
        assert_eq!(findings(&none, &cart(100))[0].severity, Severity::Block);
        assert!(findings(&none, &cart(0)).is_empty());
    }
}
