//! The English table.

use chrono::{Datelike, NaiveDate, Weekday};

use super::{
    Attribute, BriefAsk, BriefKind, BriefPart, BriefValue, Cause, Counted, EntryLine, FeeBlocks, ItemName, Message,
    MissingLine, Money, Period, Place, ScreenRule, Screened, Spoken,
};
use crate::cart::ItemLevel;
use crate::facts::{FieldName, FieldRef, Level};

pub fn render(message: &Message) -> String {
    match message {
        Message::BriefSummary { parts } if parts.is_empty() => {
            "You asked for: nothing I could read as a condition; any item would pass the check.".to_owned()
        }
        Message::BriefSummary { parts } => {
            let parts: Vec<String> = parts.iter().map(brief_part).collect();
            format!("You asked for: {}.", parts.join(", "))
        }
        Message::BriefNotRead => "I could not read the request yet.".to_owned(),
        Message::BriefQuestion { asks } => {
            let lines: Vec<String> = asks.iter().map(|ask| format!("\u{2013} {}", brief_ask(ask))).collect();
            format!("Before I start shopping, please tell me:\n{}", lines.join("\n"))
        }
        Message::FormAccept => "Yes, buy it anyway".to_owned(),
        Message::FormDecline => "No, do not buy this".to_owned(),
        Message::FormOwnWords => "Or tell me in your own words".to_owned(),
        Message::FormOwnWordsHint => {
            "For example “43 is fine too”, or what to look for instead. Never payment details.".to_owned()
        }
        Message::Brand { wanted, actual, look_alike, item } => {
            let actual = actual.as_deref().unwrap_or("no brand");
            let wanted = wanted.join(" or ");
            if *look_alike {
                format!(
                    "Asked for {wanted}, the cart has {actual}, which only looks like it (spelt with look-alike characters): {item}.",
                    item = name(item)
                )
            } else {
                format!("Asked for {wanted}, the cart has {actual}: {item}.", item = name(item))
            }
        }
        Message::BrandExcluded { excluded, actual, look_alike, item } => {
            let actual = actual.as_deref().unwrap_or("no brand");
            let look_alike = if *look_alike { " (spelt with look-alike characters)" } else { "" };
            format!(
                "Asked for anything but {}, the cart has {actual}{look_alike}: {item}.",
                excluded.join(" or "),
                item = name(item)
            )
        }
        Message::Model { wanted, item } => {
            format!("Asked for the model {}, the cart has {item}.", wanted.join(" or "), item = name(item))
        }
        Message::ModelQuoted { quote, item } => {
            format!("You asked for \u{201c}{quote}\u{201d}; the cart has {item}.", item = name(item))
        }
        Message::Color { wanted, actual, item } => {
            format!(
                "Asked for {}, the cart has {}: {item}.",
                wanted.join(" or "),
                actual.as_deref().unwrap_or("no colour"),
                item = name(item)
            )
        }
        Message::ColorLater { wanted, actual, first, later, position, item } => {
            let which =
                if *position == 2 { "its second colour".to_owned() } else { format!("its colour number {position}") };
            format!(
                "Asked for {}, the cart has {actual}, which counts as {first} ({later} is only {which}): {item}.",
                wanted.join(" or "),
                item = name(item)
            )
        }
        Message::ColorExcluded { excluded, actual, item } => format!(
            "Asked for any colour but {}, the cart has {}: {item}.",
            excluded.join(" or "),
            actual.as_deref().unwrap_or("no colour"),
            item = name(item)
        ),
        Message::Size { wanted, actual, item } => format!(
            "Asked for size {}, the cart has {}: {item}.",
            wanted.join(" or "),
            actual.as_deref().unwrap_or("no size"),
            item = name(item)
        ),
        Message::SizeQuoted { quote, size, item } => {
            format!("You asked for \u{201c}{quote}\u{201d}; the cart has {size}: {item}.", item = name(item))
        }
        Message::Level { wanted, actual, item } => {
            let has = match actual {
                Some(level) => with_article(&format!("{} item", item_level(*level))),
                None => "an item of no stated level".to_owned(),
            };
            format!("Asked for {} level, the cart has {has}: {item}.", level(*wanted), item = name(item))
        }
        Message::Refund { item } => {
            format!("Asked to be able to return it, the item is final sale: {item}.", item = name(item))
        }
        Message::Deadline { days: deadline, arrives, item } => {
            let arrives = arrives.map_or_else(|| "an unknown time".to_owned(), days);
            format!(
                "Asked for delivery within {}, the cart delivers in {arrives}: {item}.",
                days(*deadline),
                item = name(item)
            )
        }
        Message::DeadlineDated { days: deadline, by, quoted, arrives, arrives_on, item } => {
            let wanted = match quoted {
                Some(words) => format!("by \u{201c}{words}\u{201d} ({})", date(*by)),
                None => format!("within {} (by {})", days(*deadline), date(*by)),
            };
            format!(
                "You asked for it {wanted}; it would arrive in {} ({}): {item}.",
                days(*arrives),
                date(*arrives_on),
                item = name(item)
            )
        }
        Message::Price { cheaper, cheaper_price, price, item } => format!(
            "Asked for a cheap option, {cheaper} fits every stated fact for {} against {}: {item}.",
            cheaper_price.show('.'),
            price.show('.'),
            item = name(item),
            cheaper = name(cheaper)
        ),
        Message::MandateMerchant { allowed, actual: Some(actual), item } => format!(
            "The payment mandate allows only {}, the cart is from {actual}: {item}.",
            allowed.join(" or "),
            item = name(item)
        ),
        Message::MandateMerchant { allowed, actual: None, item } => format!(
            "The payment mandate allows only {}, and the cart does not say who sells it: {item}.",
            allowed.join(" or "),
            item = name(item)
        ),
        Message::MandateSku { allowed, actual: Some(actual), item } => format!(
            "The payment mandate allows only the products {}, the cart has {actual}: {item}.",
            allowed.join(", "),
            item = name(item)
        ),
        Message::MandateSku { allowed, actual: None, item } => format!(
            "The payment mandate allows only the products {}, and the cart does not say which product this is: {item}.",
            allowed.join(", "),
            item = name(item)
        ),
        Message::MandateAmount { limit, at_least: false, total: Some(total) } => {
            format!("The payment mandate allows at most {}, the cart totals {}.", limit.show('.'), total.show('.'))
        }
        Message::MandateAmount { limit, at_least: true, total: Some(total) } => {
            format!("The payment mandate requires at least {}, the cart totals {}.", limit.show('.'), total.show('.'))
        }
        Message::MandateAmount { limit, at_least, total: None } => format!(
            "The payment mandate allows {} {}, and the cart's total in that currency is unknown.",
            if *at_least { "at least" } else { "at most" },
            limit.show('.')
        ),
        Message::MandateExpired { expired_on, today } => format!(
            "The payment mandate expired on {}; today is {}: the person must renew it before anything is bought.",
            date(*expired_on),
            date(*today)
        ),
        Message::ExplicitMax { max, total, beyond } => {
            let shown = if *beyond { format!("more than {}", total.show('.')) } else { total.show('.') };
            format!("Asked to spend at most {}, the cart totals {shown}.", max.show('.'))
        }
        Message::Quantity { wanted, actual, entries } => {
            let contents: Vec<String> = entries.iter().map(counted).collect();
            let wanted: Vec<String> = wanted.iter().map(u64::to_string).collect();
            format!("Asked for {}, the cart has {actual}: {}.", wanted.join(" or "), contents.join(", "))
        }
        Message::Other { text, items } => {
            format!("Asked for \u{201c}{text}\u{201d}, which I cannot check against the item: {}.", names(items))
        }
        Message::ItemPriceOver { max, price, item } => format!(
            "Asked for this item at most {} each; \u{201c}{}\u{201d} costs {}.",
            max.show('.'),
            name(item),
            price.show('.')
        ),
        Message::Product { wanted, item } => {
            format!("You asked for {wanted}; the cart has \u{201c}{}\u{201d}.", name(item))
        }
        Message::OtherSaid { text, said, item } => {
            format!("\u{201c}{text}\u{201d}: the item says \u{201c}{said}\u{201d} ({}).", name(item))
        }
        Message::OtherListed { text, items } => {
            let says: Vec<String> =
                items.iter().map(|says| format!("\u{201c}{}\u{201d} ({})", says.said, name(&says.item))).collect();
            format!("\u{201c}{text}\u{201d}: the cart has each: {}.", says.join(", "))
        }
        Message::OtherCategory { text, items } => format!(
            "\u{201c}{text}\u{201d} is the shop's category, not the item's property; the item's words do not name it: {}.",
            names(items)
        ),
        Message::OtherContradicted { text, items } => {
            let says: Vec<String> =
                items.iter().map(|says| format!("\u{201c}{}\u{201d} ({})", says.said, name(&says.item))).collect();
            let verb = if items.len() > 1 { "the items say" } else { "the item says" };
            format!("You asked for \u{201c}{text}\u{201d}; {verb} {}.", says.join(", "))
        }
        Message::OtherOptional { text, items } => {
            format!("Would like \u{201c}{text}\u{201d}, which I cannot check against the item: {}.", names(items))
        }
        Message::Unchecked { field, attribute, item } => format!(
            "Could not check {}: the store does not say {}: {item}.",
            field_name(*field),
            attribute_name(*attribute),
            item = name(item)
        ),
        Message::MixedCurrencies { seen, other, item } => {
            format!("Could not check the spending limit: the cart mixes {seen} and {other}: {item}.", item = name(item))
        }
        Message::LimitInOtherCurrency { max, cart_currency, items } => format!(
            "Could not check the spending limit: it is {}, and the cart is priced in {cart_currency}: {}.",
            max.show('.'),
            names(items)
        ),
        Message::PriceBelowFloor { floor, price, item } => format!(
            "Asked for something costing at least {}, it costs {}: {item}.",
            floor.show('.'),
            price.show('.'),
            item = name(item)
        ),
        Message::FloorInOtherCurrency { floor, item_currency, item } => format!(
            "Could not check the lowest price: it is {}, and the item is priced in {item_currency}: {item}.",
            floor.show('.'),
            item = name(item)
        ),
        Message::PaidAboveLimit { max, paid, items } => format!(
            "Asked to spend at most {}; the checkout charges {} in all, {} of it for the items.",
            max.show('.'),
            paid.show('.'),
            items.show('.')
        ),
        Message::LimitCurrencyUnknown { max, paid } => format!(
            "You set a limit of {}, and the cart costs {}: with no exchange rate given, I cannot tell whether that is within it.",
            max.show('.'),
            paid.show('.')
        ),
        Message::ConvertedAboveLimit { max, paid, converted, rate, date: day } => format!(
            "Asked to spend at most {}; the cart costs {}, which is {} at the rate of {rate} given for {}.",
            max.show('.'),
            paid.show('.'),
            converted.show('.'),
            dated(*day)
        ),
        Message::TotalMismatch { stated, parts } => {
            let (more, difference) = if stated.minor >= parts.minor {
                ("more", stated.minor - parts.minor)
            } else {
                ("less", parts.minor - stated.minor)
            };
            format!(
                "The checkout's total is {}, {} {more} than its parts add up to ({}): the difference is not explained.",
                stated.show('.'),
                Money { minor: difference, currency: stated.currency.clone() }.show('.'),
                parts.show('.')
            )
        }
        Message::Fee { label, amount, blocks } => match blocks {
            FeeBlocks::No => format!("The checkout adds a fee: \u{201c}{label}\u{201d}, {}.", amount.show('.')),
            FeeBlocks::NoExtraCharges => format!(
                "You asked for no extra charges; the checkout adds \u{201c}{label}\u{201d}, {}.",
                amount.show('.')
            ),
            FeeBlocks::PastLimit { max } => format!(
                "The checkout adds \u{201c}{label}\u{201d}, {}, which takes the payment past your limit of {}.",
                amount.show('.'),
                max.show('.')
            ),
        },
        Message::Recurring { said, trial: false, item } => format!(
            "\u{201c}{}\u{201d} is a recurring charge (\u{201c}{said}\u{201d}), which you did not ask for.",
            name(item)
        ),
        Message::Recurring { said, trial: true, item } => format!(
            "\u{201c}{}\u{201d} is a trial that turns into a paid charge (\u{201c}{said}\u{201d}), which you did not ask for.",
            name(item)
        ),
        Message::RecurringPeriod { wanted, found, item } => format!(
            "You asked for a {} delivery; \u{201c}{}\u{201d} renews {}.",
            period_adjective(*wanted),
            name(item),
            period_adverb(*found)
        ),
        Message::NoFeesMet { text } => format!("\u{201c}{text}\u{201d}: the checkout adds no fee."),
        Message::AddonMet { text, item } => {
            format!("\u{201c}{text}\u{201d}: the cart has \u{201c}{}\u{201d}.", name(item))
        }
        Message::Addon { item } => {
            format!("The cart adds \u{201c}{}\u{201d}, which you did not ask for.", name(item))
        }
        Message::RecurringMet { text, item } => {
            format!("\u{201c}{text}\u{201d}: \u{201c}{}\u{201d} is the recurring delivery you asked for.", name(item))
        }
        Message::ShippingCharged { shipping } => {
            format!("Asked for free shipping, the cart charges {} for shipping.", shipping.show('.'))
        }
        Message::ShippingUnknown => {
            "Asked for free shipping, and the cart does not say what shipping costs.".to_owned()
        }
        Message::Extra { item } => format!("Not part of what was asked for: {item}.", item = name(item)),
        Message::TooManyLines { lines, entries, bound } => format!(
            "The order has too many lines and items to match ({lines} lines, {entries} cart entries; the bound is {bound}): please check it yourself."
        ),
        Message::Missing(line) => format!("Asked for {}, and nothing in the cart is for it.", missing(line)),
        Message::Accepted(inner) => format!("{} (accepted by the person)", render(inner).trim_end_matches('.')),
        Message::Declined(inner) => format!("{} (the person declined this)", render(inner).trim_end_matches('.')),
        Message::CouldNotCheck { found: None } => "The request could not be checked.".to_owned(),
        Message::CouldNotCheck { found: Some(found) } => {
            format!("The request could not be checked: {}.", screened(found))
        }
        Message::CouldNotCheckQuestion { cause, entries } => {
            let cause = match cause {
                Cause::Screened(found) => screened(found),
                Cause::ReadingFailed => "the part of me that reads your request failed (a model did not answer, or answered in a form I cannot use)".to_owned(),
            };
            let mut text = format!(
                "I could not check this order against your words because {cause}.\nHere is what I'm about to buy:"
            );
            for entry in entries {
                text.push_str("\n\u{2013} ");
                text.push_str(&entry_line(entry));
            }
            text.push_str("\nShall I buy it?");
            text
        }
        Message::Question { reasons } => {
            let mut text = String::from("Before I buy this, please check:");
            for reason in reasons {
                text.push_str("\n\u{2013} ");
                text.push_str(reason);
            }
            text.push_str("\nShould I still go ahead?");
            text
        }
        Message::RetryBudget { attempts } => format!(
            "This order has already been checked {}, and it will not be checked again: whether to buy it is up to you.",
            times(*attempts)
        ),
        Message::Dropped { extractor, field: Spoken::Field(FieldRef::Shared(FieldName::NeedsRefundable)), .. } => {
            format!(
                "An extractor ({extractor}) read that you want to be able to return it, which the request does not say; ignored"
            )
        }
        Message::Dropped { extractor, field: Spoken::Field(FieldRef::Shared(FieldName::Product)), value } => {
            format!(
                "An extractor ({extractor}) read that you asked for '{value}', which the request does not say; ignored"
            )
        }
        Message::Dropped {
            extractor,
            field: Spoken::Field(FieldRef::Line { index, field: FieldName::Product }),
            value,
        } => {
            format!(
                "An extractor ({extractor}) read item {} as '{value}', which the request does not say; ignored",
                index + 1
            )
        }
        Message::Dropped { extractor, field, value } => format!(
            "An extractor ({extractor}) read {} as '{value}', which the request does not say; ignored",
            spoken(field)
        ),
        Message::DroppedSoft { extractor, field } => format!(
            "An extractor ({extractor}) read {} as optional, which the request does not say; ignored",
            spoken(field)
        ),
    }
}

/// Fields as people say them (never the wire name).
pub fn field_name(field: FieldName) -> &'static str {
    match field {
        FieldName::Brand => "the brand",
        FieldName::BrandNot => "the excluded brands",
        FieldName::Model => "the model",
        FieldName::Color => "the colour",
        FieldName::ColorNot => "the excluded colours",
        FieldName::SizeLabel => "the size",
        FieldName::Level => "the level",
        FieldName::PricePreference => "the price preference",
        FieldName::ExplicitMaxCents => "the spending limit",
        FieldName::Quantity => "the quantity",
        FieldName::NeedsRefundable => "whether it can be returned",
        FieldName::DeadlineDays => "the delivery deadline",
        FieldName::Lines => "the items of the order",
        FieldName::Other => "a requirement",
        FieldName::OtherOptional => "a wish",
        FieldName::Product => "what kind of thing it is",
        FieldName::PriceMinCents => "the lowest price",
        FieldName::FreeShipping => "free shipping",
    }
}

pub(super) fn spoken(field: &Spoken) -> String {
    match field {
        Spoken::Field(FieldRef::Shared(field)) => field_name(*field).to_owned(),
        Spoken::Field(FieldRef::Line { index, field }) => format!("{} of item {}", field_name(*field), index + 1),
        Spoken::BrandAny => "another accepted brand".to_owned(),
        Spoken::ColorAny => "another accepted colour".to_owned(),
        Spoken::SizeAny => "another accepted size".to_owned(),
        Spoken::LimitCurrency => "the currency of the spending limit".to_owned(),
        Spoken::Unknown(name) => name.clone(),
    }
}

fn attribute_name(attribute: Attribute) -> &'static str {
    match attribute {
        Attribute::Brand => "its brand",
        Attribute::Name => "its name",
        Attribute::Colour => "its colour",
        Attribute::Size => "its size",
        Attribute::Level => "its level",
        Attribute::FinalSale => "whether it is final sale",
        Attribute::DeliveryTime => "its delivery time",
        Attribute::Units => "how many units one pack holds",
        Attribute::Price => "its price",
    }
}

fn level(level: Level) -> &'static str {
    match level {
        Level::Beginner => "beginner",
        Level::Intermediate => "intermediate",
        Level::Pro => "pro",
    }
}

fn item_level(level: ItemLevel) -> &'static str {
    match level {
        ItemLevel::Beginner => "beginner",
        ItemLevel::Intermediate => "intermediate",
        ItemLevel::Pro => "pro",
        ItemLevel::Any => "any-level",
    }
}

/// `a beginner item`, `an intermediate item`: the article by the first letter's sound
/// (every word this is used with is regular).
fn with_article(phrase: &str) -> String {
    let article = if phrase.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    format!("{article} {phrase}")
}

fn days(count: u64) -> String {
    if count == 1 { "1 day".to_owned() } else { format!("{count} days") }
}

fn times(count: u32) -> String {
    match count {
        1 => "once".to_owned(),
        2 => "twice".to_owned(),
        _ => format!("{count} times"),
    }
}

/// `Friday, 6 November`.
fn date(day: NaiveDate) -> String {
    let weekday = match day.weekday() {
        Weekday::Mon => "Monday",
        Weekday::Tue => "Tuesday",
        Weekday::Wed => "Wednesday",
        Weekday::Thu => "Thursday",
        Weekday::Fri => "Friday",
        Weekday::Sat => "Saturday",
        Weekday::Sun => "Sunday",
    };
    format!("{weekday}, {} {}", day.day(), month(day))
}

/// `1 November 2026`: a day that may be far from today (an exchange
/// rate's), so with its year.
fn dated(day: NaiveDate) -> String {
    format!("{} {} {}", day.day(), month(day), day.year())
}

fn month(day: NaiveDate) -> &'static str {
    [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ][day.month0() as usize]
}

fn counted(entry: &Counted) -> String {
    match entry.units {
        Some(units) if units != 1 => format!("{} \u{d7} {} ({units} each)", entry.quantity, name(&entry.name)),
        _ => format!("{} \u{d7} {}", entry.quantity, name(&entry.name)),
    }
}

fn missing(line: &MissingLine) -> String {
    let mut parts = Vec::new();
    let counts: Vec<String> = line.quantity.iter().map(u64::to_string).collect();
    parts.extend(line.product.clone());
    parts.extend((!line.model.is_empty()).then(|| line.model.join(" or ")));
    parts.extend((!line.colour.is_empty()).then(|| line.colour.join(" or ")));
    parts.extend((!line.size.is_empty()).then(|| format!("size {}", line.size.join(" or "))));
    parts.extend((!counts.is_empty()).then(|| format!("quantity {}", counts.join(" or "))));
    if parts.is_empty() { format!("item {}", line.index + 1) } else { parts.join(", ") }
}

/// `2 × Nike Pegasus 41 (White/Black, EU 44), 159.99 USD each`.
fn entry_line(entry: &EntryLine) -> String {
    let mut text = format!("{} \u{d7} {}", entry.quantity, name(&entry.name));
    if !entry.details.is_empty() {
        text.push_str(&format!(" ({})", entry.details.join(", ")));
    }
    if let Some(price) = &entry.price {
        text.push_str(&format!(", {}", price.show('.')));
        if entry.quantity > 1 {
            text.push_str(" each");
        }
    }
    text
}

fn screened(found: &Screened) -> String {
    let place = match &found.place {
        Place::Request => "the request".to_owned(),
        Place::Answer(number) => format!("answer {number}"),
        Place::Other(name) => name.clone(),
    };
    format!(
        "{place} contains text addressed to the checker, not a description of what to buy ({}: \"{}\")",
        screen_rule(found.rule),
        found.excerpt
    )
}

fn screen_rule(rule: ScreenRule) -> &'static str {
    match rule {
        ScreenRule::RoleLabel => "a role label addressed to a model",
        ScreenRule::ChatMarkup => "chat markup",
        ScreenRule::Delimiter => "the checker's own delimiters",
        ScreenRule::FactsBlock => "a block of fields and values",
        ScreenRule::Override => "an instruction to ignore rules",
        ScreenRule::Command => "a command about the checker's output",
        ScreenRule::FieldVocabulary => "fields declared optional as fields",
        ScreenRule::ThirdPartyApproval => "an approval claimed on the person's behalf",
        ScreenRule::ModeSwitch => "an instruction to change mode or role",
        ScreenRule::Encoded => "an encoded instruction",
    }
}

/// An item as a reason names it.
fn name(item: &ItemName) -> &str {
    item.0.as_deref().unwrap_or("an unnamed item")
}

fn names(items: &[ItemName]) -> String {
    items.iter().map(name).collect::<Vec<_>>().join(", ")
}

fn brief_part(part: &BriefPart) -> String {
    let text = match &part.kind {
        BriefKind::Product(product) => product.clone(),
        BriefKind::Colours(colours) => colours.join(" or "),
        BriefKind::Sizes(sizes) => format!("size {}", sizes.join(" or ")),
        BriefKind::Level(level) => format!("{} level", level.as_str()),
        BriefKind::Quantity(counts) => {
            let counts: Vec<String> = counts.iter().map(u64::to_string).collect();
            format!("{} of them", counts.join(" or "))
        }
        BriefKind::Line { index, quantity, words, size } => {
            let mut all: Vec<String> = quantity.iter().map(|quantity| format!("{quantity} ×")).collect();
            all.extend(words.iter().cloned());
            all.extend(size.iter().map(|size| format!("size {size}")));
            format!("item {}: {}", index + 1, all.join(" "))
        }
        BriefKind::Cheap => "as cheap as possible".to_owned(),
        BriefKind::Premium => "a premium one".to_owned(),
        BriefKind::Limit(max) => format!("at most {}", max.show('.')),
        BriefKind::Returnable => "returnable".to_owned(),
        BriefKind::Deadline { days: count, by: Some(by) } => {
            format!("delivered within {} (by {})", days(*count), date(*by))
        }
        BriefKind::Deadline { days: count, by: None } => format!("delivered within {}", days(*count)),
        BriefKind::NotBrands(brands) => format!("not {}", brands.join(" nor ")),
        BriefKind::NotColours(colours) => format!("not in {}", colours.join(" nor ")),
        BriefKind::MustBe(requirements) => format!("it must be: {}", requirements.join("; ")),
        BriefKind::NiceToHave(wishes) => format!("nice to have: {}", wishes.join("; ")),
    };
    if part.optional { format!("{text} (optional)") } else { text }
}

fn brief_value(value: &BriefValue) -> String {
    match value {
        BriefValue::Nothing => "nothing".to_owned(),
        BriefValue::Yes => "yes".to_owned(),
        BriefValue::No => "no".to_owned(),
        BriefValue::Amount(amount) => amount.show('.'),
        BriefValue::Number(number) => number.to_string(),
        BriefValue::Words(words) => format!("“{words}”"),
    }
}

fn brief_ask(ask: &BriefAsk) -> String {
    match ask {
        BriefAsk::Which { field, values } => {
            // "for the size", "for whether it can be returned": every field
            // name reads after "for".
            let values: Vec<String> = values.iter().map(brief_value).collect();
            format!("Which do you mean for {}: {}?", spoken(field), values.join(" or "))
        }
        BriefAsk::Optional { field } => format!("Is {} optional for you? Your words do not say so.", spoken(field)),
        BriefAsk::Confirm { field, value } => {
            format!("Should {} be “{value}”? Your words do not say so.", spoken(field))
        }
        BriefAsk::Unreadable => {
            "I could not read your request. What would you like me to buy, in a few words?".to_owned()
        }
    }
}

fn period_adjective(period: Period) -> &'static str {
    match period {
        Period::Week => "weekly",
        Period::Month => "monthly",
        Period::Quarter => "quarterly",
        Period::Year => "yearly",
    }
}

fn period_adverb(period: Period) -> &'static str {
    match period {
        Period::Week => "every week",
        Period::Month => "every month",
        Period::Quarter => "every quarter",
        Period::Year => "every year",
    }
}
