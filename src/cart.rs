//! Items and carts: what the agent intends to buy, and the parsing of the two
//! item shapes agents send.
//!
//! The canonical shape is `{item: {...}, quantity}` with the attributes of
//! `shared/conformance/FORMAT.md`. Existing agents also send a flat shape
//! (`{name, brand, price, quantity, returnable, ...}`, price in currency units),
//! which is converted here exactly: prices are parsed as decimal text, never
//! through float arithmetic, so 159.99 is 15999 cents and 0.1 + 0.2 problems
//! cannot arise. Parsing is by hand over `serde_json::Value` so that every error
//! names the JSONPath of the offending value; nothing is silently defaulted.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::facts::Level;

/// The level an item is made for; `any` fits every stated level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ItemLevel {
    Beginner,
    Intermediate,
    Pro,
    Any,
}

impl ItemLevel {
    pub fn as_str(self) -> &'static str {
        match self {
            ItemLevel::Beginner => "beginner",
            ItemLevel::Intermediate => "intermediate",
            ItemLevel::Pro => "pro",
            ItemLevel::Any => "any",
        }
    }

    /// Whether an item of this level suits a person who stated `level`.
    pub fn fits(self, level: Level) -> bool {
        match self {
            ItemLevel::Any => true,
            ItemLevel::Beginner => level == Level::Beginner,
            ItemLevel::Intermediate => level == Level::Intermediate,
            ItemLevel::Pro => level == Level::Pro,
        }
    }
}

/// One catalog or checkout item. Every attribute is optional: an unknown
/// attribute makes the check that needs it return `unchecked`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Item {
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub brand: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    /// As the store writes it; `White/Black` means the first colour is white.
    #[serde(default)]
    pub color: Option<String>,
    /// As the store writes it (`EU 42`, `Medium`, `4 3/8`).
    #[serde(default)]
    pub size: Option<String>,
    #[serde(default)]
    pub level: Option<ItemLevel>,
    /// True: cannot be returned or exchanged.
    #[serde(default)]
    pub final_sale: Option<bool>,
    #[serde(default)]
    pub delivery_days: Option<u64>,
    /// Units of the person's counting in one cart unit (a pack of 3 cans: 3).
    #[serde(default)]
    pub units: Option<u64>,
    /// Price of one cart unit in minor units.
    #[serde(default)]
    pub price_cents: Option<u64>,
    /// ISO 4217 code.
    #[serde(default)]
    pub currency: Option<String>,
    /// The stock keeping unit, where the store gives one apart from `id`
    /// (a mandate's allowed SKUs are compared with it, else with `id`).
    /// Left out of the serialised item when unknown, so that the digest of
    /// a cart that never named one is what it always was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sku: Option<String>,
    /// The merchant that sells it (a mandate's allowed merchants are
    /// compared with it). Left out when unknown, like `sku`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merchant: Option<String>,
    /// What the item's own words say beyond its name and brand. Left out of
    /// the serialised item when empty, so that a cart that sends none of
    /// them digests as it always did.
    #[serde(default, skip_serializing_if = "ItemWords::stays_out_of_the_digest")]
    pub words: ItemWords,
}

/// One named value of an item, as the store writes both (`Material`:
/// `Denim`; a variant option `Color`: `Black`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NamedValue {
    pub name: String,
    pub value: String,
}

impl NamedValue {
    pub fn new(name: impl Into<String>, value: impl Into<String>) -> NamedValue {
        NamedValue { name: name.into(), value: value.into() }
    }
}

/// The item's words besides its name and brand (which stay on [`Item`]):
/// what a check of *what the item is*, and of requirements no attribute
/// field holds, reads together with `name` and `brand`.
///
/// Order is the sender's where the sender's document has one (a list of
/// variant options or custom attributes), and by name where it has none (a
/// JSON object of attributes): the same document always gives the same
/// words, whatever order a map happens to iterate in.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ItemWords {
    /// The store's description of the item.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The store's category (`running-shoes`, `Shoes > Running`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// The variant options chosen (`Color`: `Black`, `Size`: `EU 42`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<NamedValue>,
    /// Every other attribute the store gives, name and value.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attributes: Vec<NamedValue>,
    /// The keywords a catalog files the item under (the sandbox catalog's
    /// `tags`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Whether these words are the catalog's own, resolved from a catalog
    /// id. The id (with the attributes the item always had) already names
    /// them in the digest; leaving them out keeps the record ids of every
    /// catalog cart what they were.
    #[serde(skip)]
    pub from_catalog: bool,
}

impl ItemWords {
    /// No words beyond the name and brand.
    pub fn is_empty(&self) -> bool {
        self.description.is_none()
            && self.category.is_none()
            && self.options.is_empty()
            && self.attributes.is_empty()
            && self.tags.is_empty()
    }

    /// Whether the serialised item (and so the subject digest) leaves the
    /// words out: when there are none, or when the catalog supplied them.
    fn stays_out_of_the_digest(&self) -> bool {
        self.is_empty() || self.from_catalog
    }
}

impl Item {
    /// A short human name for reasons: the name, else brand, else id.
    pub fn display_name(&self) -> String {
        self.name
            .clone()
            .or_else(|| self.brand.clone())
            .or_else(|| self.id.clone())
            .unwrap_or_else(|| "an unnamed item".to_owned())
    }
}

/// One cart entry: an item and how many of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CartEntry {
    pub item: Item,
    pub quantity: u64,
}

/// The cart as checked. Never empty once parsed.
///
/// Serialised as its entries alone: what the cart states beside them
/// (`shipping`) joins the subject digest apart, and only when stated, so a
/// cart without it digests as it always did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct Cart {
    pub entries: Vec<CartEntry>,
    /// What the cart charges for shipping (issue 28 §5), `None` when it does
    /// not say: a flat item's `shipping` price, a UCP or ACP checkout's
    /// `fulfillment` total.
    #[serde(skip)]
    pub shipping: Option<Shipping>,
    /// What the checkout states it charges beside the items (issue 29): its
    /// total, tax, discounts and fees, and the exchange rates the caller
    /// gave for paying it. Empty when it states none.
    #[serde(skip)]
    pub charges: Charges,
}

/// What a checkout states it charges beside its items (issue 29), in its
/// one currency: a UCP or ACP checkout's `totals`, an AP2 payment total, a
/// flat entry's `tax` and `fees`. A part not stated is `None`, never 0.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Charges {
    /// The currency the stated amounts are in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    /// The total the checkout states: what will be paid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// The items' subtotal the checkout states (after item discounts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subtotal: Option<u64>,
    /// Discounts on the items (`items_discount`), stated apart from `discount`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items_discount: Option<u64>,
    /// Discounts on the order (`discount`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discount: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tax: Option<u64>,
    /// Each fee line, in the document's order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fees: Vec<Fee>,
    /// Whether the document names each part of its total by type (UCP and
    /// ACP `totals`), so that a total unlike its parts is unexplained. An
    /// AP2 payment request does not: its total may hold shipping and tax
    /// its display items leave out.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub itemised: bool,
    /// Exchange rates the caller gave with the call (never fetched, never
    /// invented): what lets a limit in another currency be compared.
    #[serde(skip)]
    pub rates: Vec<ExchangeRate>,
}

impl Charges {
    /// Whether the checkout states nothing beside its items (rates are the
    /// caller's, not the checkout's).
    pub fn states_nothing(&self) -> bool {
        self.total.is_none()
            && self.subtotal.is_none()
            && self.items_discount.is_none()
            && self.discount.is_none()
            && self.tax.is_none()
            && self.fees.is_empty()
    }

    /// The fees added up (`None`: beyond u64).
    pub fn fees_total(&self) -> Option<u64> {
        self.fees.iter().try_fold(0u64, |sum, fee| sum.checked_add(fee.minor))
    }
}

/// One fee line a checkout states: its label as the store writes it
/// ("Service fee", "Сервисный сбор") and amount.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Fee {
    pub label: String,
    pub minor: u64,
}

/// An exchange rate the caller gives: one unit of `from` is `rate` units of
/// `to`, as quoted on `date`. Exact: the rate is kept as the decimal the
/// caller wrote (`numerator` / 10^`scale`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ExchangeRate {
    pub from: String,
    pub to: String,
    /// As written ("0.92").
    pub rate: String,
    pub date: chrono::NaiveDate,
    #[serde(skip)]
    numerator: u128,
    #[serde(skip)]
    scale: u32,
}

/// The most decimals a rate may have: enough for any published rate.
const MAX_RATE_DECIMALS: u32 = 12;

impl ExchangeRate {
    /// A rate from its parts; `path` names the argument in errors.
    pub fn new(from: &str, to: &str, rate: &str, date: &str, path: &str) -> Result<ExchangeRate, CartError> {
        let code = |text: &str, at: &str| -> Result<String, CartError> {
            let code = text.trim().to_ascii_uppercase();
            if code.len() != 3 || !code.chars().all(|character| character.is_ascii_uppercase()) {
                return Err(error(&format!("{path}.{at}"), format!("{text:?} is not an ISO 4217 code")));
            }
            Ok(code)
        };
        let (from, to) = (code(from, "from")?, code(to, "to")?);
        if from == to {
            return Err(error(&format!("{path}.to"), "a rate converts one currency into another"));
        }
        let rate = rate.trim();
        let (whole, fraction) = rate.split_once('.').unwrap_or((rate, ""));
        let well_formed = !whole.is_empty()
            && whole.len() <= 12
            && whole.chars().all(|character| character.is_ascii_digit())
            && fraction.chars().all(|character| character.is_ascii_digit())
            && fraction.len() <= MAX_RATE_DECIMALS as usize
            && !(rate.contains('.') && fraction.is_empty());
        let numerator: u128 = if well_formed { format!("{whole}{fraction}").parse().unwrap_or(0) } else { 0 };
        if numerator == 0 {
            return Err(error(
                &format!("{path}.rate"),
                format!("{rate:?} is not a positive decimal rate (at most {MAX_RATE_DECIMALS} decimals)"),
            ));
        }
        let date = chrono::NaiveDate::parse_from_str(date.trim(), "%Y-%m-%d")
            .map_err(|_| error(&format!("{path}.date"), format!("{date:?} is not an ISO date (2026-11-02)")))?;
        Ok(ExchangeRate {
            from,
            to,
            rate: rate.to_owned(),
            date,
            numerator,
            scale: u32::try_from(fraction.len()).unwrap_or(MAX_RATE_DECIMALS),
        })
    }

    /// `minor` units of `from` in minor units of `to`, rounded up (a limit
    /// is compared with what is at least paid; rounding never lets a total
    /// slip under a limit). `None`: beyond u64.
    pub fn convert(&self, minor: u64) -> Option<u64> {
        let from_digits = minor_digits(Some(&self.from));
        let to_digits = minor_digits(Some(&self.to));
        let numerator = u128::from(minor).checked_mul(self.numerator)?.checked_mul(10u128.pow(to_digits))?;
        let denominator = 10u128.pow(self.scale).checked_mul(10u128.pow(from_digits))?;
        let converted = numerator.div_ceil(denominator);
        u64::try_from(converted).ok()
    }

    /// `minor` units of `to` in minor units of `from` (the rate read
    /// backwards), rounded up like [`ExchangeRate::convert`]. `None`:
    /// beyond u64.
    pub fn convert_back(&self, minor: u64) -> Option<u64> {
        let from_digits = minor_digits(Some(&self.from));
        let to_digits = minor_digits(Some(&self.to));
        let numerator = u128::from(minor).checked_mul(10u128.pow(self.scale))?.checked_mul(10u128.pow(from_digits))?;
        let denominator = self.numerator.checked_mul(10u128.pow(to_digits))?;
        u64::try_from(numerator.div_ceil(denominator)).ok()
    }

    /// `minor` units of `currency` in `target`, by this rate read either
    /// way; `None` when it is not a rate between the two (or beyond u64).
    pub fn between(&self, minor: u64, currency: &str, target: &str) -> Option<u64> {
        if self.from == currency && self.to == target {
            self.convert(minor)
        } else if self.to == currency && self.from == target {
            self.convert_back(minor)
        } else {
            None
        }
    }

    /// Reads `FROM:TO=RATE@DATE` (`USD:EUR=0.92@2026-11-01`), the command
    /// line's and the configuration's spelling.
    pub fn parse_spec(text: &str, path: &str) -> Result<ExchangeRate, CartError> {
        let shape = || error(path, format!("{text:?}: expected FROM:TO=RATE@DATE, e.g. USD:EUR=0.92@2026-11-01"));
        let (pair, rest) = text.split_once('=').ok_or_else(shape)?;
        let (from, to) = pair.split_once(':').ok_or_else(shape)?;
        let (rate, date) = rest.split_once('@').ok_or_else(shape)?;
        ExchangeRate::new(from, to, rate, date, path)
    }
}

/// A shipping charge the cart states: minor units, read exactly, and the
/// currency when the cart names one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Shipping {
    pub minor: u64,
    pub currency: Option<String>,
}

impl Shipping {
    /// The cart's shipping from what each entry states (`None`: it does not
    /// say). Entries that all state theirs, in one currency, add up; a
    /// positive charge stated by some is a charge whatever the others say;
    /// nothing charged by some and nothing said by the others is unknown,
    /// never free.
    pub fn of_entries(stated: &[Option<Shipping>]) -> Option<Shipping> {
        let said: Vec<&Shipping> = stated.iter().flatten().collect();
        let first = *said.first()?;
        let one_currency = said.iter().all(|shipping| shipping.currency == first.currency);
        let sum = said.iter().try_fold(0u64, |sum, shipping| sum.checked_add(shipping.minor));
        match sum {
            Some(sum) if one_currency && (sum > 0 || said.len() == stated.len()) => {
                Some(Shipping { minor: sum, currency: first.currency.clone() })
            }
            _ => said.iter().find(|shipping| shipping.minor > 0).map(|shipping| (*shipping).clone()),
        }
    }
}

/// A flat entry's `shipping` price (in the item's currency, read exactly
/// like `price`), if it states one. Canonical `{item, quantity}` entries
/// refuse the key as an unknown field.
pub fn flat_shipping(object: &Map<String, Value>, path: &str) -> Result<Option<Shipping>, CartError> {
    if object.contains_key("item") {
        return Ok(None);
    }
    match object.get("shipping") {
        None | Some(Value::Null) => Ok(None),
        Some(value) => {
            let currency = optional_string(object.get("currency"), &format!("{path}.currency"))?;
            let minor = price_to_minor(value, currency.as_deref(), &format!("{path}.shipping"))?;
            Ok(Some(Shipping { minor, currency }))
        }
    }
}

/// The tax and fees flat entries state (issue 29), in their items'
/// currency: each entry's `tax` (a price, read like `price`) and `fees` (a
/// price, or a list of `{name, amount}`), added up over the entries. A cart
/// whose entries state none has none. Canonical `{item, quantity}` entries
/// refuse both keys as unknown fields.
pub fn flat_charges<'a>(
    objects: impl Iterator<Item = &'a Map<String, Value>>,
    root: &str,
) -> Result<Charges, CartError> {
    let mut charges = Charges::default();
    for (index, object) in objects.enumerate() {
        if object.contains_key("item") {
            continue;
        }
        let path = format!("{root}[{index}]");
        let currency = optional_string(object.get("currency"), &format!("{path}.currency"))?;
        let bound = |sum: Option<u64>, add: u64, at: &str| -> Result<u64, CartError> {
            sum.unwrap_or(0).checked_add(add).ok_or_else(|| error(at, "above the price bound"))
        };
        let mut stated = false;
        if let Some(tax) = object.get("tax").filter(|value| !value.is_null()) {
            let at = format!("{path}.tax");
            let minor = price_to_minor(tax, currency.as_deref(), &at)?;
            charges.tax = Some(bound(charges.tax, minor, &at)?);
            stated = true;
        }
        match object.get("fees") {
            None | Some(Value::Null) => {}
            Some(Value::Array(fees)) => {
                for (fee_index, fee) in fees.iter().enumerate() {
                    let at = format!("{path}.fees[{fee_index}]");
                    let fee = fee.as_object().ok_or_else(|| error(&at, "expected {name, amount}"))?;
                    let label = optional_string(fee.get("name"), &format!("{at}.name"))?
                        .ok_or_else(|| error(&format!("{at}.name"), "missing"))?;
                    let amount = fee.get("amount").ok_or_else(|| error(&format!("{at}.amount"), "missing"))?;
                    let minor = price_to_minor(amount, currency.as_deref(), &format!("{at}.amount"))?;
                    charges.fees.push(Fee { label, minor });
                    stated = true;
                }
            }
            Some(amount) => {
                let minor = price_to_minor(amount, currency.as_deref(), &format!("{path}.fees"))?;
                charges.fees.push(Fee { label: "fees".to_owned(), minor });
                stated = true;
            }
        }
        if stated {
            if charges.currency.is_some() && charges.currency != currency {
                return Err(error(&path, "tax or fees in two currencies in one cart"));
            }
            charges.currency = currency;
        }
    }
    Ok(charges)
}

/// Bad cart or item input, with the JSONPath of the value at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct CartError {
    pub path: String,
    pub message: String,
}

/// The most entries a cart may hold. Real carts have a handful; the bound
/// keeps a hostile cart from costing unbounded time in line assignment.
pub const MAX_CART_ENTRIES: usize = 1000;
/// The longest string an item attribute may hold.
pub const MAX_ITEM_STRING_BYTES: usize = 4096;
/// The most of one item a cart entry may ask for. Far above any real order,
/// far below where `quantity × units × price` could overflow u64.
pub const MAX_QUANTITY: u64 = 1_000_000;
/// The highest price of one unit, in minor units (10^12 = ten billion in a
/// two-digit currency): bounds `quantity × price` well inside u64.
pub const MAX_PRICE_MINOR: u64 = 1_000_000_000_000;
/// The most units one cart unit may count (a carton of 24 cans is 24).
pub const MAX_UNITS: u64 = 1_000_000;
/// The longest delivery time worth representing (ten years).
pub const MAX_DELIVERY_DAYS: u64 = 3650;

/// A cart error at `path` (for the parsers of the commerce protocols' shapes).
pub fn error(path: &str, message: impl Into<String>) -> CartError {
    CartError { path: path.to_owned(), message: message.into() }
}

const CANONICAL_ITEM_KEYS: [&str; 16] = [
    "id",
    "brand",
    "name",
    "color",
    "size",
    "level",
    "final_sale",
    "delivery_days",
    "units",
    "price_cents",
    "currency",
    "sku",
    "merchant",
    "description",
    "category",
    "attributes",
];

/// Keys of the flat shape besides the canonical item keys.
const FLAT_EXTRA_KEYS: [&str; 6] = ["price", "quantity", "returnable", "shipping", "tax", "fees"];

impl Cart {
    /// Parses a cart: a JSON array of entries in either shape.
    pub fn from_value(value: &Value) -> Result<Cart, CartError> {
        Self::from_value_at(value, "$.cart")
    }

    /// Like [`Cart::from_value`], naming errors under `root` (e.g. `$` for a
    /// cart file, `$.cart` for a tool argument).
    pub fn from_value_at(value: &Value, root: &str) -> Result<Cart, CartError> {
        let array = value.as_array().ok_or_else(|| error(root, "expected a list of cart entries"))?;
        check_entry_count(array.len(), root)?;
        let entries = array
            .iter()
            .enumerate()
            .map(|(index, entry)| parse_entry(entry, &format!("{root}[{index}]")))
            .collect::<Result<Vec<_>, _>>()?;
        let stated = array
            .iter()
            .enumerate()
            .map(|(index, entry)| match entry.as_object() {
                Some(object) => flat_shipping(object, &format!("{root}[{index}]")),
                None => Ok(None),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let charges = flat_charges(array.iter().filter_map(Value::as_object), root)?;
        Ok(Cart { entries, shipping: Shipping::of_entries(&stated), charges })
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// Refuses an empty cart and one above [`MAX_CART_ENTRIES`], before any
/// entry is parsed.
pub fn check_entry_count(count: usize, root: &str) -> Result<(), CartError> {
    if count == 0 {
        return Err(error(root, "the cart is empty"));
    }
    if count > MAX_CART_ENTRIES {
        return Err(error(root, format!("{count} entries, more than the bound of {MAX_CART_ENTRIES}")));
    }
    Ok(())
}

/// Parses one entry, `{item, quantity}` or a flat item, at `path`.
pub fn parse_entry(value: &Value, path: &str) -> Result<CartEntry, CartError> {
    let object = value.as_object().ok_or_else(|| error(path, "expected an object"))?;
    parse_entry_object(object, path)
}

/// [`parse_entry`] of an entry already known to be an object.
pub fn parse_entry_object(object: &Map<String, Value>, path: &str) -> Result<CartEntry, CartError> {
    let quantity = parse_quantity(object.get("quantity"), &format!("{path}.quantity"))?;
    if let Some(item_value) = object.get("item") {
        if let Some(key) = object.keys().find(|key| *key != "item" && *key != "quantity") {
            return Err(error(&format!("{path}.{key}"), "unknown field (an entry is {item, quantity})"));
        }
        let item = parse_item(item_value, &format!("{path}.item"))?;
        return Ok(CartEntry { item, quantity });
    }
    let item = parse_flat_item(object, path)?;
    Ok(CartEntry { item, quantity })
}

/// Parses an entry's `quantity` (present, whole, 1 to [`MAX_QUANTITY`]).
pub fn parse_quantity(value: Option<&Value>, path: &str) -> Result<u64, CartError> {
    let value = value.ok_or_else(|| error(path, "missing (how many of this item?)"))?;
    let quantity = integer(value, path)?;
    if quantity == 0 {
        return Err(error(path, "quantity 0: remove the entry instead"));
    }
    if quantity > MAX_QUANTITY {
        return Err(error(path, format!("quantity {quantity} is above the bound of {MAX_QUANTITY}")));
    }
    Ok(quantity)
}

/// Parses an item in the canonical shape.
pub fn parse_item(value: &Value, path: &str) -> Result<Item, CartError> {
    let object = value.as_object().ok_or_else(|| error(path, "expected an item object"))?;
    parse_item_object(object, path)
}

/// [`parse_item`] of an item already known to be an object.
pub fn parse_item_object(object: &Map<String, Value>, path: &str) -> Result<Item, CartError> {
    if let Some(key) = object.keys().find(|key| !CANONICAL_ITEM_KEYS.contains(&key.as_str())) {
        return Err(error(&format!("{path}.{key}"), "unknown item attribute"));
    }
    item_from_object(object, path)
}

fn parse_flat_item(object: &Map<String, Value>, path: &str) -> Result<Item, CartError> {
    if let Some(key) = object
        .keys()
        .find(|key| !CANONICAL_ITEM_KEYS.contains(&key.as_str()) && !FLAT_EXTRA_KEYS.contains(&key.as_str()))
    {
        return Err(error(&format!("{path}.{key}"), "unknown item attribute"));
    }
    let mut item = item_from_object(object, path)?;
    // Agents rarely say how many units an item holds; a flat item that does
    // not say is one unit (a pack says its units). An explicit `null` stays
    // unknown, and the quantity check then says it could not count.
    if !object.contains_key("units") {
        item.units = Some(1);
    }
    let currency = item.currency.clone();
    match (object.get("price"), object.get("price_cents")) {
        (Some(price), Some(_)) if !price.is_null() => {
            return Err(error(&format!("{path}.price"), "give price or price_cents, not both"));
        }
        (Some(price), _) if !price.is_null() => {
            item.price_cents = Some(price_to_minor(price, currency.as_deref(), &format!("{path}.price"))?);
        }
        _ => {}
    }
    match (object.get("returnable"), object.get("final_sale")) {
        (Some(returnable), Some(_)) if !returnable.is_null() => {
            return Err(error(&format!("{path}.returnable"), "give returnable or final_sale, not both"));
        }
        (Some(Value::Bool(returnable)), _) => item.final_sale = Some(!returnable),
        (Some(Value::Null), _) | (None, _) => {}
        (Some(_), _) => return Err(error(&format!("{path}.returnable"), "expected true, false or null")),
    }
    Ok(item)
}

fn item_from_object(object: &Map<String, Value>, path: &str) -> Result<Item, CartError> {
    let string = |key: &str| optional_string(object.get(key), &format!("{path}.{key}"));
    let bounded = |key: &str, max: u64| -> Result<Option<u64>, CartError> {
        let key_path = format!("{path}.{key}");
        match object.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => {
                let number = integer(value, &key_path)?;
                if number > max {
                    return Err(error(&key_path, format!("{number} is above the bound of {max}")));
                }
                Ok(Some(number))
            }
        }
    };
    let level = match object.get("level") {
        None | Some(Value::Null) => None,
        Some(value) => Some(
            serde_json::from_value::<ItemLevel>(value.clone())
                .map_err(|_| error(&format!("{path}.level"), "expected beginner, intermediate, pro, any or null"))?,
        ),
    };
    let final_sale = match object.get("final_sale") {
        None | Some(Value::Null) => None,
        Some(Value::Bool(flag)) => Some(*flag),
        Some(_) => return Err(error(&format!("{path}.final_sale"), "expected true, false or null")),
    };
    let units = bounded("units", MAX_UNITS)?;
    if units == Some(0) {
        return Err(error(&format!("{path}.units"), "units 0: one cart unit must count at least one"));
    }
    let currency = string("currency")?;
    if let Some(code) = &currency
        && !(code.len() == 3 && code.chars().all(|character| character.is_ascii_uppercase()))
    {
        return Err(error(&format!("{path}.currency"), format!("{code:?} is not an ISO 4217 code")));
    }
    Ok(Item {
        id: string("id")?,
        brand: string("brand")?,
        name: string("name")?,
        color: string("color")?,
        size: string("size")?,
        level,
        final_sale,
        delivery_days: bounded("delivery_days", MAX_DELIVERY_DAYS)?,
        units,
        price_cents: bounded("price_cents", MAX_PRICE_MINOR)?,
        currency,
        sku: string("sku")?,
        merchant: string("merchant")?,
        words: ItemWords {
            description: string("description")?,
            category: string("category")?,
            attributes: attributes(object.get("attributes"), &format!("{path}.attributes"))?,
            ..ItemWords::default()
        },
    })
}

/// The most named values (attributes, variant options) one item may carry:
/// the bound of a cart's entries, so that an item costs no more to read
/// than a cart.
pub const MAX_ITEM_VALUES: usize = MAX_CART_ENTRIES;

/// An item's `attributes`: a JSON object of names and string values, read in
/// name order (a `null` value says nothing and is left out).
pub fn attributes(value: Option<&Value>, path: &str) -> Result<Vec<NamedValue>, CartError> {
    let object = match value {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Object(object)) => object,
        Some(_) => return Err(error(path, "expected an object of attribute names and values")),
    };
    if object.len() > MAX_ITEM_VALUES {
        return Err(error(path, format!("{} attributes, more than the bound of {MAX_ITEM_VALUES}", object.len())));
    }
    let mut named = Vec::with_capacity(object.len());
    for (name, value) in object {
        let value_path = member_path(path, name);
        if name.len() > MAX_ITEM_STRING_BYTES {
            return Err(error(
                &value_path,
                format!("a name of {} bytes, longer than {MAX_ITEM_STRING_BYTES}", name.len()),
            ));
        }
        if let Some(value) = optional_string(Some(value), &value_path)? {
            named.push(NamedValue::new(name.clone(), value));
        }
    }
    // serde_json's map iterates in key order already (no `preserve_order`);
    // sorting says so instead of relying on it.
    named.sort_by(|left, right| left.name.cmp(&right.name));
    Ok(named)
}

/// The JSONPath of `key` under `parent`: `.key` for a plain name,
/// `['Heel height']` for any other.
pub fn member_path(parent: &str, key: &str) -> String {
    let plain = key.chars().next().is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
        && key.chars().all(|character| character.is_ascii_alphanumeric() || character == '_');
    if plain {
        format!("{parent}.{key}")
    } else {
        format!("{parent}['{}']", key.replace('\\', "\\\\").replace('\'', "\\'"))
    }
}

/// An optional string attribute, bounded like every item string.
pub fn optional_string(value: Option<&Value>, path: &str) -> Result<Option<String>, CartError> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) if text.len() > MAX_ITEM_STRING_BYTES => {
            Err(error(path, format!("string of {} bytes, longer than {MAX_ITEM_STRING_BYTES}", text.len())))
        }
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(_) => Err(error(path, "expected a string or null")),
    }
}

/// A whole, non-negative JSON number.
pub fn integer(value: &Value, path: &str) -> Result<u64, CartError> {
    match value {
        Value::Number(number) => {
            if let Some(unsigned) = number.as_u64() {
                Ok(unsigned)
            } else if number.as_i64().is_some_and(|signed| signed < 0) {
                Err(error(path, format!("{number} is negative")))
            } else {
                Err(error(path, format!("{number} is not a whole number")))
            }
        }
        _ => Err(error(path, "expected a whole number")),
    }
}

/// Digits after the decimal point in a currency's minor unit (ISO 4217).
pub fn minor_digits(currency: Option<&str>) -> u32 {
    match currency {
        Some("JPY" | "KRW" | "VND" | "CLP" | "ISK" | "UGX" | "XAF" | "XOF" | "PYG") => 0,
        Some("BHD" | "KWD" | "OMR" | "JOD" | "TND" | "IQD" | "LYD") => 3,
        _ => 2,
    }
}

/// Converts a price in currency units (a JSON number or a decimal string) to
/// minor units exactly. A JSON number is read back through its shortest
/// round-trip text, which is the text the sender wrote for any price with at
/// most 15 significant digits.
pub fn price_to_minor(value: &Value, currency: Option<&str>, path: &str) -> Result<u64, CartError> {
    let text = match value {
        Value::Number(number) => number.to_string(),
        Value::String(text) => text.trim().to_owned(),
        _ => return Err(error(path, "expected a price as a number or a decimal string")),
    };
    let minor = decimal_to_minor(&text, minor_digits(currency)).map_err(|message| error(path, message))?;
    if minor > MAX_PRICE_MINOR {
        return Err(error(path, format!("{text} is above the price bound")));
    }
    Ok(minor)
}

/// Parses `"159.99"` into 15999 (for two minor digits) without floats.
pub fn decimal_to_minor(text: &str, digits: u32) -> Result<u64, String> {
    if text.starts_with('-') {
        return Err(format!("{text} is negative"));
    }
    let (whole, fraction) = match text.split_once('.') {
        Some((whole, fraction)) => (whole, fraction),
        None => (text, ""),
    };
    let well_formed = !whole.is_empty()
        && whole.chars().all(|character| character.is_ascii_digit())
        && fraction.chars().all(|character| character.is_ascii_digit())
        && !(text.contains('.') && fraction.is_empty());
    if !well_formed {
        return Err(format!("{text:?} is not a plain decimal price"));
    }
    let significant_fraction = fraction.trim_end_matches('0');
    if significant_fraction.len() > digits as usize {
        return Err(format!("{text} has more decimals than the currency's {digits}"));
    }
    let scale = 10u64.pow(digits);
    let whole_value: u64 = whole.parse().map_err(|_| format!("{text} is too large"))?;
    let mut fraction_value: u64 = 0;
    for position in 0..digits as usize {
        let digit = significant_fraction.as_bytes().get(position).map_or(0, |byte| u64::from(byte - b'0'));
        fraction_value = fraction_value * 10 + digit;
    }
    whole_value
        .checked_mul(scale)
        .and_then(|value| value.checked_add(fraction_value))
        .ok_or_else(|| format!("{text} is too large"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn flat_prices_convert_exactly() {
        let cart = Cart::from_value(&json!([{"name": "Nike Pegasus 41", "price": 159.99, "quantity": 1}])).unwrap();
        assert_eq!(cart.entries[0].item.price_cents, Some(15999));
        for (price, cents) in
            [(json!(0.1), 10), (json!(1.005e2), 10050), (json!("19.9"), 1990), (json!(20), 2000), (json!("0.30"), 30)]
        {
            let cart = Cart::from_value(&json!([{"name": "x", "price": price, "quantity": 1}])).unwrap();
            assert_eq!(cart.entries[0].item.price_cents, Some(cents), "{price}");
        }
    }

    #[test]
    fn prices_respect_the_currency_exponent() {
        let cart = Cart::from_value(&json!([{"name": "x", "price": 1500, "currency": "JPY", "quantity": 1}])).unwrap();
        assert_eq!(cart.entries[0].item.price_cents, Some(1500));
        let error =
            Cart::from_value(&json!([{"name": "x", "price": 1500.5, "currency": "JPY", "quantity": 1}])).unwrap_err();
        assert_eq!(error.path, "$.cart[0].price");
        let error = Cart::from_value(&json!([{"name": "x", "price": 1.999, "quantity": 1}])).unwrap_err();
        assert!(error.message.contains("more decimals"), "{error}");
    }

    #[test]
    fn issue_28_a_flat_cart_s_shipping_is_read_exactly_with_its_path() {
        let cart = Cart::from_value(&json!([
            {"name": "Lamp", "price": 20, "currency": "USD", "shipping": 4.99, "quantity": 1},
            {"name": "Bulb", "price": 2, "currency": "USD", "shipping": "1.01", "quantity": 3}
        ]))
        .unwrap();
        assert_eq!(cart.shipping, Some(Shipping { minor: 600, currency: Some("USD".into()) }));
        let cart = Cart::from_value(&json!([{"name": "Lamp", "quantity": 1}])).unwrap();
        assert_eq!(cart.shipping, None);
        // Nothing charged beside nothing said is unknown, not free.
        let cart =
            Cart::from_value(&json!([{"name": "Lamp", "shipping": 0, "quantity": 1}, {"name": "Bulb", "quantity": 1}]))
                .unwrap();
        assert_eq!(cart.shipping, None);
        let cart = Cart::from_value(&json!([{"name": "Lamp", "shipping": 0, "quantity": 1}])).unwrap();
        assert_eq!(cart.shipping, Some(Shipping { minor: 0, currency: None }));
        for (bad, path) in [
            (json!([{"name": "Lamp", "shipping": "free", "quantity": 1}]), "$.cart[0].shipping"),
            (json!([{"name": "Lamp", "shipping": -1, "quantity": 1}]), "$.cart[0].shipping"),
            (
                json!([{"name": "x", "quantity": 1}, {"name": "Lamp", "shipping": 1.999, "quantity": 1}]),
                "$.cart[1].shipping",
            ),
            (json!([{"item": {"name": "Lamp"}, "shipping": 1, "quantity": 1}]), "$.cart[0].shipping"),
        ] {
            assert_eq!(Cart::from_value(&bad).unwrap_err().path, path, "{bad}");
        }
    }

    #[test]
    fn issue_29_a_flat_cart_s_tax_and_fees_are_read_with_their_paths() {
        let cart = Cart::from_value(&json!([
            {"name": "Lamp", "price": 20, "currency": "USD", "tax": 1.6, "fees": [{"name": "Service fee", "amount": "2.50"}], "quantity": 1},
            {"name": "Bulb", "price": 2, "currency": "USD", "tax": "0.40", "fees": 1, "quantity": 3}
        ]))
        .unwrap();
        let charges = &cart.charges;
        assert_eq!((charges.tax, charges.currency.as_deref(), charges.total), (Some(200), Some("USD"), None));
        assert_eq!(
            charges.fees,
            [Fee { label: "Service fee".into(), minor: 250 }, Fee { label: "fees".into(), minor: 100 }]
        );
        assert!(Cart::from_value(&json!([{"name": "Lamp", "quantity": 1}])).unwrap().charges.states_nothing());
        for (bad, path) in [
            (json!([{"name": "Lamp", "tax": "a lot", "quantity": 1}]), "$.cart[0].tax"),
            (json!([{"name": "Lamp", "fees": [{"amount": 1}], "quantity": 1}]), "$.cart[0].fees[0].name"),
            (
                json!([{"name": "Lamp", "fees": [{"name": "x", "amount": -1}], "quantity": 1}]),
                "$.cart[0].fees[0].amount",
            ),
            (json!([{"item": {"name": "Lamp"}, "tax": 1, "quantity": 1}]), "$.cart[0].tax"),
        ] {
            assert_eq!(Cart::from_value(&bad).unwrap_err().path, path, "{bad}");
        }
    }

    #[test]
    fn issue_29_an_exchange_rate_converts_exactly_and_rounds_up() {
        let rate = ExchangeRate::parse_spec("usd:EUR=0.92@2026-11-01", "--fx").unwrap();
        assert_eq!((rate.from.as_str(), rate.to.as_str(), rate.rate.as_str()), ("USD", "EUR", "0.92"));
        assert_eq!(rate.convert(90_000), Some(82_800));
        assert_eq!(rate.convert(1), Some(1), "0.92 cents is paid as 1");
        assert_eq!(rate.between(82_800, "EUR", "USD"), Some(90_000));
        assert_eq!(rate.between(100, "GBP", "USD"), None);
        let yen = ExchangeRate::new("USD", "JPY", "151.5", "2026-11-01", "$.fx[0]").unwrap();
        assert_eq!(yen.convert(1_000), Some(1_515), "10 USD is 1515 JPY, which has no minor unit");
        for (text, path) in [
            ("USD:EUR=0.92", "--fx"),
            ("USD:EUR=-1@2026-11-01", "--fx.rate"),
            ("USD:EUR=0@2026-11-01", "--fx.rate"),
            ("USD:USD=1@2026-11-01", "--fx.to"),
            ("USD:EURO=1@2026-11-01", "--fx.to"),
            ("USD:EUR=0.92@yesterday", "--fx.date"),
        ] {
            assert_eq!(ExchangeRate::parse_spec(text, "--fx").unwrap_err().path, path, "{text}");
        }
    }

    #[test]
    fn returnable_false_means_final_sale() {
        let cart = Cart::from_value(&json!([{"name": "x", "returnable": false, "quantity": 2}])).unwrap();
        assert_eq!(cart.entries[0].item.final_sale, Some(true));
        assert_eq!(cart.entries[0].quantity, 2);
    }

    #[test]
    fn bad_input_names_the_path() {
        let cases = [
            (json!([]), "$.cart"),
            (json!({}), "$.cart"),
            (json!([{"item": {"name": "x"}, "quantity": 0}]), "$.cart[0].quantity"),
            (json!([{"item": {"name": "x"}, "quantity": -1}]), "$.cart[0].quantity"),
            (json!([{"item": {"name": "x"}}]), "$.cart[0].quantity"),
            (json!([{"item": {"name": "x", "colour": "red"}, "quantity": 1}]), "$.cart[0].item.colour"),
            (json!([{"item": {"name": "x", "price_cents": -5}, "quantity": 1}]), "$.cart[0].item.price_cents"),
            (json!([{"name": "x", "price": -5, "quantity": 1}]), "$.cart[0].price"),
            (json!([{"name": "x", "price": "12,50", "quantity": 1}]), "$.cart[0].price"),
            (json!([{"item": {"name": 7}, "quantity": 1}]), "$.cart[0].item.name"),
            (json!([{"item": {"level": "expert"}, "quantity": 1}]), "$.cart[0].item.level"),
            (json!([{"item": {"units": 0}, "quantity": 1}]), "$.cart[0].item.units"),
            (json!([{"item": {"currency": "dollars"}, "quantity": 1}]), "$.cart[0].item.currency"),
            (json!([{"item": {}, "quantity": 1, "note": "x"}]), "$.cart[0].note"),
            (json!([{"item": {"name": "x".repeat(5000)}, "quantity": 1}]), "$.cart[0].item.name"),
        ];
        for (value, path) in cases {
            let error = Cart::from_value(&value).unwrap_err();
            assert_eq!(error.path, path, "{value}: {error}");
        }
    }

    #[test]
    fn oversized_carts_are_refused() {
        let entries: Vec<Value> = (0..=MAX_CART_ENTRIES).map(|_| json!({"item": {}, "quantity": 1})).collect();
        let error = Cart::from_value(&Value::Array(entries)).unwrap_err();
        assert_eq!(error.path, "$.cart");
    }

    #[test]
    fn canonical_shape_round_trips() {
        let value = json!([{"item": {"id": "shoe-17", "brand": "Nike", "name": "Nike Pegasus 41", "color": "White/Black",
            "size": "EU 42", "level": null, "final_sale": false, "delivery_days": 3, "units": 1,
            "price_cents": 12999, "currency": "USD"}, "quantity": 1}]);
        let cart = Cart::from_value(&value).unwrap();
        let item = &cart.entries[0].item;
        assert_eq!(item.size.as_deref(), Some("EU 42"));
        assert_eq!(item.level, None);
        assert_eq!(serde_json::to_value(&cart).unwrap()[0]["item"]["price_cents"], 12999);
    }

    #[test]
    fn a_flat_item_s_words_are_read() {
        let cart = Cart::from_value(&json!([{"name": "Levi's 501 Original Jeans", "brand": "Levi's",
            "description": "Straight fit, button fly", "category": "Jeans",
            "attributes": {"Material": "Denim", "Fit": "Straight", "Heel height": null}, "quantity": 1}]))
        .unwrap();
        let words = &cart.entries[0].item.words;
        assert_eq!(words.description.as_deref(), Some("Straight fit, button fly"));
        assert_eq!(words.category.as_deref(), Some("Jeans"));
        assert_eq!(words.attributes, [NamedValue::new("Fit", "Straight"), NamedValue::new("Material", "Denim")]);
        assert!(words.options.is_empty() && !words.from_catalog);
        let canonical = Cart::from_value(&json!([{"item": {"name": "x", "description": "y", "category": "z",
            "attributes": {"Material": "Denim"}}, "quantity": 1}]))
        .unwrap();
        assert_eq!(canonical.entries[0].item.words.attributes, [NamedValue::new("Material", "Denim")]);
    }

    #[test]
    fn bad_words_name_their_path() {
        let cases = [
            (json!([{"name": "x", "description": 7, "quantity": 1}]), "$.cart[0].description"),
            (json!([{"name": "x", "category": ["a"], "quantity": 1}]), "$.cart[0].category"),
            (json!([{"name": "x", "attributes": ["Denim"], "quantity": 1}]), "$.cart[0].attributes"),
            (json!([{"name": "x", "attributes": {"Material": 1}, "quantity": 1}]), "$.cart[0].attributes.Material"),
            (
                json!([{"name": "x", "attributes": {"Heel height": true}, "quantity": 1}]),
                "$.cart[0].attributes['Heel height']",
            ),
            (json!([{"item": {"attributes": {"Fit": {"a": 1}}}, "quantity": 1}]), "$.cart[0].item.attributes.Fit"),
            (json!([{"name": "x", "description": "x".repeat(5000), "quantity": 1}]), "$.cart[0].description"),
            (
                json!([{"name": "x", "attributes": {"Note": "x".repeat(5000)}, "quantity": 1}]),
                "$.cart[0].attributes.Note",
            ),
        ];
        for (value, path) in cases {
            let error = Cart::from_value(&value).unwrap_err();
            assert_eq!(error.path, path, "{error}");
        }
        let many: Map<String, Value> = (0..=MAX_ITEM_VALUES).map(|index| (format!("a{index}"), json!("v"))).collect();
        let error = Cart::from_value(&json!([{"name": "x", "attributes": many, "quantity": 1}])).unwrap_err();
        assert_eq!(error.path, "$.cart[0].attributes");
        assert!(error.message.contains("more than the bound"), "{error}");
    }

    #[test]
    fn words_enter_the_serialised_item_only_when_sent() {
        let plain = json!([{"name": "Nike Pegasus 41", "brand": "Nike", "price": 129.99, "quantity": 1}]);
        let serialised = serde_json::to_value(Cart::from_value(&plain).unwrap()).unwrap();
        // The serialised form of a cart without words, as it was before the
        // words were read: the subject digest is taken over exactly this.
        assert_eq!(
            serialised,
            json!([{"item": {"id": null, "brand": "Nike", "name": "Nike Pegasus 41", "color": null, "size": null,
                "level": null, "final_sale": null, "delivery_days": null, "units": 1, "price_cents": 12999,
                "currency": null}, "quantity": 1}])
        );
        let mut described = plain.clone();
        described[0]["description"] = json!("Road running shoe");
        let serialised = serde_json::to_value(Cart::from_value(&described).unwrap()).unwrap();
        assert_eq!(serialised[0]["item"]["words"], json!({"description": "Road running shoe"}));
        let mut catalog_item = Cart::from_value(&plain).unwrap();
        catalog_item.entries[0].item.words =
            ItemWords { category: Some("running-shoes".into()), from_catalog: true, ..ItemWords::default() };
        assert!(serde_json::to_value(&catalog_item).unwrap()[0]["item"].get("words").is_none());
    }

    #[test]
    fn member_paths_quote_what_is_not_a_plain_name() {
        assert_eq!(member_path("$.a", "Material"), "$.a.Material");
        assert_eq!(member_path("$.a", "Heel height"), "$.a['Heel height']");
        assert_eq!(member_path("$.a", "it's"), "$.a['it\\'s']");
        assert_eq!(member_path("$.a", "1st"), "$.a['1st']");
    }
}
