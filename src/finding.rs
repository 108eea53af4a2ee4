//! What a check reports: the finding codes of guard.md §5, their severity,
//! and the [`Finding`] that carries both with the values compared.
//!
//! These types sit below `checks`, `lines` and `decision` so that each of
//! those can use them without importing the others (no cycle): the rules
//! build findings, lines assign entries and report on them, and the decision
//! reads them. Nothing here computes anything.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::facts::FieldName;
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
}

impl Code {
    pub const ALL: [Code; 23] = [
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
        Code::Unchecked,
        Code::Missing,
        Code::Extra,
        Code::Lines,
        Code::EngineError,
        Code::MandateMerchant,
        Code::MandateSku,
        Code::MandateAmount,
        Code::MandateExpired,
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
            Code::Unchecked => "unchecked",
            Code::Missing => "missing",
            Code::Extra => "extra",
            Code::Lines => "lines",
            Code::EngineError => "engine_error",
            Code::MandateMerchant => "mandate-merchant",
            Code::MandateSku => "mandate-sku",
            Code::MandateAmount => "mandate-amount",
            Code::MandateExpired => "mandate-expired",
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
    pub expected: Value,
    pub actual: Value,
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

/// The JSONPath of a finding's scope: one cart entry, or the whole cart.
pub fn cart_path(entry: Option<usize>) -> String {
    match entry {
        Some(index) => format!("$.cart[{index}]"),
        None => "$.cart".to_owned(),
    }
}
