//! Every sentence a person reads, in one table per language: the reasons
//! and notes of findings, the §6 question, the question of a check that
//! could not run, the retry-budget reason and the grounding notes (and so
//! the ACF `content` of each message, which is the reason).
//!
//! The rules and the service build a typed [`Message`] (the values compared,
//! the item's name, the field); [`render`] turns it into words in one
//! [`Language`]. Each language is one module (`en`, `ru`) with one
//! exhaustive `match` over [`Message`], so a new message kind does not
//! compile until every table says it, and a new language is a new variant
//! of [`Language`] and a new module.
//!
//! Pure: no I/O, no clock (dates come in as values), no model. It sits above
//! `cart` (money and item levels) and below `finding`, which carries a
//! message beside its rendered reason.

mod en;
mod ru;

use std::fmt;
use std::str::FromStr;

use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::cart::{Item, ItemLevel};
use crate::facts::{FieldName, FieldRef, Level};

/// Why a fee blocks, if it does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FeeBlocks {
    /// It does not: a note.
    No,
    /// The person asked for no extra charges.
    NoExtraCharges,
    /// It takes what is paid past the limit.
    PastLimit { max: Money },
}

pub use crate::words::charges::Period;

/// A language the tables speak. On the wire: `en`, `ru`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// English, the default.
    #[default]
    En,
    /// Russian.
    Ru,
}

impl Language {
    pub const ALL: [Language; 2] = [Language::En, Language::Ru];

    pub fn code(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Ru => "ru",
        }
    }

    /// The language of a request, deterministically: Russian when Cyrillic
    /// letters are at least a quarter of its letters, else English.
    ///
    /// A quarter, not a half, because Russian requests name brands and
    /// models in Latin letters ("Nike Air Zoom Pegasus 41 чёрные" is a
    /// quarter Cyrillic), while an English request rarely holds a Cyrillic
    /// word at all. Digits, signs and spaces do not count; text with no
    /// letters is English.
    pub fn detect(text: &str) -> Language {
        let (mut letters, mut cyrillic) = (0usize, 0usize);
        for character in text.chars().filter(|character| character.is_alphabetic()) {
            letters += 1;
            if matches!(character, '\u{0400}'..='\u{04FF}' | '\u{0500}'..='\u{052F}') {
                cyrillic += 1;
            }
        }
        if letters > 0 && cyrillic * 4 >= letters { Language::Ru } else { Language::En }
    }
}

impl fmt::Display for Language {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.code())
    }
}

impl FromStr for Language {
    type Err = String;

    fn from_str(text: &str) -> Result<Language, String> {
        Language::ALL
            .into_iter()
            .find(|language| language.code() == text)
            .ok_or_else(|| format!("unknown language {text:?} (expected en or ru)"))
    }
}

/// An amount in minor units and its currency (ISO 4217), shown as each
/// language writes decimals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Money {
    pub minor: u64,
    pub currency: Option<String>,
}

impl Money {
    pub fn new(minor: u64, currency: Option<&str>) -> Money {
        Money { minor, currency: currency.map(str::to_owned) }
    }

    /// `12999, USD` → `129.99 USD` with `separator` `.`.
    fn show(&self, separator: char) -> String {
        let digits = crate::cart::minor_digits(self.currency.as_deref());
        let amount = if digits == 0 {
            self.minor.to_string()
        } else {
            let scale = 10u64.pow(digits);
            format!("{}{separator}{:0width$}", self.minor / scale, self.minor % scale, width = digits as usize)
        };
        match &self.currency {
            Some(code) => format!("{amount} {code}"),
            None => amount,
        }
    }
}

/// `129.99 USD`: English decimals, for text addressed to the agent.
impl fmt::Display for Money {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(&self.show('.'))
    }
}

/// The item attribute a check needed and the store did not give.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attribute {
    Brand,
    Name,
    Colour,
    Size,
    Level,
    FinalSale,
    DeliveryTime,
    Units,
    Price,
}

/// An item as a reason names it: its name, else its brand, else its id;
/// `None` when it says none of them (each table then says "an unnamed item"
/// in its own words).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemName(pub Option<String>);

impl ItemName {
    pub fn of(item: &Item) -> ItemName {
        ItemName(item.name.clone().or_else(|| item.brand.clone()).or_else(|| item.id.clone()))
    }

    pub fn named(name: &str) -> ItemName {
        ItemName(Some(name.to_owned()))
    }
}

impl From<&str> for ItemName {
    fn from(name: &str) -> ItemName {
        ItemName::named(name)
    }
}

/// One cart entry as a quantity reason counts it: `3 × Balls (4 each)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counted {
    pub quantity: u64,
    pub name: ItemName,
    /// Units one cart unit holds, when more than one.
    pub units: Option<u64>,
}

/// What one item says against a requirement, and which item says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemSays {
    pub said: String,
    pub item: ItemName,
}

/// One cart entry as the could-not-check question lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryLine {
    pub quantity: u64,
    pub name: ItemName,
    /// Brand, colour and size, where the name does not already say them.
    pub details: Vec<String>,
    pub price: Option<Money>,
}

/// A requested line no cart entry is for, as its own values describe it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingLine {
    pub index: usize,
    /// The kind of thing the line asks for, as said ("a tactical belt").
    pub product: Option<String>,
    /// Each field's value and its candidates, the value first; empty when
    /// the line states none.
    pub model: Vec<String>,
    pub colour: Vec<String>,
    pub size: Vec<String>,
    pub quantity: Vec<u64>,
}

/// Which rule of the screen (`extract::screen`) found text addressed to the
/// checker. The screen records it (serialised snake_case) and the tables
/// word it for the person.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ScreenRule {
    /// "SYSTEM:", "Assistant:", "\[system\]", "### Instruction", "note to the model".
    RoleLabel,
    /// Chat markup: `<system>`, `</request>`, `<|im_start|>`, `[INST]`.
    ChatMarkup,
    /// The prompt's own delimiters, `<<<` and `>>>`.
    Delimiter,
    /// A key–value block: a JSON object with quoted keys, a code fence, a
    /// schema field name (`size_label`), `soft:` / `decision =`.
    FactsBlock,
    /// "ignore the rules", "disregard previous instructions", "bypass the checks".
    Override,
    /// A verdict or output given as a command: "return proceed", "approve the
    /// cart", "return every field as null", "mark it soft".
    Command,
    /// Fields named as fields and declared optional: "every field optional".
    FieldVocabulary,
    /// Someone else's approval claimed for the person: "the person accepts
    /// everything", "the user has pre-approved".
    ThirdPartyApproval,
    /// "developer mode", "you are now", "new instructions", "as the store admin".
    ModeSwitch,
    /// Any of the above hidden in an encoding a model can read: base64,
    /// leetspeak, letters spaced apart, rot13, reversed text, invisible
    /// Unicode tag characters.
    Encoded,
}

/// Where the screen found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    Request,
    /// The person's answer number N (1-based).
    Answer(usize),
    /// Anything else, named as the screen named it.
    Other(String),
}

/// What the screen found: where, by which rule, and the words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Screened {
    pub place: Place,
    pub rule: ScreenRule,
    pub excerpt: String,
}

/// Why a check could not run, for the person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cause {
    Screened(Screened),
    /// No extractor gave usable facts (the technical cause is in the record).
    ReadingFailed,
}

/// A field a grounding note names: a fact field, or one of the extension
/// fields that `FieldName` does not hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Spoken {
    Field(FieldRef),
    BrandAny,
    ColorAny,
    SizeAny,
    LimitCurrency,
    /// A name no table knows, shown with its underscores as spaces.
    Unknown(String),
}

impl Spoken {
    /// The field of a wire name (`size_label`, `lines[1].color`, `brand_any`).
    pub fn parse(name: &str) -> Spoken {
        match name {
            "brand_any" => Spoken::BrandAny,
            "color_any" => Spoken::ColorAny,
            "size_any" => Spoken::SizeAny,
            "explicit_max_currency" => Spoken::LimitCurrency,
            _ => FieldRef::parse(name).map_or_else(|| Spoken::Unknown(name.replace('_', " ")), Spoken::Field),
        }
    }
}

/// One condition of a brief's summary (`brief_order`), and whether the
/// words make it optional.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BriefPart {
    pub kind: BriefKind,
    pub optional: bool,
}

/// What one part of a brief's summary says, with the person's values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BriefKind {
    /// Brand (and its alternatives) and model, as said.
    Product(String),
    Colours(Vec<String>),
    Sizes(Vec<String>),
    Level(Level),
    /// The count and its candidates (`quantity_any`), the count first.
    Quantity(Vec<u64>),
    /// One item of a multi-item order: its count, model and colour, size.
    Line {
        index: usize,
        quantity: Option<u64>,
        words: Vec<String>,
        size: Option<String>,
    },
    Cheap,
    Premium,
    Limit(Money),
    Returnable,
    /// Delivered within `days`, by `by` (today + days).
    Deadline {
        days: u64,
        by: Option<NaiveDate>,
    },
    NotBrands(Vec<String>),
    NotColours(Vec<String>),
    MustBe(Vec<String>),
    NiceToHave(Vec<String>),
}

/// A value one extractor read, as a person reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BriefValue {
    Nothing,
    Yes,
    No,
    Amount(Money),
    Number(u64),
    Words(String),
}

/// One question of a brief, to settle before shopping.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BriefAsk {
    /// The extractors read different values.
    Which { field: Spoken, values: Vec<BriefValue> },
    /// A model marked a field optional without words saying so.
    Optional { field: Spoken },
    /// A model read a value the words do not say.
    Confirm { field: Spoken, value: String },
    /// Nothing could be read.
    Unreadable,
}

/// Every kind of sentence a person can read, with its values. Item names
/// and the person's values are shown as given; the words around them come
/// from the language's table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    /// The item's brand is none of the accepted brands.
    Brand {
        wanted: Vec<String>,
        actual: Option<String>,
        look_alike: bool,
        item: ItemName,
    },
    /// The item's brand is one the person excluded.
    BrandExcluded {
        excluded: Vec<String>,
        actual: Option<String>,
        look_alike: bool,
        item: ItemName,
    },
    /// The item's name has the words of none of the candidate models.
    Model {
        wanted: Vec<String>,
        item: ItemName,
    },
    /// A model reason quoting the person's words.
    ModelQuoted {
        quote: String,
        item: ItemName,
    },
    Color {
        wanted: Vec<String>,
        actual: Option<String>,
        item: ItemName,
    },
    /// The wanted colour is only the item's colour number `position` (1-based, 2 or more).
    ColorLater {
        wanted: Vec<String>,
        actual: String,
        first: String,
        later: String,
        position: usize,
        item: ItemName,
    },
    ColorExcluded {
        excluded: Vec<String>,
        actual: Option<String>,
        item: ItemName,
    },
    Size {
        wanted: Vec<String>,
        actual: Option<String>,
        item: ItemName,
    },
    /// A size reason quoting the person's words.
    SizeQuoted {
        quote: String,
        size: String,
        item: ItemName,
    },
    /// The item's merchant is not one the mandate allows (`actual` `None`:
    /// the cart does not say who sells it).
    MandateMerchant {
        allowed: Vec<String>,
        actual: Option<String>,
        item: ItemName,
    },
    /// The item is not one of the mandate's SKUs (`actual` `None`: the
    /// cart gives neither a SKU nor an id).
    MandateSku {
        allowed: Vec<String>,
        actual: Option<String>,
        item: ItemName,
    },
    /// The payment is above the mandate's limit (`at_least`: below its
    /// minimum); `total` `None`: the cart's total in the limit's currency
    /// could not be had (a price missing, another currency).
    MandateAmount {
        limit: Money,
        at_least: bool,
        total: Option<Money>,
    },
    /// The mandate's last day was before today.
    MandateExpired {
        expired_on: NaiveDate,
        today: NaiveDate,
    },
    Level {
        wanted: Level,
        actual: Option<ItemLevel>,
        item: ItemName,
    },
    Refund {
        item: ItemName,
    },
    /// A deadline in days, without today (the deterministic guard alone).
    Deadline {
        days: u64,
        arrives: Option<u64>,
        item: ItemName,
    },
    /// A deadline with its dates: `by` is today + `days`; `quoted` the
    /// person's word for it ("Friday") when one names it alone.
    DeadlineDated {
        days: u64,
        by: NaiveDate,
        quoted: Option<String>,
        arrives: u64,
        arrives_on: NaiveDate,
        item: ItemName,
    },
    Price {
        cheaper: ItemName,
        cheaper_price: Money,
        price: Money,
        item: ItemName,
    },
    /// The total is above the limit; `beyond`: the total is past every
    /// number, and `total` is the largest one.
    ExplicitMax {
        max: Money,
        total: Money,
        beyond: bool,
    },
    /// One of several products costs more each than the person said for it.
    ItemPriceOver {
        max: Money,
        price: Money,
        item: ItemName,
    },
    /// The cart holds a count that is none of the candidate counts.
    Quantity {
        wanted: Vec<u64>,
        actual: u64,
        entries: Vec<Counted>,
    },
    Other {
        text: String,
        items: Vec<ItemName>,
    },
    OtherOptional {
        text: String,
        items: Vec<ItemName>,
    },
    /// The item is plainly another kind of thing than `wanted`.
    Product {
        wanted: String,
        item: ItemName,
    },
    /// A free-text requirement the item's own words say (a note): `said`
    /// is those words as the item spells them.
    OtherSaid {
        text: String,
        said: String,
        item: ItemName,
    },
    /// A requirement that lists products ("coasters and bowls"), each of
    /// which one item's words say (a note): what each item says.
    OtherListed {
        text: String,
        items: Vec<ItemSays>,
    },
    /// A shop's category ("in the flashlight category") the items' words
    /// do not name (a note): the category is the shop's, and what the item
    /// is is read by the product check.
    OtherCategory {
        text: String,
        items: Vec<ItemName>,
    },
    /// A free-text requirement every item's own words plainly contradict:
    /// what each item says, as it spells it.
    OtherContradicted {
        text: String,
        items: Vec<ItemSays>,
    },
    Unchecked {
        field: FieldName,
        attribute: Attribute,
        item: ItemName,
    },
    /// The limit could not be checked: the cart mixes two currencies.
    MixedCurrencies {
        seen: String,
        other: String,
        item: ItemName,
    },
    /// The limit is in one currency and the cart in another.
    LimitInOtherCurrency {
        max: Money,
        cart_currency: String,
        items: Vec<ItemName>,
    },
    /// One item costs less than the floor the person stated.
    PriceBelowFloor {
        floor: Money,
        price: Money,
        item: ItemName,
    },
    /// The floor is in one currency and the item's price in another.
    FloorInOtherCurrency {
        floor: Money,
        item_currency: String,
        item: ItemName,
    },
    /// The amount paid (items with shipping, tax and fees) is above the
    /// limit, and more than the items alone (issue 29).
    PaidAboveLimit {
        max: Money,
        paid: Money,
        items: Money,
    },
    /// The limit is in one currency and the cart in another, and no rate
    /// was given: both amounts, for the person to compare (issue 29).
    LimitCurrencyUnknown {
        max: Money,
        paid: Money,
    },
    /// The cart, converted at the rate the caller gave, is above the limit.
    ConvertedAboveLimit {
        max: Money,
        paid: Money,
        converted: Money,
        rate: String,
        date: NaiveDate,
    },
    /// The checkout's stated total is not the sum of its stated parts.
    TotalMismatch {
        stated: Money,
        parts: Money,
    },
    /// A fee line: a note, or why it blocks.
    Fee {
        label: String,
        amount: Money,
        blocks: FeeBlocks,
    },
    /// An item whose charge recurs, or a trial that turns paid, not asked for.
    Recurring {
        said: String,
        trial: bool,
        item: ItemName,
    },
    /// A recurring item whose period is not the one asked for.
    RecurringPeriod {
        wanted: Period,
        found: Period,
        item: ItemName,
    },
    /// An add-on line (warranty, protection plan, tip …) not asked for.
    Addon {
        item: ItemName,
    },
    /// "No extra fees" asked, and the checkout adds none (a note).
    NoFeesMet {
        text: String,
    },
    /// An add-on asked for, and the cart holds it (a note).
    AddonMet {
        text: String,
        item: ItemName,
    },
    /// A recurring delivery asked for, and an item's charge recurs with the
    /// period asked (a note).
    RecurringMet {
        text: String,
        item: ItemName,
    },
    /// Free shipping asked; the cart charges `shipping` for it.
    ShippingCharged {
        shipping: Money,
    },
    /// Free shipping asked; the cart does not say what shipping costs.
    ShippingUnknown,
    Extra {
        item: ItemName,
    },
    /// Too many lines or entries to assign: the person checks the order.
    TooManyLines {
        lines: usize,
        entries: usize,
        bound: usize,
    },
    Missing(MissingLine),
    /// A finding the person accepted (now a note).
    Accepted(Box<Message>),
    /// A finding the person declined (still blocking).
    Declined(Box<Message>),
    /// The reason of a check that could not run.
    CouldNotCheck {
        found: Option<Screened>,
    },
    /// The question of a check that could not run: why, and what is about to be bought.
    CouldNotCheckQuestion {
        cause: Cause,
        entries: Vec<EntryLine>,
    },
    /// The §6 question around the reasons (already rendered).
    Question {
        reasons: Vec<String>,
    },
    RetryBudget {
        attempts: u32,
    },
    /// An extractor's value no words of the request support.
    Dropped {
        extractor: String,
        field: Spoken,
        value: String,
    },
    /// An extractor marked a field optional without words saying so.
    DroppedSoft {
        extractor: String,
        field: Spoken,
    },
    /// The brief's summary: what the person asked for, in plain words.
    BriefSummary {
        parts: Vec<BriefPart>,
    },
    /// The brief of a request that could not be read.
    BriefNotRead,
    /// The brief's question, asked before shopping.
    BriefQuestion {
        asks: Vec<BriefAsk>,
    },
    /// The elicitation form's choices and free-text field.
    FormAccept,
    FormDecline,
    FormOwnWords,
    FormOwnWordsHint,
}

/// The message in `language`'s words.
pub fn render(language: Language, message: &Message) -> String {
    match language {
        Language::En => en::render(message),
        Language::Ru => ru::render(message),
    }
}

/// A field as people say it ("the size", «размер»).
pub fn field_words(language: Language, field: &Spoken) -> String {
    match language {
        Language::En => en::spoken(field),
        Language::Ru => ru::spoken(field),
    }
}

/// English, the language of the deterministic guard's own output.
impl fmt::Display for Message {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(&render(Language::En, self))
    }
}

/// `a, b or c` with the language's last joiner.
fn listed(values: &[String], last: &str) -> String {
    match values {
        [] => String::new(),
        [only] => only.clone(),
        [init @ .., final_value] => format!("{} {last} {final_value}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests;
