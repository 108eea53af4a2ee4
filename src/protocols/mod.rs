//! The commerce protocols' own shapes, read into the guard's: a UCP checkout
//! (2026-04-08), an ACP CheckoutSession (2026-04-17) and an AP2 v0.1
//! `CartMandate` as a cart; an AP2 v0.1 `IntentMandate`, or AP2 v0.2 open
//! checkout and payment mandates, as the request and its [`MandateFacts`].
//!
//! The shape is told by its fields, never by a declared type, and every
//! error names the JSONPath of the value at fault under the argument it came
//! in (`$.cart.line_items[0].quantity`); an object of no known shape is an
//! error listing the shapes accepted. Fields the guard does not use are
//! left alone, as the protocols ask of their readers; fields it uses are
//! checked for type. Signatures (SD-JWT mandates, a merchant's
//! `merchant_authorization`) are not verified here: unsigned input is read
//! as data (docs/semantics.md).
//!
//! Pure: today comes in (delivery times are dates), nothing is read from the
//! clock, no I/O. Not part of the decision core: `service::input` and
//! `conform` call it, the checks never do.

pub mod acp;
pub mod ap2;
pub mod ucp;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::cart::{self, Cart, CartError, MAX_CART_ENTRIES};
use crate::facts::{MandateAmount, MandateFacts};

/// The cart shapes `cart` accepts, for the error that lists them.
pub const CART_SHAPES: &str = "a list of cart entries ({id, quantity}, {item, quantity} or a flat item), \
     a UCP checkout ({ucp?, line_items[{item{id,title,price}, quantity}], currency, totals}), \
     an ACP CheckoutSession ({line_items[{item{id}, quantity, name, unit_amount}], currency, totals, fulfillment_options}) \
     or an AP2 CartMandate ({contents{payment_request{details{display_items}}, merchant_name}})";

/// The request shapes `request` accepts, for the error that lists them.
pub const REQUEST_SHAPES: &str = "the person's words as a string, an AP2 v0.1 IntentMandate \
     ({natural_language_description, intent_expiry, merchants?, skus?, requires_refundability?}) \
     or {text, mandates: [AP2 v0.2 mandate.checkout.open.1 / mandate.payment.open.1 payloads]}";

/// Which shape a cart came in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CartShape {
    /// The guard's own list of entries.
    Entries,
    UcpCheckout,
    AcpCheckoutSession,
    Ap2CartMandate,
}

impl CartShape {
    pub fn as_str(self) -> &'static str {
        match self {
            CartShape::Entries => "entries",
            CartShape::UcpCheckout => "ucp_checkout",
            CartShape::AcpCheckoutSession => "acp_checkout_session",
            CartShape::Ap2CartMandate => "ap2_cart_mandate",
        }
    }
}

/// A cart read from a protocol document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentCart {
    pub shape: CartShape,
    pub cart: Cart,
    /// The JSONPath of each entry in the caller's own document
    /// (`$.line_items[2]`), for messages that point back into it.
    pub params: Vec<String>,
    /// The total the document states (taxes, delivery and fees included):
    /// what will be paid, which a mandate's amount is compared with.
    pub payment: Option<MandateAmount>,
}

/// A request read from a protocol document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentRequest {
    /// The person's words (`natural_language_description`, or `text`).
    pub text: String,
    pub mandate: MandateFacts,
}

/// Reads a cart object (not a list: lists are the guard's own shape) at
/// `root`; today counts delivery times in days.
pub fn parse_cart(object: &Map<String, Value>, root: &str, today: NaiveDate) -> Result<DocumentCart, CartError> {
    if object.contains_key("contents") || object.contains_key("payment_request") {
        return ap2::cart_mandate(object, root);
    }
    if object.contains_key("line_items") {
        if object.contains_key("ucp") || object.contains_key("policies") {
            return ucp::checkout(object, root, today);
        }
        if ["fulfillment_options", "capabilities", "protocol", "selected_fulfillment_options"]
            .iter()
            .any(|key| object.contains_key(*key))
        {
            return acp::checkout_session(object, root, today);
        }
        // Neither envelope: the line items tell, UCP's item has a `title`
        // and a `price`, ACP's line item a `name` and a `unit_amount`.
        let first = object.get("line_items").and_then(Value::as_array).and_then(|items| items.first());
        let item = first.and_then(|line| line.get("item"));
        if item.is_some_and(|item| item.get("title").is_some() || item.get("price").is_some()) {
            return ucp::checkout(object, root, today);
        }
        if first.is_some_and(|line| line.get("unit_amount").is_some() || line.get("name").is_some())
            || item.is_some_and(|item| item.get("unit_amount").is_some() || item.get("name").is_some())
        {
            return acp::checkout_session(object, root, today);
        }
        return Err(cart::error(
            root,
            format!(
                "an object with line_items that is neither a UCP checkout nor an ACP CheckoutSession: send {CART_SHAPES}"
            ),
        ));
    }
    Err(cart::error(root, format!("an object of no known cart shape: send {CART_SHAPES}")))
}

/// Reads a request object at `root`.
pub fn parse_request(object: &Map<String, Value>, root: &str) -> Result<DocumentRequest, CartError> {
    if object.contains_key("natural_language_description") {
        return ap2::intent_mandate(object, root);
    }
    if object.contains_key("mandates") {
        return ap2::open_mandates(object, root);
    }
    Err(cart::error(root, format!("an object of no known request shape: send {REQUEST_SHAPES}")))
}

// Small readers shared by the shapes, each naming its path.

fn path(parent: &str, key: &str) -> String {
    format!("{parent}.{key}")
}

fn object<'a>(value: &'a Value, at: &str) -> Result<&'a Map<String, Value>, CartError> {
    value.as_object().ok_or_else(|| cart::error(at, "expected an object"))
}

fn required<'a>(parent: &'a Map<String, Value>, key: &str, at: &str) -> Result<&'a Value, CartError> {
    match parent.get(key) {
        None | Some(Value::Null) => Err(cart::error(&path(at, key), "missing")),
        Some(value) => Ok(value),
    }
}

/// The longest list a document may hold anywhere (line items, policies,
/// options, a mandate's merchants or SKUs): the cart's own bound, so that
/// a hostile document costs no more than a hostile cart in the checks,
/// which compare every entry with every allowed value.
pub const MAX_LIST: usize = MAX_CART_ENTRIES;

fn list<'a>(value: &'a Value, at: &str) -> Result<&'a Vec<Value>, CartError> {
    let values = value.as_array().ok_or_else(|| cart::error(at, "expected a list"))?;
    if values.len() > MAX_LIST {
        return Err(cart::error(at, format!("{} values, more than the bound of {MAX_LIST}", values.len())));
    }
    Ok(values)
}

/// The line items of a checkout: a non-empty list within the cart bound.
fn line_items<'a>(parent: &'a Map<String, Value>, at: &str) -> Result<&'a Vec<Value>, CartError> {
    let items_path = path(at, "line_items");
    let items = list(required(parent, "line_items", at)?, &items_path)?;
    cart::check_entry_count(items.len(), &items_path)?;
    Ok(items)
}

fn string(parent: &Map<String, Value>, key: &str, at: &str) -> Result<Option<String>, CartError> {
    cart::optional_string(parent.get(key), &path(at, key))
}

fn required_string(parent: &Map<String, Value>, key: &str, at: &str) -> Result<String, CartError> {
    string(parent, key, at)?.ok_or_else(|| cart::error(&path(at, key), "missing"))
}

/// An ISO 4217 code; the protocols differ in case (ACP writes `usd`).
fn currency(parent: &Map<String, Value>, key: &str, at: &str) -> Result<String, CartError> {
    let code = required_string(parent, key, at)?.to_ascii_uppercase();
    if code.len() != 3 || !code.chars().all(|character| character.is_ascii_uppercase()) {
        return Err(cart::error(&path(at, key), format!("{code:?} is not an ISO 4217 code")));
    }
    Ok(code)
}

/// An amount in minor units, bounded like a price.
fn minor(value: &Value, at: &str) -> Result<u64, CartError> {
    let amount = cart::integer(value, at)?;
    if amount > cart::MAX_PRICE_MINOR {
        return Err(cart::error(at, format!("{amount} is above the price bound")));
    }
    Ok(amount)
}

/// The amount of the `total` entry of a UCP or ACP `totals` list (or of an
/// older ACP `totals` object's `total`), if the document states one.
fn stated_total(parent: &Map<String, Value>, at: &str, currency: &str) -> Result<Option<MandateAmount>, CartError> {
    let totals_path = path(at, "totals");
    let total = match parent.get("totals") {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Array(entries)) => {
            let mut found = None;
            for (index, entry) in entries.iter().enumerate() {
                let entry_path = format!("{totals_path}[{index}]");
                let entry = object(entry, &entry_path)?;
                if string(entry, "type", &entry_path)?.as_deref() == Some("total") {
                    found = Some(minor(required(entry, "amount", &entry_path)?, &path(&entry_path, "amount"))?);
                }
            }
            found
        }
        Some(Value::Object(totals)) => match totals.get("total") {
            None | Some(Value::Null) => None,
            Some(value) => Some(minor(value, &path(&totals_path, "total"))?),
        },
        Some(_) => return Err(cart::error(&totals_path, "expected a list of totals")),
    };
    Ok(total.map(|minor| MandateAmount { minor, currency: currency.to_owned() }))
}

/// The shipping charge a UCP or ACP checkout states: the sum of its `totals`
/// entries of type `fulfillment` (both protocols' name for delivery) or
/// `shipping` (or an older ACP `totals` object's `fulfillment`), in the
/// checkout's currency; `None` when it states none, which says nothing
/// about whether shipping is free.
fn stated_shipping(parent: &Map<String, Value>, at: &str, currency: &str) -> Result<Option<cart::Shipping>, CartError> {
    let totals_path = path(at, "totals");
    let mut found: Option<u64> = None;
    let mut add = |amount: u64, at: &str| -> Result<(), CartError> {
        let sum = found.unwrap_or(0).checked_add(amount).ok_or_else(|| cart::error(at, "shipping above the bound"))?;
        found = Some(sum);
        Ok(())
    };
    match parent.get("totals") {
        Some(Value::Array(entries)) => {
            for (index, entry) in entries.iter().enumerate() {
                let entry_path = format!("{totals_path}[{index}]");
                let entry = object(entry, &entry_path)?;
                if matches!(string(entry, "type", &entry_path)?.as_deref(), Some("fulfillment" | "shipping")) {
                    let amount_path = path(&entry_path, "amount");
                    add(minor(required(entry, "amount", &entry_path)?, &amount_path)?, &amount_path)?;
                }
            }
        }
        Some(Value::Object(totals)) => {
            for key in ["fulfillment", "shipping"] {
                if let Some(value) = totals.get(key).filter(|value| !value.is_null()) {
                    let amount_path = path(&totals_path, key);
                    add(minor(value, &amount_path)?, &amount_path)?;
                }
            }
        }
        // A missing or malformed `totals` is `stated_total`'s to refuse.
        _ => {}
    }
    Ok(found.map(|minor| cart::Shipping { minor, currency: Some(currency.to_owned()) }))
}

/// What a UCP or ACP checkout's `totals` state beside the items (issue 29):
/// the `total`, `subtotal`, `items_discount`, `discount`, `tax` and each
/// `fee` entry (labelled by its `display_text`), in the checkout's currency.
/// An older ACP `totals` object is read by the same names. Entry types the
/// reader does not know (`items_base_amount`, `fulfillment`, read by
/// [`stated_shipping`]) are left alone.
fn stated_charges(parent: &Map<String, Value>, at: &str, currency: &str) -> Result<cart::Charges, CartError> {
    let totals_path = path(at, "totals");
    let mut charges = cart::Charges { currency: Some(currency.to_owned()), ..cart::Charges::default() };
    let add = |slot: &mut Option<u64>, amount: u64, at: &str| -> Result<(), CartError> {
        *slot = Some(slot.unwrap_or(0).checked_add(amount).ok_or_else(|| cart::error(at, "above the price bound"))?);
        Ok(())
    };
    let mut read = |kind: &str, label: Option<String>, amount: u64, at: &str| -> Result<(), CartError> {
        match kind {
            "total" => charges.total = Some(amount),
            "subtotal" => add(&mut charges.subtotal, amount, at)?,
            "items_discount" => add(&mut charges.items_discount, amount, at)?,
            "discount" => add(&mut charges.discount, amount, at)?,
            "tax" => add(&mut charges.tax, amount, at)?,
            "fee" => charges.fees.push(cart::Fee { label: label.unwrap_or_else(|| "fee".to_owned()), minor: amount }),
            _ => {}
        }
        Ok(())
    };
    let itemised = matches!(parent.get("totals"), Some(Value::Array(_) | Value::Object(_)));
    match parent.get("totals") {
        Some(Value::Array(entries)) => {
            for (index, entry) in entries.iter().enumerate() {
                let entry_path = format!("{totals_path}[{index}]");
                let entry = object(entry, &entry_path)?;
                let Some(kind) = string(entry, "type", &entry_path)? else { continue };
                if !["total", "subtotal", "items_discount", "discount", "tax", "fee"].contains(&kind.as_str()) {
                    continue;
                }
                let amount_path = path(&entry_path, "amount");
                let amount = minor(required(entry, "amount", &entry_path)?, &amount_path)?;
                read(&kind, string(entry, "display_text", &entry_path)?, amount, &amount_path)?;
            }
        }
        Some(Value::Object(totals)) => {
            for key in ["total", "subtotal", "items_discount", "discount", "tax", "fee"] {
                if let Some(value) = totals.get(key).filter(|value| !value.is_null()) {
                    let amount_path = path(&totals_path, key);
                    read(key, None, minor(value, &amount_path)?, &amount_path)?;
                }
            }
        }
        _ => {}
    }
    charges.itemised = itemised && charges.total.is_some();
    Ok(charges)
}

/// A status, if present, must be one of the protocol's own.
fn status(parent: &Map<String, Value>, at: &str, allowed: &[&str]) -> Result<(), CartError> {
    if let Some(status) = string(parent, "status", at)?
        && !allowed.contains(&status.as_str())
    {
        return Err(cart::error(&path(at, "status"), format!("{status:?} is not one of {}", allowed.join(", "))));
    }
    Ok(())
}

/// `messages[]`, if present, must be a list of objects (read, not acted on).
fn messages(parent: &Map<String, Value>, at: &str) -> Result<(), CartError> {
    let messages_path = path(at, "messages");
    match parent.get("messages") {
        None | Some(Value::Null) => Ok(()),
        Some(value) => {
            for (index, message) in list(value, &messages_path)?.iter().enumerate() {
                object(message, &format!("{messages_path}[{index}]"))?;
            }
            Ok(())
        }
    }
}

/// A colour or size from a variant option's name (`Color`, `Colour`,
/// `Цвет`; `Size`, `Размер`).
fn variant_kind(name: &str) -> Option<Variant> {
    match name.trim().to_lowercase().as_str() {
        "color" | "colour" | "цвет" => Some(Variant::Colour),
        "size" | "размер" => Some(Variant::Size),
        _ => None,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Variant {
    Colour,
    Size,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, 2).unwrap()
    }

    #[test]
    fn an_unknown_object_lists_the_shapes() {
        let error = parse_cart(json!({"basket": []}).as_object().unwrap(), "$.cart", today()).unwrap_err();
        assert_eq!(error.path, "$.cart");
        assert!(error.message.contains("UCP checkout") && error.message.contains("AP2 CartMandate"), "{error}");
        let error = parse_request(json!({"intent": "x"}).as_object().unwrap(), "$.request").unwrap_err();
        assert!(error.message.contains("IntentMandate"), "{error}");
    }

    #[test]
    fn lists_are_bounded() {
        let merchants: Vec<String> = (0..=MAX_LIST).map(|index| format!("m{index}")).collect();
        let intent = json!({"natural_language_description": "shoes", "intent_expiry": "2026-11-05",
            "merchants": merchants});
        let error = parse_request(intent.as_object().unwrap(), "$.request").unwrap_err();
        assert_eq!(error.path, "$.request.merchants");
    }

    #[test]
    fn line_items_without_envelope_are_told_by_their_fields() {
        let ucp = json!({"line_items": [{"id": "li_1", "item": {"id": "A", "title": "Shoe", "price": 100}, "quantity": 1}],
            "currency": "USD"});
        assert_eq!(parse_cart(ucp.as_object().unwrap(), "$.cart", today()).unwrap().shape, CartShape::UcpCheckout);
        let acp = json!({"line_items": [{"id": "li_1", "item": {"id": "A"}, "quantity": 1, "name": "Shoe", "unit_amount": 100}],
            "currency": "usd"});
        assert_eq!(
            parse_cart(acp.as_object().unwrap(), "$.cart", today()).unwrap().shape,
            CartShape::AcpCheckoutSession
        );
        let neither = json!({"line_items": [{"item": {"id": "A"}, "quantity": 1}], "currency": "usd"});
        assert!(parse_cart(neither.as_object().unwrap(), "$.cart", today()).is_err());
    }
}
