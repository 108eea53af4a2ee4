//! An ACP CheckoutSession (2026-04-17) as a cart.
//!
//! Read: `line_items[{id, item{id, name, unit_amount}, quantity, name,
//! unit_amount, sku, variant_options[{name, value}], custom_attributes,
//! marketplace_seller_details{name}}]` (amounts in minor units; the line's
//! own `name` and `unit_amount` over its item's), `currency` (ACP writes it
//! in lower case), `totals[type=total]`, `status` (one of ACP's), `messages[]`
//! (a list; not acted on), and for delivery time `fulfillment_options` with
//! `selected_fulfillment_options` (or the one option there is): the days
//! from today to the option's `latest_delivery_time`. A variant option (or
//! custom attribute) named Color/Colour or Size gives the colour or size.
//! The item's words: the line's `name`, `description` and `category` (else
//! its item's), every variant option and every custom attribute
//! (`display_name`, `value`), in the session's order.

use chrono::{DateTime, NaiveDate};
use serde_json::{Map, Value};

use super::{
    CartShape, DocumentCart, Variant, currency, line_items, list, messages, minor, object, path, required, status,
    string, variant_kind,
};
use crate::cart::{self, Cart, CartEntry, CartError, Item, ItemWords, MAX_DELIVERY_DAYS, NamedValue};

/// ACP's CheckoutSession statuses.
pub const STATUSES: [&str; 11] = [
    "incomplete",
    "not_ready_for_payment",
    "requires_escalation",
    "authentication_required",
    "ready_for_payment",
    "pending_approval",
    "complete_in_progress",
    "completed",
    "canceled",
    "in_progress",
    "expired",
];

pub fn checkout_session(
    document: &Map<String, Value>,
    root: &str,
    today: NaiveDate,
) -> Result<DocumentCart, CartError> {
    let currency = currency(document, "currency", root)?;
    status(document, root, &STATUSES)?;
    messages(document, root)?;
    let delivery = Delivery::read(document, root, today)?;
    let items = line_items(document, root)?;
    let mut entries = Vec::with_capacity(items.len());
    let mut params = Vec::with_capacity(items.len());
    for (index, line) in items.iter().enumerate() {
        let line_path = format!("{root}.line_items[{index}]");
        let line = object(line, &line_path)?;
        let item_path = path(&line_path, "item");
        let item = object(required(line, "item", &line_path)?, &item_path)?;
        let amount = |parent: &Map<String, Value>, at: &str| -> Result<Option<u64>, CartError> {
            match parent.get("unit_amount") {
                None | Some(Value::Null) => Ok(None),
                Some(value) => minor(value, &path(at, "unit_amount")).map(Some),
            }
        };
        let price = match amount(line, &line_path)? {
            Some(price) => Some(price),
            None => amount(item, &item_path)?,
        };
        let name = match string(line, "name", &line_path)? {
            Some(name) => Some(name),
            None => string(item, "name", &item_path)?,
        };
        let variants = variants(line, &line_path)?;
        let line_or_item = |key: &str| -> Result<Option<String>, CartError> {
            match string(line, key, &line_path)? {
                Some(text) => Ok(Some(text)),
                None => string(item, key, &item_path),
            }
        };
        let words = ItemWords {
            description: line_or_item("description")?,
            category: line_or_item("category")?,
            options: variants.options,
            attributes: variants.attributes,
            ..ItemWords::default()
        };
        let merchant = match line.get("marketplace_seller_details") {
            None | Some(Value::Null) => None,
            Some(seller) => {
                let seller_path = path(&line_path, "marketplace_seller_details");
                string(object(seller, &seller_path)?, "name", &seller_path)?
            }
        };
        let item_id = string(item, "id", &item_path)?;
        let line_id = string(line, "id", &line_path)?;
        let quantity = cart::parse_quantity(line.get("quantity"), &path(&line_path, "quantity"))?;
        entries.push(CartEntry {
            item: Item {
                delivery_days: delivery.days_for(line_id.as_deref(), item_id.as_deref()),
                id: item_id,
                name,
                color: variants.colour,
                size: variants.size,
                units: Some(1),
                price_cents: price,
                currency: Some(currency.clone()),
                sku: string(line, "sku", &line_path)?,
                merchant,
                words,
                ..Item::default()
            },
            quantity,
        });
        params.push(format!("$.line_items[{index}]"));
    }
    let payment = super::stated_total(document, root, &currency)?;
    let shipping = super::stated_shipping(document, root, &currency)?;
    let charges = super::stated_charges(document, root, &currency)?;
    Ok(DocumentCart {
        shape: CartShape::AcpCheckoutSession,
        cart: Cart { entries, shipping, charges },
        params,
        payment,
    })
}

/// What a line's `variant_options` and `custom_attributes` say.
struct Variants {
    colour: Option<String>,
    size: Option<String>,
    options: Vec<NamedValue>,
    attributes: Vec<NamedValue>,
}

/// The variant options and custom attributes of a line, in its order; the
/// colour and size from `variant_options`, else `custom_attributes`.
fn variants(line: &Map<String, Value>, at: &str) -> Result<Variants, CartError> {
    let mut read = Variants { colour: None, size: None, options: Vec::new(), attributes: Vec::new() };
    for (key, name_key) in [("variant_options", "name"), ("custom_attributes", "display_name")] {
        let options_path = path(at, key);
        let Some(options) = line.get(key).filter(|value| !value.is_null()) else { continue };
        for (index, option) in list(options, &options_path)?.iter().enumerate() {
            let option_path = format!("{options_path}[{index}]");
            let option = object(option, &option_path)?;
            let name = string(option, name_key, &option_path)?.unwrap_or_default();
            let value = string(option, "value", &option_path)?;
            match variant_kind(&name) {
                Some(Variant::Colour) if read.colour.is_none() => read.colour = value.clone(),
                Some(Variant::Size) if read.size.is_none() => read.size = value.clone(),
                _ => {}
            }
            if let Some(value) = value {
                let named = NamedValue::new(name, value);
                if key == "variant_options" { read.options.push(named) } else { read.attributes.push(named) }
            }
        }
    }
    Ok(read)
}

/// Delivery days per line, from the fulfillment options.
struct Delivery {
    /// Each option's id and days to its latest delivery time.
    options: Vec<(String, Option<u64>)>,
    /// The selected options: option id and the line or item ids it serves.
    selected: Vec<(String, Vec<String>)>,
}

impl Delivery {
    fn read(document: &Map<String, Value>, root: &str, today: NaiveDate) -> Result<Delivery, CartError> {
        let mut options = Vec::new();
        let options_path = path(root, "fulfillment_options");
        if let Some(values) = document.get("fulfillment_options").filter(|value| !value.is_null()) {
            for (index, option) in list(values, &options_path)?.iter().enumerate() {
                let option_path = format!("{options_path}[{index}]");
                let option = object(option, &option_path)?;
                let id = string(option, "id", &option_path)?.unwrap_or_default();
                let days = match string(option, "latest_delivery_time", &option_path)? {
                    None => None,
                    Some(text) => Some(days_until(&text, today, &path(&option_path, "latest_delivery_time"))?),
                };
                options.push((id, days));
            }
        }
        let mut selected = Vec::new();
        let selected_path = path(root, "selected_fulfillment_options");
        if let Some(values) = document.get("selected_fulfillment_options").filter(|value| !value.is_null()) {
            for (index, choice) in list(values, &selected_path)?.iter().enumerate() {
                let choice_path = format!("{selected_path}[{index}]");
                let choice = object(choice, &choice_path)?;
                let option_id = string(choice, "option_id", &choice_path)?
                    .ok_or_else(|| cart::error(&path(&choice_path, "option_id"), "missing"))?;
                if !options.iter().any(|(id, _)| *id == option_id) {
                    return Err(cart::error(
                        &path(&choice_path, "option_id"),
                        format!("{option_id:?} is none of the fulfillment_options"),
                    ));
                }
                let ids_path = path(&choice_path, "item_ids");
                let ids = match choice.get("item_ids") {
                    None | Some(Value::Null) => Vec::new(),
                    Some(ids) => list(ids, &ids_path)?
                        .iter()
                        .enumerate()
                        .map(|(id_index, id)| {
                            id.as_str()
                                .map(str::to_owned)
                                .ok_or_else(|| cart::error(&format!("{ids_path}[{id_index}]"), "expected a string"))
                        })
                        .collect::<Result<_, _>>()?,
                };
                selected.push((option_id, ids));
            }
        }
        // An older session names one option for the whole order.
        if selected.is_empty()
            && let Some(option_id) = string(document, "fulfillment_option_id", root)?
        {
            selected.push((option_id, Vec::new()));
        }
        Ok(Delivery { options, selected })
    }

    /// The selected option serving the line (by line or item id; a choice
    /// without ids serves every line), else the only option there is; its
    /// days, or unknown.
    fn days_for(&self, line_id: Option<&str>, item_id: Option<&str>) -> Option<u64> {
        let serves = |ids: &Vec<String>| {
            ids.is_empty() || ids.iter().any(|id| Some(id.as_str()) == line_id || Some(id.as_str()) == item_id)
        };
        let chosen = self.selected.iter().find(|(_, ids)| serves(ids)).map(|(option, _)| option);
        match chosen {
            Some(option) => self.options.iter().find(|(id, _)| id == option).and_then(|(_, days)| *days),
            None if self.selected.is_empty() && self.options.len() == 1 => self.options[0].1,
            None => None,
        }
    }
}

/// Days from today to an RFC 3339 time's UTC date; a time already past is 0.
pub(super) fn days_until(text: &str, today: NaiveDate, at: &str) -> Result<u64, CartError> {
    let time = DateTime::parse_from_rfc3339(text)
        .map_err(|error| cart::error(at, format!("{text:?} is not an RFC 3339 time: {error}")))?;
    let days = (time.to_utc().date_naive() - today).num_days().max(0);
    let days = u64::try_from(days).unwrap_or(0);
    if days > MAX_DELIVERY_DAYS {
        return Err(cart::error(at, format!("{days} days away, above the bound of {MAX_DELIVERY_DAYS}")));
    }
    Ok(days)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, 2).unwrap()
    }

    fn session() -> Value {
        json!({"id": "cs_1", "status": "ready_for_payment", "currency": "usd",
            "line_items": [{"id": "li_1", "item": {"id": "item_123"}, "quantity": 1, "name": "Nike Pegasus 41",
                "unit_amount": 12999, "sku": "NK-PEG41-BLK-42",
                "variant_options": [{"name": "Color", "value": "Black"}, {"name": "Size", "value": "EU 42"}]}],
            "fulfillment_options": [
                {"type": "shipping", "id": "std", "title": "Standard", "latest_delivery_time": "2026-11-07T18:00:00Z", "totals": []},
                {"type": "shipping", "id": "exp", "title": "Express", "latest_delivery_time": "2026-11-04T18:00:00Z", "totals": []}],
            "selected_fulfillment_options": [{"type": "shipping", "option_id": "exp", "item_ids": ["item_123"]}],
            "totals": [{"type": "total", "display_text": "Total", "amount": 13999}],
            "messages": [], "links": [], "capabilities": {}})
    }

    #[test]
    fn variants_delivery_and_total_are_read() {
        let cart = checkout_session(session().as_object().unwrap(), "$.cart", today()).unwrap();
        let item = &cart.cart.entries[0].item;
        assert_eq!((item.color.as_deref(), item.size.as_deref()), (Some("Black"), Some("EU 42")));
        assert_eq!(item.delivery_days, Some(2));
        assert_eq!(item.currency.as_deref(), Some("USD"));
        assert_eq!(item.sku.as_deref(), Some("NK-PEG41-BLK-42"));
        assert_eq!(cart.payment.unwrap().minor, 13999);
    }

    #[test]
    fn issue_28_the_fulfillment_total_is_the_shipping() {
        let read = |document: &Value| checkout_session(document.as_object().unwrap(), "$.cart", today());
        assert_eq!(read(&session()).unwrap().cart.shipping, None);
        let mut shipped = session();
        shipped["totals"] = json!([{"type": "subtotal", "amount": 12999}, {"type": "fulfillment", "amount": 1000},
            {"type": "total", "amount": 13999}]);
        let shipping = read(&shipped).unwrap().cart.shipping.unwrap();
        assert_eq!((shipping.minor, shipping.currency.as_deref()), (1000, Some("USD")));
        shipped["totals"][1]["amount"] = json!(0);
        assert_eq!(read(&shipped).unwrap().cart.shipping.map(|shipping| shipping.minor), Some(0));
        shipped["totals"][1]["amount"] = json!(-5);
        assert_eq!(read(&shipped).unwrap_err().path, "$.cart.totals[1].amount");
    }

    #[test]
    fn issue_29_the_totals_beside_the_items_are_read() {
        let mut document = session();
        document["totals"] = json!([{"type": "items_base_amount", "amount": 12999}, {"type": "subtotal", "amount": 12999},
            {"type": "discount", "amount": 1000}, {"type": "tax", "amount": 1040},
            {"type": "fee", "display_text": "Service fee", "amount": 250}, {"type": "total", "amount": 13289}]);
        let charges = checkout_session(document.as_object().unwrap(), "$.cart", today()).unwrap().cart.charges;
        assert_eq!(
            (charges.total, charges.subtotal, charges.discount, charges.tax),
            (Some(13289), Some(12999), Some(1000), Some(1040))
        );
        assert_eq!(charges.fees, [crate::cart::Fee { label: "Service fee".into(), minor: 250 }]);
        assert!(charges.itemised);
        document["totals"][4]["amount"] = json!("2.50");
        let error = checkout_session(document.as_object().unwrap(), "$.cart", today()).unwrap_err();
        assert_eq!(error.path, "$.cart.totals[4].amount");
    }

    #[test]
    fn without_a_choice_among_several_options_delivery_is_unknown() {
        let mut document = session();
        document.as_object_mut().unwrap().remove("selected_fulfillment_options");
        let cart = checkout_session(document.as_object().unwrap(), "$.cart", today()).unwrap();
        assert_eq!(cart.cart.entries[0].item.delivery_days, None);
    }

    #[test]
    fn bad_values_name_their_path() {
        let mut bad = session();
        bad["line_items"][0]["variant_options"][1]["value"] = json!(42);
        let error = checkout_session(bad.as_object().unwrap(), "$.cart", today()).unwrap_err();
        assert_eq!(error.path, "$.cart.line_items[0].variant_options[1].value");
        let mut bad = session();
        bad["fulfillment_options"][1]["latest_delivery_time"] = json!("soon");
        let error = checkout_session(bad.as_object().unwrap(), "$.cart", today()).unwrap_err();
        assert_eq!(error.path, "$.cart.fulfillment_options[1].latest_delivery_time");
        let mut bad = session();
        bad["selected_fulfillment_options"][0]["option_id"] = json!("none");
        let error = checkout_session(bad.as_object().unwrap(), "$.cart", today()).unwrap_err();
        assert_eq!(error.path, "$.cart.selected_fulfillment_options[0].option_id");
    }

    #[test]
    fn the_line_s_words_are_read() {
        use crate::cart::NamedValue;
        let mut document = session();
        document["line_items"][0]["description"] = json!("Neutral road running shoe");
        document["line_items"][0]["category"] = json!("Running Shoes");
        document["line_items"][0]["custom_attributes"] =
            json!([{"display_name": "Upper", "value": "Engineered mesh"}, {"display_name": "Drop", "value": "10 mm"}]);
        let cart = checkout_session(document.as_object().unwrap(), "$.cart", today()).unwrap();
        let item = &cart.cart.entries[0].item;
        assert_eq!(item.name.as_deref(), Some("Nike Pegasus 41"));
        assert_eq!(item.words.description.as_deref(), Some("Neutral road running shoe"));
        assert_eq!(item.words.category.as_deref(), Some("Running Shoes"));
        assert_eq!(item.words.options, [NamedValue::new("Color", "Black"), NamedValue::new("Size", "EU 42")]);
        assert_eq!(
            item.words.attributes,
            [NamedValue::new("Upper", "Engineered mesh"), NamedValue::new("Drop", "10 mm")],
            "the session's order"
        );
        // The item's own description stands in for the line's.
        let mut document = session();
        document["line_items"][0]["item"]["description"] = json!("Road shoe");
        let cart = checkout_session(document.as_object().unwrap(), "$.cart", today()).unwrap();
        assert_eq!(cart.cart.entries[0].item.words.description.as_deref(), Some("Road shoe"));
    }

    #[test]
    fn bad_words_name_their_path() {
        for (key, value, at) in [
            ("description", json!(["Road shoe"]), "$.cart.line_items[0].description"),
            ("category", json!({"name": "Shoes"}), "$.cart.line_items[0].category"),
            (
                "custom_attributes",
                json!([{"display_name": "Upper", "value": 3}]),
                "$.cart.line_items[0].custom_attributes[0].value",
            ),
            ("custom_attributes", json!({"Upper": "mesh"}), "$.cart.line_items[0].custom_attributes"),
        ] {
            let mut bad = session();
            bad["line_items"][0][key] = value;
            let error = checkout_session(bad.as_object().unwrap(), "$.cart", today()).unwrap_err();
            assert_eq!(error.path, at, "{error}");
        }
    }

    #[test]
    fn a_session_without_words_reads_none() {
        let mut document = session();
        document["line_items"][0].as_object_mut().unwrap().remove("variant_options");
        let cart = checkout_session(document.as_object().unwrap(), "$.cart", today()).unwrap();
        assert!(cart.cart.entries[0].item.words.is_empty());
    }
}
