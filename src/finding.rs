//! What a check reports: the finding codes of guard.md §5, their severity,
//! and the [`Finding`] that carries both with the values compared.
//!
//! These types sit below `checks`, `lines` and `decision` so that each of
//! those can use them without importing the others (no cycle): the rules
//! build findings, lines assign entries and report on them, and the decision
//! reads them. Nothing here computes anything.

use std::fmt;

use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::facts::{FieldName, Line};
use crate::messages::Message;

/// The finding codes of guard.md §5.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
pub enum Code {
    /// The item is plainly another kind of thing than the one asked for
    /// (issue 28; an extension of guard.md §5).
    #[serde(rename = "product")]
    Product,
    #[serde(rename = "brand")]
    Brand,
    #[serde(rename = "brand-excluded")]
    BrandExcluded,
    #[serde(rename = "model")]
    Model,
    #[serde(rename = "color")]
    Color,
    /// The item's colour is one the person excluded (an extension of
    /// guard.md §5, the colour counterpart of `brand-excluded`).
    #[serde(rename = "color-excluded")]
    ColorExcluded,
    #[serde(rename = "size")]
    Size,
    #[serde(rename = "level")]
    Level,
    #[serde(rename = "refund")]
    Refund,
    #[serde(rename = "deadline")]
    Deadline,
    #[serde(rename = "price")]
    Price,
    #[serde(rename = "explicit-max")]
    ExplicitMax,
    #[serde(rename = "quantity")]
    Quantity,
    #[serde(rename = "other")]
    Other,
    /// A free-text must the item's own words plainly contradict ("Material:
    /// canvas" for "made of leather"; issue 28, an extension of guard.md
    /// §5, which always puts `other` to the person).
    #[serde(rename = "other-contradicted")]
    OtherContradicted,
    #[serde(rename = "unchecked")]
    Unchecked,
    #[serde(rename = "missing")]
    Missing,
    #[serde(rename = "extra")]
    Extra,
    #[serde(rename = "lines")]
    Lines,
    /// No check ran (guard.md §4.5: the request could not be checked); the
    /// one finding of such a verdict, so the person's answer has an id.
    #[serde(rename = "engine_error")]
    EngineError,
    /// The item's merchant is not one the payment mandate allows (AP2
    /// `merchants`, `checkout.allowed_merchants`). Extension.
    #[serde(rename = "mandate-merchant")]
    MandateMerchant,
    /// The item is not one of the mandate's SKUs (AP2 `skus`,
    /// `checkout.line_items`). Extension.
    #[serde(rename = "mandate-sku")]
    MandateSku,
    /// The payment is outside the mandate's amount (AP2
    /// `payment.amount_range`, `payment.budget`). Extension.
    #[serde(rename = "mandate-amount")]
    MandateAmount,
    /// The mandate expired before today (AP2 `intent_expiry`). Extension.
    #[serde(rename = "mandate-expired")]
    MandateExpired,
    /// An item priced below the floor the person stated ("above $50"; issue
    /// 28 §5, `words` check policy only). Named by its ACF v0.2 code, as
    /// `engine_error` is.
    #[serde(rename = "price_below_floor")]
    PriceBelowFloor,
    /// Free shipping asked, and the cart charges for shipping or does not
    /// say what shipping costs (issue 28 §5, `words` check policy only).
    #[serde(rename = "free-shipping")]
    FreeShipping,
    /// The spending limit is in one currency and the cart in another, and
    /// the call gave no exchange rate (issue 29, `words` policy only).
    #[serde(rename = "limit-currency")]
    LimitCurrency,
    /// The checkout's stated total is not the sum of its parts (issue 29,
    /// `words` policy only).
    #[serde(rename = "total-mismatch")]
    TotalMismatch,
    /// A fee line of the checkout: a note, or a block when the person asked
    /// for no extra charges or it takes the payment past the limit (issue
    /// 29, `words` policy only).
    #[serde(rename = "fee")]
    Fee,
    /// An item whose charge recurs (a subscription, an automatic renewal, a
    /// trial turning paid) not asked for, or of another period (issue 29,
    /// `words` policy only).
    #[serde(rename = "recurring")]
    Recurring,
    /// An add-on line (warranty, protection plan, insurance, tip, donation,
    /// gift wrap) not asked for (issue 29, `words` policy only).
    #[serde(rename = "addon")]
    Addon,
}

impl Code {
    pub const ALL: [Code; 31] = [
        Code::Product,
        Code::Brand,
        Code::BrandExcluded,
        Code::Model,
        Code::Color,
        Code::ColorExcluded,
        Code::Size,
        Code::Level,
        Code::Refund,
        Code::Deadline,
        Code::Price,
        Code::ExplicitMax,
        Code::Quantity,
        Code::Other,
        Code::OtherContradicted,
        Code::Unchecked,
        Code::Missing,
        Code::Extra,
        Code::Lines,
        Code::EngineError,
        Code::MandateMerchant,
        Code::MandateSku,
        Code::MandateAmount,
        Code::MandateExpired,
        Code::PriceBelowFloor,
        Code::FreeShipping,
        Code::LimitCurrency,
        Code::TotalMismatch,
        Code::Fee,
        Code::Recurring,
        Code::Addon,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Code::Product => "product",
            Code::Brand => "brand",
            Code::BrandExcluded => "brand-excluded",
            Code::Model => "model",
            Code::Color => "color",
            Code::ColorExcluded => "color-excluded",
            Code::Size => "size",
            Code::Level => "level",
            Code::Refund => "refund",
            Code::Deadline => "deadline",
            Code::Price => "price",
            Code::ExplicitMax => "explicit-max",
            Code::Quantity => "quantity",
            Code::Other => "other",
            Code::OtherContradicted => "other-contradicted",
            Code::Unchecked => "unchecked",
            Code::Missing => "missing",
            Code::Extra => "extra",
            Code::Lines => "lines",
            Code::EngineError => "engine_error",
            Code::MandateMerchant => "mandate-merchant",
            Code::MandateSku => "mandate-sku",
            Code::MandateAmount => "mandate-amount",
            Code::MandateExpired => "mandate-expired",
            Code::PriceBelowFloor => "price_below_floor",
            Code::FreeShipping => "free-shipping",
            Code::LimitCurrency => "limit-currency",
            Code::TotalMismatch => "total-mismatch",
            Code::Fee => "fee",
            Code::Recurring => "recurring",
            Code::Addon => "addon",
        }
    }

    /// Whether the finding comes from a mandate's constraints: always a
    /// block, and no answer of the agent's can accept it (only a changed
    /// cart, or a new mandate, clears it).
    pub fn is_mandate(self) -> bool {
        matches!(self, Code::MandateMerchant | Code::MandateSku | Code::MandateAmount | Code::MandateExpired)
    }

    pub fn parse(text: &str) -> Option<Code> {
        Code::ALL.into_iter().find(|code| code.as_str() == text)
    }
}

impl fmt::Display for Code {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.as_str())
    }
}

/// `block` stops the purchase until the person is asked; `warn` is a note.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Block,
    Warn,
}

/// One mismatch between a fact and the cart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Finding {
    /// Stable identifier: the code (with the field for `unchecked`, the entry
    /// for `other`) and the JSONPath of the cart entry, e.g. `size@$.cart[1]`.
    pub id: String,
    pub code: Code,
    pub severity: Severity,
    /// The fact field the finding is about.
    pub field: FieldName,
    /// The requested line, where lines apply.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// JSONPath into the cart (`$.cart[1]`, or `$.cart` for the whole cart).
    pub path: String,
    /// The cart entry the finding is about; `None` for whole-cart findings.
    /// The same as `path`, typed, so that nobody parses the path back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry: Option<usize>,
    /// What the facts ask for.
    #[schemars(with = "serde_json::Value")]
    pub expected: Compared,
    /// What the cart holds.
    #[schemars(with = "serde_json::Value")]
    pub actual: Compared,
    /// One human sentence naming the item and the values, in the language
    /// of the check ([`Message`] rendered; English until a verdict renders
    /// it in the person's language).
    pub reason: String,
    /// What `reason` says, typed, so that it can be rendered in any
    /// language. Not on the wire: a finding read back from a sealed record
    /// has `None`, and its `reason` is the sealed text.
    #[serde(skip)]
    pub message: Option<Message>,
}

impl Finding {
    /// Sets the message and renders the reason in English.
    pub fn say(mut self, message: Message) -> Finding {
        self.reason = message.to_string();
        self.message = Some(message);
        self
    }
}

/// One side of what a finding compares: the value the facts ask for (its
/// `expected`) or the one the cart holds (its `actual`).
///
/// On the wire each is plain JSON, a bare value or an object naming what it
/// measures (`{"delivery_days_at_most": 3}`), as guard.md §5 has always
/// shown them; record ids are digests of that JSON, so it must not change.
/// Hence `untagged`, with two rules that keep a value's JSON and its
/// reading back one-to-one: no two variants share a set of keys and a JSON
/// type, and each variant declares its fields in key order (serde_json
/// sorts an object's keys, which is the order the wire has always had).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged, deny_unknown_fields)]
pub enum Compared {
    /// No value: the item lacks the attribute, or the side has nothing to
    /// show (the actual of an `unchecked` finding).
    Nothing,
    /// A count: units, a quantity, attempts.
    Count(u64),
    /// A word value: a brand, colour, size, model name, level or free text.
    Text(String),
    /// Several accepted counts, any of which passes.
    AnyCount { any_of: Vec<u64> },
    /// Several accepted word values, any of which passes.
    AnyText { any_of: Vec<String> },
    /// Values the person excluded.
    Not { not: Vec<String> },
    /// Whether the item is a final sale, no refund (`None`: it does not say).
    FinalSale { final_sale: Option<bool> },
    /// The latest delivery the person accepts, in days.
    DeliveryWithin { delivery_days_at_most: u64 },
    /// The item's delivery, in days (`None`: the item does not say).
    Delivery { delivery_days: Option<u64> },
    /// A much cheaper alternative that fits the request.
    CheaperItem { cheaper_item: String, price_minor: u64 },
    /// The person's floor on one item's price, with its currency when said.
    Floor { currency: Option<String>, price_at_least_minor: u64 },
    /// The item's price, in minor units.
    Price { price_minor: u64 },
    /// One item's price in the currency the cart names.
    PriceIn { currency: String, price_minor: u64 },
    /// The currency of the cart.
    Currency { currency: String },
    /// The person's limit on the total, with its currency.
    LimitIn { currency: String, total_at_most_minor: u64 },
    /// The person's limit on the total.
    Limit { total_at_most_minor: u64 },
    /// The cart's total (`None`: beyond u64) and its currency.
    Total { currency: Option<String>, total_minor: Option<u64> },
    /// How many lines the person asked for.
    Lines { lines: usize },
    /// How many entries the cart holds.
    Entries { entries: usize },
    /// The merchants a mandate allows.
    MerchantIn { merchant_in: Vec<String> },
    /// The item's merchant.
    Merchant { merchant: Option<String> },
    /// The SKUs a mandate allows.
    SkuIn { sku_in: Vec<String> },
    /// The item's SKU (or id).
    Sku { sku: Option<String> },
    /// A mandate's least payment.
    AmountAtLeast { amount_at_least: Amount },
    /// A mandate's greatest payment.
    AmountAtMost { amount_at_most: Amount },
    /// The payment compared with a mandate's amount; `None`: not comparable.
    Payment { total: Option<Amount> },
    /// The day a mandate expires.
    ExpiresOn { expires_on: NaiveDate },
    /// Today, as the check was told it.
    Today { today: NaiveDate },
    /// What shipping costs: 0 when the person asked for it free, else what
    /// the cart states, with its currency when said.
    Shipping { currency: Option<String>, shipping_minor: u64 },
    /// A requested line that no cart entry fills. Last: a line's object
    /// always has its `model`, `color`, `size_label` and `quantity` keys.
    #[serde(serialize_with = "sorted_keys")]
    Line(Box<Line>),
}

/// An amount in minor units of its currency (fields in key order: see
/// [`Compared`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Amount {
    /// ISO 4217.
    pub currency: String,
    pub minor: u64,
}

impl Compared {
    /// The `expected` value of a finding on a field that may have
    /// candidates: the stated value alone, or `{"any_of": [stated,
    /// candidates…]}`. One shape for every such field (brand, model, colour,
    /// size, quantity), so a reader of findings tells one value from several
    /// the same way everywhere.
    pub fn any_text<T: AsRef<str>>(accepted: &[T]) -> Compared {
        match accepted {
            [only] => Compared::Text(only.as_ref().to_owned()),
            _ => Compared::AnyText { any_of: accepted.iter().map(|text| text.as_ref().to_owned()).collect() },
        }
    }

    /// [`Compared::any_text`] for counts.
    pub fn any_count(accepted: &[u64]) -> Compared {
        match accepted {
            [only] => Compared::Count(*only),
            _ => Compared::AnyCount { any_of: accepted.to_vec() },
        }
    }

    /// A word value the item may lack.
    pub fn text_or_nothing(text: Option<&str>) -> Compared {
        text.map_or(Compared::Nothing, |text| Compared::Text(text.to_owned()))
    }
}

/// A line's JSON as `serde_json::Value` writes it, keys sorted: the form
/// a missing line has always had on the wire.
fn sorted_keys<S: serde::Serializer>(line: &Line, serializer: S) -> Result<S::Ok, S::Error> {
    serde_json::to_value(line).map_err(serde::ser::Error::custom)?.serialize(serializer)
}

/// The JSONPath of a finding's scope: one cart entry, or the whole cart.
pub fn cart_path(entry: Option<usize>) -> String {
    match entry {
        Some(index) => format!("$.cart[{index}]"),
        None => "$.cart".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Every variant against the JSON the checks wrote before the type
    /// existed (`json!`, keys sorted), and back: a sealed record read again
    /// must give the same value, or its id would not verify.
    #[test]
    fn each_value_writes_the_json_it_always_had_and_reads_back_as_itself() {
        let amount = Amount { currency: "EUR".into(), minor: 5000 };
        let line = Line { color: Some("black".into()), quantity: Some(2), ..Line::default() };
        let date = NaiveDate::from_ymd_opt(2026, 11, 6).unwrap();
        let table = [
            (Compared::Nothing, json!(null)),
            (Compared::Count(3), json!(3)),
            (Compared::Text("black".into()), json!("black")),
            (Compared::AnyCount { any_of: vec![2, 6] }, json!({ "any_of": [2, 6] })),
            (Compared::AnyText { any_of: vec!["42".into(), "43".into()] }, json!({ "any_of": ["42", "43"] })),
            (Compared::Not { not: vec!["Nike".into()] }, json!({ "not": ["Nike"] })),
            (Compared::FinalSale { final_sale: Some(false) }, json!({ "final_sale": false })),
            (Compared::FinalSale { final_sale: None }, json!({ "final_sale": null })),
            (Compared::DeliveryWithin { delivery_days_at_most: 3 }, json!({ "delivery_days_at_most": 3 })),
            (Compared::Delivery { delivery_days: Some(5) }, json!({ "delivery_days": 5 })),
            (
                Compared::CheaperItem { cheaper_item: "b-2".into(), price_minor: 900 },
                json!({ "cheaper_item": "b-2", "price_minor": 900 }),
            ),
            (
                Compared::Floor { currency: Some("PHP".into()), price_at_least_minor: 9800 },
                json!({ "price_at_least_minor": 9800, "currency": "PHP" }),
            ),
            (
                Compared::PriceIn { currency: "PHP".into(), price_minor: 500 },
                json!({ "price_minor": 500, "currency": "PHP" }),
            ),
            (
                Compared::Shipping { currency: Some("USD".into()), shipping_minor: 499 },
                json!({ "shipping_minor": 499, "currency": "USD" }),
            ),
            (Compared::Price { price_minor: 2400 }, json!({ "price_minor": 2400 })),
            (Compared::Currency { currency: "USD".into() }, json!({ "currency": "USD" })),
            (
                Compared::LimitIn { currency: "EUR".into(), total_at_most_minor: 100 },
                json!({ "total_at_most_minor": 100, "currency": "EUR" }),
            ),
            (Compared::Limit { total_at_most_minor: 100 }, json!({ "total_at_most_minor": 100 })),
            (
                Compared::Total { currency: Some("EUR".into()), total_minor: Some(120) },
                json!({ "total_minor": 120, "currency": "EUR" }),
            ),
            (Compared::Total { currency: None, total_minor: None }, json!({ "total_minor": null, "currency": null })),
            (Compared::Lines { lines: 2 }, json!({ "lines": 2 })),
            (Compared::Entries { entries: 3 }, json!({ "entries": 3 })),
            (Compared::MerchantIn { merchant_in: vec!["shop".into()] }, json!({ "merchant_in": ["shop"] })),
            (Compared::Merchant { merchant: None }, json!({ "merchant": null })),
            (Compared::SkuIn { sku_in: vec!["s-1".into()] }, json!({ "sku_in": ["s-1"] })),
            (Compared::Sku { sku: Some("s-2".into()) }, json!({ "sku": "s-2" })),
            (
                Compared::AmountAtLeast { amount_at_least: amount.clone() },
                json!({ "amount_at_least": { "minor": 5000, "currency": "EUR" } }),
            ),
            (
                Compared::AmountAtMost { amount_at_most: amount.clone() },
                json!({ "amount_at_most": { "minor": 5000, "currency": "EUR" } }),
            ),
            (Compared::Payment { total: Some(amount) }, json!({ "total": { "minor": 5000, "currency": "EUR" } })),
            (Compared::Payment { total: None }, json!({ "total": null })),
            (Compared::ExpiresOn { expires_on: date }, json!({ "expires_on": date.to_string() })),
            (Compared::Today { today: date }, json!({ "today": date.to_string() })),
            (Compared::Line(Box::new(line.clone())), serde_json::to_value(&line).unwrap()),
        ];
        for (value, json) in table {
            let written = serde_json::to_string(&value).unwrap();
            assert_eq!(written, serde_json::to_string(&json).unwrap(), "{value:?}");
            assert_eq!(serde_json::from_str::<Compared>(&written).unwrap(), value, "{written}");
        }
    }
}
