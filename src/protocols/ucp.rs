//! A UCP checkout (`dev.ucp.shopping.checkout`, 2026-04-08) as a cart.
//!
//! Read: `line_items[{id, item{id, title, price}, quantity}]` (price in
//! minor units), `currency`, `totals[type=total]` (what will be paid),
//! `status` (one of UCP's six), `messages[]` (a list; not acted on) and
//! `policies[]`: a `dev.ucp.shopping.policy.return` policy sets the items
//! it applies to returnable, unless its description says they are final
//! sale; the narrowest target wins (a `$.line_items[N]` target over a
//! response-wide policy), and a target this reader cannot resolve (a filter,
//! a wildcard) leaves returnability unknown rather than guessed. Delivery
//! comes from the fulfillment extension (`fulfillment.methods[].groups[]`):
//! the days from today to the `latest_fulfillment_time` of the group's
//! selected option (or of its only option) for the line items the group
//! names. UCP carries no brand, colour, size or merchant: those checks
//! report them unchecked. The item's words are its `title` and, where the
//! business sends one, its `description` (a string, or its `plain`,
//! `markdown` or `html` form, as a policy's); the checkout's item carries
//! no category, options or attributes.

use chrono::NaiveDate;
use serde_json::{Map, Value};

use super::{
    CartShape, DocumentCart, currency, line_items, list, messages, minor, object, path, required, status, string,
};
use crate::cart::{self, Cart, CartEntry, CartError, Item, ItemWords};

/// UCP's checkout statuses.
pub const STATUSES: [&str; 6] =
    ["incomplete", "requires_escalation", "ready_for_complete", "complete_in_progress", "completed", "canceled"];

/// The return policy type.
pub const RETURN_POLICY: &str = "dev.ucp.shopping.policy.return";

pub fn checkout(document: &Map<String, Value>, root: &str, today: NaiveDate) -> Result<DocumentCart, CartError> {
    let currency = currency(document, "currency", root)?;
    let delivery = delivery(document, root, today)?;
    status(document, root, &STATUSES)?;
    messages(document, root)?;
    let items = line_items(document, root)?;
    let mut entries = Vec::with_capacity(items.len());
    let mut params = Vec::with_capacity(items.len());
    for (index, line) in items.iter().enumerate() {
        let line_path = format!("{root}.line_items[{index}]");
        let line = object(line, &line_path)?;
        let item_path = path(&line_path, "item");
        let item = object(required(line, "item", &line_path)?, &item_path)?;
        let price = match item.get("price") {
            None | Some(Value::Null) => None,
            Some(value) => Some(minor(value, &path(&item_path, "price"))?),
        };
        let quantity = cart::parse_quantity(line.get("quantity"), &path(&line_path, "quantity"))?;
        let line_id = string(line, "id", &line_path)?;
        let delivery_days = line_id
            .as_deref()
            .and_then(|line_id| delivery.iter().find(|(id, _)| id == line_id))
            .and_then(|(_, days)| *days);
        entries.push(CartEntry {
            item: Item {
                id: string(item, "id", &item_path)?,
                delivery_days,
                name: string(item, "title", &item_path)?,
                words: ItemWords { description: item_description(item, &item_path)?, ..ItemWords::default() },
                price_cents: price,
                currency: Some(currency.clone()),
                units: Some(1),
                ..Item::default()
            },
            quantity,
        });
        params.push(format!("$.line_items[{index}]"));
    }
    let returnable = returnability(document, root, entries.len())?;
    for (entry, returnable) in entries.iter_mut().zip(returnable) {
        entry.item.final_sale = returnable.map(|returnable| !returnable);
    }
    let payment = super::stated_total(document, root, &currency)?;
    let shipping = super::stated_shipping(document, root, &currency)?;
    let charges = super::stated_charges(document, root, &currency)?;
    Ok(DocumentCart { shape: CartShape::UcpCheckout, cart: Cart { entries, shipping, charges }, params, payment })
}

/// The delivery days of each line item id the fulfillment extension names:
/// a group's selected option, else its only option; unknown otherwise.
fn delivery(
    document: &Map<String, Value>,
    root: &str,
    today: NaiveDate,
) -> Result<Vec<(String, Option<u64>)>, CartError> {
    let mut days_by_line = Vec::new();
    let fulfillment_path = path(root, "fulfillment");
    let Some(fulfillment) = document.get("fulfillment").filter(|value| !value.is_null()) else {
        return Ok(days_by_line);
    };
    let fulfillment = object(fulfillment, &fulfillment_path)?;
    let methods_path = path(&fulfillment_path, "methods");
    let Some(methods) = fulfillment.get("methods").filter(|value| !value.is_null()) else {
        return Ok(days_by_line);
    };
    for (method_index, method) in list(methods, &methods_path)?.iter().enumerate() {
        let method_path = format!("{methods_path}[{method_index}]");
        let method = object(method, &method_path)?;
        let groups_path = path(&method_path, "groups");
        let Some(groups) = method.get("groups").filter(|value| !value.is_null()) else { continue };
        for (group_index, group) in list(groups, &groups_path)?.iter().enumerate() {
            let group_path = format!("{groups_path}[{group_index}]");
            let group = object(group, &group_path)?;
            let options_path = path(&group_path, "options");
            let options = match group.get("options").filter(|value| !value.is_null()) {
                Some(options) => list(options, &options_path)?.as_slice(),
                None => &[],
            };
            let selected = string(group, "selected_option_id", &group_path)?;
            let chosen = match &selected {
                Some(selected) => {
                    let found = options
                        .iter()
                        .position(|option| option.get("id").and_then(Value::as_str) == Some(selected.as_str()));
                    let Some(found) = found else {
                        return Err(cart::error(
                            &path(&group_path, "selected_option_id"),
                            format!("{selected:?} is none of the group's options"),
                        ));
                    };
                    Some(found)
                }
                None if options.len() == 1 => Some(0),
                None => None,
            };
            let days = match chosen {
                Some(index) => {
                    let option_path = format!("{options_path}[{index}]");
                    let option = object(&options[index], &option_path)?;
                    match string(option, "latest_fulfillment_time", &option_path)? {
                        Some(time) => {
                            Some(super::acp::days_until(&time, today, &path(&option_path, "latest_fulfillment_time"))?)
                        }
                        None => None,
                    }
                }
                None => None,
            };
            let ids_path = path(&group_path, "line_item_ids");
            for (id_index, id) in list(required(group, "line_item_ids", &group_path)?, &ids_path)?.iter().enumerate() {
                let id =
                    id.as_str().ok_or_else(|| cart::error(&format!("{ids_path}[{id_index}]"), "expected a string"))?;
                days_by_line.push((id.to_owned(), days));
            }
        }
    }
    Ok(days_by_line)
}

/// Whether each line item can be returned, from the return policies.
fn returnability(document: &Map<String, Value>, root: &str, count: usize) -> Result<Vec<Option<bool>>, CartError> {
    let policies_path = path(root, "policies");
    let policies = match document.get("policies") {
        None | Some(Value::Null) => return Ok(vec![None; count]),
        Some(value) => super::list(value, &policies_path)?,
    };
    let mut response_wide: Option<bool> = None;
    let mut targeted: Vec<Option<bool>> = vec![None; count];
    let mut unresolved = false;
    for (index, policy) in policies.iter().enumerate() {
        let policy_path = format!("{policies_path}[{index}]");
        let policy = object(policy, &policy_path)?;
        let kind =
            string(policy, "type", &policy_path)?.ok_or_else(|| cart::error(&path(&policy_path, "type"), "missing"))?;
        if kind != RETURN_POLICY {
            continue;
        }
        let returnable = !says_final_sale(&description(policy, &policy_path)?);
        match policy.get("applies_to") {
            None | Some(Value::Null) => response_wide = Some(returnable),
            Some(targets) => {
                let targets_path = path(&policy_path, "applies_to");
                for (target_index, target) in super::list(targets, &targets_path)?.iter().enumerate() {
                    let target_path = format!("{targets_path}[{target_index}]");
                    let target =
                        target.as_str().ok_or_else(|| cart::error(&target_path, "expected a JSONPath string"))?;
                    match line_index(target) {
                        Some(line) if line < count => targeted[line] = Some(returnable),
                        Some(line) => {
                            return Err(cart::error(&target_path, format!("line item {line} does not exist")));
                        }
                        None => unresolved = true,
                    }
                }
            }
        }
    }
    Ok(targeted
        .into_iter()
        .map(|own| match own {
            Some(returnable) => Some(returnable),
            None if unresolved => None,
            None => response_wide,
        })
        .collect())
}

/// The policy's text: `description` as a string, or its `plain`,
/// `markdown` or `html` form.
fn description(policy: &Map<String, Value>, at: &str) -> Result<String, CartError> {
    let description_path = path(at, "description");
    match policy.get("description") {
        Some(Value::String(text)) => Ok(text.clone()),
        Some(Value::Object(forms)) => {
            let mut text = String::new();
            for form in ["plain", "markdown", "html"] {
                if let Some(value) = string(forms, form, &description_path)? {
                    text.push_str(&value);
                    text.push(' ');
                }
            }
            Ok(text)
        }
        None | Some(Value::Null) => Err(cart::error(&description_path, "missing")),
        Some(_) => Err(cart::error(&description_path, "expected a string or {plain, markdown, html}")),
    }
}

/// An item's `description`, if it has one: a string, or the first of its
/// `plain`, `markdown` and `html` forms (one form, so the text stays within
/// the bound of an item string).
fn item_description(item: &Map<String, Value>, at: &str) -> Result<Option<String>, CartError> {
    let description_path = path(at, "description");
    match item.get("description") {
        Some(Value::Object(forms)) => {
            for form in ["plain", "markdown", "html"] {
                if let Some(text) = string(forms, form, &description_path)? {
                    return Ok(Some(text));
                }
            }
            Ok(None)
        }
        Some(Value::String(_)) | None | Some(Value::Null) => string(item, "description", at),
        Some(_) => Err(cart::error(&description_path, "expected a string or {plain, markdown, html}")),
    }
}

/// Whether a return policy's words say the item cannot be returned.
fn says_final_sale(text: &str) -> bool {
    let folded = text.to_lowercase();
    ["final sale", "non-returnable", "not returnable", "cannot be returned", "can't be returned", "no returns"]
        .iter()
        .any(|marker| folded.contains(marker))
}

/// `N` of a singular `$.line_items[N]` target (or a node below it).
fn line_index(target: &str) -> Option<usize> {
    let rest = target.trim().strip_prefix("$.line_items[")?;
    let (digits, after) = rest.split_once(']')?;
    if !(after.is_empty() || after.starts_with('.') || after.starts_with('[')) {
        return None;
    }
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(document: Value) -> Result<DocumentCart, CartError> {
        checkout(document.as_object().unwrap(), "$.cart", NaiveDate::from_ymd_opt(2026, 11, 2).unwrap())
    }

    fn document(policies: Value) -> Value {
        json!({"ucp": {"version": "2026-04-08"}, "id": "chk_1", "status": "ready_for_complete", "currency": "USD",
            "line_items": [
                {"id": "li_1", "item": {"id": "A", "title": "Shoe", "price": 12999}, "quantity": 1},
                {"id": "li_2", "item": {"id": "B", "title": "Engraved pen", "price": 2500}, "quantity": 2}],
            "totals": [{"type": "subtotal", "amount": 17999}, {"type": "total", "amount": 19499}],
            "links": [], "policies": policies})
    }

    #[test]
    fn items_prices_and_total_are_read() {
        let cart = read(document(json!([]))).unwrap();
        assert_eq!(cart.cart.entries[1].quantity, 2);
        assert_eq!(cart.cart.entries[0].item.price_cents, Some(12999));
        assert_eq!(cart.cart.entries[0].item.name.as_deref(), Some("Shoe"));
        assert_eq!(cart.payment.unwrap().minor, 19499);
        assert_eq!(cart.params, ["$.line_items[0]", "$.line_items[1]"]);
        assert_eq!(cart.cart.entries[0].item.final_sale, None);
    }

    #[test]
    fn issue_28_the_fulfillment_total_is_the_shipping() {
        assert_eq!(read(document(json!([]))).unwrap().cart.shipping, None);
        let mut shipped = document(json!([]));
        shipped["totals"] = json!([{"type": "subtotal", "amount": 17999}, {"type": "fulfillment", "amount": 499},
            {"type": "total", "amount": 19499}]);
        let shipping = read(shipped.clone()).unwrap().cart.shipping.unwrap();
        assert_eq!((shipping.minor, shipping.currency.as_deref()), (499, Some("USD")));
        shipped["totals"][1]["amount"] = json!("4.99");
        assert_eq!(read(shipped).unwrap_err().path, "$.cart.totals[1].amount");
    }

    #[test]
    fn the_narrowest_return_policy_wins() {
        let cart = read(document(json!([
            {"type": RETURN_POLICY, "description": {"plain": "Free 30-day returns from delivery."}},
            {"type": RETURN_POLICY, "description": {"plain": "This engraved item is final sale and cannot be returned."},
             "applies_to": ["$.line_items[1]"]}])))
        .unwrap();
        assert_eq!(cart.cart.entries[0].item.final_sale, Some(false));
        assert_eq!(cart.cart.entries[1].item.final_sale, Some(true));
        let unresolved = read(document(json!([
            {"type": RETURN_POLICY, "description": "Free returns.", "applies_to": ["$.line_items[?@.id=='B']"]}])))
        .unwrap();
        assert_eq!(unresolved.cart.entries[0].item.final_sale, None);
    }

    #[test]
    fn delivery_comes_from_the_selected_fulfillment_option() {
        let mut checkout = document(json!([]));
        checkout["fulfillment"] = json!({"methods": [{"id": "m1", "type": "shipping", "line_item_ids": ["li_1", "li_2"],
            "groups": [
                {"id": "g1", "line_item_ids": ["li_1"], "selected_option_id": "express", "options": [
                    {"id": "standard", "title": "Standard", "latest_fulfillment_time": "2026-11-09T20:00:00Z", "totals": []},
                    {"id": "express", "title": "Express", "latest_fulfillment_time": "2026-11-04T20:00:00Z", "totals": []}]},
                {"id": "g2", "line_item_ids": ["li_2"], "options": [
                    {"id": "a", "title": "A", "latest_fulfillment_time": "2026-11-05T20:00:00Z", "totals": []},
                    {"id": "b", "title": "B", "latest_fulfillment_time": "2026-11-06T20:00:00Z", "totals": []}]}]}]});
        let cart = read(checkout.clone()).unwrap();
        assert_eq!(cart.cart.entries[0].item.delivery_days, Some(2));
        assert_eq!(cart.cart.entries[1].item.delivery_days, None, "two options and no choice: unknown");
        checkout["fulfillment"]["methods"][0]["groups"][0]["selected_option_id"] = json!("overnight");
        assert_eq!(read(checkout).unwrap_err().path, "$.cart.fulfillment.methods[0].groups[0].selected_option_id");
    }

    #[test]
    fn bad_values_name_their_path() {
        let mut bad = document(json!([]));
        bad["line_items"][1]["item"]["price"] = json!("25.00");
        assert_eq!(read(bad).unwrap_err().path, "$.cart.line_items[1].item.price");
        let mut bad = document(json!([]));
        bad["status"] = json!("ready_for_payment");
        assert_eq!(read(bad).unwrap_err().path, "$.cart.status");
        let mut bad = document(json!([]));
        bad["line_items"][0]["quantity"] = json!(0);
        assert_eq!(read(bad).unwrap_err().path, "$.cart.line_items[0].quantity");
    }

    #[test]
    fn the_item_s_title_and_description_are_read() {
        let mut checkout = document(json!([]));
        checkout["line_items"][0]["item"]["description"] = json!("Neutral road running shoe");
        checkout["line_items"][1]["item"]["description"] = json!({"html": "<p>Brass pen</p>", "plain": "Brass pen"});
        let cart = read(checkout).unwrap();
        let words = |index: usize| cart.cart.entries[index].item.words.clone();
        assert_eq!(cart.cart.entries[0].item.name.as_deref(), Some("Shoe"));
        assert_eq!(words(0).description.as_deref(), Some("Neutral road running shoe"));
        assert_eq!(words(1).description.as_deref(), Some("Brass pen"), "the plain form first");
        assert!(read(document(json!([]))).unwrap().cart.entries.iter().all(|entry| entry.item.words.is_empty()));
        for (value, at) in [
            (json!(7), "$.cart.line_items[0].item.description"),
            (json!({"plain": 7}), "$.cart.line_items[0].item.description.plain"),
        ] {
            let mut bad = document(json!([]));
            bad["line_items"][0]["item"]["description"] = value;
            assert_eq!(read(bad).unwrap_err().path, at);
        }
    }
}
