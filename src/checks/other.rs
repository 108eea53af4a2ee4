//! `other`: free-text requirements. Each must-have (`other`) is put to the
//! person (block, unless soft or disputed); each nice-to-have
//! (`other_optional`) is a note. Under [`CheckPolicy::Words`] the items'
//! own words are read for each must-have (`words::reading::read`): one
//! that an item's words say is a note quoting them instead of a question
//! (the person already asked for what the item says it is), and one that
//! every item's words plainly contradict is blocked as
//! `other-contradicted`, quoting them ("Material: canvas" for "made of
//! leather"), with the same severity a question would have.
//!
//! The requirements are the cart's, not a line's (`Facts::other` names no
//! line), so in a cart of several items a requirement may be about any one
//! of them: it is met when one item says it, and contradicted only when
//! every item it speaks of contradicts it: the items whose words say the
//! most of its other words ("address label stickers" of the sticker roll,
//! not the label printer), or every item when none says any ("made of
//! leather"). An item it speaks of that says nothing of the property
//! leaves it a question, as it may be the one the person meant.

use std::cell::OnceCell;

use super::{CheckPolicy, SeverityRules, Source};
use crate::cart::{Cart, Item};
use crate::facts::{Facts, FieldName};
use crate::finding::{Code, Compared, Finding, Severity};
use crate::messages::{ItemName, ItemSays, Message};
use crate::words::reading::{self, ItemTexts, PreparedTexts, Reading, Requirement};
use crate::words::{charges, requirement};

/// `whole` is the cart as paid (with its add-on lines and charges; `cart`
/// may leave the add-on lines out): a must that only asks for no extra
/// charges, or for an add-on, is read against it (issue 29).
pub fn findings(facts: &Facts, cart: &Cart, whole: &Cart, rules: &SeverityRules, policy: CheckPolicy) -> Vec<Finding> {
    let names: Vec<ItemName> = cart.entries.iter().map(|entry| ItemName::of(&entry.item)).collect();
    // One finding per requirement, on the whole cart: nothing in an item
    // can show that it meets free text.
    let finding = |field: FieldName, index: usize, text: &String, severity: Severity, message: Message| {
        Finding {
            id: format!("{}[{index}]@$.cart", field.as_str()),
            code: Code::Other,
            severity,
            field,
            line: None,
            path: "$.cart".to_owned(),
            entry: None,
            expected: Compared::Text(text.clone()),
            actual: Compared::Nothing,
            reason: String::new(),
            message: None,
        }
        .say(message)
    };
    // Each item's words tokenised once, for every requirement.
    let prepared: Vec<PreparedTexts> = match policy {
        CheckPolicy::Words if !facts.other.is_empty() => {
            cart.entries.iter().map(|entry| PreparedTexts::new(item_texts(&entry.item))).collect()
        }
        _ => Vec::new(),
    };
    let paid = PaidLines::new(whole);
    let must = facts.other.iter().enumerate().filter_map(|(index, text)| {
        let severity = rules.severity(FieldName::Other, Source::Shared);
        if policy == CheckPolicy::Words {
            match charges_wish(text, &facts.asked, &paid) {
                Some(ChargesWish::Met(message)) => {
                    return Some(finding(FieldName::Other, index, text, Severity::Warn, message));
                }
                // The `fee` rule blocks on the fee itself, naming it.
                Some(ChargesWish::FeeRule) => return None,
                None => {}
            }
            // The requirement tokenised once, for every item.
            let requirement = Requirement::new(text);
            let readings: Vec<(&Item, Reading)> = cart
                .entries
                .iter()
                .zip(&prepared)
                .map(|(entry, texts)| (&entry.item, reading::read_prepared(&requirement, texts)))
                .collect();
            if let Some((item, said)) = readings.iter().find_map(|(item, reading)| match reading {
                Reading::Met(said) => Some((*item, said)),
                _ => None,
            }) {
                let message =
                    Message::OtherSaid { text: text.clone(), said: said.quote.clone(), item: ItemName::of(item) };
                let mut note = finding(FieldName::Other, index, text, Severity::Warn, message);
                note.actual = Compared::Text(said.quote.clone());
                return Some(note);
            }
            // "coasters and bowls": each product the requirement lists is
            // some item's, not all of them one item's.
            if let Some(parts) = reading::products_listed(text) {
                let items: Option<Vec<ItemSays>> = parts
                    .iter()
                    .map(|part| {
                        let part = Requirement::new(part);
                        cart.entries.iter().zip(&prepared).find_map(|(entry, texts)| {
                            match reading::read_prepared(&part, texts) {
                                Reading::Met(said) => {
                                    Some(ItemSays { said: said.quote, item: ItemName::of(&entry.item) })
                                }
                                _ => None,
                            }
                        })
                    })
                    .collect();
                if let Some(items) = items {
                    let said = items.iter().map(|says| says.said.as_str()).collect::<Vec<_>>().join("; ");
                    let message = Message::OtherListed { text: text.clone(), items };
                    let mut note = finding(FieldName::Other, index, text, Severity::Warn, message);
                    note.actual = Compared::Text(said);
                    return Some(note);
                }
            }
            // The items the requirement speaks of: every item, or those whose
            // words say the most of the requirement's other words.
            let named: Vec<usize> = words_named(&requirement, &prepared);
            let contradictions: Vec<ItemSays> = named
                .iter()
                .filter_map(|at| match &readings[*at] {
                    (item, Reading::Contradicted(contradiction)) => {
                        Some(ItemSays { said: contradiction.item_says.clone(), item: ItemName::of(item) })
                    }
                    _ => None,
                })
                .collect();
            if !contradictions.is_empty() && contradictions.len() == named.len() {
                let actual = contradictions.iter().map(|says| says.said.as_str()).collect::<Vec<_>>().join("; ");
                let message = Message::OtherContradicted { text: text.clone(), items: contradictions };
                let mut block = finding(FieldName::Other, index, text, severity, message);
                block.code = Code::OtherContradicted;
                block.actual = Compared::Text(actual);
                return Some(block);
            }
            if readings.iter().any(|(_, reading)| *reading == Reading::ShopCategory) {
                let message = Message::OtherCategory { text: text.clone(), items: names.clone() };
                return Some(finding(FieldName::Other, index, text, Severity::Warn, message));
            }
        }
        Some(finding(
            FieldName::Other,
            index,
            text,
            severity,
            Message::Other { text: text.clone(), items: names.clone() },
        ))
    });
    let optional = facts.other_optional.iter().enumerate().map(|(index, text)| {
        let message = Message::OtherOptional { text: text.clone(), items: names.clone() };
        finding(FieldName::OtherOptional, index, text, Severity::Warn, message)
    });
    must.chain(optional).collect()
}

/// What a must that only asks about charges comes to (issue 29).
enum ChargesWish {
    /// The cart as paid says it: a note.
    Met(Message),
    /// No extra charges asked, and the checkout adds a fee: the `fee` rule's.
    FeeRule,
}

/// Reads a must that asks only for no extra charges ("no extra fees", "без
/// комиссии"), or speaks only of an add-on ("gift wrap", "с подарочной
/// упаковкой", "add a $3 tip") or of a recurring delivery ("delivered every
/// month", "weekly delivery", "year" of "a subscription for a year"),
/// against the cart as paid and what the whole request asks (`asked`):
/// met when the cart holds an add-on of a kind asked for, or an item whose
/// charge recurs with the period asked (or none named). A must of charges'
/// words and the words of such a line is met by it too ("2 donation to The
/// Ocean Cleanup" by "Donation to The Ocean Cleanup", "yearly digital
/// subscription" by "The Economist Digital, 12-month subscription, renews
/// annually": `words::charges::said_beside`). `None` for any other must,
/// or one the cart does not meet (then it is read as any requirement).
fn charges_wish(text: &str, asked: &charges::Asked, paid: &PaidLines) -> Option<ChargesWish> {
    let whole = paid.whole;
    let own = charges::asked(text);
    if own.no_extra_charges {
        let fees = whole.charges.fees.iter().any(|fee| fee.minor > 0);
        return Some(if fees {
            ChargesWish::FeeRule
        } else {
            ChargesWish::Met(Message::NoFeesMet { text: text.to_owned() })
        });
    }
    // What the must asks, with what the whole request asks around it.
    let mut wanted = asked.clone();
    wanted.addon_kinds.extend(own.addon_kinds);
    wanted.recurring = wanted.recurring.or(own.recurring);
    let speaks = charges::speaks_of(text);
    let names: Vec<Option<&str>> = whole.entries.iter().map(|entry| entry.item.name.as_deref()).collect();
    let addon_lines: Vec<usize> = (0..names.len())
        .filter(|at| paid.addon(*at).is_some_and(|found| charges::addon_asked(found, &wanted)))
        .collect();
    if !addon_lines.is_empty() {
        let products: Vec<String> = (0..names.len())
            .filter(|at| !addon_lines.contains(at))
            .filter_map(|at| names[at])
            .flat_map(charges::tokens)
            .collect();
        if let Some(at) = addon_lines.iter().copied().find(|at| {
            speaks == Some(charges::Speaks::Addon)
                || names[*at].is_some_and(|name| charges::said_beside(text, charges::Speaks::Addon, name, &products))
        }) {
            let item = ItemName::of(&whole.entries[at].item);
            return Some(ChargesWish::Met(Message::AddonMet { text: text.to_owned(), item }));
        }
    }
    let period = wanted.recurring?;
    whole.entries.iter().enumerate().find_map(|(at, entry)| {
        let found = paid.recurring(at)?;
        let agrees = match (period, found.period) {
            (Some(wanted), Some(found)) => wanted == found,
            _ => true,
        };
        let says = speaks == Some(charges::Speaks::Recurring)
            || super::recurring::texts(&entry.item)
                .iter()
                .any(|line| charges::said_beside(text, charges::Speaks::Recurring, line, &[]));
        (agrees && says)
            .then(|| ChargesWish::Met(Message::RecurringMet { text: text.to_owned(), item: ItemName::of(&entry.item) }))
    })
}

/// The cart as paid, each line's name read as an add-on and each item's
/// words for a recurring charge at most once for all the musts: what a line
/// says of charges does not depend on the must read against it, and reading
/// it again for every must was much of the item check (issue 28's ≤ 50 µs
/// per item, docs/benchmarks.md).
struct PaidLines<'c> {
    whole: &'c Cart,
    addons: Vec<OnceCell<Option<charges::Addon>>>,
    recurring: Vec<OnceCell<Option<charges::Recurring>>>,
}

impl<'c> PaidLines<'c> {
    fn new(whole: &'c Cart) -> PaidLines<'c> {
        let lines = whole.entries.len();
        PaidLines {
            whole,
            addons: (0..lines).map(|_| OnceCell::new()).collect(),
            recurring: (0..lines).map(|_| OnceCell::new()).collect(),
        }
    }

    /// The add-on line `at`'s name is (`charges::addon`), if any.
    fn addon(&self, at: usize) -> Option<&charges::Addon> {
        self.addons[at].get_or_init(|| self.whole.entries[at].item.name.as_deref().and_then(charges::addon)).as_ref()
    }

    /// What item `at`'s words say of a recurring charge (`recurring::of_item`).
    fn recurring(&self, at: usize) -> Option<&charges::Recurring> {
        self.recurring[at].get_or_init(|| super::recurring::of_item(&self.whole.entries[at].item)).as_ref()
    }
}

/// The entries a requirement speaks of. `Facts::other` names no line, so
/// in a cart of several items a requirement may be about any of them: it is
/// about those whose words say the most of its words besides fillers and
/// numbers ("64GB storage" of the camera with "Storage capacity: 128gb"),
/// and about every entry when no item says any of them ("made of leather").
fn words_named(wanted: &Requirement, entries: &[PreparedTexts]) -> Vec<usize> {
    let counts: Vec<usize> = entries.iter().map(|texts| requirement::named_words_prepared(wanted, texts)).collect();
    let most = counts.iter().copied().max().unwrap_or(0);
    (0..entries.len()).filter(|at| most == 0 || counts[*at] == most).collect()
}

/// The words of an item that can say what a requirement asks: its name,
/// the attributes the guard reads, and the item's own words (description,
/// category, tags, and options and attributes with their names).
pub fn item_texts(item: &Item) -> ItemTexts<'_> {
    let words = &item.words;
    let free = [&item.name, &item.brand, &item.color, &item.size, &words.description, &words.category]
        .into_iter()
        .filter_map(|text| text.as_deref())
        .chain(words.tags.iter().map(String::as_str))
        .collect();
    let named = words
        .options
        .iter()
        .chain(&words.attributes)
        .map(|named| (named.name.as_str(), named.value.as_str()))
        .collect();
    ItemTexts { free, named }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::{CartEntry, Item, NamedValue};

    #[test]
    fn must_haves_block_and_nice_to_haves_warn() {
        let facts =
            Facts { other: vec!["gluten-free".into()], other_optional: vec!["gift wrap".into()], ..Facts::default() };
        let cart = Cart {
            shipping: None,
            charges: Default::default(),
            entries: vec![CartEntry { item: Item { name: Some("Crackers".into()), ..Item::default() }, quantity: 1 }],
        };
        let found = findings(&facts, &cart, &cart, &SeverityRules::new(&facts), CheckPolicy::Spec);
        let severities: Vec<_> = found.iter().map(|finding| (finding.id.as_str(), finding.severity)).collect();
        assert_eq!(
            severities,
            vec![("other[0]@$.cart", Severity::Block), ("other_optional[0]@$.cart", Severity::Warn)]
        );
        // Issue 13: in the agent's voice, as the question is, not "the guard".
        assert_eq!(
            found[0].reason,
            "Asked for \u{201c}gluten-free\u{201d}, which I cannot check against the item: Crackers."
        );
        let disputed = Facts { disputed: [FieldName::Other.into()].into(), ..facts };
        assert_eq!(
            findings(&disputed, &cart, &cart, &SeverityRules::new(&disputed), CheckPolicy::Spec)[0].severity,
            Severity::Warn
        );
    }

    #[test]
    fn a_requirement_the_items_words_say_is_a_note_unless_under_spec() {
        let facts = Facts { other: vec!["made of denim".into(), "organic".into()], ..Facts::default() };
        let item = Item { name: Some("Women's High Waist Straight Denim Jeans".into()), ..Item::default() };
        let cart = Cart { shipping: None, charges: Default::default(), entries: vec![CartEntry { item, quantity: 1 }] };
        let rules = SeverityRules::new(&facts);
        let found = findings(&facts, &cart, &cart, &rules, CheckPolicy::Words);
        let severities: Vec<_> = found.iter().map(|finding| finding.severity).collect();
        assert_eq!(severities, vec![Severity::Warn, Severity::Block], "denim is said, organic is not");
        assert_eq!(
            found[0].reason,
            "\u{201c}made of denim\u{201d}: the item says \u{201c}Denim\u{201d} (Women's High Waist Straight Denim Jeans)."
        );
        assert_eq!(found[0].actual, Compared::Text("Denim".into()));
        let spec = findings(&facts, &cart, &cart, &rules, CheckPolicy::Spec);
        assert!(spec.iter().all(|finding| finding.severity == Severity::Block));
    }

    fn item(name: &str, attributes: &[(&str, &str)]) -> Item {
        let mut item = Item { name: Some(name.into()), ..Item::default() };
        item.words.attributes = attributes.iter().map(|(name, value)| NamedValue::new(*name, *value)).collect();
        item
    }

    fn cart(items: Vec<Item>) -> Cart {
        Cart {
            entries: items.into_iter().map(|item| CartEntry { item, quantity: 1 }).collect(),
            shipping: None,
            charges: Default::default(),
        }
    }

    #[test]
    fn a_requirement_every_item_contradicts_blocks_quoting_the_item_unless_under_spec() {
        let facts = Facts { other: vec!["made of leather".into()], ..Facts::default() };
        let cart = cart(vec![item("Tactical Belt", &[("Belt material", "canvas")])]);
        let rules = SeverityRules::new(&facts);
        let found = findings(&facts, &cart, &cart, &rules, CheckPolicy::Words);
        assert_eq!((found[0].code, found[0].severity), (Code::OtherContradicted, Severity::Block));
        assert_eq!(found[0].expected, Compared::Text("made of leather".into()));
        assert_eq!(found[0].actual, Compared::Text("Belt material: canvas".into()));
        assert_eq!(
            found[0].reason,
            "You asked for \u{201c}made of leather\u{201d}; the item says \u{201c}Belt material: canvas\u{201d} (Tactical Belt)."
        );
        let spec = findings(&facts, &cart, &cart, &rules, CheckPolicy::Spec);
        assert_eq!((spec[0].code, spec[0].severity), (Code::Other, Severity::Block));
        // A soft requirement stays a note, contradicted or not.
        let soft = Facts { soft: [FieldName::Other.into()].into(), ..facts };
        let found = findings(&soft, &cart, &cart, &SeverityRules::new(&soft), CheckPolicy::Words);
        assert_eq!((found[0].code, found[0].severity), (Code::OtherContradicted, Severity::Warn));
    }

    #[test]
    fn in_a_cart_of_several_items_one_that_says_it_or_says_nothing_keeps_it_from_a_contradiction() {
        let facts = Facts { other: vec!["crafted from canvas".into(), "65W".into()], ..Facts::default() };
        let rules = SeverityRules::new(&facts);
        let leather = item("Leather Belt", &[("Belt material", "leather")]);
        let codes = |cart: &Cart| {
            findings(&facts, cart, cart, &rules, CheckPolicy::Words)
                .iter()
                .map(|finding| finding.code)
                .collect::<Vec<_>>()
        };
        // The canvas belt says it: a note; the belts say nothing of watts: a question.
        let right = cart(vec![leather.clone(), item("Tactical Belt", &[("Belt material", "canvas")])]);
        assert_eq!(codes(&right), vec![Code::Other, Code::Other]);
        assert_eq!(findings(&facts, &right, &right, &rules, CheckPolicy::Words)[0].severity, Severity::Warn);
        // One belt says nothing of its material: it may be the canvas one.
        let silent = cart(vec![leather.clone(), item("Tactical Belt", &[])]);
        assert_eq!(codes(&silent)[0], Code::Other);
        // Both belts say another material: contradicted, both quoted.
        let wrong = cart(vec![leather, item("Tactical Belt", &[("Belt material", "PU leather")])]);
        let found = findings(&facts, &wrong, &wrong, &rules, CheckPolicy::Words);
        assert_eq!(found[0].code, Code::OtherContradicted);
        assert_eq!(found[0].actual, Compared::Text("Belt material: leather; Belt material: PU leather".into()));
        let chargers = cart(vec![item("USB-C charger 45W", &[]), item("Charger", &[("Output", "30 W")])]);
        assert_eq!(codes(&chargers)[1], Code::OtherContradicted);
    }

    #[test]
    fn in_a_cart_of_several_items_the_requirement_speaks_of_the_items_that_say_most_of_its_words() {
        let facts =
            Facts { other: vec!["64GB storage".into(), "500pcs address label stickers".into()], ..Facts::default() };
        let rules = SeverityRules::new(&facts);
        let camera = item("V380 BP3 4MP Dual Lens Camera", &[("Storage capacity", "128gb")]);
        let printer = item("Bluetooth Shipping Label Printer", &[]);
        let stickers = item("A6 waybill sticker paper 1000pcs", &[("Stationery label type", "address label")]);
        let three = cart(vec![camera, printer.clone(), stickers]);
        let found = findings(&facts, &three, &three, &rules, CheckPolicy::Words);
        assert_eq!(
            found.iter().map(|finding| (finding.code, finding.actual.clone())).collect::<Vec<_>>(),
            vec![
                (Code::OtherContradicted, Compared::Text("Storage capacity: 128gb".into())),
                (Code::OtherContradicted, Compared::Text("1000pcs".into())),
            ]
        );
        // The stickers the requirement names say nothing of a count: a question.
        let silent = item("A6 waybill sticker paper", &[("Stationery label type", "address label")]);
        let two = cart(vec![printer, silent]);
        let found = findings(&facts, &two, &two, &rules, CheckPolicy::Words);
        assert_eq!(found[1].code, Code::Other);
    }

    #[test]
    fn issue_29_a_must_about_charges_is_read_against_the_cart_as_paid() {
        use crate::cart::{CartEntry, Charges, Fee};
        let facts = Facts { other: vec!["no extra fees".into(), "gift wrap".into()], ..Facts::default() };
        let rules = SeverityRules::new(&facts);
        let mixer = Item { name: Some("KitchenAid Artisan Stand Mixer".into()), ..Item::default() };
        let wrap = Item { name: Some("Gift wrap".into()), ..Item::default() };
        let goods = Cart {
            entries: vec![CartEntry { item: mixer.clone(), quantity: 1 }],
            shipping: None,
            charges: Charges::default(),
        };
        let mut whole = goods.clone();
        whole.entries.push(CartEntry { item: wrap, quantity: 1 });
        let found = findings(&facts, &goods, &whole, &rules, CheckPolicy::Words);
        let notes: Vec<(&str, Severity)> =
            found.iter().map(|finding| (finding.reason.as_str(), finding.severity)).collect();
        assert_eq!(
            notes,
            [
                ("\u{201c}no extra fees\u{201d}: the checkout adds no fee.", Severity::Warn),
                ("\u{201c}gift wrap\u{201d}: the cart has \u{201c}Gift wrap\u{201d}.", Severity::Warn)
            ]
        );
        // A fee is the `fee` rule's to name; no gift wrap in the cart is a question.
        whole.charges.fees.push(Fee { label: "Service fee".into(), minor: 100 });
        let found = findings(&facts, &goods, &goods, &rules, CheckPolicy::Words);
        assert_eq!(found.len(), 2);
        let fee = Cart { charges: whole.charges.clone(), ..goods.clone() };
        let found = findings(&facts, &goods, &fee, &rules, CheckPolicy::Words);
        assert_eq!((found.len(), found[0].code, found[0].severity), (1, Code::Other, Severity::Block));
    }

    #[test]
    fn issue_29_a_must_of_charges_words_and_the_line_s_own_words_is_met_by_that_line() {
        use crate::words::charges::asked;
        let severity = |request: &str, must: &str, names: &[&str]| {
            let facts = Facts { other: vec![must.into()], asked: asked(request), ..Facts::default() };
            let rules = SeverityRules::new(&facts);
            let whole = cart(names.iter().map(|name| item(name, &[])).collect());
            let goods = cart(vec![item(names[0], &[])]);
            findings(&facts, &goods, &whole, &rules, CheckPolicy::Words)[0].severity
        };
        let cooler = "YETI Tundra 45 Hard Cooler, White";
        let request = "a YETI cooler and a $2 donation to The Ocean Cleanup";
        let donation = ["Donation to The Ocean Cleanup"];
        assert_eq!(severity(request, "2 donation to The Ocean Cleanup", &[cooler, donation[0]]), Severity::Warn);
        assert_eq!(
            severity("кофемашина и пожертвование в фонд", "фонд", &["Кофемашина DeLonghi", "Пожертвование в фонд"]),
            Severity::Warn
        );
        // Not asked, or a word a product says as well: read as any requirement.
        assert_eq!(severity("a YETI cooler", "Ocean Cleanup", &[cooler, donation[0]]), Severity::Block);
        let tv = "Samsung TV 50 inch";
        let plan = "Protection Plan for 55 inch TVs";
        assert_eq!(severity("a TV with a protection plan", "55 inch", &[tv, plan]), Severity::Block);
        // A recurrence asked in the item's other words.
        let economist = "The Economist Digital, 12-month subscription, renews annually";
        let request = "The Economist, yearly digital subscription";
        assert_eq!(severity(request, "yearly digital subscription", &[economist]), Severity::Warn);
        assert_eq!(severity(request, "print edition", &[economist]), Severity::Block);
    }
}
