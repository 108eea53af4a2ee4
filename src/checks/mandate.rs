//! The mandate's own rules: a payment mandate (AP2) states which merchants
//! and products are allowed, how much may be paid and until when. Its facts
//! are authoritative ([`MandateFacts`]): every failure here is a block, on no
//! field the extractors read, so neither `soft` nor `disputed` relaxes it.
//!
//! A constraint the cart cannot be compared with (no merchant named, no SKU
//! or id, a total in another currency) is a block too, unlike the person's
//! own facts, whose unknowns are `unchecked` notes: a payment outside the
//! mandate would be refused by whoever takes it, so the guard does not
//! let it through on a guess. Pure: today is an input.

use chrono::NaiveDate;

use crate::cart::Cart;
use crate::facts::{FieldName, MandateAmount, MandateFacts};
use crate::finding::{Amount, Code, Compared, Finding, Severity, cart_path};
use crate::messages::{ItemName, Message, Money};
use crate::normalize;

/// The path of findings about the mandate itself (it comes as the request).
pub const MANDATE_PATH: &str = "$.request";

/// Every finding of the mandate on `cart`, in cart order (merchant, then
/// SKU, per entry), then the amount, then the expiry. `payment` is the total
/// the checkout states (taxes and delivery included), when it states one;
/// otherwise the sum of the entries is compared.
pub fn findings(
    mandate: &MandateFacts,
    cart: &Cart,
    payment: Option<&MandateAmount>,
    today: NaiveDate,
) -> Vec<Finding> {
    let mut findings = Vec::new();
    for (index, entry) in cart.entries.iter().enumerate() {
        let item = &entry.item;
        if !mandate.merchants.is_empty() {
            let allowed = item.merchant.as_deref().is_some_and(|merchant| {
                let folded = normalize::fold(merchant);
                mandate.merchants.iter().any(|allowed| normalize::fold(allowed) == folded)
            });
            if !allowed {
                findings.push(finding(
                    Code::MandateMerchant,
                    Some(index),
                    Compared::MerchantIn { merchant_in: mandate.merchants.clone() },
                    Compared::Merchant { merchant: item.merchant.clone() },
                    Message::MandateMerchant {
                        allowed: mandate.merchants.clone(),
                        actual: item.merchant.clone(),
                        item: ItemName::of(item),
                    },
                ));
            }
        }
        if !mandate.skus.is_empty() {
            let sku = item.sku.as_deref().or(item.id.as_deref());
            let allowed = [item.sku.as_deref(), item.id.as_deref()]
                .into_iter()
                .flatten()
                .any(|identifier| mandate.skus.iter().any(|allowed| allowed == identifier));
            if !allowed {
                findings.push(finding(
                    Code::MandateSku,
                    Some(index),
                    Compared::SkuIn { sku_in: mandate.skus.clone() },
                    Compared::Sku { sku: sku.map(str::to_owned) },
                    Message::MandateSku {
                        allowed: mandate.skus.clone(),
                        actual: sku.map(str::to_owned),
                        item: ItemName::of(item),
                    },
                ));
            }
        }
    }
    let limits = mandate
        .amount_at_most
        .iter()
        .map(|limit| (limit, false))
        .chain(mandate.amount_at_least.iter().map(|limit| (limit, true)));
    for (limit, at_least) in limits {
        let total = payment_in(cart, payment, &limit.currency);
        let outside = match total {
            Some(total) if at_least => total < limit.minor,
            Some(total) => total > limit.minor,
            None => true,
        };
        if outside {
            let amount = |minor| Amount { currency: limit.currency.clone(), minor };
            let bound = amount(limit.minor);
            findings.push(finding(
                Code::MandateAmount,
                None,
                if at_least {
                    Compared::AmountAtLeast { amount_at_least: bound }
                } else {
                    Compared::AmountAtMost { amount_at_most: bound }
                },
                Compared::Payment { total: total.map(amount) },
                Message::MandateAmount {
                    limit: Money::new(limit.minor, Some(&limit.currency)),
                    at_least,
                    total: total.map(|minor| Money::new(minor, Some(&limit.currency))),
                },
            ));
        }
    }
    if let Some(expires_on) = mandate.expires_on
        && today > expires_on
    {
        let mut expired = finding(
            Code::MandateExpired,
            None,
            Compared::ExpiresOn { expires_on },
            Compared::Today { today },
            Message::MandateExpired { expired_on: expires_on, today },
        );
        expired.path = MANDATE_PATH.to_owned();
        expired.id = format!("{}@{MANDATE_PATH}", Code::MandateExpired);
        findings.push(expired);
    }
    findings
}

/// The payment in `currency`, in minor units: the checkout's stated total,
/// else the sum of every entry's price × quantity; `None` when a price is
/// missing, a currency differs, or the sum passes u64.
fn payment_in(cart: &Cart, payment: Option<&MandateAmount>, currency: &str) -> Option<u64> {
    if let Some(payment) = payment {
        return (payment.currency == currency).then_some(payment.minor);
    }
    cart.entries.iter().try_fold(0u64, |sum, entry| {
        if entry.item.currency.as_deref() != Some(currency) {
            return None;
        }
        entry.item.price_cents?.checked_mul(entry.quantity).and_then(|cost| sum.checked_add(cost))
    })
}

fn finding(code: Code, entry: Option<usize>, expected: Compared, actual: Compared, message: Message) -> Finding {
    let path = cart_path(entry);
    Finding {
        id: format!("{code}@{path}"),
        code,
        severity: Severity::Block,
        // No fact field holds a mandate's constraint; like an engine error,
        // the finding is about something the person's words did not state.
        field: FieldName::Other,
        line: None,
        path,
        entry,
        expected,
        actual,
        reason: String::new(),
        message: None,
    }
    .say(message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::{CartEntry, Item};

    fn day(month: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, month, day).unwrap()
    }

    fn cart(items: Vec<Item>) -> Cart {
        Cart {
            shipping: None,
            charges: Default::default(),
            entries: items.into_iter().map(|item| CartEntry { item, quantity: 1 }).collect(),
        }
    }

    fn priced(id: &str, merchant: Option<&str>, cents: u64) -> Item {
        Item {
            id: Some(id.into()),
            merchant: merchant.map(str::to_owned),
            price_cents: Some(cents),
            currency: Some("USD".into()),
            ..Item::default()
        }
    }

    fn codes(findings: &[Finding]) -> Vec<(&str, &str)> {
        findings.iter().map(|finding| (finding.code.as_str(), finding.path.as_str())).collect()
    }

    #[test]
    fn merchants_and_skus_are_compared_per_entry_and_unknowns_block() {
        let mandate =
            MandateFacts { merchants: vec!["Run Shop".into()], skus: vec!["A-1".into()], ..MandateFacts::default() };
        let basket = cart(vec![priced("A-1", Some("run shop"), 100), priced("B-2", None, 100)]);
        let found = findings(&mandate, &basket, None, day(11, 2));
        assert_eq!(codes(&found), [("mandate-merchant", "$.cart[1]"), ("mandate-sku", "$.cart[1]")]);
        assert!(found.iter().all(|finding| finding.severity == Severity::Block));
    }

    #[test]
    fn a_sku_matches_the_sku_or_else_the_id() {
        let mandate = MandateFacts { skus: vec!["SKU-9".into()], ..MandateFacts::default() };
        let item = Item { id: Some("line-1".into()), sku: Some("SKU-9".into()), ..Item::default() };
        assert!(findings(&mandate, &cart(vec![item]), None, day(11, 2)).is_empty());
    }

    #[test]
    fn the_amount_is_the_stated_total_else_the_sum() {
        let at_most = |minor| MandateFacts {
            amount_at_most: vec![MandateAmount { minor, currency: "USD".into() }],
            ..MandateFacts::default()
        };
        let basket = cart(vec![priced("a", None, 100), priced("b", None, 250)]);
        assert!(findings(&at_most(350), &basket, None, day(11, 2)).is_empty());
        assert_eq!(codes(&findings(&at_most(349), &basket, None, day(11, 2))), [("mandate-amount", "$.cart")]);
        let stated = MandateAmount { minor: 400, currency: "USD".into() };
        assert_eq!(codes(&findings(&at_most(350), &basket, Some(&stated), day(11, 2))), [("mandate-amount", "$.cart")]);
        let euros = MandateAmount { minor: 10, currency: "EUR".into() };
        let other = findings(&at_most(350), &basket, Some(&euros), day(11, 2));
        assert_eq!(other[0].actual, Compared::Payment { total: None });
        let at_least = MandateFacts {
            amount_at_least: Some(MandateAmount { minor: 1000, currency: "USD".into() }),
            ..MandateFacts::default()
        };
        assert_eq!(codes(&findings(&at_least, &basket, None, day(11, 2))), [("mandate-amount", "$.cart")]);
    }

    #[test]
    fn an_intent_expires_after_its_day_counted_from_the_given_today() {
        let mandate = MandateFacts { expires_on: Some(day(11, 2)), ..MandateFacts::default() };
        let basket = cart(vec![priced("a", None, 100)]);
        assert!(findings(&mandate, &basket, None, day(11, 2)).is_empty());
        let expired = findings(&mandate, &basket, None, day(11, 3));
        assert_eq!(codes(&expired), [("mandate-expired", "$.request")]);
        assert_eq!(expired[0].id, "mandate-expired@$.request");
    }
}
