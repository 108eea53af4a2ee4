//! A line's own requirements (`lines[i].other`): of several products, what
//! the person required of one of them ("a tactical belt … crafted from
//! canvas") is checked against the item that line is given, not against
//! the whole cart (`words::reading`): an item whose own words say it is a
//! note quoting them; one whose words plainly say otherwise blocks
//! (`other-contradicted`, "Material: polyester" for "made of canvas");
//! otherwise the person is asked, as for `other` (guard.md §5). A material
//! the line's product phrase names ("a plastic colander") is read too, for
//! a contradiction only (`words::contradiction::product_material`): it was
//! never a question, and an item that does not say it stays unasked. Runs only
//! under the `words` check policy: under `spec` the decision moves every
//! line requirement to the shared `other` first.

use super::{PairCost, PreparedItem, SeverityRules, Source, Target};
use crate::facts::FieldName;
use crate::finding::{Code, Compared, Finding, Severity, cart_path};
use crate::messages::{ItemName, ItemSays, Message};
use crate::words::reading::{Contradiction, Reading, Requirement, Said};

/// How the item reads a line's requirement. One that only names the line's
/// product again ("with the pet treat priced from 74 to 142 pesos") is met
/// where the item's name names that kind, as the product check reads it
/// ("… PAW COOKIES …" for a pet treat); otherwise it is read as any other.
fn read(target: &Target, requirement: &Requirement, item: &PreparedItem) -> Reading {
    restated(target, requirement, item)
        .map_or_else(|| item.read(requirement), |said| Reading::Met(Said { quote: said }))
}

/// The item's words that name the kind, for a requirement that restates
/// the line's product.
fn restated(target: &Target, requirement: &Requirement, item: &PreparedItem) -> Option<String> {
    target.line?;
    let product = target.product.as_deref()?;
    if !crate::words::requirement::restates_product(requirement.text(), product) {
        return None;
    }
    item.kind_said(target.product_noun())
}

/// How a requirement reads, for a pair's cost: no reading copied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Weight {
    Nothing,
    Unknown,
    Contradicted,
}

/// What the item's material attribute says against a material the line's
/// product phrase names, if it contradicts it.
fn product_contradiction(target: &Target, item: &PreparedItem) -> Option<Contradiction> {
    target.line?;
    target.product.as_deref().and_then(|product| item.product_material(product, target.product_materials()))
}

/// The line's severity for a requirement the item does not say.
fn severity(target: &Target, rules: &SeverityRules) -> Severity {
    match target.line {
        Some(index) => rules.severity(FieldName::Other, Source::Line(index)),
        None => rules.severity(FieldName::Other, Source::Shared),
    }
}

/// What pairing `target` with `item` costs for the line's requirements: a
/// requirement the item says costs nothing; one its words plainly
/// contradict costs what its finding would; one it does not say costs a
/// warning's weight whatever its finding's severity. Not reading a
/// requirement in an item is no sign that the item is another line's (the
/// right item seldom repeats the person's words), so it must not outweigh
/// a pairing's real mismatches and leave a line `missing` and its item
/// `extra`; among otherwise equal items, the one that says more wins.
pub fn cost(target: &Target, item: &PreparedItem, rules: &SeverityRules) -> PairCost {
    let mut cost = PairCost::default();
    for requirement in &target.other {
        if restated(target, requirement, item).is_some() {
            continue;
        }
        let weight = item.read_with(requirement, |reading| match reading {
            Reading::Met(_) | Reading::ShopCategory => Weight::Nothing,
            Reading::Unknown => Weight::Unknown,
            Reading::Contradicted(_) => Weight::Contradicted,
        });
        match weight {
            Weight::Nothing => {}
            Weight::Unknown => cost.warns += 1,
            Weight::Contradicted => match severity(target, rules) {
                Severity::Block => cost.blocks += 1,
                Severity::Warn => cost.warns += 1,
            },
        }
    }
    if product_contradiction(target, item).is_some() {
        match severity(target, rules) {
            Severity::Block => cost.blocks += 1,
            Severity::Warn => cost.warns += 1,
        }
    }
    cost
}

/// The findings of the line's requirements on entry `index`.
pub fn findings(target: &Target, item: &PreparedItem, index: usize, rules: &SeverityRules) -> Vec<Finding> {
    let path = cart_path(Some(index));
    let name = ItemName::of(item.item);
    let mut found: Vec<Finding> = target
        .other
        .iter()
        .enumerate()
        .map(|(position, requirement)| {
            let text = requirement.text().to_owned();
            let (code, severity, actual, message) = match read(target, requirement, item) {
                Reading::Met(said) => (
                    Code::Other,
                    Severity::Warn,
                    Compared::Text(said.quote.clone()),
                    Message::OtherSaid { text: text.clone(), said: said.quote, item: name.clone() },
                ),
                Reading::Contradicted(contradiction) => (
                    Code::OtherContradicted,
                    severity(target, rules),
                    Compared::Text(contradiction.item_says.clone()),
                    Message::OtherContradicted {
                        text: text.clone(),
                        items: vec![ItemSays { said: contradiction.item_says, item: name.clone() }],
                    },
                ),
                Reading::ShopCategory => (
                    Code::Other,
                    Severity::Warn,
                    Compared::Nothing,
                    Message::OtherCategory { text: text.clone(), items: vec![name.clone()] },
                ),
                Reading::Unknown => (
                    Code::Other,
                    severity(target, rules),
                    Compared::Nothing,
                    Message::Other { text: text.clone(), items: vec![name.clone()] },
                ),
            };
            let field = match target.line {
                Some(line) => format!("lines[{line}].other[{position}]"),
                None => format!("other[{position}]"),
            };
            Finding {
                id: format!("{field}@{path}"),
                code,
                severity,
                field: FieldName::Other,
                line: target.line,
                path: path.clone(),
                entry: Some(index),
                expected: Compared::Text(text.clone()),
                actual,
                reason: String::new(),
                message: None,
            }
            .say(message)
        })
        .collect();
    if let (Some(line), Some(product), Some(contradiction)) =
        (target.line, target.product.as_deref(), product_contradiction(target, item))
    {
        found.push(
            Finding {
                id: format!("lines[{line}].product@{path}"),
                code: Code::OtherContradicted,
                severity: severity(target, rules),
                field: FieldName::Other,
                line: Some(line),
                path: path.clone(),
                entry: Some(index),
                expected: Compared::Text(product.to_owned()),
                actual: Compared::Text(contradiction.item_says.clone()),
                reason: String::new(),
                message: None,
            }
            .say(Message::OtherContradicted {
                text: product.to_owned(),
                items: vec![ItemSays { said: contradiction.item_says, item: name }],
            }),
        );
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::Item;
    use crate::facts::{Facts, Line};

    fn line_target(other: &[&str]) -> (Target, SeverityRules) {
        let line = Line { other: other.iter().map(|text| (*text).to_owned()).collect(), ..Line::default() };
        let facts = Facts { lines: vec![line.clone()], ..Facts::default() };
        (Target::shared(&facts).for_line(0, &line), SeverityRules::new(&facts))
    }

    #[test]
    fn a_requirement_the_item_says_is_a_note_and_one_it_does_not_is_asked() {
        let (target, rules) = line_target(&["made of leather", "a relaxed style"]);
        let item = Item { name: Some("Men Leather Business Casual Belt".into()), ..Item::default() };
        let prepared = PreparedItem::new(&item);
        let found = findings(&target, &prepared, 1, &rules);
        let summary: Vec<_> = found.iter().map(|finding| (finding.id.as_str(), finding.severity)).collect();
        assert_eq!(
            summary,
            vec![("lines[0].other[0]@$.cart[1]", Severity::Warn), ("lines[0].other[1]@$.cart[1]", Severity::Block)]
        );
        assert_eq!(found[1].line, Some(0));
        assert_eq!(cost(&target, &prepared, &rules), PairCost { blocks: 0, warns: 1, strays: 0 });
    }

    #[test]
    fn the_line_s_product_named_again_is_met_where_the_item_names_that_kind() {
        let line = Line { product: Some("shoes".into()), other: vec!["the shoes".into()], ..Line::default() };
        let facts = Facts { lines: vec![line.clone()], ..Facts::default() };
        let (target, rules) = (Target::shared(&facts).for_line(0, &line), SeverityRules::new(&facts));
        let read = |name: &str| {
            let item = Item { name: Some(name.into()), ..Item::default() };
            let prepared = PreparedItem::new(&item);
            let found = findings(&target, &prepared, 0, &rules);
            (found.iter().map(|finding| finding.severity).collect::<Vec<_>>(), cost(&target, &prepared, &rules).warns)
        };
        // The item's words never say "shoes"; its name names the kind.
        assert_eq!(read("Adidas Trainers"), (vec![Severity::Warn], 0));
        // A name that leaves the kind open still asks ("Nike Pegasus 41").
        assert_eq!(read("Nike Pegasus 41"), (vec![Severity::Block], 1));
    }

    #[test]
    fn a_soft_line_requirement_warns() {
        let line = Line { other: vec!["gift box".into()], ..Line::default() };
        let facts = Facts {
            lines: vec![line.clone()],
            soft: [crate::facts::FieldRef::Line { index: 0, field: FieldName::Other }].into(),
            ..Facts::default()
        };
        let target = Target::shared(&facts).for_line(0, &line);
        let item = Item { name: Some("Ring".into()), ..Item::default() };
        let found = findings(&target, &PreparedItem::new(&item), 0, &SeverityRules::new(&facts));
        assert_eq!(found[0].severity, Severity::Warn);
    }

    #[test]
    fn a_material_the_lines_product_names_blocks_only_when_contradicted() {
        let line = Line { product: Some("plastic colander".into()), ..Line::default() };
        let facts = Facts { lines: vec![line.clone()], ..Facts::default() };
        let (target, rules) = (Target::shared(&facts).for_line(0, &line), SeverityRules::new(&facts));
        let with_material = |material: &str| Item {
            name: Some("Salad Spinner With Bowl Colander".into()),
            words: crate::cart::ItemWords {
                attributes: vec![crate::cart::NamedValue::new("Material", material)],
                ..crate::cart::ItemWords::default()
            },
            ..Item::default()
        };
        let metal = with_material("metal");
        let prepared = PreparedItem::new(&metal);
        let found = findings(&target, &prepared, 0, &rules);
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].code, found[0].severity), (Code::OtherContradicted, Severity::Block));
        assert_eq!(found[0].id, "lines[0].product@$.cart[0]");
        assert_eq!(
            found[0].reason,
            "You asked for \u{201c}plastic colander\u{201d}; the item says \u{201c}Material: metal\u{201d} \
             (Salad Spinner With Bowl Colander)."
        );
        assert_eq!(cost(&target, &prepared, &rules), PairCost { blocks: 1, warns: 0, strays: 0 });
        // The same material, or an item that does not say one: nothing, never a question.
        let plastic = with_material("plastic");
        assert!(findings(&target, &PreparedItem::new(&plastic), 0, &rules).is_empty());
        let silent = Item { name: Some("Colander".into()), ..Item::default() };
        assert!(findings(&target, &PreparedItem::new(&silent), 0, &rules).is_empty());
        assert_eq!(cost(&target, &PreparedItem::new(&silent), &rules), PairCost::default());
    }

    #[test]
    fn a_requirement_the_item_contradicts_blocks_and_costs_a_block() {
        let (target, rules) = line_target(&["crafted from canvas"]);
        let item = Item {
            name: Some("Tactical Belt".into()),
            words: crate::cart::ItemWords {
                attributes: vec![crate::cart::NamedValue { name: "Belt material".into(), value: "leather".into() }],
                ..crate::cart::ItemWords::default()
            },
            ..Item::default()
        };
        let prepared = PreparedItem::new(&item);
        let found = findings(&target, &prepared, 0, &rules);
        assert_eq!((found[0].code, found[0].severity), (Code::OtherContradicted, Severity::Block));
        assert_eq!(cost(&target, &prepared, &rules), PairCost { blocks: 1, warns: 0, strays: 0 });
    }
}
