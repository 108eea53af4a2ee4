//! The first stage of a check: the caller's arguments validated and the
//! cart resolved against the catalog, once, into typed values. Nothing after
//! this stage sees JSON maps.
//!
//! Every refusal names its argument as a JSONPath (`$.cart[0].quantity`).
//! Pure but for the catalog lookups it is given; the date comes in as a
//! function so the clock is read only when `today` is absent.

use std::collections::BTreeSet;

use chrono::NaiveDate;
use serde_json::{Map, Value};

use super::{
    AllowedItem, Answer, CheckError, CheckRequest, Format, MAX_ANSWERS, MAX_JSON_DEPTH, MAX_REQUEST_BYTES, invalid,
};
use crate::cart::{self, Cart, CartEntry, CartError, Item};
use crate::catalog::Catalog;
use crate::digest;
use crate::evidence::StoreError;
use crate::facts::{MandateAmount, MandateFacts};
use crate::messages::Language;
use crate::protocols::{self, CART_SHAPES, CartShape, REQUEST_SHAPES};
use crate::today;

/// The root of cart paths in errors and findings.
const CART: &str = "$.cart";
/// The root of request paths in errors.
const REQUEST: &str = "$.request";

/// A check's arguments, validated.
#[derive(Debug, Clone, PartialEq)]
pub struct Input {
    /// The person's words, trimmed.
    pub request: String,
    pub today: NaiveDate,
    pub cart: Cart,
    /// The items the price check compares with.
    pub allowed: Vec<Item>,
    pub answers: Vec<Answer>,
    pub previous_record_id: Option<String>,
    pub format: Option<Format>,
    /// The language the person reads: the `language` argument, else the
    /// request's own ([`Language::detect`]).
    pub language: Language,
    /// Whether the caller chose the language (it then counts in the
    /// mandate digest: the same words in another language are another answer).
    pub language_chosen: bool,
    /// The constraints of a mandate the request came in (empty for words).
    pub mandate: MandateFacts,
    /// The shape the cart came in.
    pub shape: CartShape,
    /// The JSONPath of each cart entry in the caller's own document
    /// (`$.cart[i]` for the guard's own list).
    pub params: Vec<String>,
    /// The total a checkout document states, when it states one.
    pub payment: Option<MandateAmount>,
}

/// Validates `arguments`; `catalog` resolves `{id, quantity}` entries and
/// allowed ids, `current_date` gives today when the caller did not.
pub fn validate(
    arguments: CheckRequest,
    catalog: Option<&Catalog>,
    current_date: impl FnOnce() -> NaiveDate,
) -> Result<Input, CheckError> {
    if let Some(field) = too_deep(&arguments) {
        dismantle(arguments);
        return Err(invalid(field, format!("nested deeper than the bound of {MAX_JSON_DEPTH}")));
    }
    let (request, mandate) = request_input(&arguments.request)?;
    let today = today_of(arguments.today.as_deref(), current_date)?;
    let mut resolved = resolve_input(&arguments.cart, catalog, today)?;
    resolved.cart.charges.rates = rates(&arguments.fx)?;
    let allowed = allowed(arguments.allowed_items.as_deref(), &resolved.categories, catalog)?;
    if arguments.answers.len() > MAX_ANSWERS {
        return Err(invalid("$.answers", format!("more than {MAX_ANSWERS} answers")));
    }
    let language = arguments.language.unwrap_or_else(|| Language::detect(&request));
    Ok(Input {
        request,
        today,
        cart: resolved.cart,
        mandate,
        shape: resolved.shape,
        params: resolved.params,
        payment: resolved.payment,
        allowed,
        answers: arguments.answers,
        previous_record_id: arguments.previous_record_id,
        format: arguments.format,
        language,
        language_chosen: arguments.language.is_some(),
    })
}

/// The exchange rates of `fx`, each checked, naming its JSONPath.
fn rates(fx: &[super::FxRate]) -> Result<Vec<cart::ExchangeRate>, CheckError> {
    if fx.len() > MAX_RATES {
        return Err(invalid("$.fx", format!("{} rates, more than the bound of {MAX_RATES}", fx.len())));
    }
    fx.iter()
        .enumerate()
        .map(|(index, given)| {
            let path = format!("$.fx[{index}]");
            let rate = match &given.rate {
                Value::String(text) => text.clone(),
                Value::Number(number) => number.to_string(),
                _ => return Err(invalid(format!("{path}.rate"), "expected a decimal rate, as a string or a number")),
            };
            cart::ExchangeRate::new(&given.from, &given.to, &rate, &given.date, &path).map_err(cart_error)
        })
        .collect()
}

/// The most exchange rates one call may give: a cart has one currency and
/// a limit another, so a handful is plenty.
const MAX_RATES: usize = 32;

/// The request argument: the person's words, or a mandate document holding
/// them (AP2), with the mandate's constraints.
pub fn request_input(request: &Value) -> Result<(String, MandateFacts), CheckError> {
    match request {
        Value::String(text) => Ok((request_text(text)?, MandateFacts::default())),
        Value::Object(object) => {
            let document = protocols::parse_request(object, REQUEST).map_err(cart_error)?;
            Ok((request_text(&document.text)?, document.mandate))
        }
        other => Err(invalid(REQUEST, format!("{}: send {REQUEST_SHAPES}", json_kind(other)))),
    }
}

/// The person's words, trimmed and bounded: the text a check and a brief
/// extract from (the facts cache is keyed by it, so both must trim alike).
pub fn request_text(request: &str) -> Result<String, CheckError> {
    let request = request.trim().to_owned();
    if request.is_empty() {
        return Err(invalid("$.request", "empty: pass the person's words verbatim"));
    }
    if request.len() > MAX_REQUEST_BYTES {
        return Err(invalid("$.request", format!("{} bytes, above the bound of {MAX_REQUEST_BYTES}", request.len())));
    }
    Ok(request)
}

/// The date deadlines are counted from: `today` as given, or the clock's
/// date (read only when it is absent).
pub fn today_of(today: Option<&str>, current_date: impl FnOnce() -> NaiveDate) -> Result<NaiveDate, CheckError> {
    match today {
        Some(text) => today::parse(text, "$.today").map_err(|error| invalid(error.field, error.message)),
        None => Ok(current_date()),
    }
}

/// A cart argument resolved, in whichever shape it came.
struct Resolved {
    cart: Cart,
    categories: BTreeSet<String>,
    shape: CartShape,
    params: Vec<String>,
    payment: Option<MandateAmount>,
}

/// Resolves the cart argument: the guard's own list (catalog ids resolved),
/// or a commerce protocol's document (UCP, ACP, AP2), told by its shape.
fn resolve_input(cart: &Value, catalog: Option<&Catalog>, today: NaiveDate) -> Result<Resolved, CheckError> {
    if let Value::Object(object) = cart {
        let document = protocols::parse_cart(object, CART, today).map_err(cart_error)?;
        return Ok(Resolved {
            cart: document.cart,
            categories: BTreeSet::new(),
            shape: document.shape,
            params: document.params,
            payment: document.payment,
        });
    }
    let (resolved, categories) = resolve_cart(&cart_entries(cart)?, catalog)?;
    let params = (0..resolved.len()).map(|index| format!("{CART}[{index}]")).collect();
    Ok(Resolved { cart: resolved, categories, shape: CartShape::Entries, params, payment: None })
}

/// The cart's entries: a list of objects. A cart sent as a string (the list
/// serialised twice, a common slip of agents) is refused naming `$.cart`,
/// never parsed: what was meant cannot be known for sure.
fn cart_entries(cart: &Value) -> Result<Vec<&Map<String, Value>>, CheckError> {
    let entries = match cart {
        Value::Array(entries) => entries,
        Value::String(text) => {
            let hint = if serde_json::from_str::<Value>(text).is_ok_and(|value| value.is_array()) {
                "a string holding JSON: send the list itself, not a string"
            } else {
                "a string: send a list of cart entries"
            };
            return Err(invalid(CART, hint));
        }
        other => return Err(invalid(CART, format!("{}: send {CART_SHAPES}", json_kind(other)))),
    };
    entries
        .iter()
        .enumerate()
        .map(|(index, entry)| {
            entry.as_object().ok_or_else(|| {
                invalid(format!("{CART}[{index}]"), format!("{}: each cart entry is an object", json_kind(entry)))
            })
        })
        .collect()
}

/// The kind of a JSON value, as an error message names it.
fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// The digest a check's record, verdict and receipt name its cart by: the
/// canonical JSON of the cart as resolved (catalog ids replaced by items),
/// with the total a checkout document states beside it when it states one
/// (a changed total is a changed cart).
pub fn subject_digest(cart: &Cart, payment: Option<&MandateAmount>) -> Result<String, CheckError> {
    fn to_value<T: serde::Serialize>(value: &T) -> Result<Value, CheckError> {
        serde_json::to_value(value).map_err(|error| CheckError::Store(StoreError::from(error)))
    }
    let entries = to_value(cart)?;
    // A stated shipping charge is part of what is bought (issue 28 §5). A
    // checkout's stated total already binds it (delivery included), so it
    // joins only a cart without one: a flat cart that sends `shipping`, or
    // a checkout that states no total. Every cart that digested before
    // digests as it did, and so keeps its record ids and receipts.
    let mut value = match (payment, &cart.shipping) {
        (None, None) => entries,
        (Some(payment), _) => serde_json::json!({ "cart": entries, "payment": payment }),
        (None, Some(shipping)) => serde_json::json!({ "cart": entries, "shipping": to_value(shipping)? }),
    };
    // A flat cart's tax and fees (issue 29) are part of what is paid: they
    // join the digest only when stated, so every cart that digested before
    // still does. A checkout's stated total binds its own.
    if payment.is_none() && !cart.charges.states_nothing() {
        let cart_value = match value {
            Value::Object(object) => Value::Object(object),
            entries => serde_json::json!({ "cart": entries }),
        };
        let mut object = match cart_value {
            Value::Object(object) => object,
            _ => Map::new(),
        };
        object.insert("charges".to_owned(), to_value(&cart.charges)?);
        value = Value::Object(object);
    }
    Ok(digest::of_value(&value))
}

/// The subject digest of a cart as a caller sends it (`$.cart`, in any shape
/// a check accepts), resolved the way a check resolves it on `today`: what
/// a verifier compares a receipt with.
pub fn cart_digest(cart: &Value, catalog: Option<&Catalog>, today: NaiveDate) -> Result<String, CheckError> {
    let resolved = resolve_input(cart, catalog, today)?;
    subject_digest(&resolved.cart, resolved.payment.as_ref())
}

/// What the person pays for a cart as a caller sends it, resolved the way a
/// check resolves it on `today` (see `checks::explicit_max::paid`); `None`
/// when it cannot be had in one currency.
pub fn cart_paid(
    cart: &Value,
    catalog: Option<&Catalog>,
    today: NaiveDate,
) -> Result<Option<crate::checks::explicit_max::Paid>, CheckError> {
    let resolved = resolve_input(cart, catalog, today)?;
    Ok(crate::checks::explicit_max::paid(&resolved.cart))
}

fn cart_error(error: CartError) -> CheckError {
    invalid(error.path, error.message)
}

/// Parses the cart, replacing `{id, quantity}` entries by catalog items.
/// Returns the categories of the catalog items in the cart.
fn resolve_cart(
    entries: &[&Map<String, Value>],
    catalog: Option<&Catalog>,
) -> Result<(Cart, BTreeSet<String>), CheckError> {
    cart::check_entry_count(entries.len(), CART).map_err(cart_error)?;
    let mut resolved = Vec::with_capacity(entries.len());
    let mut unknown = Vec::new();
    let mut categories = BTreeSet::new();
    for (index, entry) in entries.iter().enumerate() {
        let path = format!("{CART}[{index}]");
        let reference = entry.keys().all(|key| key == "id" || key == "quantity");
        match (reference, entry.get("id").and_then(Value::as_str)) {
            (true, Some(id)) => {
                let Some(catalog) = catalog else {
                    return Err(invalid(
                        path,
                        format!(
                            "{id:?} is a catalog id but no catalog is configured (--catalog): send the item's attributes"
                        ),
                    ));
                };
                let Some(found) = catalog.get(id) else {
                    unknown.push(id.to_owned());
                    continue;
                };
                let quantity =
                    cart::parse_quantity(entry.get("quantity"), &format!("{path}.quantity")).map_err(cart_error)?;
                categories.insert(found.category.clone());
                resolved.push(CartEntry { item: found.item.clone(), quantity });
            }
            (false, Some(id))
                if !entry.contains_key("item") && catalog.is_some_and(|catalog| catalog.get(id).is_some()) =>
            {
                // A catalog id beside attributes of the agent's own: which
                // should win cannot be known (a price changed at checkout,
                // or a stale copy?), and a quiet choice either way checks
                // something else than what will be bought. Refused, naming
                // the first attribute.
                let extra = entry.keys().find(|key| *key != "id" && *key != "quantity").map_or("", String::as_str);
                return Err(invalid(
                    format!("{path}.{extra}"),
                    format!(
                        "{id:?} is a catalog id, and a catalog entry is {{id, quantity}}: drop the other \
                         attributes to check the catalog's item, or drop the id to check the attributes you send"
                    ),
                ));
            }
            _ => {
                let item_id = entry
                    .get("item")
                    .and_then(|item| item.get("id"))
                    .or_else(|| entry.get("id"))
                    .and_then(Value::as_str);
                if let (Some(catalog), Some(item_id)) = (catalog, item_id)
                    && let Some(found) = catalog.get(item_id)
                {
                    categories.insert(found.category.clone());
                }
                let entry = cart::parse_entry_object(entry, &path).map_err(cart_error)?;
                resolved.push(entry);
            }
        }
    }
    if !unknown.is_empty() {
        return Err(invalid(CART, format!("unknown catalog ids: {}", unknown.join(", "))));
    }
    let stated = entries
        .iter()
        .enumerate()
        .map(|(index, entry)| cart::flat_shipping(entry, &format!("{CART}[{index}]")).map_err(cart_error))
        .collect::<Result<Vec<_>, _>>()?;
    let charges = cart::flat_charges(entries.iter().copied(), CART).map_err(cart_error)?;
    Ok((Cart { entries: resolved, shipping: cart::Shipping::of_entries(&stated), charges }, categories))
}

/// The items the price check compares with: the ones given, or the catalog
/// items of the cart's categories.
fn allowed(
    given: Option<&[AllowedItem]>,
    categories: &BTreeSet<String>,
    catalog: Option<&Catalog>,
) -> Result<Vec<Item>, CheckError> {
    let Some(given) = given else {
        let Some(catalog) = catalog else {
            return Ok(Vec::new());
        };
        return Ok(categories
            .iter()
            .flat_map(|category| catalog.in_category(category).map(|found| found.item.clone()))
            .collect());
    };
    given
        .iter()
        .enumerate()
        .map(|(index, allowed)| {
            let field = format!("$.allowed_items[{index}]");
            match allowed {
                AllowedItem::Id(id) => catalog
                    .and_then(|catalog| catalog.get(id))
                    .map(|found| found.item.clone())
                    .ok_or_else(|| invalid(field, format!("unknown catalog id {id:?}"))),
                AllowedItem::Item(object) => cart::parse_item_object(object, &field).map_err(cart_error),
            }
        })
        .collect()
}

/// The first cart entry or allowed item nested deeper than [`MAX_JSON_DEPTH`],
/// found without recursion.
fn too_deep(arguments: &CheckRequest) -> Option<String> {
    let exceeds = |map: &Map<String, Value>| {
        let mut stack: Vec<(&Value, usize)> = map.values().map(|value| (value, 2)).collect();
        while let Some((value, depth)) = stack.pop() {
            let children: Box<dyn Iterator<Item = &Value>> = match value {
                Value::Array(items) => Box::new(items.iter()),
                Value::Object(object) => Box::new(object.values()),
                _ => continue,
            };
            if depth > MAX_JSON_DEPTH {
                return true;
            }
            stack.extend(children.map(|child| (child, depth + 1)));
        }
        false
    };
    if let Value::Object(document) = &arguments.cart
        && exceeds(document)
    {
        return Some(CART.to_owned());
    }
    if let Value::Object(document) = &arguments.request
        && exceeds(document)
    {
        return Some(REQUEST.to_owned());
    }
    let entries = arguments.cart.as_array().map(Vec::as_slice).unwrap_or_default();
    if let Some(index) = entries.iter().position(|entry| entry.as_object().is_some_and(exceeds)) {
        return Some(format!("{CART}[{index}]"));
    }
    let allowed = arguments.allowed_items.as_deref().unwrap_or_default();
    allowed
        .iter()
        .position(|allowed| matches!(allowed, AllowedItem::Item(object) if exceeds(object)))
        .map(|index| format!("$.allowed_items[{index}]"))
}

/// Drops a refused request without recursion: its values may be nested
/// deeper than a worker thread's stack could drop recursively.
fn dismantle(arguments: CheckRequest) {
    let mut stack: Vec<Value> = vec![arguments.cart, arguments.request];
    for allowed in arguments.allowed_items.unwrap_or_default() {
        if let AllowedItem::Item(object) = allowed {
            stack.push(Value::Object(object));
        }
    }
    while let Some(value) = stack.pop() {
        match value {
            Value::Array(items) => stack.extend(items),
            Value::Object(object) => stack.extend(object.into_iter().map(|(_, child)| child)),
            _ => {}
        }
    }
}
