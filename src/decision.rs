//! The deterministic guard: [`run`] applies every check of guard.md §5 to a
//! cart (per entry, or per line through `lines`), and [`Verdict`] is the
//! decision of §6: `ask` iff any finding blocks, with every block finding as
//! a reason and one ready question; warnings become notes.

use std::collections::BTreeSet;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::cart::{Cart, Item};
use crate::checks::{self, CheckPolicy, ItemRule, PreparedItem, SeverityRules, Target, item_finding};
use crate::facts::FieldName;
use crate::facts::{Facts, FieldRef, MandateAmount, MandateFacts};
use crate::finding::Code;
use crate::finding::{Compared, Finding, Severity, cart_path};
use crate::lines;
use crate::messages::{self, Cause, EntryLine, ItemName, Language, Message, Money, Screened};
use crate::normalize;
use crate::words::charges;

/// What the agent must do before paying.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    /// No blocking mismatch: payment may go ahead.
    Proceed,
    /// At least one blocking mismatch: consult the person first.
    Ask,
}

impl Decision {
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Proceed => "proceed",
            Decision::Ask => "ask",
        }
    }
}

/// The guard's answer for one facts + cart pair, or for a check that could
/// not run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    pub decision: Decision,
    /// One sentence per block finding.
    pub reasons: Vec<String>,
    /// The question to put to the person, on `ask`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    /// One sentence per warn finding.
    pub notes: Vec<String>,
    pub findings: Vec<Finding>,
    /// What the verdict rests on; renderers need it (ACF marks findings on
    /// disputed fields uncertain, and a check that did not run is an engine
    /// error), the person does not.
    #[serde(skip)]
    pub basis: Basis,
}

/// What a verdict rests on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Basis {
    /// The checks ran on facts with these fields disputed.
    Checked { disputed: BTreeSet<FieldRef> },
    /// No check ran: the facts could not be had (guard.md §4.5). `detail` is
    /// the technical cause, for the record and the ACF engine error.
    CouldNotCheck { detail: String },
    /// The attempt chain has used its retry budget: the person decides.
    RetryBudgetExhausted,
}

/// The §6 question around the reasons, in `language`: "Before I buy this,
/// please check: – … Should I still go ahead?"
pub fn question(language: Language, reasons: &[String]) -> String {
    messages::render(language, &Message::Question { reasons: reasons.to_vec() })
}

/// The id of the one finding of a check that could not run: the whole
/// request (`$`), so the person's `accept` can name it.
pub const ENGINE_ERROR_ID: &str = "engine_error@$";

/// The finding of a check that could not run, blocking, with what the screen
/// found if that is why. Its field is `other`: like a free-text requirement,
/// it is something the guard cannot check and the person decides.
pub fn engine_error_finding(found: Option<Screened>) -> Finding {
    Finding {
        id: ENGINE_ERROR_ID.to_owned(),
        code: Code::EngineError,
        severity: Severity::Block,
        field: FieldName::Other,
        line: None,
        path: "$".to_owned(),
        entry: None,
        expected: Compared::Nothing,
        actual: Compared::Nothing,
        reason: String::new(),
        message: None,
    }
    .say(Message::CouldNotCheck { found })
}

/// The question of a check that could not run: why, what is about to be
/// bought, and whether to buy it anyway (a question the person can answer
/// with yes, sent back as `accept`).
pub fn could_not_check_question(language: Language, cause: &Cause, cart: &Cart) -> String {
    let entries = cart.entries.iter().map(|entry| describe_entry(&entry.item, entry.quantity)).collect();
    messages::render(language, &Message::CouldNotCheckQuestion { cause: cause.clone(), entries })
}

/// One cart entry for a person: `2 × Nike Pegasus 41 (Nike, White/Black, EU 44), 159.99 USD each`.
fn describe_entry(item: &Item, quantity: u64) -> EntryLine {
    let details: Vec<String> = [&item.brand, &item.color, &item.size]
        .into_iter()
        .filter_map(|value| value.as_deref())
        .filter(|value| !item.name.as_deref().unwrap_or_default().contains(*value))
        .map(str::to_owned)
        .collect();
    EntryLine {
        quantity,
        name: ItemName::of(item),
        details,
        price: item.price_cents.map(|price| Money::new(price, item.currency.as_deref())),
    }
}

/// Renders every finding's reason in `language` (a finding read back from a
/// record keeps its sealed reason). Reasons quote item text, so direction
/// controls are taken out of them: what the person reads is what was
/// compared (see [`normalize::without_direction_controls`]).
fn render_reasons(findings: &mut [Finding], language: Language) {
    for finding in findings {
        if let Some(message) = &finding.message {
            finding.reason = messages::render(language, message);
        }
        finding.reason = normalize::without_direction_controls(&finding.reason);
    }
}

impl Verdict {
    /// Decides from the findings of checks that ran on facts with `disputed`
    /// fields; reasons, notes and question are in `language`.
    pub fn checked(mut findings: Vec<Finding>, disputed: &BTreeSet<FieldRef>, language: Language) -> Verdict {
        render_reasons(&mut findings, language);
        let reasons: Vec<String> = findings
            .iter()
            .filter(|finding| finding.severity == Severity::Block)
            .map(|finding| finding.reason.clone())
            .collect();
        let notes: Vec<String> = findings
            .iter()
            .filter(|finding| finding.severity == Severity::Warn)
            .map(|finding| finding.reason.clone())
            .collect();
        let decision = if reasons.is_empty() { Decision::Proceed } else { Decision::Ask };
        let question = (decision == Decision::Ask).then(|| question(language, &reasons));
        Verdict { decision, reasons, question, notes, findings, basis: Basis::Checked { disputed: disputed.clone() } }
    }

    /// A check that could not run (guard.md §4.5): `finding` is its
    /// [`engine_error_finding`], blocking until the person accepted buying
    /// unchecked (then a note, and the decision is `proceed`, theirs);
    /// `cause` says why for the person, `detail` for the record. The
    /// question names what is about to be bought, so the person can answer
    /// it without the checks.
    pub fn could_not_check(
        mut finding: Finding,
        cause: &Cause,
        cart: &Cart,
        detail: String,
        language: Language,
    ) -> Verdict {
        render_reasons(std::slice::from_mut(&mut finding), language);
        let blocks = finding.severity == Severity::Block;
        let (reasons, notes) = if blocks {
            (vec![finding.reason.clone()], Vec::new())
        } else {
            (Vec::new(), vec![finding.reason.clone()])
        };
        Verdict {
            decision: if blocks { Decision::Ask } else { Decision::Proceed },
            question: blocks.then(|| could_not_check_question(language, cause, cart)),
            reasons,
            notes,
            findings: vec![finding],
            basis: Basis::CouldNotCheck { detail },
        }
    }

    /// A resubmission past the retry budget (`attempts` checks already):
    /// `ask`, the person decides.
    pub fn retry_budget_exhausted(attempts: u32, language: Language) -> Verdict {
        let reason = messages::render(language, &Message::RetryBudget { attempts });
        Verdict::without_findings(reason, Basis::RetryBudgetExhausted, language)
    }

    fn without_findings(reason: String, basis: Basis, language: Language) -> Verdict {
        let reasons = vec![reason];
        Verdict {
            decision: Decision::Ask,
            question: Some(question(language, &reasons)),
            reasons,
            notes: Vec::new(),
            findings: Vec::new(),
            basis,
        }
    }

    /// The codes of the findings with `severity`, as a sorted set.
    pub fn codes(&self, severity: Severity) -> Vec<&'static str> {
        let mut codes: Vec<&'static str> = self
            .findings
            .iter()
            .filter(|finding| finding.severity == severity)
            .map(|finding| finding.code.as_str())
            .collect();
        codes.sort_unstable();
        codes.dedup();
        codes
    }
}

/// The deterministic guard: facts and cart in, verdict out. `allowed` feeds
/// the price check. Never calls a model, never reads the clock.
pub fn check(facts: &Facts, cart: &Cart, allowed: &[Item]) -> Verdict {
    Verdict::checked(run(facts, cart, allowed), &facts.disputed, Language::En)
}

/// Every check of a cart under a payment mandate: the checks of guard.md §5
/// on the facts with the mandate's over them ([`MandateFacts::apply`]), then
/// the mandate's own rules (`checks::mandate`, counted from `today`, with
/// `payment` the total the checkout states). Returns the facts as checked.
pub fn run_with_mandate(
    policy: CheckPolicy,
    facts: &Facts,
    mandate: &MandateFacts,
    cart: &Cart,
    payment: Option<&MandateAmount>,
    allowed: &[Item],
    today: chrono::NaiveDate,
) -> (Facts, Vec<Finding>) {
    let facts = mandate.apply(facts.clone());
    let mut findings = run_under(policy, &facts, cart, allowed);
    findings.extend(checks::mandate::findings(mandate, cart, payment, today));
    (facts, findings)
}

/// Runs every check of guard.md §5 on a cart. `allowed` feeds the price check
/// (empty: only the cart's own items). Findings come back in a fixed order:
/// by cart entry, then rule; cart-wide findings last.
pub fn run(facts: &Facts, cart: &Cart, allowed: &[Item]) -> Vec<Finding> {
    run_under(CheckPolicy::default(), facts, cart, allowed)
}

/// [`run`] under a given [`CheckPolicy`] (`Spec` for the conformance cases).
pub fn run_under(policy: CheckPolicy, facts: &Facts, cart: &Cart, allowed: &[Item]) -> Vec<Finding> {
    // guard.md §5 has no product check and puts every requirement to the
    // person: under `spec` the kind asked for is not read at all, and a
    // line's own requirements join the shared ones. Nor are the price floor
    // and free shipping (issue 28 §5): under `spec` they are not facts.
    let spec_facts;
    let per_line = facts.lines.iter().any(|line| line.product.is_some() || !line.other.is_empty());
    let facts = match policy {
        CheckPolicy::Spec
            if facts.product.is_some() || facts.price_min_cents.is_some() || facts.free_shipping || per_line =>
        {
            spec_facts = spec_view(facts);
            &spec_facts
        }
        _ => facts,
    };
    let charges_facts;
    let facts = match policy {
        CheckPolicy::Words
            if facts.lines.iter().any(|line| line.other.iter().any(|text| charges::of_charges_only(text))) =>
        {
            charges_facts = charges_view(facts);
            &charges_facts
        }
        _ => facts,
    };
    let rules = SeverityRules::new(facts);
    // Add-on lines (issue 29) are not among the things asked for: the item
    // rules, lines, quantity, price and requirements run on the other
    // entries (`goods`), whose findings are then pointed back at the cart's
    // own entries; what is paid is checked on the whole cart.
    let addons = if policy == CheckPolicy::Words { checks::addon::lines(cart) } else { Vec::new() };
    let goods_cart;
    let (goods, positions): (&Cart, Vec<usize>) = if addons.is_empty() {
        (cart, (0..cart.entries.len()).collect())
    } else {
        let positions: Vec<usize> =
            (0..cart.entries.len()).filter(|index| !addons.iter().any(|(addon, _)| addon == index)).collect();
        goods_cart = Cart {
            entries: positions.iter().map(|index| cart.entries[*index].clone()).collect(),
            shipping: cart.shipping.clone(),
            charges: cart.charges.clone(),
        };
        (&goods_cart, positions)
    };
    let shared = Target::shared(facts);
    let prepared: Vec<PreparedItem> = goods.entries.iter().map(|entry| PreparedItem::new(&entry.item)).collect();
    let mut findings = Vec::new();

    // The target each entry was checked against, for the price check.
    let mut entry_targets: Vec<Option<Target>> = vec![None; goods.entries.len()];

    if facts.lines.is_empty() {
        for (index, item) in prepared.iter().enumerate() {
            findings
                .extend(ItemRule::ALL.into_iter().filter_map(|rule| item_finding(rule, &shared, item, index, &rules)));
            entry_targets[index] = Some(shared.clone());
        }
        findings.extend(checks::quantity::cart_findings(&shared, goods, &rules, policy == CheckPolicy::Words));
    } else {
        findings.extend(lines::findings(facts, &shared, goods, &prepared, &rules, &mut entry_targets));
    }
    let mut findings = at_positions(findings, &positions);

    findings.extend(checks::explicit_max::findings(facts, cart, &rules, policy));
    findings.extend(at_positions(checks::price_floor::findings(facts, goods, &rules), &positions));
    findings.extend(checks::shipping::findings(facts, cart, &rules));
    findings.extend(at_positions(
        checks::price::findings(facts, goods, allowed, &entry_targets, &rules).into_iter().collect(),
        &positions,
    ));
    findings.extend(at_positions(checks::other::findings(facts, goods, cart, &rules, policy), &positions));
    if policy == CheckPolicy::Words {
        findings.extend(checks::total::findings(cart));
        findings.extend(checks::fees::findings(facts, cart));
        findings.extend(checks::recurring::findings(facts, cart));
        findings.extend(checks::addon::findings(facts, cart, &addons));
    }
    findings
}

/// Findings on the entries of `goods` (the cart without its add-on lines)
/// pointed at the cart's own entries: `positions[i]` is where entry `i` of
/// `goods` sits in the cart. Unchanged when nothing was left out.
fn at_positions(findings: Vec<Finding>, positions: &[usize]) -> Vec<Finding> {
    if positions.iter().enumerate().all(|(index, position)| index == *position) {
        return findings;
    }
    findings
        .into_iter()
        .map(|mut finding| {
            if let Some(entry) = finding.entry
                && let Some(position) = positions.get(entry).copied()
            {
                let (old, new) = (cart_path(Some(entry)), cart_path(Some(position)));
                finding.entry = Some(position);
                if finding.path == old {
                    finding.path = new.clone();
                }
                finding.id = finding.id.replace(&format!("@{old}"), &format!("@{new}"));
            }
            finding
        })
        .collect()
}

/// The facts with every line requirement that speaks only of charges
/// ("gift-wrapped", "no extra fees", "delivered every month" said beside
/// one product of several) among the shared ones, in line order: what is
/// paid beyond the items is the cart's, not one item's, so it is read
/// against the cart as paid (`checks::other`, issue 29), as a shared one is.
fn charges_view(facts: &Facts) -> Facts {
    let mut view = facts.clone();
    for line in &mut view.lines {
        let (charges, own): (Vec<String>, Vec<String>) =
            line.other.drain(..).partition(|text| charges::of_charges_only(text));
        line.other = own;
        for text in charges {
            if !view.other.contains(&text) {
                view.other.push(text);
            }
        }
    }
    view
}

/// The facts guard.md §5 reads: no product, and every line requirement
/// among the shared ones, in line order.
fn spec_view(facts: &Facts) -> Facts {
    let mut view =
        Facts { product: None, price_min_cents: None, price_min_currency: None, free_shipping: false, ..facts.clone() };
    for line in &mut view.lines {
        line.product = None;
        for text in line.other.drain(..) {
            if !view.other.contains(&text) {
                view.other.push(text);
            }
        }
    }
    view
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::CartEntry;

    #[test]
    fn question_has_the_spec_shape() {
        let facts = Facts { needs_refundable: true, ..Facts::default() };
        let item = Item { name: Some("Babolat Pure Drive 2025".into()), final_sale: Some(true), ..Item::default() };
        let verdict = check(
            &facts,
            &Cart { shipping: None, charges: Default::default(), entries: vec![CartEntry { item, quantity: 1 }] },
            &[],
        );
        assert_eq!(verdict.decision, Decision::Ask);
        assert_eq!(
            verdict.question.as_deref(),
            Some(
                "Before I buy this, please check:\n\u{2013} Asked to be able to return it, the item is final sale: Babolat Pure Drive 2025.\nShould I still go ahead?"
            )
        );
        assert_eq!(verdict.codes(Severity::Block), vec!["refund"]);
    }

    #[test]
    fn issue_29_an_add_on_line_is_reported_as_one_and_the_rest_checked_in_place() {
        let facts = Facts {
            model: Some("Pegasus 41".into()),
            quantity: Some(1),
            size_label: Some("42".into()),
            ..Facts::default()
        };
        let plan = Item { name: Some("2-Year Protection Plan for Footwear".into()), units: Some(1), ..Item::default() };
        let shoe = Item {
            name: Some("Nike Pegasus 41".into()),
            size: Some("EU 44".into()),
            units: Some(1),
            ..Item::default()
        };
        let cart = Cart {
            entries: vec![CartEntry { item: plan, quantity: 1 }, CartEntry { item: shoe, quantity: 1 }],
            shipping: None,
            charges: Default::default(),
        };
        let findings = run(&facts, &cart, &[]);
        let ids: Vec<&str> = findings.iter().map(|finding| finding.id.as_str()).collect();
        assert_eq!(ids, ["size@$.cart[1]", "addon@$.cart[0]"], "the plan is no wrong model, nor a second unit");
        assert_eq!(findings[0].entry, Some(1));
        // guard.md's rules read every line as a product.
        let spec: Vec<Code> =
            run_under(CheckPolicy::Spec, &facts, &cart, &[]).iter().map(|finding| finding.code).collect();
        assert_eq!(spec, [Code::Model, Code::Unchecked, Code::Size, Code::Quantity]);
    }

    #[test]
    fn issue_29_a_line_s_requirement_of_charges_only_is_read_against_the_cart_as_paid() {
        // "a jewelry gift box and a building blocks set, gift-wrapped please":
        // the wish for wrapping said beside the second product is met by the
        // cart's gift wrapping line, not put to the person about the blocks.
        let line = |product: &str, other: &[&str]| crate::facts::Line {
            product: Some(product.into()),
            other: other.iter().map(|text| (*text).to_owned()).collect(),
            ..crate::facts::Line::default()
        };
        let facts = Facts {
            lines: vec![line("gift box", &[]), line("building blocks set", &["gift-wrapped"])],
            asked: charges::asked("a jewelry gift box and a building blocks set, gift-wrapped please"),
            ..Facts::default()
        };
        let named = |name: &str| CartEntry { item: Item { name: Some(name.into()), ..Item::default() }, quantity: 1 };
        let cart = Cart {
            entries: vec![named("Jewelry Gift Box"), named("Building Blocks Set"), named("Gift Wrapping")],
            shipping: None,
            charges: Default::default(),
        };
        let findings = run(&facts, &cart, &[]);
        let wrap: Vec<(&str, Severity)> = findings
            .iter()
            .filter(|finding| matches!(&finding.expected, Compared::Text(text) if text == "gift-wrapped"))
            .map(|finding| (finding.id.as_str(), finding.severity))
            .collect();
        assert_eq!(wrap, [("other[0]@$.cart", Severity::Warn)], "{findings:#?}");
        // Without the wrapping line it is still put to the person.
        let unwrapped = Cart { entries: cart.entries[..2].to_vec(), ..cart.clone() };
        assert!(
            run(&facts, &unwrapped, &[])
                .iter()
                .any(|finding| finding.id == "other[0]@$.cart" && finding.severity == Severity::Block)
        );
        // A line's own requirement of the product stays the line's.
        let leather =
            Facts { lines: vec![line("belt", &["made of leather"]), line("wallet", &[])], ..Facts::default() };
        assert_eq!(charges_view(&leather), leather);
    }

    #[test]
    fn issue_29_the_spec_policy_reads_no_charge_beyond_the_items() {
        let facts = Facts { explicit_max_cents: Some(10_000), ..Facts::default() };
        let item = Item {
            name: Some("Coffee - Subscribe & Save".into()),
            price_cents: Some(9_000),
            currency: Some("USD".into()),
            ..Item::default()
        };
        let charges = crate::cart::Charges {
            currency: Some("USD".into()),
            total: Some(12_500),
            fees: vec![crate::cart::Fee { label: "Service fee".into(), minor: 3_000 }],
            itemised: true,
            ..Default::default()
        };
        let cart = Cart { entries: vec![CartEntry { item, quantity: 1 }], shipping: None, charges };
        assert!(run_under(CheckPolicy::Spec, &facts, &cart, &[]).is_empty());
        let mut words: Vec<&str> = run(&facts, &cart, &[]).iter().map(|finding| finding.code.as_str()).collect();
        words.sort_unstable();
        assert_eq!(words, ["explicit-max", "fee", "recurring", "total-mismatch"]);
    }

    #[test]
    fn warnings_alone_proceed_with_notes() {
        let facts = Facts { deadline_days: Some(3), ..Facts::default() };
        let item = Item { name: Some("Racket".into()), ..Item::default() };
        let verdict = check(
            &facts,
            &Cart { shipping: None, charges: Default::default(), entries: vec![CartEntry { item, quantity: 1 }] },
            &[],
        );
        assert_eq!(verdict.decision, Decision::Proceed);
        assert_eq!(verdict.question, None);
        assert_eq!(verdict.notes.len(), 1);
        assert_eq!(verdict.codes(Severity::Warn), vec!["unchecked"]);
    }

    #[test]
    fn issue_13_unchecked_sentences_name_fields_as_people_say_them() {
        let facts = Facts {
            brand: Some("Nike".into()),
            model: Some("Pegasus 41".into()),
            color: Some("black".into()),
            size_label: Some("42".into()),
            level: Some(crate::facts::Level::Beginner),
            needs_refundable: true,
            deadline_days: Some(4),
            quantity: Some(2),
            explicit_max_cents: Some(30_000),
            ..Facts::default()
        };
        let item = Item { id: Some("sku-1".into()), ..Item::default() };
        let verdict = check(
            &facts,
            &Cart { shipping: None, charges: Default::default(), entries: vec![CartEntry { item, quantity: 2 }] },
            &[],
        );
        assert_eq!(
            verdict.notes,
            [
                "Could not check the brand: the store does not say its brand: sku-1.",
                "Could not check the model: the store does not say its name: sku-1.",
                "Could not check the colour: the store does not say its colour: sku-1.",
                "Could not check the size: the store does not say its size: sku-1.",
                "Could not check the level: the store does not say its level: sku-1.",
                "Could not check whether it can be returned: the store does not say whether it is final sale: sku-1.",
                "Could not check the delivery deadline: the store does not say its delivery time: sku-1.",
                "Could not check the quantity: the store does not say how many units one pack holds: sku-1.",
                "Could not check the spending limit: the store does not say its price: sku-1.",
            ]
        );
    }
}
