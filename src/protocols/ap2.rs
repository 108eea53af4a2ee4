//! AP2 mandates: a v0.1 `CartMandate` as a cart, a v0.1 `IntentMandate` as
//! the request, and v0.2 open checkout and payment mandates (the disclosed
//! SD-JWT payloads) as the request's constraints.
//!
//! `CartMandate`: `contents{payment_request{details{display_items[{label,
//! amount{currency, value}, refund_period}], total}}, merchant_name}` (or the
//! contents alone); each display item is one entry of quantity 1, its
//! `value` in currency units (W3C PaymentCurrencyAmount), read exactly;
//! `refund_period` 0 is final sale, more is returnable, absent is unknown;
//! the `label` is the item's name, and all the words a display item has.
//! A display item whose label names a part of the total ("Shipping",
//! "Estimated tax", "Discount", "Service fee", "Доставка", "НДС",
//! "Сервисный сбор": `words::charges::checkout_part`) is that part of the
//! cart's charges, not an entry (issue 29; a discount may be negative).
//!
//! `IntentMandate`: `natural_language_description` is the request text;
//! `merchants`, `skus`, `requires_refundability` and `intent_expiry` become
//! [`MandateFacts`]. v0.2 (`{text, mandates: [...]}`, since a v0.2 mandate
//! carries no words): `mandate.checkout.open.1` constraints
//! `checkout.allowed_merchants` and `checkout.line_items` (the acceptable
//! items' ids are the allowed SKUs), `mandate.payment.open.1` constraints
//! `payment.amount_range` and `payment.budget` (minor units), and `exp`.
//! Other constraint types are read as valid and not checked.

use chrono::{DateTime, NaiveDate};
use serde_json::{Map, Value};

use super::{
    CartShape, DocumentCart, DocumentRequest, currency, list, object, path, required, required_string, string,
};
use crate::cart::{self, Cart, CartEntry, CartError, Item};
use crate::facts::{MandateAmount, MandateFacts};
use crate::words::charges::{self, Part};

/// The v0.2 mandate types read.
pub const OPEN_CHECKOUT: &str = "mandate.checkout.open.1";
pub const OPEN_PAYMENT: &str = "mandate.payment.open.1";

/// The v0.2 constraint types known; the first four are checked.
const CONSTRAINTS: [&str; 10] = [
    "checkout.allowed_merchants",
    "checkout.line_items",
    "payment.amount_range",
    "payment.budget",
    "payment.allowed_payees",
    "payment.allowed_payment_instruments",
    "payment.allowed_pisps",
    "payment.agent_recurrence",
    "payment.execution_date",
    "payment.reference",
];

pub fn cart_mandate(document: &Map<String, Value>, root: &str) -> Result<DocumentCart, CartError> {
    let (contents, contents_path, param_root) = match document.get("contents") {
        Some(contents) => {
            let at = path(root, "contents");
            (object(contents, &at)?, at, "$.contents".to_owned())
        }
        None => (document, root.to_owned(), "$".to_owned()),
    };
    let merchant = string(contents, "merchant_name", &contents_path)?;
    let request_path = path(&contents_path, "payment_request");
    let request = object(required(contents, "payment_request", &contents_path)?, &request_path)?;
    let details_path = path(&request_path, "details");
    let details = object(required(request, "details", &request_path)?, &details_path)?;
    let items_path = path(&details_path, "display_items");
    let items = list(required(details, "display_items", &details_path)?, &items_path)?;
    cart::check_entry_count(items.len(), &items_path)?;
    // A display item labelled as a part of the total ("Shipping", "Tax",
    // "Discount", "Service fee", "Доставка") is that part, not a product
    // (issue 29), unless every display item is one (then they are what is
    // bought).
    let labels: Vec<Option<String>> = items
        .iter()
        .map(|display| {
            display.as_object().and_then(|display| display.get("label")).and_then(Value::as_str).map(str::to_owned)
        })
        .collect();
    let parts: Vec<Option<Part>> =
        labels.iter().map(|label| label.as_deref().and_then(charges::checkout_part)).collect();
    let all_parts = parts.iter().all(Option::is_some);
    let mut entries = Vec::with_capacity(items.len());
    let mut params = Vec::with_capacity(items.len());
    let mut stated = Stated::default();
    for (index, display) in items.iter().enumerate() {
        let item_path = format!("{items_path}[{index}]");
        let display = object(display, &item_path)?;
        if let Some(part) = parts[index].filter(|_| !all_parts) {
            let label = required_string(display, "label", &item_path)?;
            let (minor, currency) = part_amount(display, part, &item_path)?;
            stated.add(part, label, minor, currency, &item_path)?;
            continue;
        }
        let (minor, currency) = amount(display, &item_path)?;
        let final_sale = match display.get("refund_period") {
            None | Some(Value::Null) => None,
            Some(value) => Some(cart::integer(value, &path(&item_path, "refund_period"))? == 0),
        };
        entries.push(CartEntry {
            item: Item {
                name: Some(required_string(display, "label", &item_path)?),
                price_cents: Some(minor),
                currency: Some(currency),
                final_sale,
                units: Some(1),
                merchant: merchant.clone(),
                ..Item::default()
            },
            quantity: 1,
        });
        params.push(format!("{param_root}.payment_request.details.display_items[{index}]"));
    }
    let payment = match details.get("total") {
        None | Some(Value::Null) => None,
        Some(total) => {
            let total_path = path(&details_path, "total");
            let (minor, currency) = amount(object(total, &total_path)?, &total_path)?;
            Some(MandateAmount { minor, currency })
        }
    };
    // The payment request's total is what will be paid (issue 29), and the
    // parts its display items name are beside the items; its total is not
    // held to be their sum (W3C PaymentRequest does not require it).
    let mut charges = stated.charges;
    if let Some(payment) = &payment {
        if charges.currency.as_deref().is_some_and(|currency| currency != payment.currency) {
            return Err(cart::error(&items_path, "a part of the total in another currency than the total"));
        }
        charges.currency = Some(payment.currency.clone());
        charges.total = Some(payment.minor);
    }
    let shipping = stated.shipping.map(|minor| cart::Shipping { minor, currency: charges.currency.clone() });
    Ok(DocumentCart { shape: CartShape::Ap2CartMandate, cart: Cart { entries, shipping, charges }, params, payment })
}

/// The parts of the total a mandate's display items name.
#[derive(Default)]
struct Stated {
    charges: cart::Charges,
    shipping: Option<u64>,
}

impl Stated {
    fn add(&mut self, part: Part, label: String, minor: u64, currency: String, at: &str) -> Result<(), CartError> {
        if self.charges.currency.as_deref().is_some_and(|seen| seen != currency) {
            return Err(cart::error(&path(at, "amount"), "parts of the total in two currencies"));
        }
        self.charges.currency = Some(currency);
        let add = |slot: &mut Option<u64>| -> Result<(), CartError> {
            let sum = slot.unwrap_or(0).checked_add(minor).ok_or_else(|| cart::error(at, "above the price bound"))?;
            *slot = Some(sum);
            Ok(())
        };
        match part {
            Part::Shipping => add(&mut self.shipping),
            Part::Tax => add(&mut self.charges.tax),
            Part::Discount => add(&mut self.charges.discount),
            Part::Fee => {
                self.charges.fees.push(cart::Fee { label, minor });
                Ok(())
            }
        }
    }
}

/// A part's amount: as [`amount`], except that a discount may be written
/// negative ("-5.00", as W3C PaymentItems write one); its size is read.
fn part_amount(item: &Map<String, Value>, part: Part, at: &str) -> Result<(u64, String), CartError> {
    if part == Part::Discount {
        let amount_path = path(at, "amount");
        let amount = object(required(item, "amount", at)?, &amount_path)?;
        let currency = currency(amount, "currency", &amount_path)?;
        let value = required(amount, "value", &amount_path)?;
        let text = match value {
            Value::Number(number) => number.to_string(),
            Value::String(text) => text.trim().to_owned(),
            _ => String::new(),
        };
        if let Some(size) = text.strip_prefix('-') {
            let minor =
                cart::price_to_minor(&Value::String(size.to_owned()), Some(&currency), &path(&amount_path, "value"))?;
            return Ok((minor, currency));
        }
    }
    amount(item, at)
}

/// A PaymentItem's `amount{currency, value}`, value in currency units.
fn amount(item: &Map<String, Value>, at: &str) -> Result<(u64, String), CartError> {
    let amount_path = path(at, "amount");
    let amount = object(required(item, "amount", at)?, &amount_path)?;
    let currency = currency(amount, "currency", &amount_path)?;
    let value = required(amount, "value", &amount_path)?;
    let minor = cart::price_to_minor(value, Some(&currency), &path(&amount_path, "value"))?;
    Ok((minor, currency))
}

pub fn intent_mandate(document: &Map<String, Value>, root: &str) -> Result<DocumentRequest, CartError> {
    let text = required_string(document, "natural_language_description", root)?;
    let strings = |key: &str| -> Result<Vec<String>, CartError> {
        let at = path(root, key);
        match document.get(key) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(values) => list(values, &at)?
                .iter()
                .enumerate()
                .map(|(index, value)| {
                    cart::optional_string(Some(value), &format!("{at}[{index}]"))?
                        .ok_or_else(|| cart::error(&format!("{at}[{index}]"), "expected a string"))
                })
                .collect(),
        }
    };
    let requires_refundability = match document.get("requires_refundability") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(flag)) => *flag,
        Some(_) => return Err(cart::error(&path(root, "requires_refundability"), "expected true, false or null")),
    };
    if let Some(value) = document.get("user_cart_confirmation_required")
        && !value.is_boolean()
        && !value.is_null()
    {
        return Err(cart::error(&path(root, "user_cart_confirmation_required"), "expected true, false or null"));
    }
    let expiry = required_string(document, "intent_expiry", root)?;
    let expires_on = expiry_date(&expiry, &path(root, "intent_expiry"))?;
    let mandate = MandateFacts {
        merchants: strings("merchants")?,
        skus: strings("skus")?,
        requires_refundability,
        expires_on: Some(expires_on),
        ..MandateFacts::default()
    };
    Ok(DocumentRequest { text, mandate })
}

/// The UTC date of an ISO 8601 time (`2026-11-02T18:00:00Z`) or date.
fn expiry_date(text: &str, at: &str) -> Result<NaiveDate, CartError> {
    if let Ok(time) = DateTime::parse_from_rfc3339(text) {
        return Ok(time.to_utc().date_naive());
    }
    NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .map_err(|_| cart::error(at, format!("{text:?} is not an ISO 8601 date or time")))
}

pub fn open_mandates(document: &Map<String, Value>, root: &str) -> Result<DocumentRequest, CartError> {
    if let Some(key) = document.keys().find(|key| *key != "text" && *key != "mandates") {
        return Err(cart::error(&path(root, key), "unknown field (this request shape is {text, mandates})"));
    }
    let text = required_string(document, "text", root)?;
    let mandates_path = path(root, "mandates");
    let mandates = list(required(document, "mandates", root)?, &mandates_path)?;
    let mut facts = MandateFacts::default();
    for (index, mandate) in mandates.iter().enumerate() {
        let mandate_path = format!("{mandates_path}[{index}]");
        let mandate = object(mandate, &mandate_path)?;
        let kind = required_string(mandate, "vct", &mandate_path)?;
        if kind != OPEN_CHECKOUT && kind != OPEN_PAYMENT {
            return Err(cart::error(
                &path(&mandate_path, "vct"),
                format!("{kind:?}: send {OPEN_CHECKOUT} or {OPEN_PAYMENT} payloads"),
            ));
        }
        if let Some(exp) = mandate.get("exp").filter(|value| !value.is_null()) {
            let exp_path = path(&mandate_path, "exp");
            let seconds = i64::try_from(cart::integer(exp, &exp_path)?)
                .map_err(|_| cart::error(&exp_path, "too large for a Unix time"))?;
            let day = DateTime::from_timestamp(seconds, 0)
                .ok_or_else(|| cart::error(&exp_path, "not a Unix time"))?
                .date_naive();
            facts.expires_on = Some(facts.expires_on.map_or(day, |earlier| earlier.min(day)));
        }
        let constraints_path = path(&mandate_path, "constraints");
        let constraints = list(required(mandate, "constraints", &mandate_path)?, &constraints_path)?;
        for (constraint_index, constraint) in constraints.iter().enumerate() {
            let at = format!("{constraints_path}[{constraint_index}]");
            constrain(&mut facts, object(constraint, &at)?, &at)?;
        }
    }
    if facts.merchants.len() > super::MAX_LIST || facts.skus.len() > super::MAX_LIST {
        return Err(cart::error(
            &mandates_path,
            format!("more than {} allowed merchants or SKUs in all", super::MAX_LIST),
        ));
    }
    Ok(DocumentRequest { text, mandate: facts })
}

/// Adds one v0.2 constraint to the facts.
fn constrain(facts: &mut MandateFacts, constraint: &Map<String, Value>, at: &str) -> Result<(), CartError> {
    let kind = required_string(constraint, "type", at)?;
    match kind.as_str() {
        "checkout.allowed_merchants" => {
            let allowed_path = path(at, "allowed");
            for (index, merchant) in list(required(constraint, "allowed", at)?, &allowed_path)?.iter().enumerate() {
                let merchant_path = format!("{allowed_path}[{index}]");
                let merchant = object(merchant, &merchant_path)?;
                for key in ["id", "name"] {
                    if let Some(value) = string(merchant, key, &merchant_path)? {
                        facts.merchants.push(value);
                    }
                }
            }
        }
        "checkout.line_items" => {
            let items_path = path(at, "items");
            for (index, line) in list(required(constraint, "items", at)?, &items_path)?.iter().enumerate() {
                let line_path = format!("{items_path}[{index}]");
                let line = object(line, &line_path)?;
                let acceptable_path = path(&line_path, "acceptable_items");
                let acceptable = list(required(line, "acceptable_items", &line_path)?, &acceptable_path)?;
                for (item_index, item) in acceptable.iter().enumerate() {
                    let item_path = format!("{acceptable_path}[{item_index}]");
                    facts.skus.push(required_string(object(item, &item_path)?, "id", &item_path)?);
                }
            }
        }
        "payment.amount_range" => {
            let currency = currency(constraint, "currency", at)?;
            let max = cart::integer(required(constraint, "max", at)?, &path(at, "max"))?;
            facts.amount_at_most.push(MandateAmount { minor: max, currency: currency.clone() });
            if let Some(min) = constraint.get("min").filter(|value| !value.is_null()) {
                let min = cart::integer(min, &path(at, "min"))?;
                facts.amount_at_least = Some(MandateAmount { minor: min, currency });
            }
        }
        "payment.budget" => {
            let currency = currency(constraint, "currency", at)?;
            let max = cart::integer(required(constraint, "max", at)?, &path(at, "max"))?;
            facts.amount_at_most.push(MandateAmount { minor: max, currency });
        }
        known if CONSTRAINTS.contains(&known) => {}
        other => {
            return Err(cart::error(
                &path(at, "type"),
                format!("{other:?} is not an AP2 v0.2 constraint type ({})", CONSTRAINTS.join(", ")),
            ));
        }
    }
    facts.merchants.dedup();
    facts.skus.dedup();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_intent_mandate_gives_text_and_facts() {
        let intent = json!({"user_cart_confirmation_required": true,
            "natural_language_description": "Black Nike Pegasus 41, size 42, returnable",
            "merchants": ["Run Shop"], "skus": null, "requires_refundability": true,
            "intent_expiry": "2026-11-05T12:00:00Z"});
        let request = intent_mandate(intent.as_object().unwrap(), "$.request").unwrap();
        assert_eq!(request.text, "Black Nike Pegasus 41, size 42, returnable");
        assert_eq!(request.mandate.merchants, ["Run Shop"]);
        assert!(request.mandate.skus.is_empty() && request.mandate.requires_refundability);
        assert_eq!(request.mandate.expires_on, NaiveDate::from_ymd_opt(2026, 11, 5));
        let mut bad = intent.clone();
        bad["merchants"] = json!(["Run Shop", 7]);
        assert_eq!(intent_mandate(bad.as_object().unwrap(), "$.request").unwrap_err().path, "$.request.merchants[1]");
        let mut bad = intent;
        bad["intent_expiry"] = json!("next week");
        assert_eq!(intent_mandate(bad.as_object().unwrap(), "$.request").unwrap_err().path, "$.request.intent_expiry");
    }

    #[test]
    fn open_mandates_give_merchants_skus_and_amounts() {
        let request = json!({"text": "Pegasus 41 in black, size 42", "mandates": [
            {"vct": OPEN_CHECKOUT, "cnf": {}, "constraints": [
                {"type": "checkout.allowed_merchants", "allowed": [{"id": "m_1", "name": "Run Shop"}]},
                {"type": "checkout.line_items", "items": [{"id": "r1", "quantity": 1,
                    "acceptable_items": [{"id": "NK-PEG41-BLK-42", "title": "Pegasus 41 black 42"}]}]}]},
            {"vct": OPEN_PAYMENT, "cnf": {}, "exp": 1793000000, "constraints": [
                {"type": "payment.amount_range", "currency": "USD", "max": 15000},
                {"type": "payment.reference", "conditional_transaction_id": "x"}]}]});
        let read = open_mandates(request.as_object().unwrap(), "$.request").unwrap();
        assert_eq!(read.mandate.merchants, ["m_1", "Run Shop"]);
        assert_eq!(read.mandate.skus, ["NK-PEG41-BLK-42"]);
        assert_eq!(read.mandate.amount_at_most, [MandateAmount { minor: 15000, currency: "USD".into() }]);
        assert!(read.mandate.expires_on.is_some());
        let mut bad = request;
        bad["mandates"][1]["constraints"][0]["max"] = json!("150.00");
        let error = open_mandates(bad.as_object().unwrap(), "$.request").unwrap_err();
        assert_eq!(error.path, "$.request.mandates[1].constraints[0].max");
    }

    #[test]
    fn issue_29_display_items_labelled_as_parts_of_the_total_are_those_parts() {
        let mandate = json!({"contents": {"merchant_name": "Run Shop", "payment_request": {"details": {
            "display_items": [
                {"label": "Nike Pegasus 41", "amount": {"currency": "USD", "value": "129.99"}},
                {"label": "Tax Guide 2026", "amount": {"currency": "USD", "value": "12.00"}},
                {"label": "Standard Shipping", "amount": {"currency": "USD", "value": "5.00"}},
                {"label": "Estimated tax", "amount": {"currency": "USD", "value": "11.20"}},
                {"label": "Discount (SAVE5)", "amount": {"currency": "USD", "value": "-5.00"}},
                {"label": "Service fee", "amount": {"currency": "USD", "value": "1.50"}}],
            "total": {"label": "Total", "amount": {"currency": "USD", "value": "153.69"}}}}}});
        let read = cart_mandate(mandate.as_object().unwrap(), "$.cart").unwrap();
        let names: Vec<&str> = read.cart.entries.iter().filter_map(|entry| entry.item.name.as_deref()).collect();
        assert_eq!(names, ["Nike Pegasus 41", "Tax Guide 2026"], "a product named with a part's word stays one");
        assert_eq!(
            read.params,
            [
                "$.contents.payment_request.details.display_items[0]",
                "$.contents.payment_request.details.display_items[1]"
            ]
        );
        let charges = &read.cart.charges;
        assert_eq!((charges.tax, charges.discount, charges.total), (Some(1_120), Some(500), Some(15_369)));
        assert_eq!(charges.fees, [cart::Fee { label: "Service fee".into(), minor: 150 }]);
        assert_eq!(read.cart.shipping.as_ref().map(|shipping| shipping.minor), Some(500));
        assert!(!charges.itemised, "an AP2 total is not held to be the sum of its display items");

        let russian = json!({"payment_request": {"details": {"display_items": [
                {"label": "Кофемашина DeLonghi Magnifica S", "amount": {"currency": "RUB", "value": 39990}},
                {"label": "Доставка", "amount": {"currency": "RUB", "value": 490}},
                {"label": "Сервисный сбор", "amount": {"currency": "RUB", "value": 99}}]}}});
        let read = cart_mandate(russian.as_object().unwrap(), "$.cart").unwrap();
        assert_eq!(read.cart.entries.len(), 1);
        assert_eq!(read.cart.charges.fees[0].label, "Сервисный сбор");
        // Only a discount may be negative.
        let mut bad = mandate;
        bad["contents"]["payment_request"]["details"]["display_items"][2]["amount"]["value"] = json!("-5.00");
        let error = cart_mandate(bad.as_object().unwrap(), "$.cart").unwrap_err();
        assert_eq!(error.path, "$.cart.contents.payment_request.details.display_items[2].amount.value");
        // Display items that are all parts are what is bought.
        let alone = json!({"payment_request": {"details": {"display_items": [
                {"label": "Shipping", "amount": {"currency": "USD", "value": 5}}]}}});
        assert_eq!(cart_mandate(alone.as_object().unwrap(), "$.cart").unwrap().cart.entries.len(), 1);
    }

    #[test]
    fn a_cart_mandate_reads_display_items_exactly() {
        let mandate = json!({"contents": {"id": "cart_1", "user_cart_confirmation_required": false,
            "merchant_name": "Run Shop", "cart_expiry": "2026-11-02T12:30:00Z",
            "payment_request": {"method_data": [], "details": {"id": "order_1",
                "display_items": [{"label": "Nike Pegasus 41", "amount": {"currency": "USD", "value": 129.99}, "refund_period": 30}],
                "total": {"label": "Total", "amount": {"currency": "USD", "value": 139.99}}}}},
            "merchant_authorization": null});
        let cart = cart_mandate(mandate.as_object().unwrap(), "$.cart").unwrap();
        let item = &cart.cart.entries[0].item;
        assert_eq!(
            (item.price_cents, item.final_sale, item.merchant.as_deref()),
            (Some(12999), Some(false), Some("Run Shop"))
        );
        assert_eq!(cart.payment, Some(MandateAmount { minor: 13999, currency: "USD".into() }));
        assert_eq!(cart.params, ["$.contents.payment_request.details.display_items[0]"]);
        assert_eq!(item.name.as_deref(), Some("Nike Pegasus 41"), "the label is the item's words");
        assert!(item.words.is_empty(), "a display item has no words besides its label");
        let mut bad = mandate;
        bad["contents"]["payment_request"]["details"]["display_items"][0]["label"] = json!(41);
        let error = cart_mandate(bad.as_object().unwrap(), "$.cart").unwrap_err();
        assert_eq!(error.path, "$.cart.contents.payment_request.details.display_items[0].label");
    }
}
