//! `asasked compare`: how well each extractor reads the requests, and what
//! pairing two of them does to the guard's decisions.
//!
//! For every extractor named in a pair: per-field accuracy against the gold
//! facts, latency and tokens. For every pair: how often each field was
//! disputed, and the effect of the merged facts on the labelled carts (wrong
//! carts missed, right carts stopped, questions beyond those the gold facts
//! would ask). Each extractor runs once per request: pairs reuse its output
//! through [`Memo`], so a hosted provider is not paid twice, and both singles
//! and pairs go through [`ExtractorSet`] exactly as a real check does.
//!
//! Exact-match rules per field: strings compare after [`normalize::fold`]
//! (case-insensitive), lists (`brand_not`, `other`, `other_optional`, `soft`)
//! as sets of folded strings, `lines` as a multiset of folded lines (order is
//! not meaning), everything else by equality. A field both leave unstated
//! (null = null) is correct; an extractor that failed on a task is wrong on
//! every field of it.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::sync::{Arc, Mutex};

use chrono::NaiveDate;
use futures_util::StreamExt;
use serde::Serialize;

use super::dataset::{Dataset, Label, SplitFilter, Task};
use super::extractor_set;
use super::replay::EXTRACTION_CONCURRENCY;
use crate::catalog::Catalog;
use crate::decision::{Decision, check};
use crate::extract::merge::MergePolicy;
use crate::extract::name::{ExtractorName, NameError, parse_list};
use crate::extract::set::{ExtractorSet, SetError, SetOutcome};
use crate::extract::{Cost, ExtractError, ExtractFuture, ExtractInput, Extraction, Extractor};
use crate::facts::{FactKey, Facts, FieldName, FieldRef, Line};
use crate::finding::Severity;
use crate::normalize;

/// The fields scored: every fact field of guard.md §3 except `disputed`.
pub const FIELDS: [FactKey; 20] = [
    FactKey::Brand,
    FactKey::BrandAny,
    FactKey::BrandNot,
    FactKey::Model,
    FactKey::Color,
    FactKey::ColorAny,
    FactKey::ColorNot,
    FactKey::SizeLabel,
    FactKey::SizeAny,
    FactKey::Level,
    FactKey::PricePreference,
    FactKey::ExplicitMaxCents,
    FactKey::ExplicitMaxCurrency,
    FactKey::Quantity,
    FactKey::NeedsRefundable,
    FactKey::DeadlineDays,
    FactKey::Lines,
    FactKey::Other,
    FactKey::OtherOptional,
    FactKey::Soft,
];

/// Two extractors compared as a set, in order (the first breaks ties, §4.2).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pair {
    pub first: ExtractorName,
    pub second: ExtractorName,
}

/// A `--pair` that is not two different extractor names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PairError {
    #[error("pair {0:?} is not two comma-separated extractor names")]
    NotTwo(String),
    #[error("pair {0:?} names the same extractor twice")]
    Same(String),
    #[error(transparent)]
    Name(#[from] NameError),
}

impl Pair {
    /// Parses `a,b`.
    pub fn parse(text: &str) -> Result<Pair, PairError> {
        let names = match parse_list(text) {
            Err(NameError::Empty) => Vec::new(),
            names => names?,
        };
        match <[ExtractorName; 2]>::try_from(names) {
            Ok([first, second]) if first.to_string() != second.to_string() => Ok(Pair { first, second }),
            Ok(_) => Err(PairError::Same(text.to_owned())),
            Err(_) => Err(PairError::NotTwo(text.to_owned())),
        }
    }

    pub fn label(&self) -> String {
        format!("{} + {}", self.first, self.second)
    }
}

/// Correct answers for one field.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct FieldScore {
    pub correct: u64,
    pub total: u64,
    /// Over the tasks whose gold states the field.
    pub stated_correct: u64,
    pub stated_total: u64,
}

impl FieldScore {
    pub fn accuracy(&self) -> Option<f64> {
        (self.total > 0).then(|| self.correct as f64 / self.total as f64)
    }

    pub fn stated_accuracy(&self) -> Option<f64> {
        (self.stated_total > 0).then(|| self.stated_correct as f64 / self.stated_total as f64)
    }
}

/// What a fact set does to the guard's decisions on the labelled carts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct DecisionEffect {
    pub wrong_carts: u64,
    /// Wrong carts that proceeded, or were asked about only for reasons in
    /// `expect_ask_on_right` (the `other` question, which the person answers
    /// yes on every cart): the same rule as `right_stopped`, so a task with a
    /// free-text must does not catch every wrong cart by asking about it.
    /// A task whose extraction failed asks (`engine_error`) and misses none.
    pub wrong_missed: u64,
    pub right_carts: u64,
    /// Right carts asked about for a reason beyond `expect_ask_on_right`.
    pub right_stopped: u64,
    /// Carts that asked.
    pub questions: u64,
    /// Carts that asked where the gold facts proceed.
    pub extra_questions: u64,
}

/// One extractor alone.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExtractorRow {
    pub name: String,
    pub failures: u64,
    pub accuracy: BTreeMap<String, FieldScore>,
    /// Alone as guard.md §4.2 lets one extractor decide: every value kept.
    pub decisions: DecisionEffect,
    /// Alone under `grounded`: its values the person's words do not support
    /// dropped first. A pair under `grounded` is fairly compared with its
    /// members under the same policy; this row shows what grounding alone
    /// costs or saves each extractor.
    pub grounded: DecisionEffect,
    pub latency_median_ms: u64,
    pub latency_p95_ms: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    /// Of `input_tokens`, those the provider read from its prompt cache.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cached_input_tokens: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
}

/// One pair, merged.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairRow {
    pub pair: Pair,
    /// The merge policy of this row: every pair runs under both.
    pub policy: MergePolicy,
    /// Tasks that failed closed (either extractor failed).
    pub failures: u64,
    /// Tasks on which each field was disputed (line fields count as `lines`).
    pub disputed: BTreeMap<String, u64>,
    /// Accuracy of the merged facts, disputes ignored.
    pub accuracy: BTreeMap<String, FieldScore>,
    pub decisions: DecisionEffect,
}

impl PairRow {
    /// `a + b (spec)`.
    pub fn label(&self) -> String {
        format!("{} ({})", self.pair.label(), self.policy.as_str())
    }
}

/// A whole comparison.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CompareReport {
    pub dataset: String,
    pub split: SplitFilter,
    pub tasks: u64,
    pub gold_questions: u64,
    pub extractors: Vec<ExtractorRow>,
    pub pairs: Vec<PairRow>,
}

/// An extraction input as a sortable key: request, today, answers.
type MemoKey = (String, NaiveDate, Vec<String>);

/// Remembers each input's extraction, so an extractor shared by several
/// sets (alone and in pairs) runs once per request. Errors are remembered as
/// text: a provider that failed once is not asked again within one compare.
pub struct Memo {
    inner: Arc<dyn Extractor>,
    results: Mutex<BTreeMap<MemoKey, Result<Extraction, String>>>,
}

impl Memo {
    pub fn new(inner: Arc<dyn Extractor>) -> Memo {
        Memo { inner, results: Mutex::new(BTreeMap::new()) }
    }
}

impl Extractor for Memo {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn extract<'a>(&'a self, input: &'a ExtractInput) -> ExtractFuture<'a> {
        Box::pin(async move {
            let key = (input.request.clone(), input.today, input.answers.clone());
            let known = self.results.lock().ok().and_then(|results| results.get(&key).cloned());
            let result = match known {
                Some(result) => result,
                None => {
                    let result = self.inner.extract(input).await.map_err(|error| error.to_string());
                    if let Ok(mut results) = self.results.lock() {
                        results.insert(key, result.clone());
                    }
                    result
                }
            };
            result.map_err(ExtractError::Other)
        })
    }
}

/// Whether `extracted` gets `field` right by the module's exact-match rules.
pub fn field_matches(field: FactKey, extracted: &Facts, gold: &Facts) -> bool {
    let text = |value: &Option<String>| value.as_deref().map(normalize::fold);
    let set = |list: &[String]| list.iter().map(|value| normalize::fold(value)).collect::<BTreeSet<String>>();
    match field {
        FactKey::Brand => text(&extracted.brand) == text(&gold.brand),
        FactKey::BrandAny => set(&extracted.brand_any) == set(&gold.brand_any),
        FactKey::BrandNot => set(&extracted.brand_not) == set(&gold.brand_not),
        FactKey::ColorAny => set(&extracted.color_any) == set(&gold.color_any),
        FactKey::ColorNot => set(&extracted.color_not) == set(&gold.color_not),
        FactKey::SizeAny => set(&extracted.size_any) == set(&gold.size_any),
        FactKey::ExplicitMaxCurrency => extracted.explicit_max_currency == gold.explicit_max_currency,
        FactKey::Model => text(&extracted.model) == text(&gold.model),
        FactKey::Color => text(&extracted.color) == text(&gold.color),
        FactKey::SizeLabel => text(&extracted.size_label) == text(&gold.size_label),
        FactKey::Level => extracted.level == gold.level,
        FactKey::PricePreference => extracted.price_preference == gold.price_preference,
        FactKey::ExplicitMaxCents => extracted.explicit_max_cents == gold.explicit_max_cents,
        FactKey::Quantity => extracted.quantity == gold.quantity,
        FactKey::NeedsRefundable => extracted.needs_refundable == gold.needs_refundable,
        FactKey::DeadlineDays => extracted.deadline_days == gold.deadline_days,
        FactKey::Lines => folded_lines(&extracted.lines) == folded_lines(&gold.lines),
        FactKey::Other => set(&extracted.other) == set(&gold.other),
        FactKey::OtherOptional => set(&extracted.other_optional) == set(&gold.other_optional),
        FactKey::Soft => extracted.soft == gold.soft,
        _ => false,
    }
}

type FoldedLine = (Option<String>, Option<String>, Option<String>, Option<u64>);

fn folded_lines(lines: &[Line]) -> Vec<FoldedLine> {
    let mut folded: Vec<FoldedLine> = lines
        .iter()
        .map(|line| {
            let text = |value: &Option<String>| value.as_deref().map(normalize::fold);
            (text(&line.model), text(&line.color), text(&line.size_label), line.quantity)
        })
        .collect();
    folded.sort();
    folded
}

/// Whether the gold facts state `field` at all.
pub fn stated(field: FactKey, gold: &Facts) -> bool {
    match field {
        FactKey::Brand => gold.brand.is_some(),
        FactKey::BrandAny => !gold.brand_any.is_empty(),
        FactKey::BrandNot => !gold.brand_not.is_empty(),
        FactKey::ColorAny => !gold.color_any.is_empty(),
        FactKey::ColorNot => !gold.color_not.is_empty(),
        FactKey::SizeAny => !gold.size_any.is_empty(),
        FactKey::ExplicitMaxCurrency => gold.explicit_max_currency.is_some(),
        FactKey::Model => gold.model.is_some(),
        FactKey::Color => gold.color.is_some(),
        FactKey::SizeLabel => gold.size_label.is_some(),
        FactKey::Level => gold.level.is_some(),
        FactKey::PricePreference => gold.price_preference.is_some(),
        FactKey::ExplicitMaxCents => gold.explicit_max_cents.is_some(),
        FactKey::Quantity => gold.quantity.is_some(),
        FactKey::NeedsRefundable => gold.needs_refundable,
        FactKey::DeadlineDays => gold.deadline_days.is_some(),
        FactKey::Lines => !gold.lines.is_empty(),
        FactKey::Other => !gold.other.is_empty(),
        FactKey::OtherOptional => !gold.other_optional.is_empty(),
        FactKey::Soft => !gold.soft.is_empty(),
        _ => false,
    }
}

/// Adds one task's facts (or failure) to per-field scores.
pub fn score(scores: &mut BTreeMap<String, FieldScore>, extracted: Option<&Facts>, gold: &Facts) {
    for field in FIELDS {
        let entry = scores.entry(field.as_str().to_owned()).or_default();
        let correct = extracted.is_some_and(|facts| field_matches(field, facts, gold));
        entry.total += 1;
        entry.correct += u64::from(correct);
        if stated(field, gold) {
            entry.stated_total += 1;
            entry.stated_correct += u64::from(correct);
        }
    }
}

/// The field a `disputed` entry is about; line fields count as `lines`.
fn disputed_field(entry: &FieldRef) -> String {
    match entry {
        FieldRef::Shared(field) => field.as_str().to_owned(),
        FieldRef::Line { .. } => FieldName::Lines.as_str().to_owned(),
    }
}

/// Adds one task's decisions on its labelled carts.
fn effect(decisions: &mut DecisionEffect, task: &Task, facts: Option<&Facts>, gold_asks: &[bool], catalog: &Catalog) {
    let allowed = task.allowed_items(catalog);
    for (cart, gold_ask) in task.carts.iter().zip(gold_asks) {
        let (ask, raised) = match facts {
            Some(facts) => {
                let verdict = check(&task.as_asked(facts), &cart.cart, &allowed);
                let raised: BTreeSet<String> = verdict.codes(Severity::Block).into_iter().map(str::to_owned).collect();
                (verdict.decision == Decision::Ask, Some(raised))
            }
            None => (true, None),
        };
        // Asked only for what the task asks on every cart (`other`): the
        // person answers that question yes, whatever the cart.
        let only_expected = raised.as_ref().is_some_and(|raised| raised.is_subset(&task.expect_ask_on_right));
        match cart.label {
            Label::Wrong => {
                decisions.wrong_carts += 1;
                decisions.wrong_missed += u64::from(only_expected);
            }
            Label::Right => {
                decisions.right_carts += 1;
                decisions.right_stopped += u64::from(ask && !only_expected);
            }
        }
        decisions.questions += u64::from(ask);
        decisions.extra_questions += u64::from(ask && !gold_ask);
    }
}

/// Runs every task through one set, in order.
async fn run_set(set: &ExtractorSet, tasks: &[&Task], progress: &(dyn Fn() + Sync)) -> Vec<Arc<SetOutcome>> {
    futures_util::stream::iter(tasks.iter().copied())
        .map(|task| async move {
            let input = ExtractInput { request: task.request.clone(), today: task.today, answers: Vec::new() };
            let outcome = set.extract(&input).await;
            progress();
            outcome
        })
        .buffered(EXTRACTION_CONCURRENCY)
        .collect()
        .await
}

/// The p-th percentile by nearest rank (p in 0..=100) of sorted values.
pub fn percentile(sorted: &[u64], percent: u64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = (percent * sorted.len() as u64).div_ceil(100).max(1) as usize;
    sorted[rank.min(sorted.len()) - 1]
}

/// How many set runs a comparison makes: for a progress bar.
pub fn steps(dataset: &Dataset, pairs: &[Pair], split: SplitFilter) -> u64 {
    let tasks = dataset.tasks(split).count() as u64;
    (2 * unique_names(pairs).len() + 2 * pairs.len()) as u64 * tasks
}

/// The extractors the pairs name, each once, in order of first mention;
/// the caller builds one extractor for each, keyed by its written name.
pub fn unique_names(pairs: &[Pair]) -> Vec<&ExtractorName> {
    let mut names: Vec<&ExtractorName> = Vec::new();
    for pair in pairs {
        for name in [&pair.first, &pair.second] {
            if !names.iter().any(|seen| seen.to_string() == name.to_string()) {
                names.push(name);
            }
        }
    }
    names
}

/// Why a comparison could not run.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    /// The caller built no extractor for one of [`unique_names`].
    #[error("no extractor was built for {0:?}")]
    NotBuilt(String),
    #[error(transparent)]
    Set(#[from] SetError),
}

/// Runs the comparison. `extractors` holds one extractor per name of
/// [`unique_names`], keyed by the name as written.
pub async fn compare(
    dataset: &Dataset,
    catalog: &Catalog,
    extractors: &BTreeMap<String, Arc<dyn Extractor>>,
    pairs: &[Pair],
    split: SplitFilter,
    progress: &(dyn Fn() + Sync),
) -> Result<CompareReport, CompareError> {
    let tasks: Vec<&Task> = dataset.tasks(split).collect();
    let mut memos: BTreeMap<String, Arc<dyn Extractor>> = BTreeMap::new();
    let names: Vec<String> = unique_names(pairs).into_iter().map(ExtractorName::to_string).collect();
    for name in &names {
        let extractor = extractors.get(name).ok_or_else(|| CompareError::NotBuilt(name.clone()))?;
        memos.insert(name.clone(), Arc::new(Memo::new(Arc::clone(extractor))));
    }
    let memo = |name: &str| memos.get(name).cloned().ok_or_else(|| CompareError::NotBuilt(name.to_owned()));

    let gold_asks: Vec<Vec<bool>> = tasks
        .iter()
        .map(|task| {
            let allowed = task.allowed_items(catalog);
            let gold = task.as_asked(&task.gold);
            task.carts.iter().map(|cart| check(&gold, &cart.cart, &allowed).decision == Decision::Ask).collect()
        })
        .collect();

    let mut extractor_rows = Vec::new();
    for name in &names {
        let set = extractor_set(vec![memo(name)?], tasks.len())?;
        let outcomes = run_set(&set, &tasks, progress).await;
        let mut row = ExtractorRow {
            name: name.clone(),
            failures: 0,
            accuracy: BTreeMap::new(),
            decisions: DecisionEffect::default(),
            grounded: DecisionEffect::default(),
            latency_median_ms: 0,
            latency_p95_ms: 0,
            input_tokens: None,
            cached_input_tokens: None,
            output_tokens: None,
        };
        let mut latencies: Vec<u64> = Vec::new();
        for ((task, outcome), asks) in tasks.iter().zip(&outcomes).zip(&gold_asks) {
            let facts = outcome.merged.as_ref().ok();
            row.failures += u64::from(facts.is_none());
            score(&mut row.accuracy, facts, &task.gold);
            effect(&mut row.decisions, task, facts, asks, catalog);
            let cost: Cost = outcome.reports.first().map(|report| report.cost.clone()).unwrap_or_default();
            latencies.push(cost.latency_ms);
            if let Some(tokens) = cost.input_tokens {
                *row.input_tokens.get_or_insert(0) += tokens;
            }
            if let Some(tokens) = cost.cached_input_tokens {
                *row.cached_input_tokens.get_or_insert(0) += tokens;
            }
            if let Some(tokens) = cost.output_tokens {
                *row.output_tokens.get_or_insert(0) += tokens;
            }
        }
        // The memo answers again without a second extraction.
        let grounded = extractor_set(vec![memo(name)?], tasks.len())?.with_policy(MergePolicy::Grounded);
        for ((task, outcome), asks) in tasks.iter().zip(run_set(&grounded, &tasks, progress).await).zip(&gold_asks) {
            effect(&mut row.grounded, task, outcome.merged.as_ref().ok(), asks, catalog);
        }
        latencies.sort_unstable();
        row.latency_median_ms = percentile(&latencies, 50);
        row.latency_p95_ms = percentile(&latencies, 95);
        extractor_rows.push(row);
    }

    let mut pair_rows = Vec::new();
    for (pair, policy) in pairs.iter().flat_map(|pair| [(pair, MergePolicy::Spec), (pair, MergePolicy::Grounded)]) {
        let set = extractor_set(vec![memo(&pair.first.to_string())?, memo(&pair.second.to_string())?], tasks.len())?
            .with_policy(policy);
        let outcomes = run_set(&set, &tasks, progress).await;
        let mut row = PairRow {
            pair: pair.clone(),
            policy,
            failures: 0,
            disputed: FIELDS.iter().map(|field| (field.as_str().to_owned(), 0)).collect(),
            accuracy: BTreeMap::new(),
            decisions: DecisionEffect::default(),
        };
        row.disputed.remove(FactKey::Soft.as_str());
        for ((task, outcome), asks) in tasks.iter().zip(&outcomes).zip(&gold_asks) {
            let facts = outcome.merged.as_ref().ok();
            row.failures += u64::from(facts.is_none());
            score(&mut row.accuracy, facts, &task.gold);
            effect(&mut row.decisions, task, facts, asks, catalog);
            if let Some(facts) = facts {
                let fields: BTreeSet<String> = facts.disputed.iter().map(disputed_field).collect();
                for field in fields {
                    *row.disputed.entry(field).or_default() += 1;
                }
            }
        }
        pair_rows.push(row);
    }

    Ok(CompareReport {
        dataset: dataset.name.clone(),
        split,
        tasks: tasks.len() as u64,
        gold_questions: gold_asks.iter().flatten().filter(|ask| **ask).count() as u64,
        extractors: extractor_rows,
        pairs: pair_rows,
    })
}

fn percent(value: Option<f64>) -> String {
    value.map(|value| format!("{:.0}%", value * 100.0)).unwrap_or_else(|| "–".to_owned())
}

/// The comparison as Markdown tables.
/// One row of the decisions table; `cost` fills its last two cells.
fn decision_row(out: &mut String, label: &str, failures: u64, decisions: &DecisionEffect, cost: &str) {
    let _ = writeln!(
        out,
        "| {label} | {failures} | {} of {} | {} of {} | {} | {} | {cost} |",
        decisions.wrong_missed,
        decisions.wrong_carts,
        decisions.right_stopped,
        decisions.right_carts,
        decisions.questions,
        decisions.extra_questions
    );
}

pub fn markdown(report: &CompareReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Compare: {} ({} split, {} tasks)\n", report.dataset, report.split.as_str(), report.tasks);
    out.push_str(
        "Accuracy per field against the gold facts: strings case-insensitive, lists as sets, null = null correct; \
         a failed extraction is wrong on every field. Each cell: all tasks (tasks whose gold states the field).\n\n",
    );
    let mut header = String::from("| field | stated |");
    let mut rule = String::from("|---|---:|");
    let columns: Vec<(String, &BTreeMap<String, FieldScore>)> = report
        .extractors
        .iter()
        .map(|row| (row.name.clone(), &row.accuracy))
        .chain(report.pairs.iter().map(|row| (format!("{} (merged)", row.label()), &row.accuracy)))
        .collect();
    for (name, _) in &columns {
        let _ = write!(header, " {name} |");
        rule.push_str("---:|");
    }
    let _ = writeln!(out, "{header}\n{rule}");
    for field in FIELDS {
        let stated_count =
            columns.first().and_then(|(_, scores)| scores.get(field.as_str())).map_or(0, |score| score.stated_total);
        let _ = write!(out, "| {field} | {stated_count} |");
        for (_, scores) in &columns {
            let score = scores.get(field.as_str()).copied().unwrap_or_default();
            let _ = write!(out, " {} ({}) |", percent(score.accuracy()), percent(score.stated_accuracy()));
        }
        out.push('\n');
    }

    let _ = writeln!(
        out,
        "\n## Decisions on the labelled carts\n\nWith the gold facts the guard asks on {} carts. \
         `extra questions`: asks where the gold facts proceed. Latency and tokens are per extractor, measured alone.\n",
        report.gold_questions
    );
    out.push_str("| extractor or pair | failed tasks | wrong carts missed | right carts stopped | questions | extra questions | latency median / p95 (ms) | tokens in (cached) / out |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for row in &report.extractors {
        let tokens = match (row.input_tokens, row.output_tokens) {
            (None, None) => "–".to_owned(),
            (input, output) => format!(
                "{}{} / {}",
                input.map_or("–".to_owned(), |value| value.to_string()),
                row.cached_input_tokens.map_or(String::new(), |value| format!(" ({value})")),
                output.map_or("–".to_owned(), |value| value.to_string())
            ),
        };
        let cost = format!("{} / {} | {tokens}", row.latency_median_ms, row.latency_p95_ms);
        decision_row(&mut out, &row.name, row.failures, &row.decisions, &cost);
    }
    for row in &report.extractors {
        decision_row(&mut out, &format!("{} (grounded alone)", row.name), row.failures, &row.grounded, "– | –");
    }
    for row in &report.pairs {
        decision_row(&mut out, &row.label(), row.failures, &row.decisions, "– | –");
    }

    if !report.pairs.is_empty() {
        out.push_str(
            "\n## Disputed fields per pair (tasks)\n\nA disputed field only warns (guard.md §4.2, §5).\n\n| field |",
        );
        for row in &report.pairs {
            let _ = write!(out, " {} |", row.label());
        }
        out.push_str("\n|---|");
        out.push_str(&"---:|".repeat(report.pairs.len()));
        out.push('\n');
        for field in FIELDS.iter().filter(|field| **field != FactKey::Soft) {
            let _ = write!(out, "| {field} |");
            for row in &report.pairs {
                let _ = write!(out, " {} |", row.disputed.get(field.as_str()).copied().unwrap_or(0));
            }
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::{ExtractedFacts, ExtractedLine};
    use crate::sandbox::dataset;
    use crate::sandbox::gold::{GoldBook, GoldExtractor, offline_extraction};

    /// Three hand-made tasks; gold on each is known, and a fixed fake
    /// extractor gets exactly the fields listed wrong.
    const TINY: &str = concat!(
        r#"{"id": "a", "split": "open", "category": "gifts", "request": "a red Moleskine notebook by Friday", "lang": "en", "today": "2026-11-02", "gold": {"brand": "Moleskine", "color": "red", "deadline_days": 4}, "carts": [{"label": "right", "items": [{"id": "gift-023", "quantity": 1}]}, {"label": "wrong", "items": [{"id": "gift-021", "quantity": 1}], "codes": ["color"]}]}"#,
        "\n",
        r#"{"id": "b", "split": "open", "category": "gifts", "request": "two notebooks, one black one blue", "lang": "en", "today": "2026-11-02", "gold": {"lines": [{"color": "black"}, {"color": "blue"}], "brand_not": ["Leuchtturm"]}, "carts": [{"label": "right", "items": [{"id": "gift-021", "quantity": 1}, {"id": "gift-022", "quantity": 1}]}]}"#,
        "\n",
        r#"{"id": "c", "split": "heldout", "category": "gifts", "request": "anything", "lang": "en", "today": "2026-11-02", "gold": {}, "carts": [{"label": "right", "items": [{"id": "gift-023", "quantity": 1}]}]}"#,
        "\n"
    );

    struct Fake;
    impl Extractor for Fake {
        fn name(&self) -> &str {
            "fake"
        }
        fn extract<'a>(&'a self, input: &'a ExtractInput) -> ExtractFuture<'a> {
            Box::pin(async move {
                let facts = match input.request.as_str() {
                    // Brand in other case (right), colour wrong, deadline missed.
                    "a red Moleskine notebook by Friday" => ExtractedFacts {
                        brand: Some("MOLESKINE".into()),
                        color: Some("blue".into()),
                        ..ExtractedFacts::default()
                    },
                    // Lines in the other order and brand_not in other case: right.
                    "two notebooks, one black one blue" => ExtractedFacts {
                        lines: vec![
                            ExtractedLine { color: Some("Blue".into()), ..ExtractedLine::default() },
                            ExtractedLine { color: Some("black".into()), ..ExtractedLine::default() },
                        ],
                        brand_not: vec!["leuchtturm".into()],
                        ..ExtractedFacts::default()
                    },
                    _ => return Err(ExtractError::Other("no".into())),
                };
                offline_extraction(facts)
            })
        }
    }

    #[tokio::test]
    async fn accuracy_math_on_a_tiny_dataset() {
        let catalog = Catalog::embedded().unwrap();
        let tiny = dataset::parse("tiny", "tiny.jsonl", TINY, &catalog).unwrap();
        let gold = Arc::new(GoldExtractor::new(Arc::new(GoldBook::new(&tiny)))) as Arc<dyn Extractor>;
        let extractors =
            BTreeMap::from([("gold".to_owned(), gold), ("fake".to_owned(), Arc::new(Fake) as Arc<dyn Extractor>)]);
        let pairs = [Pair::parse("gold,fake").unwrap()];
        let report = compare(&tiny, &catalog, &extractors, &pairs, SplitFilter::All, &|| {}).await.unwrap();
        assert_eq!(report.tasks, 3);
        let gold = &report.extractors[0];
        assert_eq!(gold.name, "gold");
        assert!(gold.accuracy.values().all(|score| score.correct == 3 && score.total == 3));
        let fake_row = &report.extractors[1];
        assert_eq!(fake_row.failures, 1, "task c fails");
        let score = |field: &str| fake_row.accuracy[field];
        assert_eq!(
            score("brand"),
            FieldScore { correct: 2, total: 3, stated_correct: 1, stated_total: 1 },
            "case-insensitive; null=null on b"
        );
        assert_eq!(score("color"), FieldScore { correct: 1, total: 3, stated_correct: 0, stated_total: 1 });
        assert_eq!(score("deadline_days"), FieldScore { correct: 1, total: 3, stated_correct: 0, stated_total: 1 });
        assert_eq!(
            score("lines"),
            FieldScore { correct: 2, total: 3, stated_correct: 1, stated_total: 1 },
            "order-insensitive"
        );
        assert_eq!(
            score("brand_not"),
            FieldScore { correct: 2, total: 3, stated_correct: 1, stated_total: 1 },
            "a set, folded"
        );
        assert_eq!(
            score("level"),
            FieldScore { correct: 2, total: 3, stated_correct: 0, stated_total: 0 },
            "failure is wrong"
        );
        assert_eq!(fake_row.accuracy["level"].stated_accuracy(), None);
        // Alone, the fake misses the wrong red/blue cart? It reads blue: the
        // wrong cart (not red) may pass or not, but the right (red) one stops.
        assert_eq!(fake_row.decisions.right_stopped, 2, "a's red cart for 'blue', and c failed closed");
        let pair = &report.pairs[0];
        assert_eq!(pair.failures, 1);
        assert_eq!(pair.disputed["color"], 1);
        assert_eq!(pair.disputed["deadline_days"], 0, "a limit found by one extractor is not disputed");
        assert_eq!(pair.disputed["brand"], 0, "case differences are agreement");
        assert_eq!(pair.decisions.wrong_missed, 1, "the disputed colour only warns: the wrong colour proceeds");
        assert_eq!(pair.accuracy["deadline_days"].correct, 2, "the merge keeps the deadline one extractor found");
        let text = markdown(&report);
        assert!(text.contains("| color | 1 | 100% (100%) | 33% (0%) | 67% (100%) |"), "{text}");
    }

    /// Reads the free-text must and nothing else.
    struct OnlyOther;
    impl Extractor for OnlyOther {
        fn name(&self) -> &str {
            "only-other"
        }
        fn extract<'a>(&'a self, _input: &'a ExtractInput) -> ExtractFuture<'a> {
            Box::pin(async move {
                offline_extraction(ExtractedFacts { other: vec!["recycled paper".into()], ..ExtractedFacts::default() })
            })
        }
    }

    /// `gold` and `only-other`, alone and paired, on a one-task dataset.
    async fn gold_beside_only_other(task: &str) -> CompareReport {
        let catalog = Catalog::embedded().unwrap();
        let tiny = dataset::parse("tiny", "tiny.jsonl", task, &catalog).unwrap();
        let gold = Arc::new(GoldExtractor::new(Arc::new(GoldBook::new(&tiny)))) as Arc<dyn Extractor>;
        let extractors = BTreeMap::from([
            ("gold".to_owned(), gold),
            ("only-other".to_owned(), Arc::new(OnlyOther) as Arc<dyn Extractor>),
        ]);
        let pairs = [Pair::parse("gold,only-other").unwrap()];
        compare(&tiny, &catalog, &extractors, &pairs, SplitFilter::All, &|| {}).await.unwrap()
    }

    /// A wrong cart asked about only for the task's `other` must is missed:
    /// the person answers that question yes on every cart, so the wrong
    /// colour is paid. The same rule decides when a right cart is stopped.
    #[tokio::test]
    async fn a_wrong_cart_asked_only_for_other_is_missed() {
        let text = r#"{"id": "d", "split": "open", "category": "gifts", "request": "a red notebook of recycled paper", "lang": "en", "today": "2026-11-02", "gold": {"color": "red", "other": ["recycled paper"]}, "expect_ask_on_right": ["other"], "carts": [{"label": "right", "items": [{"id": "gift-023", "quantity": 1}]}, {"label": "wrong", "items": [{"id": "gift-021", "quantity": 1}], "codes": ["color"]}]}"#;
        let report = gold_beside_only_other(text).await;
        let effect = |name: &str| report.extractors.iter().find(|row| row.name == name).unwrap().decisions;
        let only_other = effect("only-other");
        assert_eq!(only_other.questions, 2, "both carts are asked about, for `other` only");
        assert_eq!(only_other.wrong_missed, 1, "asked only for `other`: the wrong colour is missed");
        assert_eq!(only_other.right_stopped, 0, "asked only for `other`: the right cart is not stopped");
        let gold = effect("gold");
        assert_eq!((gold.wrong_missed, gold.right_stopped), (0, 0), "gold raises `color` beside `other`");
    }

    /// A single extractor under `grounded` loses the values the words do
    /// not say: the fair baseline for a pair under `grounded`.
    #[tokio::test]
    async fn a_single_extractor_is_also_measured_under_grounded() {
        // The gold says red; the request does not: grounding drops it.
        let text = r#"{"id": "g", "split": "open", "category": "gifts", "request": "a notebook please", "lang": "en", "today": "2026-11-02", "gold": {"color": "red"}, "carts": [{"label": "right", "items": [{"id": "gift-023", "quantity": 1}]}, {"label": "wrong", "items": [{"id": "gift-021", "quantity": 1}], "codes": ["color"]}]}"#;
        let report = gold_beside_only_other(text).await;
        let gold = report.extractors.iter().find(|row| row.name == "gold").unwrap();
        assert_eq!(gold.decisions.wrong_missed, 0, "alone, every value kept: the wrong colour is caught");
        assert_eq!(gold.grounded.wrong_missed, 1, "grounded alone: 'red' is not in the words, so it is missed");
        assert!(markdown(&report).contains("| gold (grounded alone) | 0 | 1 of 1 |"), "{}", markdown(&report));
    }

    #[test]
    fn percentiles_by_nearest_rank() {
        let values: Vec<u64> = (1..=20).collect();
        assert_eq!(percentile(&values, 50), 10);
        assert_eq!(percentile(&values, 95), 19);
        assert_eq!(percentile(&[7], 95), 7);
        assert_eq!(percentile(&[], 50), 0);
    }

    #[test]
    fn pairs_parse() {
        assert_eq!(Pair::parse("gold, noisy:1:0.2").unwrap().label(), "gold + noisy:1:0.2");
        assert_eq!(Pair::parse("gold"), Err(PairError::NotTwo("gold".into())));
        assert_eq!(Pair::parse(" , "), Err(PairError::NotTwo(" , ".into())));
        assert_eq!(Pair::parse("gold,gold"), Err(PairError::Same("gold,gold".into())));
        assert!(matches!(Pair::parse("gold,noisy:1"), Err(PairError::Name(_))));
        let pairs = [Pair::parse("gold,noisy:1:0.2").unwrap(), Pair::parse("rules,gold").unwrap()];
        let names: Vec<String> = unique_names(&pairs).into_iter().map(ExtractorName::to_string).collect();
        assert_eq!(names, ["gold", "noisy:1:0.2", "rules"]);
    }
}
