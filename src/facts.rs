//! Intent facts: what the person stated, as guard.md §3 defines them.
//!
//! This module owns the shape of the facts and the names of their fields. It
//! does not extract or check anything: extraction lives in `extract`, checks in
//! `checks`. Unknown fields are rejected (`deny_unknown_fields`) because a
//! misspelt fact silently read as "not stated" would let a cart through.

use std::collections::BTreeSet;
use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The level a person asked for or clearly described.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Beginner,
    Intermediate,
    Pro,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Intermediate => "intermediate",
            Level::Pro => "pro",
        }
    }
}

/// A stated preference about price.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum PricePreference {
    Cheap,
    Premium,
}

impl PricePreference {
    pub fn as_str(self) -> &'static str {
        match self {
            PricePreference::Cheap => "cheap",
            PricePreference::Premium => "premium",
        }
    }
}

/// One variant of a multi-variant order ("size 40 for my wife and 43 for me").
/// Fields left `None` fall back to the shared facts.
///
/// The `_any` lists are a line's candidates, as on [`Facts`]: the `grounded`
/// merge writes them when extractors read two values of one line field
/// that the person said. Merge-only: an extractor returns
/// [`crate::extract::ExtractedLine`], which has no place for them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Line {
    /// The kind of thing this line asks for, when the person listed several
    /// products ("a leather belt …, a tactical belt …"): checked against
    /// the item's own words like [`Facts::product`]. Absent from the
    /// serialised line when not read, so lines without it digest as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub product: Option<String>,
    /// This line's own must-have requirements in the person's words ("made
    /// of leather" said of one of several products): checked against the
    /// item the line is given, as `other` is against the cart. Absent when
    /// empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other: Vec<String>,
    /// The most this line's item may cost each, in minor units ("a bento
    /// box priced from 42 to 83 PHP" of several products): a condition on
    /// the item's unit price, not on the order. Absent when not said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explicit_max_cents: Option<u64>,
    /// That price's currency (ISO 4217), when said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explicit_max_currency: Option<String>,
    /// The least this line's item may cost each ("priced above 24 pesos"
    /// of one of several products), as [`Facts::price_min_cents`] is for
    /// every item. Absent when not said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price_min_cents: Option<u64>,
    /// That floor's currency (ISO 4217), when said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price_min_currency: Option<String>,
    #[serde(default)]
    pub model: Option<String>,
    /// Other candidate models of this line besides `model`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub model_any: Vec<String>,
    #[serde(default)]
    pub color: Option<String>,
    /// Other candidate colours of this line besides `color`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub color_any: Vec<String>,
    #[serde(default)]
    pub size_label: Option<String>,
    /// Other candidate sizes of this line besides `size_label`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub size_any: Vec<String>,
    #[serde(default)]
    pub quantity: Option<u64>,
    /// Other candidate counts of this line besides `quantity`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub quantity_any: Vec<u64>,
}

impl Line {
    /// True when the line states nothing (candidates need their base, so a
    /// line without bases has none).
    pub fn is_empty(&self) -> bool {
        self.model.is_none()
            && self.color.is_none()
            && self.size_label.is_none()
            && self.quantity.is_none()
            && self.product.is_none()
            && self.other.is_empty()
            && self.explicit_max_cents.is_none()
            && self.price_min_cents.is_none()
    }
}

/// The intent facts of guard.md §3.
///
/// A field the person did not state is `None` (or `false`, or empty). `soft`
/// and `disputed` hold field references ([`FieldRef`]): a field name or a
/// line-field path such as `lines[1].size_label`, strings on the wire, parsed
/// when the facts are read, so a typo in a field name is an error there.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Facts {
    /// What kind of thing the person asked for, in their words ("running
    /// shoes", "чехол"): checked against the item's own words under the
    /// `words` check policy (issue 28). Extension of guard.md §3; absent
    /// from the serialised facts when not read, so facts without it digest
    /// as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub product: Option<String>,
    /// Brand chosen. An excluded brand is not a choice.
    #[serde(default)]
    pub brand: Option<String>,
    /// Other brands the person accepts besides `brand` ("Nike or Adidas"):
    /// an item of none of them fails, even when `brand` is soft. Extension
    /// of guard.md §3 (docs/semantics.md).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub brand_any: Vec<String>,
    /// Brands the person excluded ("anything but Wilson").
    #[serde(default)]
    pub brand_not: Vec<String>,
    /// Product model or line as named, without the brand.
    #[serde(default)]
    pub model: Option<String>,
    /// Other models that are candidates besides `model`: under the
    /// `grounded` merge, models two extractors read from the person's words
    /// that do not nest ("Pegasus 41" and "Vomero 17"). Both were said, so
    /// an item that is none of them is not what was asked and blocks, while
    /// an item that is one of them passes. Merge-only: no extractor returns
    /// it (it is not in `extractors/facts.schema.json`). Extension
    /// (docs/semantics.md).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub model_any: Vec<String>,
    /// Colour chosen. A colour that is only excluded is not a choice.
    #[serde(default)]
    pub color: Option<String>,
    /// Other colours the person accepts besides `color` ("black or navy";
    /// "black ideally, white is fine" → black, soft, \[white\]). Extension.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub color_any: Vec<String>,
    /// Colours the person excluded ("not red", "any colour except pink").
    /// Extension, the colour counterpart of `brand_not`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub color_not: Vec<String>,
    /// Size as stated ("42", "4 3/8").
    #[serde(default)]
    pub size_label: Option<String>,
    /// Other sizes the person accepts besides `size_label` ("42 or 43"). Extension.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub size_any: Vec<String>,
    #[serde(default)]
    pub level: Option<Level>,
    #[serde(default)]
    pub price_preference: Option<PricePreference>,
    /// A stated spending limit in minor units. Hyperbole is not a limit.
    #[serde(default)]
    pub explicit_max_cents: Option<u64>,
    /// The limit's currency (ISO 4217), when the person said it: the limit
    /// is then compared only with a total in that currency. Extension.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explicit_max_currency: Option<String>,
    /// The least one item may cost, in minor units ("above $50", "over 98
    /// pesos", the lower end of "from 15 to 37"): a condition on each
    /// item's price, as a shop's price filter is, never on the total.
    /// Checked under the `words` check policy only. Extension (issue 28 §5);
    /// absent from the serialised facts when not read, so facts without it
    /// digest as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price_min_cents: Option<u64>,
    /// The floor's currency (ISO 4217), when the person said it: an item
    /// priced in another currency cannot be compared with it. Extension.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price_min_currency: Option<String>,
    /// The person asked for free shipping or delivery ("free shipping",
    /// "бесплатная доставка"): checked against the shipping amount the
    /// cart states, under the `words` check policy only. Extension (issue
    /// 28 §5); absent when false, so facts without it digest as before.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub free_shipping: bool,
    /// What the request's words ask about what is paid beyond the items
    /// (issue 29): a recurring delivery, add-ons, no extra charges. Read
    /// from the words deterministically by the service
    /// (`words::charges::asked`), never by an extractor: not on the wire,
    /// not in the models' schema, not in a digest.
    #[serde(skip)]
    #[schemars(skip)]
    pub asked: crate::words::charges::Asked,
    /// How many, in the units the person counts (cans, not packs).
    #[serde(default)]
    pub quantity: Option<u64>,
    /// Other counts that are candidates besides `quantity`: under the
    /// `grounded` merge, different counts two extractors read from the
    /// person's words ("2 packs of 3": 2 and 6). A cart of none of them
    /// blocks. Merge-only, like `model_any`. Extension.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub quantity_any: Vec<u64>,
    /// The person wants to be able to return or exchange.
    #[serde(default)]
    pub needs_refundable: bool,
    /// Days until a stated deadline, relative to the given today.
    #[serde(default)]
    pub deadline_days: Option<u64>,
    /// Several variants in one order; empty otherwise.
    #[serde(default)]
    pub lines: Vec<Line>,
    /// Must-have requirements no other field holds, in the person's words.
    #[serde(default)]
    pub other: Vec<String>,
    /// Nice-to-have requirements, in the person's words.
    #[serde(default)]
    pub other_optional: Vec<String>,
    /// Fields the person marked as optional.
    #[serde(default)]
    pub soft: BTreeSet<FieldRef>,
    /// Fields the extractors disagreed on.
    #[serde(default)]
    pub disputed: BTreeSet<FieldRef>,
}

/// The names of the fact fields that a finding can be about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FieldName {
    Brand,
    BrandNot,
    Model,
    Color,
    ColorNot,
    SizeLabel,
    Level,
    PricePreference,
    ExplicitMaxCents,
    Quantity,
    NeedsRefundable,
    DeadlineDays,
    Lines,
    Other,
    OtherOptional,
    Product,
    /// The price floor (`price_min_cents`, issue 28 §5).
    PriceMinCents,
    /// Free shipping asked (`free_shipping`, issue 28 §5).
    FreeShipping,
}

impl FieldName {
    pub const ALL: [FieldName; 18] = [
        FieldName::Brand,
        FieldName::BrandNot,
        FieldName::Model,
        FieldName::Color,
        FieldName::ColorNot,
        FieldName::SizeLabel,
        FieldName::Level,
        FieldName::PricePreference,
        FieldName::ExplicitMaxCents,
        FieldName::Quantity,
        FieldName::NeedsRefundable,
        FieldName::DeadlineDays,
        FieldName::Lines,
        FieldName::Other,
        FieldName::OtherOptional,
        FieldName::Product,
        FieldName::PriceMinCents,
        FieldName::FreeShipping,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            FieldName::Brand => "brand",
            FieldName::BrandNot => "brand_not",
            FieldName::Model => "model",
            FieldName::Color => "color",
            FieldName::ColorNot => "color_not",
            FieldName::SizeLabel => "size_label",
            FieldName::Level => "level",
            FieldName::PricePreference => "price_preference",
            FieldName::ExplicitMaxCents => "explicit_max_cents",
            FieldName::Quantity => "quantity",
            FieldName::NeedsRefundable => "needs_refundable",
            FieldName::DeadlineDays => "deadline_days",
            FieldName::Lines => "lines",
            FieldName::Other => "other",
            FieldName::OtherOptional => "other_optional",
            FieldName::Product => "product",
            FieldName::PriceMinCents => "price_min_cents",
            FieldName::FreeShipping => "free_shipping",
        }
    }

    /// Whether the models' schema names this field (`soft`, `evidence`):
    /// the price floor and free shipping are read by the `rules` extractor
    /// only for now (the schema is at Anthropic's limit of 16 union
    /// parameters; `product` joined it as a string that is empty when not
    /// stated, issue 28 §2), so its field enum is what it was before them.
    pub fn in_model_schema(self) -> bool {
        !matches!(self, FieldName::PriceMinCents | FieldName::FreeShipping)
    }

    pub fn parse(name: &str) -> Option<FieldName> {
        FieldName::ALL.into_iter().find(|field| field.as_str() == name)
    }

    /// Whether a line may carry its own value for this field.
    pub fn is_line_field(self) -> bool {
        matches!(
            self,
            FieldName::Model
                | FieldName::Color
                | FieldName::SizeLabel
                | FieldName::Quantity
                | FieldName::Product
                | FieldName::Other
                | FieldName::ExplicitMaxCents
                | FieldName::PriceMinCents
        )
    }
}

impl fmt::Display for FieldName {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.as_str())
    }
}

/// An entry of `soft` or `disputed`: a shared field or one field of a line.
///
/// On the wire it is the string `color` or `lines[2].size_label`. Sets of it
/// are ordered by that string, so that facts serialise in the same order as
/// the sorted names they were before they were typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldRef {
    Shared(FieldName),
    Line { index: usize, field: FieldName },
}

impl Ord for FieldRef {
    fn cmp(&self, other: &FieldRef) -> std::cmp::Ordering {
        self.to_string().cmp(&other.to_string())
    }
}

impl PartialOrd for FieldRef {
    fn partial_cmp(&self, other: &FieldRef) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl From<FieldName> for FieldRef {
    fn from(field: FieldName) -> FieldRef {
        FieldRef::Shared(field)
    }
}

impl Serialize for FieldRef {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for FieldRef {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<FieldRef, D::Error> {
        let text = String::deserialize(deserializer)?;
        FieldRef::parse(&text).ok_or_else(|| serde::de::Error::custom(format!("unknown field name {text:?}")))
    }
}

impl JsonSchema for FieldRef {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "FieldRef".into()
    }

    /// An enum of the shared field names, or a line field by pattern, so a
    /// constrained decoder can only write a name [`FieldRef::parse`] reads.
    /// The pattern is anchored and uses only classes, groups and
    /// alternation: the "simple" regular expressions both providers' strict
    /// modes and llama.cpp's grammar conversion accept.
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let names: Vec<&str> =
            FieldName::ALL.iter().filter(|field| field.in_model_schema()).map(|field| field.as_str()).collect();
        schemars::json_schema!({
            "description": "A fact field name (`color`) or one field of a line (`lines[1].size_label`).",
            "anyOf": [
                { "type": "string", "enum": names },
                { "type": "string", "pattern": FieldRef::line_pattern() }
            ]
        })
    }
}

impl FieldRef {
    /// The regular expression of a line field reference, `lines[2].size_label`.
    pub fn line_pattern() -> String {
        let fields: Vec<&str> =
            FieldName::ALL.iter().filter(|field| field.is_line_field()).map(|field| field.as_str()).collect();
        format!(r"^lines\[[0-9]+\]\.({})$", fields.join("|"))
    }

    /// Parses `color` or `lines[2].size_label`.
    pub fn parse(text: &str) -> Option<FieldRef> {
        if let Some(rest) = text.strip_prefix("lines[") {
            let (index_text, field_text) = rest.split_once("].")?;
            let index: usize = index_text.parse().ok()?;
            let field = FieldName::parse(field_text)?;
            if !field.is_line_field() {
                return None;
            }
            return Some(FieldRef::Line { index, field });
        }
        FieldName::parse(text).map(FieldRef::Shared)
    }
}

impl fmt::Display for FieldRef {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FieldRef::Shared(field) => formatter.write_str(field.as_str()),
            FieldRef::Line { index, field } => write!(formatter, "lines[{index}].{field}"),
        }
    }
}

/// Every key of the serialised facts and of a serialised line: the fields a
/// finding can be about ([`FieldName`]) and the keys beside them that no
/// finding names, the candidates (`*_any`), the currencies of the limit and
/// the floor, `soft` and `disputed`.
///
/// Code that names a key of the facts (grounding's record, the rules'
/// reading of each word, the dataset comparisons, ACF's field paths) names
/// it with this type, so a misspelt key does not compile; [`FactKey::as_str`]
/// is its wire name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FactKey {
    Product,
    Brand,
    BrandAny,
    BrandNot,
    Model,
    ModelAny,
    Color,
    ColorAny,
    ColorNot,
    SizeLabel,
    SizeAny,
    Level,
    PricePreference,
    ExplicitMaxCents,
    ExplicitMaxCurrency,
    PriceMinCents,
    PriceMinCurrency,
    FreeShipping,
    Quantity,
    QuantityAny,
    NeedsRefundable,
    DeadlineDays,
    Lines,
    Other,
    OtherOptional,
    Soft,
    Disputed,
}

impl FactKey {
    pub const ALL: [FactKey; 27] = [
        FactKey::Product,
        FactKey::Brand,
        FactKey::BrandAny,
        FactKey::BrandNot,
        FactKey::Model,
        FactKey::ModelAny,
        FactKey::Color,
        FactKey::ColorAny,
        FactKey::ColorNot,
        FactKey::SizeLabel,
        FactKey::SizeAny,
        FactKey::Level,
        FactKey::PricePreference,
        FactKey::ExplicitMaxCents,
        FactKey::ExplicitMaxCurrency,
        FactKey::PriceMinCents,
        FactKey::PriceMinCurrency,
        FactKey::FreeShipping,
        FactKey::Quantity,
        FactKey::QuantityAny,
        FactKey::NeedsRefundable,
        FactKey::DeadlineDays,
        FactKey::Lines,
        FactKey::Other,
        FactKey::OtherOptional,
        FactKey::Soft,
        FactKey::Disputed,
    ];

    /// The key as the serialised facts spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            FactKey::BrandAny => "brand_any",
            FactKey::ModelAny => "model_any",
            FactKey::ColorAny => "color_any",
            FactKey::SizeAny => "size_any",
            FactKey::QuantityAny => "quantity_any",
            FactKey::ExplicitMaxCurrency => "explicit_max_currency",
            FactKey::PriceMinCurrency => "price_min_currency",
            FactKey::Soft => "soft",
            FactKey::Disputed => "disputed",
            key => key.field().map_or("", FieldName::as_str),
        }
    }

    pub fn parse(name: &str) -> Option<FactKey> {
        FactKey::ALL.into_iter().find(|key| key.as_str() == name)
    }

    /// The field this key holds a value of: a candidate's base field, a
    /// currency's amount, the field itself; `None` for `soft` and
    /// `disputed`, which hold field names, not a value.
    pub fn field(self) -> Option<FieldName> {
        Some(match self {
            FactKey::Product => FieldName::Product,
            FactKey::Brand | FactKey::BrandAny => FieldName::Brand,
            FactKey::BrandNot => FieldName::BrandNot,
            FactKey::Model | FactKey::ModelAny => FieldName::Model,
            FactKey::Color | FactKey::ColorAny => FieldName::Color,
            FactKey::ColorNot => FieldName::ColorNot,
            FactKey::SizeLabel | FactKey::SizeAny => FieldName::SizeLabel,
            FactKey::Level => FieldName::Level,
            FactKey::PricePreference => FieldName::PricePreference,
            FactKey::ExplicitMaxCents | FactKey::ExplicitMaxCurrency => FieldName::ExplicitMaxCents,
            FactKey::PriceMinCents | FactKey::PriceMinCurrency => FieldName::PriceMinCents,
            FactKey::FreeShipping => FieldName::FreeShipping,
            FactKey::Quantity | FactKey::QuantityAny => FieldName::Quantity,
            FactKey::NeedsRefundable => FieldName::NeedsRefundable,
            FactKey::DeadlineDays => FieldName::DeadlineDays,
            FactKey::Lines => FieldName::Lines,
            FactKey::Other => FieldName::Other,
            FactKey::OtherOptional => FieldName::OtherOptional,
            FactKey::Soft | FactKey::Disputed => return None,
        })
    }

    /// The base a candidate key (`color_any`) belongs to (`color`); any
    /// other key is its own.
    pub fn without_any(self) -> FactKey {
        match self {
            FactKey::BrandAny => FactKey::Brand,
            FactKey::ModelAny => FactKey::Model,
            FactKey::ColorAny => FactKey::Color,
            FactKey::SizeAny => FactKey::SizeLabel,
            FactKey::QuantityAny => FactKey::Quantity,
            key => key,
        }
    }

    /// Whether a line may hold this key (`lines[1].color_any`).
    pub fn is_line_key(self) -> bool {
        matches!(
            self,
            FactKey::Product
                | FactKey::Other
                | FactKey::ExplicitMaxCents
                | FactKey::ExplicitMaxCurrency
                | FactKey::PriceMinCents
                | FactKey::PriceMinCurrency
                | FactKey::Model
                | FactKey::ModelAny
                | FactKey::Color
                | FactKey::ColorAny
                | FactKey::SizeLabel
                | FactKey::SizeAny
                | FactKey::Quantity
                | FactKey::QuantityAny
        )
    }
}

impl From<FieldName> for FactKey {
    fn from(field: FieldName) -> FactKey {
        match field {
            FieldName::Brand => FactKey::Brand,
            FieldName::BrandNot => FactKey::BrandNot,
            FieldName::Model => FactKey::Model,
            FieldName::Color => FactKey::Color,
            FieldName::ColorNot => FactKey::ColorNot,
            FieldName::SizeLabel => FactKey::SizeLabel,
            FieldName::Level => FactKey::Level,
            FieldName::PricePreference => FactKey::PricePreference,
            FieldName::ExplicitMaxCents => FactKey::ExplicitMaxCents,
            FieldName::Quantity => FactKey::Quantity,
            FieldName::NeedsRefundable => FactKey::NeedsRefundable,
            FieldName::DeadlineDays => FactKey::DeadlineDays,
            FieldName::Lines => FactKey::Lines,
            FieldName::Other => FactKey::Other,
            FieldName::OtherOptional => FactKey::OtherOptional,
            FieldName::Product => FactKey::Product,
            FieldName::PriceMinCents => FactKey::PriceMinCents,
            FieldName::FreeShipping => FactKey::FreeShipping,
        }
    }
}

impl fmt::Display for FactKey {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.pad(self.as_str())
    }
}

/// A key of the facts or of one line: `color_any`, `lines[1].explicit_max_currency`.
/// What [`FieldRef`] is for the fields a finding names, this is for every
/// key; on the wire it is the same string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyRef {
    Shared(FactKey),
    Line { index: usize, key: FactKey },
}

impl KeyRef {
    /// Parses `color_any` or `lines[2].size_label`, spelt as [`fmt::Display`]
    /// writes them (no leading zeros in the index), so that two spellings
    /// that compare equal are the same string.
    pub fn parse(text: &str) -> Option<KeyRef> {
        let parsed = match text.strip_prefix("lines[") {
            Some(rest) => {
                let (index_text, key_text) = rest.split_once("].")?;
                let key = FactKey::parse(key_text).filter(|key| key.is_line_key())?;
                KeyRef::Line { index: index_text.parse().ok()?, key }
            }
            None => KeyRef::Shared(FactKey::parse(text)?),
        };
        (parsed.to_string() == text).then_some(parsed)
    }

    pub fn key(self) -> FactKey {
        match self {
            KeyRef::Shared(key) | KeyRef::Line { key, .. } => key,
        }
    }

    /// The field reference of the value this key holds (a currency's
    /// amount, a candidate's base); `None` for `soft` and `disputed`.
    pub fn field_ref(self) -> Option<FieldRef> {
        match self {
            KeyRef::Shared(key) => key.field().map(FieldRef::Shared),
            KeyRef::Line { index, key } => key.field().map(|field| FieldRef::Line { index, field }),
        }
    }
}

impl From<FactKey> for KeyRef {
    fn from(key: FactKey) -> KeyRef {
        KeyRef::Shared(key)
    }
}

impl From<FieldName> for KeyRef {
    fn from(field: FieldName) -> KeyRef {
        KeyRef::Shared(field.into())
    }
}

impl From<FieldRef> for KeyRef {
    fn from(field: FieldRef) -> KeyRef {
        match field {
            FieldRef::Shared(field) => KeyRef::Shared(field.into()),
            FieldRef::Line { index, field } => KeyRef::Line { index, key: field.into() },
        }
    }
}

impl fmt::Display for KeyRef {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyRef::Shared(key) => formatter.write_str(key.as_str()),
            KeyRef::Line { index, key } => write!(formatter, "lines[{index}].{key}"),
        }
    }
}

impl Serialize for KeyRef {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for KeyRef {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<KeyRef, D::Error> {
        let text = String::deserialize(deserializer)?;
        KeyRef::parse(&text).ok_or_else(|| serde::de::Error::custom(format!("unknown fact key {text:?}")))
    }
}

/// A fact set that failed validation, with the JSONPath of the offending value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct FactsError {
    pub path: String,
    pub message: String,
}

/// The longest string a fact may hold. Requests are short; a 4 KiB brand is
/// either an attack or a bug, and both should be refused, not compared.
pub const MAX_FACT_STRING_BYTES: usize = 4096;
/// The most entries a list fact may hold.
pub const MAX_FACT_LIST_LEN: usize = 256;

impl Facts {
    /// Parses and validates facts from JSON; errors carry the JSONPath of the
    /// offending value (`$.lines[0].colour: unknown field ...`).
    pub fn from_value(value: serde_json::Value) -> Result<Facts, FactsError> {
        let facts: Facts = serde_path_to_error::deserialize(value).map_err(|error| {
            let inner = error.path().to_string();
            let path = if inner == "." { "$".to_owned() } else { format!("$.{inner}") };
            FactsError { path, message: error.into_inner().to_string() }
        })?;
        facts.validate()?;
        Ok(facts)
    }

    /// Checks what serde cannot: string lengths and list lengths. (Every
    /// `soft`/`disputed` entry already names a real field: serde parsed it.)
    pub fn validate(&self) -> Result<(), FactsError> {
        let error = |path: String, message: &str| FactsError { path, message: message.to_owned() };
        let check_string = |path: &str, value: &Option<String>| -> Result<(), FactsError> {
            match value {
                Some(text) if text.len() > MAX_FACT_STRING_BYTES => {
                    Err(error(path.to_owned(), "string longer than 4096 bytes"))
                }
                Some(text) if text.trim().is_empty() => {
                    Err(error(path.to_owned(), "empty string (use null for a fact not stated)"))
                }
                _ => Ok(()),
            }
        };
        check_string("$.product", &self.product)?;
        check_string("$.brand", &self.brand)?;
        check_string("$.model", &self.model)?;
        check_string("$.color", &self.color)?;
        check_string("$.size_label", &self.size_label)?;
        for (name, list, base) in [
            ("brand_any", &self.brand_any, self.brand.is_some().then_some("brand")),
            ("color_any", &self.color_any, self.color.is_some().then_some("color")),
            ("size_any", &self.size_any, self.size_label.is_some().then_some("size_label")),
            ("model_any", &self.model_any, self.model.is_some().then_some("model")),
        ] {
            if !list.is_empty() && base.is_none() {
                return Err(error(
                    format!("$.{name}"),
                    "alternatives need the first accepted value in their own field (brand, color, size_label or model)",
                ));
            }
        }
        if !self.quantity_any.is_empty() && self.quantity.is_none() {
            return Err(error(
                "$.quantity_any".into(),
                "alternatives need the first accepted value in their own field (quantity)",
            ));
        }
        if self.quantity_any.len() > MAX_FACT_LIST_LEN {
            return Err(error("$.quantity_any".into(), "more than 256 entries"));
        }
        if let Some(index) = self.quantity_any.iter().position(|count| *count == 0) {
            return Err(error(format!("$.quantity_any[{index}]"), "quantity 0 is not a stated quantity"));
        }
        if let Some(currency) = &self.explicit_max_currency {
            if !(currency.len() == 3 && currency.chars().all(|character| character.is_ascii_uppercase())) {
                return Err(error("$.explicit_max_currency".into(), "expected an ISO 4217 code such as USD"));
            }
            if self.explicit_max_cents.is_none() {
                return Err(error("$.explicit_max_currency".into(), "a currency without explicit_max_cents"));
            }
        }
        if let Some(currency) = &self.price_min_currency {
            if !(currency.len() == 3 && currency.chars().all(|character| character.is_ascii_uppercase())) {
                return Err(error("$.price_min_currency".into(), "expected an ISO 4217 code such as USD"));
            }
            if self.price_min_cents.is_none() {
                return Err(error("$.price_min_currency".into(), "a currency without price_min_cents"));
            }
        }
        for (name, list) in [
            ("brand_any", &self.brand_any),
            ("brand_not", &self.brand_not),
            ("color_any", &self.color_any),
            ("color_not", &self.color_not),
            ("size_any", &self.size_any),
            ("model_any", &self.model_any),
            ("other", &self.other),
            ("other_optional", &self.other_optional),
        ] {
            if list.len() > MAX_FACT_LIST_LEN {
                return Err(error(format!("$.{name}"), "more than 256 entries"));
            }
            for (index, value) in list.iter().enumerate() {
                check_string(&format!("$.{name}[{index}]"), &Some(value.clone()))?;
            }
        }
        if self.quantity == Some(0) {
            return Err(error("$.quantity".into(), "quantity 0 is not a stated quantity (use null)"));
        }
        for (index, line) in self.lines.iter().enumerate() {
            check_string(&format!("$.lines[{index}].model"), &line.model)?;
            check_string(&format!("$.lines[{index}].color"), &line.color)?;
            check_string(&format!("$.lines[{index}].size_label"), &line.size_label)?;
            if line.quantity == Some(0) {
                return Err(error(format!("$.lines[{index}].quantity"), "quantity 0 is not a stated quantity"));
            }
            for (name, list, has_base) in [
                ("model_any", &line.model_any, line.model.is_some()),
                ("color_any", &line.color_any, line.color.is_some()),
                ("size_any", &line.size_any, line.size_label.is_some()),
            ] {
                if !list.is_empty() && !has_base {
                    return Err(error(format!("$.lines[{index}].{name}"), "candidates need the line's own value"));
                }
                if list.len() > MAX_FACT_LIST_LEN {
                    return Err(error(format!("$.lines[{index}].{name}"), "more than 256 entries"));
                }
                for (position, value) in list.iter().enumerate() {
                    check_string(&format!("$.lines[{index}].{name}[{position}]"), &Some(value.clone()))?;
                }
            }
            if !line.quantity_any.is_empty() && line.quantity.is_none() {
                return Err(error(format!("$.lines[{index}].quantity_any"), "candidates need the line's own value"));
            }
            if line.quantity_any.len() > MAX_FACT_LIST_LEN {
                return Err(error(format!("$.lines[{index}].quantity_any"), "more than 256 entries"));
            }
            if let Some(position) = line.quantity_any.iter().position(|count| *count == 0) {
                return Err(error(
                    format!("$.lines[{index}].quantity_any[{position}]"),
                    "quantity 0 is not a stated quantity",
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys of the schema of `T` (its serialised keys), sorted.
    fn schema_keys<T: JsonSchema>() -> Vec<String> {
        let schema = serde_json::to_value(schemars::schema_for!(T)).unwrap();
        let mut keys: Vec<String> = schema["properties"].as_object().unwrap().keys().cloned().collect();
        keys.sort();
        keys
    }

    #[test]
    fn fact_keys_are_the_keys_of_the_facts_and_of_a_line() {
        let mut all: Vec<String> = FactKey::ALL.iter().map(ToString::to_string).collect();
        all.sort();
        assert_eq!(all, schema_keys::<Facts>());
        let mut line: Vec<String> =
            FactKey::ALL.iter().filter(|key| key.is_line_key()).map(ToString::to_string).collect();
        line.sort();
        assert_eq!(line, schema_keys::<Line>());
        for key in FactKey::ALL {
            assert_eq!(FactKey::parse(key.as_str()), Some(key));
        }
        for field in FieldName::ALL {
            assert_eq!(FactKey::from(field).field(), Some(field));
            assert_eq!(FactKey::from(field).as_str(), field.as_str());
        }
    }

    #[test]
    fn key_references_read_only_their_own_spelling() {
        let line = KeyRef::Line { index: 2, key: FactKey::ColorAny };
        assert_eq!((line.to_string(), KeyRef::parse("lines[2].color_any")), ("lines[2].color_any".into(), Some(line)));
        assert_eq!(KeyRef::parse("explicit_max_currency"), Some(KeyRef::Shared(FactKey::ExplicitMaxCurrency)));
        // A leading zero, a shared-only key in a line, or an unknown key: none.
        for text in ["lines[02].color", "lines[0].brand", "lines[0].colour", "soft:color"] {
            assert_eq!(KeyRef::parse(text), None, "{text}");
        }
        assert_eq!(line.field_ref(), Some(FieldRef::Line { index: 2, field: FieldName::Color }));
        assert_eq!(KeyRef::from(FactKey::Soft).field_ref(), None);
    }

    #[test]
    fn unknown_fields_are_rejected() {
        let error = serde_json::from_str::<Facts>(r#"{"colour": "black"}"#).unwrap_err();
        assert!(error.to_string().contains("unknown field `colour`"), "{error}");
    }

    #[test]
    fn left_out_fields_default_to_not_stated() {
        let facts: Facts = serde_json::from_str("{}").unwrap();
        assert_eq!(facts, Facts::default());
        assert!(!facts.needs_refundable);
    }

    #[test]
    fn enums_are_closed() {
        assert!(serde_json::from_str::<Facts>(r#"{"level": "expert"}"#).is_err());
        assert!(serde_json::from_str::<Facts>(r#"{"price_preference": "cheapest"}"#).is_err());
        let facts: Facts = serde_json::from_str(r#"{"level": "pro", "price_preference": "cheap"}"#).unwrap();
        assert_eq!(facts.level, Some(Level::Pro));
        assert_eq!(facts.price_preference, Some(PricePreference::Cheap));
    }

    #[test]
    fn field_refs_parse_shared_and_line_fields() {
        assert_eq!(FieldRef::parse("color"), Some(FieldRef::Shared(FieldName::Color)));
        assert_eq!(
            FieldRef::parse("lines[3].size_label"),
            Some(FieldRef::Line { index: 3, field: FieldName::SizeLabel })
        );
        assert_eq!(FieldRef::parse("lines[0].brand"), None, "brand is never a line field");
        assert_eq!(FieldRef::parse("colour"), None);
        assert_eq!(FieldRef::Line { index: 1, field: FieldName::Color }.to_string(), "lines[1].color");
    }

    #[test]
    fn parse_errors_name_the_path() {
        let error = Facts::from_value(serde_json::json!({"lines": [{"colour": "red"}]})).unwrap_err();
        assert_eq!(error.path, "$.lines[0].colour");
        let error = Facts::from_value(serde_json::json!({"quantity": -2})).unwrap_err();
        assert_eq!(error.path, "$.quantity");
        let error = Facts::from_value(serde_json::json!({"level": "expert"})).unwrap_err();
        assert_eq!(error.path, "$.level");
    }

    #[test]
    fn field_refs_are_strings_on_the_wire_sorted_by_name() {
        let facts: Facts =
            serde_json::from_str(r#"{"soft": ["size_label", "lines[0].color", "color", "brand_not"]}"#).unwrap();
        let written = serde_json::to_value(&facts).unwrap();
        assert_eq!(written["soft"], serde_json::json!(["brand_not", "color", "lines[0].color", "size_label"]));
    }

    #[test]
    fn validation_names_the_path() {
        let error = Facts::from_value(serde_json::json!({"disputed": ["colour"]})).unwrap_err();
        assert_eq!(error.path, "$.disputed[0]");
        assert!(error.message.contains("unknown field name \"colour\""), "{}", error.message);
        let facts = Facts { size_label: Some("x".repeat(5000)), ..Facts::default() };
        assert_eq!(facts.validate().unwrap_err().path, "$.size_label");
        let facts = Facts { lines: vec![Line { quantity: Some(0), ..Line::default() }], ..Facts::default() };
        assert_eq!(facts.validate().unwrap_err().path, "$.lines[0].quantity");
    }

    #[test]
    fn model_and_quantity_candidates_need_their_base_and_are_bounded() {
        let error = Facts::from_value(serde_json::json!({"model_any": ["Vomero 17"]})).unwrap_err();
        assert_eq!(error.path, "$.model_any");
        let error = Facts::from_value(serde_json::json!({"quantity_any": [3]})).unwrap_err();
        assert_eq!(error.path, "$.quantity_any");
        let error = Facts::from_value(serde_json::json!({"quantity": 2, "quantity_any": [3, 0]})).unwrap_err();
        assert_eq!(error.path, "$.quantity_any[1]");
        let error = Facts::from_value(serde_json::json!({"model": "Pegasus 41", "model_any": [" "]})).unwrap_err();
        assert_eq!(error.path, "$.model_any[0]");
        let line = serde_json::json!({"lines": [{"size_label": "42"}, {"quantity": 1, "quantity_any": [2, 0]}]});
        assert_eq!(Facts::from_value(line).unwrap_err().path, "$.lines[1].quantity_any[1]");
        let line = serde_json::json!({"lines": [{"size_any": ["43"]}]});
        assert_eq!(Facts::from_value(line).unwrap_err().path, "$.lines[0].size_any");
        let facts = Facts::from_value(serde_json::json!({
            "model": "Pegasus 41", "model_any": ["Vomero 17"], "quantity": 2, "quantity_any": [6]
        }))
        .unwrap();
        assert_eq!(
            (facts.model_any.as_slice(), facts.quantity_any.as_slice()),
            (&["Vomero 17".to_owned()][..], &[6][..])
        );
        let written = serde_json::to_value(Facts::default()).unwrap();
        assert!(written.get("model_any").is_none() && written.get("quantity_any").is_none(), "{written}");
    }
}

/// An amount a mandate states, in minor units of its currency.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MandateAmount {
    pub minor: u64,
    /// ISO 4217.
    pub currency: String,
}

/// The constraints of a payment mandate (AP2 v0.1 `IntentMandate`, AP2 v0.2
/// open checkout and payment mandates), read from the mandate itself: they
/// are authoritative, so they are never extracted from words, never soft and
/// never disputed, and the findings they raise cannot be accepted away. Kept
/// apart from [`Facts`] so that no extractor can produce them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MandateFacts {
    /// The merchants allowed to fulfil the order (ids or names); empty: any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merchants: Vec<String>,
    /// The product SKUs allowed; empty: any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skus: Vec<String>,
    /// Every item must be refundable (it sets `needs_refundable`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub requires_refundability: bool,
    /// The last day the mandate may be acted on (the UTC date of
    /// `intent_expiry`, or of `exp`): after it, the intent has expired.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub expires_on: Option<chrono::NaiveDate>,
    /// The payment must not be above any of these (`payment.amount_range.max`,
    /// `payment.budget.max`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub amount_at_most: Vec<MandateAmount>,
    /// The payment must not be below this (`payment.amount_range.min`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount_at_least: Option<MandateAmount>,
}

impl MandateFacts {
    /// True when the mandate constrains nothing.
    pub fn is_empty(&self) -> bool {
        *self == MandateFacts::default()
    }

    /// The facts with the mandate's own over them: a mandate that requires
    /// refundability makes `needs_refundable` true and takes it out of
    /// `soft` and `disputed` (authoritative, never relaxed).
    pub fn apply(&self, mut facts: Facts) -> Facts {
        if self.requires_refundability {
            facts.needs_refundable = true;
            let field = FieldRef::Shared(FieldName::NeedsRefundable);
            facts.soft.remove(&field);
            facts.disputed.remove(&field);
        }
        facts
    }
}
