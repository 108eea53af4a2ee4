//! Lines: assigning cart entries to the variants the person asked for
//! (guard.md §5 "With lines").
//!
//! The assignment minimises blocking findings + missing lines + extra
//! entries + strays (an item paired with a line whose product its words do
//! not name, while they name another line's), exactly, as a square assignment problem solved by the Hungarian
//! method in O((n+m)³): rows are the lines plus one "extra" row per entry,
//! columns the entries plus one "missing" column per line. Ties are broken by
//! fewer warnings, then by how far each pair is from the diagonal (line i
//! prefers entry i), through lexicographic weights, so the result never
//! depends on anything but the input order.

use crate::cart::Cart;
use crate::checks::{ItemRule, PairCost, PreparedItem, SeverityRules, Target, item_finding, pair_cost, pair_findings};
use crate::facts::{Facts, FieldName, Line};
use crate::finding::{Code, Compared, Finding, Severity, cart_path};
use crate::messages::{ItemName, Message, MissingLine};

/// Above this many lines or cart entries the guard does not assign: it
/// returns a `lines` finding and the order goes to the person. 256 keeps the
/// O(n³) solve in the low milliseconds-to-tens-of-milliseconds range on a
/// small machine while being far above any real order.
pub const MAX_ASSIGNED: usize = 256;

/// Which entry each line got and which line each entry got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assignment {
    pub line_to_entry: Vec<Option<usize>>,
    pub entry_to_line: Vec<Option<usize>>,
}

/// Solves the assignment for `line_count` lines and `entry_count` entries,
/// given each pair's finding counts (`cost_of`) and the findings an entry
/// raises on its own when no line claims it (`extra_cost_of`, not counting
/// the `extra` finding itself).
pub fn assign(
    line_count: usize,
    entry_count: usize,
    cost_of: impl Fn(usize, usize) -> PairCost,
    extra_cost_of: impl Fn(usize) -> PairCost,
) -> Assignment {
    let size = line_count + entry_count;
    let mut costs = vec![PairCost::default(); line_count * entry_count];
    for line in 0..line_count {
        for entry in 0..entry_count {
            costs[line * entry_count + entry] = cost_of(line, entry);
        }
    }
    let extra_costs: Vec<PairCost> = (0..entry_count).map(extra_cost_of).collect();
    // Lexicographic weights: one block outweighs every warning and every tie
    // term together; one warning outweighs every tie term together. Each
    // entry is in exactly one pair or extra, so the largest warning count per
    // entry bounds the total.
    let max_tie_total = (line_count as i64) * (size as i64) + 1;
    let max_warn_total: i64 = (0..entry_count)
        .map(|entry| {
            let paired = (0..line_count).map(|line| costs[line * entry_count + entry].warns).max().unwrap_or(0);
            i64::from(paired.max(extra_costs[entry].warns))
        })
        .sum();
    let warn_weight = max_tie_total + 1;
    let block_weight = (max_warn_total + 1) * warn_weight + max_tie_total + 1;

    let mut matrix = vec![0i64; size * size];
    for row in 0..size {
        for column in 0..size {
            let value = match (row < line_count, column < entry_count) {
                (true, true) => {
                    let cost = costs[row * entry_count + column];
                    i64::from(cost.blocks + cost.strays) * block_weight
                        + i64::from(cost.warns) * warn_weight
                        + (row as i64 - column as i64).abs()
                }
                // A line left without an entry: one `missing` finding.
                (true, false) => block_weight,
                // An entry no line claims: one `extra` finding plus what the
                // shared facts find on it.
                (false, true) => {
                    let extra = extra_costs[column];
                    (1 + i64::from(extra.blocks)) * block_weight + i64::from(extra.warns) * warn_weight
                }
                (false, false) => 0,
            };
            matrix[row * size + column] = value;
        }
    }
    let row_to_column = hungarian(&matrix, size);
    let mut assignment = Assignment { line_to_entry: vec![None; line_count], entry_to_line: vec![None; entry_count] };
    for (line, &column) in row_to_column.iter().enumerate().take(line_count) {
        if column < entry_count {
            assignment.line_to_entry[line] = Some(column);
            assignment.entry_to_line[column] = Some(line);
        }
    }
    assignment
}

/// Minimum-cost perfect matching on a square matrix (row-major), returning
/// the column of each row. The classic potentials formulation of the
/// Hungarian method; deterministic for a given matrix.
pub fn hungarian(matrix: &[i64], size: usize) -> Vec<usize> {
    const INFINITY: i64 = i64::MAX / 4;
    let mut row_potential = vec![0i64; size + 1];
    let mut column_potential = vec![0i64; size + 1];
    // column_owner[j]: the row matched to column j (1-based; 0 = none).
    let mut column_owner = vec![0usize; size + 1];
    let mut way = vec![0usize; size + 1];
    for row in 1..=size {
        column_owner[0] = row;
        let mut current_column = 0usize;
        let mut min_slack = vec![INFINITY; size + 1];
        let mut used = vec![false; size + 1];
        loop {
            used[current_column] = true;
            let current_row = column_owner[current_column];
            let mut delta = INFINITY;
            let mut next_column = 0usize;
            for column in 1..=size {
                if used[column] {
                    continue;
                }
                let slack = matrix[(current_row - 1) * size + (column - 1)]
                    - row_potential[current_row]
                    - column_potential[column];
                if slack < min_slack[column] {
                    min_slack[column] = slack;
                    way[column] = current_column;
                }
                if min_slack[column] < delta {
                    delta = min_slack[column];
                    next_column = column;
                }
            }
            for column in 0..=size {
                if used[column] {
                    row_potential[column_owner[column]] += delta;
                    column_potential[column] -= delta;
                } else {
                    min_slack[column] -= delta;
                }
            }
            current_column = next_column;
            if column_owner[current_column] == 0 {
                break;
            }
        }
        loop {
            let previous = way[current_column];
            column_owner[current_column] = column_owner[previous];
            current_column = previous;
            if current_column == 0 {
                break;
            }
        }
    }
    let mut row_to_column = vec![0usize; size];
    for column in 1..=size {
        if column_owner[column] != 0 {
            row_to_column[column_owner[column] - 1] = column - 1;
        }
    }
    row_to_column
}

/// Every finding of a cart against facts with lines; fills `entry_targets`
/// with the target each entry was checked against.
pub fn findings(
    facts: &Facts,
    shared: &Target,
    cart: &Cart,
    prepared: &[PreparedItem],
    rules: &SeverityRules,
    entry_targets: &mut [Option<Target>],
) -> Vec<Finding> {
    if facts.lines.len() > MAX_ASSIGNED || cart.entries.len() > MAX_ASSIGNED {
        return vec![
            Finding {
                id: "lines@$.cart".to_owned(),
                code: Code::Lines,
                severity: Severity::Block,
                field: FieldName::Lines,
                line: None,
                path: "$.cart".to_owned(),
                entry: None,
                expected: Compared::Lines { lines: facts.lines.len() },
                actual: Compared::Entries { entries: cart.entries.len() },
                reason: String::new(),
                message: None,
            }
            .say(Message::TooManyLines {
                lines: facts.lines.len(),
                entries: cart.entries.len(),
                bound: MAX_ASSIGNED,
            }),
        ];
    }
    let targets: Vec<Target> =
        facts.lines.iter().enumerate().map(|(index, line)| shared.for_line(index, line)).collect();
    let shared_only = shared.shared_only();
    // Which lines' products each item's words name. An item that names one
    // line's product ("… Address Label Stickers" for "stickers") belongs
    // with that line even when it contradicts one of the line's
    // requirements: paired with a line whose product it does not name, it
    // strays, which weighs a block. Else swapping two items between their
    // lines would trade the contradiction for requirements the other line's
    // item merely does not say (a warning each), and the wrong item would
    // pass as the other line's. An item that names no line's product (its
    // kind left open) strays nowhere.
    let names: Vec<Vec<bool>> = prepared
        .iter()
        .map(|item| {
            targets
                .iter()
                .map(|target| {
                    target.product.as_deref().is_some_and(|wanted| item.names_kind(wanted, target.product_noun()))
                })
                .collect()
        })
        .collect();
    let assignment = assign(
        targets.len(),
        cart.entries.len(),
        |line, entry| {
            let mut cost = pair_cost(&targets[line], &prepared[entry], cart.entries[entry].quantity, rules);
            cost.strays = u32::from(!names[entry][line] && names[entry].iter().any(|named| *named));
            cost
        },
        |entry| pair_cost(&shared_only, &prepared[entry], cart.entries[entry].quantity, rules),
    );

    let mut findings = Vec::new();
    for (entry_index, entry) in cart.entries.iter().enumerate() {
        match assignment.entry_to_line[entry_index] {
            Some(line) => {
                findings.extend(pair_findings(&targets[line], &prepared[entry_index], entry, entry_index, rules));
                entry_targets[entry_index] = Some(targets[line].clone());
            }
            None => {
                let path = cart_path(Some(entry_index));
                findings.push(
                    Finding {
                        id: format!("extra@{path}"),
                        code: Code::Extra,
                        severity: rules.extra_severity(),
                        field: FieldName::Lines,
                        line: None,
                        path,
                        entry: Some(entry_index),
                        expected: Compared::Nothing,
                        actual: Compared::Text(entry.item.display_name()),
                        reason: String::new(),
                        message: None,
                    }
                    .say(Message::Extra { item: ItemName::of(&entry.item) }),
                );
                findings.extend(
                    ItemRule::ALL.into_iter().filter_map(|rule| {
                        item_finding(rule, &shared_only, &prepared[entry_index], entry_index, rules)
                    }),
                );
                entry_targets[entry_index] = Some(shared_only.clone());
            }
        }
    }
    for (line_index, line) in facts.lines.iter().enumerate() {
        if assignment.line_to_entry[line_index].is_none() {
            findings.push(missing(line_index, line, &targets[line_index]));
        }
    }
    findings
}

/// A line with no cart entry: always blocks, because an order missing part
/// of what was asked is worse than one extra question (guard.md §5).
fn missing(index: usize, line: &Line, target: &Target) -> Finding {
    let wanted = MissingLine {
        index,
        product: target.product.clone().filter(|_| line.product.is_some()),
        model: target.model.iter().chain(&target.model_any).map(|model| model.raw.clone()).collect(),
        colour: target.color.iter().chain(&target.color_any).map(|colour| colour.raw.clone()).collect(),
        size: target.size.iter().chain(&target.size_any).map(|size| size.raw.clone()).collect(),
        quantity: target.quantities(),
    };
    Finding {
        id: format!("missing@lines[{index}]"),
        code: Code::Missing,
        severity: Severity::Block,
        field: FieldName::Lines,
        line: Some(index),
        path: "$.cart".to_owned(),
        entry: None,
        expected: Compared::Line(Box::new(line.clone())),
        actual: Compared::Nothing,
        reason: String::new(),
        message: None,
    }
    .say(Message::Missing(wanted))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn brute_force(matrix: &[i64], size: usize) -> i64 {
        fn permute(index: usize, size: usize, used: &mut Vec<bool>, matrix: &[i64], total: i64, best: &mut i64) {
            if index == size {
                *best = (*best).min(total);
                return;
            }
            for column in 0..size {
                if !used[column] {
                    used[column] = true;
                    permute(index + 1, size, used, matrix, total + matrix[index * size + column], best);
                    used[column] = false;
                }
            }
        }
        let mut best = i64::MAX;
        permute(0, size, &mut vec![false; size], matrix, 0, &mut best);
        best
    }

    proptest! {
        #[test]
        fn hungarian_is_optimal(size in 1usize..7, seed in proptest::collection::vec(0i64..50, 49)) {
            let matrix: Vec<i64> = seed.into_iter().take(size * size).collect();
            prop_assume!(matrix.len() == size * size);
            let assignment = hungarian(&matrix, size);
            let mut seen = vec![false; size];
            for &column in &assignment {
                prop_assert!(!seen[column], "a column used twice");
                seen[column] = true;
            }
            let total: i64 = assignment.iter().enumerate().map(|(row, &column)| matrix[row * size + column]).sum();
            prop_assert_eq!(total, brute_force(&matrix, size));
        }
    }

    #[test]
    fn equal_pairs_follow_the_diagonal() {
        let assignment = assign(3, 3, |_, _| PairCost::default(), |_| PairCost::default());
        assert_eq!(assignment.line_to_entry, vec![Some(0), Some(1), Some(2)]);
    }

    #[test]
    fn fewer_blocks_beat_the_diagonal_and_missing_costs_one() {
        // Line 0 fits entry 1; pairing line 1 with entry 0 costs three blocks,
        // more than leaving line 1 missing and entry 0 extra (two).
        let assignment = assign(
            2,
            2,
            |line, entry| match (line, entry) {
                (0, 1) => PairCost::default(),
                (0, 0) => PairCost { blocks: 1, warns: 0, strays: 0 },
                _ => PairCost { blocks: 3, warns: 0, strays: 0 },
            },
            |_| PairCost::default(),
        );
        assert_eq!(assignment.line_to_entry, vec![Some(1), None]);
        assert_eq!(assignment.entry_to_line, vec![None, Some(0)]);
    }

    #[test]
    fn a_stray_weighs_a_block_so_a_contradiction_is_not_traded_for_a_swap() {
        // Entry 0 names line 0's product and contradicts one of its
        // requirements (a block); swapped, each entry would only leave the
        // other line's requirements unread (warnings). Without strays the
        // swap wins; with them (each entry names its own line's product and
        // not the other's) the entries stay on their lines.
        let swapped = |strays: u32| {
            assign(
                2,
                2,
                |line, entry| match (line, entry) {
                    (0, 0) => PairCost { blocks: 1, warns: 0, strays: 0 },
                    (1, 1) => PairCost::default(),
                    _ => PairCost { blocks: 0, warns: 2, strays },
                },
                |_| PairCost::default(),
            )
        };
        assert_eq!(swapped(0).line_to_entry, vec![Some(1), Some(0)]);
        assert_eq!(swapped(1).line_to_entry, vec![Some(0), Some(1)]);
    }

    #[test]
    fn an_item_naming_its_lines_product_keeps_it_when_it_contradicts_a_requirement() {
        use crate::cart::{CartEntry, Item, ItemWords, NamedValue};
        let line = |product: &str, other: &[&str]| Line {
            product: Some(product.to_owned()),
            other: other.iter().map(|text| (*text).to_owned()).collect(),
            ..Line::default()
        };
        let facts = Facts {
            lines: vec![line("stickers", &["made of plastic"]), line("photo printer", &["USB compatibility"])],
            ..Facts::default()
        };
        let stickers = Item {
            name: Some("Address Label Stickers 500pcs".into()),
            words: ItemWords { attributes: vec![NamedValue::new("Material", "metal")], ..ItemWords::default() },
            ..Item::default()
        };
        let printer = Item { name: Some("Wireless Photo Printer".into()), ..Item::default() };
        let cart = Cart {
            entries: vec![CartEntry { item: stickers, quantity: 1 }, CartEntry { item: printer, quantity: 1 }],
            shipping: None,
            charges: crate::cart::Charges::default(),
        };
        let prepared: Vec<PreparedItem> = cart.entries.iter().map(|entry| PreparedItem::new(&entry.item)).collect();
        let rules = SeverityRules::new(&facts);
        let mut targets = vec![None, None];
        let found = findings(&facts, &Target::shared(&facts), &cart, &prepared, &rules, &mut targets);
        let contradicted: Vec<_> = found
            .iter()
            .filter(|finding| finding.code == Code::OtherContradicted)
            .map(|finding| finding.line)
            .collect();
        assert_eq!(contradicted, vec![Some(0)], "{found:#?}");
    }

    #[test]
    fn an_extra_entrys_own_blocks_count() {
        // Pairing line 1 with entry 0 costs two blocks; leaving it missing and
        // the entry extra costs two as well, plus the entry's own shared-fact
        // block (say a wrong brand): three. The pair wins.
        let assignment = assign(
            2,
            2,
            |line, entry| match (line, entry) {
                (0, 1) => PairCost::default(),
                _ => PairCost { blocks: 2, warns: 0, strays: 0 },
            },
            |entry| if entry == 0 { PairCost { blocks: 1, warns: 0, strays: 0 } } else { PairCost::default() },
        );
        assert_eq!(assignment.line_to_entry, vec![Some(1), Some(0)]);
    }
}
