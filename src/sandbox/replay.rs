//! `asasked replay`: simulated agents buy from the sandbox store, once with
//! the guard off and once enforced, and the figures of guard.md §10 are
//! counted against the dataset's labels.
//!
//! How a run is judged (also in `datasets/README.md`):
//! - The agent picks one cart per task. `naive` buys the first
//!   `search(request)` result, quantity 1. `careful` buys a labelled right
//!   cart with probability `p_right` (seeded per task), else a random labelled
//!   wrong cart: a near miss.
//! - A cart is right iff it equals a labelled right cart (same ids and
//!   quantities, any order). A cart that is not labelled (the naive agent's,
//!   mostly) is right iff the deterministic guard with the gold facts raises
//!   no block finding besides the task's `expect_ask_on_right`; its expected
//!   codes are the ones raised.
//! - Guard off: every cart is bought. Enforced: a `proceed` is bought; an
//!   `ask` is a question to the simulated person, who answers from the gold
//!   labels: it approves a right cart (the question cost one reply) and
//!   declines a wrong one, so it never accepts a missing, deferred or
//!   substituted item. A declined cart is not bought and the task ends.
//! - Extraction that fails closes the check: `ask`, counted as fail-closed.
//!
//! Everything is a function of the dataset, the seed and the extractors'
//! outputs: tasks run in file order, tables are `BTreeMap`s, no clock is read.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::str::FromStr;
use std::sync::Arc;

use futures_util::StreamExt;
use serde::Serialize;

use super::dataset::{CartLine, Dataset, Label, SplitFilter, Task, sorted};
use super::random::Stream;
use crate::cart::{Cart, CartEntry, Item};
use crate::catalog::Catalog;
use crate::decision::{Decision, check};
use crate::extract::ExtractInput;
use crate::extract::set::{ExtractorSet, SetOutcome};
use crate::facts::Facts;
use crate::finding::Severity;

/// How many requests are extracted at once. Offline extractors do not care;
/// hosted ones are network-bound, and a handful in flight keeps a replay of a
/// hundred tasks to a minute without tripping rate limits.
pub const EXTRACTION_CONCURRENCY: usize = 4;

/// The simulated agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Agent {
    /// Buys the first search result for the request, quantity 1.
    Naive,
    /// Buys a labelled right cart with probability `p_right`, else a near miss.
    Careful,
}

impl Agent {
    pub fn as_str(self) -> &'static str {
        match self {
            Agent::Naive => "naive",
            Agent::Careful => "careful",
        }
    }
}

impl FromStr for Agent {
    type Err = String;
    fn from_str(text: &str) -> Result<Agent, String> {
        match text {
            "naive" => Ok(Agent::Naive),
            "careful" => Ok(Agent::Careful),
            _ => Err(format!("unknown agent {text:?} (naive or careful)")),
        }
    }
}

/// What a replay is asked to do.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReplayOptions {
    pub agent: Agent,
    pub seed: u64,
    /// For `careful`: the probability of buying a right cart.
    pub p_right: f64,
    pub split: SplitFilter,
}

/// The run's settings, echoed in every output so a figure can be reproduced.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReplaySettings {
    pub dataset: String,
    pub extractors: Vec<String>,
    #[serde(flatten)]
    pub options: ReplayOptions,
}

/// The §10 figures for a set of tasks.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Figures {
    pub tasks: u64,
    /// Tasks where the agent found nothing to buy.
    pub no_cart: u64,
    pub right_carts: u64,
    pub wrong_carts: u64,
    /// Carts that are none of the labelled ones, judged with the gold facts.
    pub unlabelled_carts: u64,
    /// Wrong carts bought with the guard off: every wrong cart.
    pub wrong_without_guard: u64,
    /// Wrong carts bought with the guard enforced: missed, plus any wrong cart
    /// the person approved (none, by the person's rule).
    pub wrong_with_guard: u64,
    pub wrong_stopped: u64,
    pub wrong_missed: u64,
    /// Right carts the guard stopped for a reason beyond the task's
    /// `expect_ask_on_right`.
    pub right_stopped: u64,
    /// Right carts stopped only by a code the task expects on every cart
    /// (`other`: free-text musts always go to the person).
    pub right_stopped_expected: u64,
    pub questions: u64,
    /// Stopped carts the person approved: right carts only, by its rule, so
    /// no wrong cart is bought after a question.
    pub approved: u64,
    pub declined: u64,
    /// Checks that failed closed because extraction failed.
    pub fail_closed: u64,
}

/// One task's run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// The agent found nothing to buy.
    NoCart,
    /// Right cart, guard proceeded: bought.
    ProceededRight,
    /// Wrong cart, guard proceeded: bought, a miss.
    ProceededWrong,
    /// Guard asked, the person approved: bought.
    AskedApproved,
    /// Guard asked, the person declined: not bought.
    AskedDeclined,
}

/// What happened on one task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TaskRun {
    pub id: String,
    pub split: &'static str,
    pub category: String,
    pub cart: Vec<CartLine>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<Label>,
    /// Whether the cart is one of the dataset's labelled carts.
    pub labelled: bool,
    /// The block codes the cart should raise with the gold facts.
    pub expected: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<Decision>,
    /// The block codes the guard raised with the extracted facts.
    pub raised: Vec<String>,
    /// The task's `expect_ask_on_right`: codes raised on every cart.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub asked_on_every_cart: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fail_closed: Option<String>,
    pub outcome: Outcome,
}

impl TaskRun {
    /// A right cart stopped only by codes the task raises on every cart.
    pub fn stopped_only_as_expected(&self) -> bool {
        self.outcome == Outcome::AskedApproved
            && self.fail_closed.is_none()
            && !self.raised.is_empty()
            && self.raised.iter().all(|code| self.asked_on_every_cart.contains(code))
    }
}

/// One row of the per-code table.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CodeRow {
    /// Wrong carts that should raise this code.
    pub wrong_carts: u64,
    pub stopped: u64,
    pub missed: u64,
    /// Checks on which the guard raised it as a block.
    pub raised: u64,
    /// Of those, checks of right carts.
    pub raised_on_right: u64,
}

/// A whole replay.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReplayReport {
    pub settings: ReplaySettings,
    pub figures: Figures,
    pub by_code: BTreeMap<String, CodeRow>,
    pub by_category: BTreeMap<String, Figures>,
    pub tasks: Vec<TaskRun>,
}

/// Runs one replay. `progress` is called once per task extracted.
pub async fn replay(
    dataset: &Dataset,
    catalog: &Catalog,
    set: &ExtractorSet,
    options: &ReplayOptions,
    progress: &(dyn Fn() + Sync),
) -> ReplayReport {
    let tasks: Vec<&Task> = dataset.tasks(options.split).collect();
    let outcomes: Vec<Arc<SetOutcome>> = futures_util::stream::iter(tasks.iter().copied())
        .map(|task| async move {
            let input = ExtractInput { request: task.request.clone(), today: task.today, answers: Vec::new() };
            let outcome = set.extract(&input).await;
            progress();
            outcome
        })
        .buffered(EXTRACTION_CONCURRENCY)
        .collect()
        .await;

    let mut report = ReplayReport {
        settings: ReplaySettings {
            dataset: dataset.name.clone(),
            extractors: set.names().into_iter().map(str::to_owned).collect(),
            options: options.clone(),
        },
        figures: Figures::default(),
        by_code: BTreeMap::new(),
        by_category: BTreeMap::new(),
        tasks: Vec::with_capacity(tasks.len()),
    };
    for (task, outcome) in tasks.into_iter().zip(outcomes) {
        let allowed = task.allowed_items(catalog);
        let run =
            run_task(task, catalog, &allowed, outcome.merged.as_ref().map_err(|error| error.detail.clone()), options);
        let category = report.by_category.entry(task.category_label().to_owned()).or_default();
        count(category, &run);
        count(&mut report.figures, &run);
        count_codes(&mut report.by_code, &run);
        report.tasks.push(run);
    }
    report
}

/// The agent's cart: its lines and the catalog items, or `None` if the agent
/// found nothing.
pub fn choose_cart(task: &Task, catalog: &Catalog, options: &ReplayOptions) -> Option<(Vec<CartLine>, Cart)> {
    match options.agent {
        Agent::Naive => {
            let first = catalog.search(&task.request, 1).into_iter().next()?;
            Some((
                vec![CartLine { id: first.id().to_owned(), quantity: 1 }],
                Cart {
                    shipping: None,
                    charges: Default::default(),
                    entries: vec![CartEntry { item: first.item.clone(), quantity: 1 }],
                },
            ))
        }
        Agent::Careful => {
            let mut stream = Stream::new(options.seed, &[&task.id, "careful"]);
            let rights: Vec<_> = task.right_carts().collect();
            let wrongs: Vec<_> = task.wrong_carts().collect();
            let pool = if stream.chance(options.p_right) || wrongs.is_empty() { rights } else { wrongs };
            let chosen = pool.get(stream.below(pool.len()))?;
            Some((chosen.lines.clone(), chosen.cart.clone()))
        }
    }
}

/// Right or wrong, whether the cart is labelled, and the block codes it
/// should raise, as the module documentation defines them.
pub fn judge(task: &Task, lines: &[CartLine], cart: &Cart, allowed: &[Item]) -> (Label, bool, BTreeSet<String>) {
    let key = sorted(lines);
    if let Some(labelled) = task.carts.iter().find(|labelled| labelled.key() == key) {
        return (labelled.label, true, labelled.codes.clone());
    }
    let verdict = check(&task.as_asked(&task.gold), cart, allowed);
    let expected: BTreeSet<String> = verdict
        .codes(Severity::Block)
        .into_iter()
        .filter(|code| !task.expect_ask_on_right.contains(*code))
        .map(str::to_owned)
        .collect();
    let label = if expected.is_empty() { Label::Right } else { Label::Wrong };
    (label, false, expected)
}

fn run_task(
    task: &Task,
    catalog: &Catalog,
    allowed: &[Item],
    facts: Result<&Facts, String>,
    options: &ReplayOptions,
) -> TaskRun {
    let mut run = TaskRun {
        id: task.id.clone(),
        split: task.split.as_str(),
        category: task.category_label().to_owned(),
        cart: Vec::new(),
        label: None,
        labelled: false,
        expected: Vec::new(),
        decision: None,
        raised: Vec::new(),
        asked_on_every_cart: task.expect_ask_on_right.iter().cloned().collect(),
        fail_closed: None,
        outcome: Outcome::NoCart,
    };
    let Some((lines, cart)) = choose_cart(task, catalog, options) else { return run };
    let (label, labelled, expected) = judge(task, &lines, &cart, allowed);
    let (decision, raised) = match facts {
        Ok(facts) => {
            let verdict = check(&task.as_asked(facts), &cart, allowed);
            let raised: Vec<String> = verdict.codes(Severity::Block).into_iter().map(str::to_owned).collect();
            (verdict.decision, raised)
        }
        Err(detail) => {
            run.fail_closed = Some(detail);
            (Decision::Ask, Vec::new())
        }
    };
    run.outcome = match (decision, label) {
        (Decision::Proceed, Label::Right) => Outcome::ProceededRight,
        (Decision::Proceed, Label::Wrong) => Outcome::ProceededWrong,
        // The simulated person answers from the labels: yes to a right cart,
        // no to a wrong one (never a missing, deferred or substituted item).
        (Decision::Ask, Label::Right) => Outcome::AskedApproved,
        (Decision::Ask, Label::Wrong) => Outcome::AskedDeclined,
    };
    run.cart = lines;
    run.label = Some(label);
    run.labelled = labelled;
    run.expected = expected.into_iter().collect();
    run.decision = Some(decision);
    run.raised = raised;
    run
}

fn count(figures: &mut Figures, run: &TaskRun) {
    figures.tasks += 1;
    if run.outcome == Outcome::NoCart {
        figures.no_cart += 1;
        return;
    }
    let right = run.label == Some(Label::Right);
    figures.unlabelled_carts += u64::from(!run.labelled);
    if right {
        figures.right_carts += 1;
    } else {
        figures.wrong_carts += 1;
        figures.wrong_without_guard += 1;
    }
    if run.fail_closed.is_some() {
        figures.fail_closed += 1;
    }
    match run.outcome {
        Outcome::NoCart | Outcome::ProceededRight => {}
        Outcome::ProceededWrong => {
            figures.wrong_missed += 1;
            figures.wrong_with_guard += 1;
        }
        Outcome::AskedApproved => {
            figures.questions += 1;
            figures.approved += 1;
            if run.stopped_only_as_expected() {
                figures.right_stopped_expected += 1;
            } else {
                figures.right_stopped += 1;
            }
        }
        Outcome::AskedDeclined => {
            figures.questions += 1;
            figures.declined += 1;
            figures.wrong_stopped += 1;
        }
    }
}

fn count_codes(by_code: &mut BTreeMap<String, CodeRow>, run: &TaskRun) {
    let Some(label) = run.label else { return };
    if label == Label::Wrong {
        for code in &run.expected {
            let row = by_code.entry(code.clone()).or_default();
            row.wrong_carts += 1;
            match run.outcome {
                Outcome::ProceededWrong => row.missed += 1,
                _ => row.stopped += 1,
            }
        }
    }
    for code in &run.raised {
        let row = by_code.entry(code.clone()).or_default();
        row.raised += 1;
        if label == Label::Right {
            row.raised_on_right += 1;
        }
    }
}

/// The §10 sentence for a run.
pub fn sentence(report: &ReplayReport) -> String {
    let settings = &report.settings;
    let figures = &report.figures;
    let agent = match settings.options.agent {
        Agent::Naive => "Naive agent (buys the first search result)".to_owned(),
        Agent::Careful => format!("Careful agent (right cart with p = {})", settings.options.p_right),
    };
    format!(
        "{agent}, dataset {}, {} {} tasks, extractors {}: {} wrong purchases without the guard, {} with it. \
         The guard stopped {} wrong carts, missed {} and stopped {} right ones ({} more only for a free-text must); \
         the simulated person then approved {} of the {} stopped carts.",
        settings.dataset,
        figures.tasks,
        settings.options.split.as_str(),
        settings.extractors.join(","),
        figures.wrong_without_guard,
        figures.wrong_with_guard,
        figures.wrong_stopped,
        figures.wrong_missed,
        figures.right_stopped,
        figures.right_stopped_expected,
        figures.approved,
        figures.questions,
    )
}

/// A row of the figures table: its name and how to read it.
type FigureRow = (&'static str, fn(&Figures) -> u64);

const FIGURE_ROWS: [FigureRow; 15] = [
    ("tasks", |figures| figures.tasks),
    ("carts bought by the agent: right", |figures| figures.right_carts),
    ("carts bought by the agent: wrong", |figures| figures.wrong_carts),
    ("of those, not labelled (judged with the gold facts)", |figures| figures.unlabelled_carts),
    ("agent found nothing", |figures| figures.no_cart),
    ("wrong purchases without the guard", |figures| figures.wrong_without_guard),
    ("wrong purchases with the guard", |figures| figures.wrong_with_guard),
    ("wrong carts stopped", |figures| figures.wrong_stopped),
    ("wrong carts missed", |figures| figures.wrong_missed),
    ("right carts stopped", |figures| figures.right_stopped),
    ("right carts stopped only for a free-text must", |figures| figures.right_stopped_expected),
    ("questions put to the person", |figures| figures.questions),
    ("person approved (stopped right carts)", |figures| figures.approved),
    ("person declined (stopped wrong carts)", |figures| figures.declined),
    ("checks failed closed (extraction failed)", |figures| figures.fail_closed),
];

/// The §10 figures as a Markdown table: what `replay` prints.
pub fn figures_table(report: &ReplayReport) -> String {
    let mut out = String::from("| figure | count |\n|---|---:|\n");
    for (name, value) in FIGURE_ROWS {
        let _ = writeln!(out, "| {name} | {} |", value(&report.figures));
    }
    out
}

/// The full Markdown report: settings, figures, per-code and per-category
/// tables, and the tasks that went wrong either way.
pub fn markdown(report: &ReplayReport) -> String {
    let settings = &report.settings;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Replay: {} / {} agent / {} split\n",
        settings.dataset,
        settings.options.agent.as_str(),
        settings.options.split.as_str()
    );
    let _ = writeln!(
        out,
        "Extractors `{}`, seed {}{}. Regenerate with `asasked replay datasets/{} --agent {} --extractors {} --seed {} --split {}{}`.\n",
        settings.extractors.join(","),
        settings.options.seed,
        if settings.options.agent == Agent::Careful {
            format!(", p(right) {}", settings.options.p_right)
        } else {
            String::new()
        },
        settings.dataset,
        settings.options.agent.as_str(),
        settings.extractors.join(","),
        settings.options.seed,
        settings.options.split.as_str(),
        if settings.options.agent == Agent::Careful {
            format!(" --p-right {}", settings.options.p_right)
        } else {
            String::new()
        },
    );
    let _ = writeln!(out, "{}\n", sentence(report));
    out.push_str(&figures_table(report));
    out.push_str("\n## By code\n\nWrong carts are counted once per code they should raise; `raised` counts block findings over all checks.\n\n");
    out.push_str(
        "| code | wrong carts | stopped | missed | raised | raised on right carts |\n|---|---:|---:|---:|---:|---:|\n",
    );
    for (code, row) in &report.by_code {
        let _ = writeln!(
            out,
            "| {code} | {} | {} | {} | {} | {} |",
            row.wrong_carts, row.stopped, row.missed, row.raised, row.raised_on_right
        );
    }
    out.push_str("\n## By category\n\n| category | tasks | wrong without guard | wrong with guard | stopped | missed | right stopped | questions | approved |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (category, figures) in &report.by_category {
        let _ = writeln!(
            out,
            "| {category} | {} | {} | {} | {} | {} | {} | {} | {} |",
            figures.tasks,
            figures.wrong_without_guard,
            figures.wrong_with_guard,
            figures.wrong_stopped,
            figures.wrong_missed,
            figures.right_stopped,
            figures.questions,
            figures.approved
        );
    }
    let notable: Vec<&TaskRun> = report
        .tasks
        .iter()
        .filter(|run| {
            matches!(run.outcome, Outcome::ProceededWrong)
                || (run.outcome == Outcome::AskedApproved && !run.stopped_only_as_expected())
                || run.fail_closed.is_some()
        })
        .collect();
    out.push_str("\n## Missed wrong carts and stopped right carts\n\n");
    if notable.is_empty() {
        out.push_str("None.\n");
    } else {
        out.push_str("| task | cart | labelled | expected | raised | outcome |\n|---|---|---|---|---|---|\n");
        for run in notable {
            let cart: Vec<String> = run.cart.iter().map(|line| format!("{} ×{}", line.id, line.quantity)).collect();
            let outcome = match (&run.outcome, &run.fail_closed) {
                (_, Some(detail)) => format!("failed closed: {detail}"),
                (Outcome::ProceededWrong, _) => "missed".to_owned(),
                _ => "right cart stopped".to_owned(),
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} |",
                run.id,
                cart.join(", "),
                if run.labelled { "yes" } else { "no (judged by gold)" },
                run.expected.join(", "),
                run.raised.join(", "),
                outcome.replace('|', "/")
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::Extractor;
    use crate::sandbox::dataset::{self, Split};
    use crate::sandbox::extractor_set;
    use crate::sandbox::gold::{GoldBook, GoldExtractor};
    use crate::sandbox::noisy::NoisyExtractor;
    use std::path::Path;

    fn load(name: &str) -> (Dataset, Catalog) {
        let catalog = Catalog::embedded().unwrap();
        let dataset =
            dataset::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets").join(name), &catalog).unwrap();
        (dataset, catalog)
    }

    /// `gold` for `known`'s tasks, and `noisy:SEED:RATE` beside it if given.
    fn gold_set(known: &Dataset, noisy: Option<(u64, f64)>, task_count: usize) -> ExtractorSet {
        let book = Arc::new(GoldBook::new(known));
        let mut extractors: Vec<Arc<dyn Extractor>> = vec![Arc::new(GoldExtractor::new(Arc::clone(&book)))];
        if let Some((seed, rate)) = noisy {
            extractors.push(Arc::new(NoisyExtractor::new(book, seed, rate)));
        }
        extractor_set(extractors, task_count).unwrap()
    }

    async fn run(
        dataset: &Dataset,
        catalog: &Catalog,
        noisy: Option<(u64, f64)>,
        options: &ReplayOptions,
    ) -> ReplayReport {
        let set = gold_set(dataset, noisy, dataset.tasks.len());
        replay(dataset, catalog, &set, options, &|| {}).await
    }

    fn options(agent: Agent, seed: u64) -> ReplayOptions {
        ReplayOptions { agent, seed, p_right: 0.9, split: SplitFilter::All }
    }

    #[tokio::test]
    async fn same_seed_same_json() {
        let (dataset, catalog) = load("v2");
        for agent in [Agent::Naive, Agent::Careful] {
            let first = run(&dataset, &catalog, Some((3, 0.3)), &options(agent, 5)).await;
            let again = run(&dataset, &catalog, Some((3, 0.3)), &options(agent, 5)).await;
            assert_eq!(serde_json::to_string(&first).unwrap(), serde_json::to_string(&again).unwrap());
        }
        let one = run(&dataset, &catalog, None, &options(Agent::Careful, 1)).await;
        let two = run(&dataset, &catalog, None, &options(Agent::Careful, 2)).await;
        assert_ne!(one.tasks, two.tasks, "the seed chooses the careful agent's carts");
    }

    /// Every labelled cart of `dataset` under its gold facts: right carts
    /// block on nothing beyond `expect_ask_on_right`, wrong carts on exactly
    /// their codes and `expect_ask_on_right`. The carts that do not are
    /// listed for the open half and counted for the held-out half (whose
    /// rows are not read one by one).
    async fn assert_labels_hold_under_gold(dataset: &Dataset, catalog: &Catalog) {
        let set = gold_set(dataset, None, dataset.tasks.len());
        let mut open_failures: Vec<String> = Vec::new();
        let mut heldout_failures = 0;
        for task in &dataset.tasks {
            let input = ExtractInput { request: task.request.clone(), today: task.today, answers: vec![] };
            let facts = set.extract(&input).await.merged.clone().unwrap();
            let allowed = task.allowed_items(catalog);
            for (index, cart) in task.carts.iter().enumerate() {
                // The labels are guard.md's reading (every free-text must is
                // a question), so they are held under the `spec` policy.
                let findings =
                    crate::decision::run_under(crate::checks::CheckPolicy::Spec, &facts, &cart.cart, &allowed);
                let verdict =
                    crate::decision::Verdict::checked(findings, &facts.disputed, crate::messages::Language::En);
                let raised: BTreeSet<String> = verdict.codes(Severity::Block).into_iter().map(str::to_owned).collect();
                let expected: BTreeSet<String> = match cart.label {
                    Label::Wrong => cart.codes.union(&task.expect_ask_on_right).cloned().collect(),
                    Label::Right => task.expect_ask_on_right.clone(),
                };
                let decided = if expected.is_empty() { Decision::Proceed } else { Decision::Ask };
                if raised != expected || verdict.decision != decided {
                    match task.split {
                        Split::Open => open_failures.push(format!(
                            "{} cart {index} ({:?}): expected {expected:?}, raised {raised:?}, {:?}",
                            task.id, cart.label, verdict.decision
                        )),
                        Split::Heldout => heldout_failures += 1,
                    }
                }
            }
        }
        assert!(
            open_failures.is_empty() && heldout_failures == 0,
            "{}: {heldout_failures} held-out carts disagree; open:\n{}",
            dataset.name,
            open_failures.join("\n")
        );
    }

    #[tokio::test]
    async fn gold_facts_stop_every_wrong_cart_and_pass_every_right_one() {
        for name in ["v1", "v2"] {
            let (dataset, catalog) = load(name);
            // Every labelled cart, not one per task: a careful agent that
            // always buys wrong, and one that always buys right, per cart.
            assert_labels_hold_under_gold(&dataset, &catalog).await;
            // And through a whole replay: the careful agent never gets a
            // wrong cart past the guard with gold facts.
            let report =
                run(&dataset, &catalog, None, &ReplayOptions { p_right: 0.5, ..options(Agent::Careful, 1) }).await;
            assert_eq!(report.figures.wrong_missed, 0, "{name}");
            assert_eq!(report.figures.right_stopped, 0, "{name}");
            assert_eq!(report.figures.wrong_with_guard, 0, "{name}");
            assert!(report.figures.wrong_stopped > 10, "{name}: {:?}", report.figures);
        }
    }

    /// The check that `scripts/devset_carts.py` is right: the synthetic carts
    /// of the dev set load (inline items), and under the gold facts every
    /// right cart blocks on nothing beyond `expect_ask_on_right` and every
    /// wrong cart on exactly its codes.
    #[tokio::test]
    async fn the_dev_set_carts_hold_their_labels_under_gold() {
        let (dataset, catalog) = load("real");
        assert_eq!(dataset.tasks.len(), 364 + 184 + 200 + 100 + 200);
        assert!(dataset.tasks.iter().all(|task| task.category.is_none() && !task.inline_items.is_empty()));
        let wrong: usize = dataset.tasks.iter().map(|task| task.wrong_carts().count()).sum();
        assert!(wrong > 400, "{wrong} wrong carts");
        assert_labels_hold_under_gold(&dataset, &catalog).await;
        // The inline items never join the catalog the `rules` extractor
        // learns its brands from.
        for item in dataset.tasks.iter().flat_map(|task| &task.inline_items) {
            assert!(catalog.get(item.id.as_deref().unwrap_or_default()).is_none());
        }
        assert_eq!(catalog.len(), Catalog::embedded().unwrap().len());
    }

    #[tokio::test]
    async fn naive_agent_is_judged_by_gold_where_unlabelled() {
        let (dataset, catalog) = load("v1");
        let report =
            run(&dataset, &catalog, None, &ReplayOptions { split: SplitFilter::Open, ..options(Agent::Naive, 1) })
                .await;
        assert_eq!(report.figures.tasks, 64);
        assert!(report.tasks.iter().all(|run| run.split == Split::Open.as_str()));
        // With gold facts the guard is the judge of unlabelled carts: no miss.
        assert_eq!(report.figures.wrong_missed, 0);
        assert!(report.figures.wrong_without_guard > report.figures.wrong_with_guard);
        let totals = &report.figures;
        assert_eq!(totals.questions, totals.approved + totals.declined);
        assert_eq!(totals.tasks, report.by_category.values().map(|figures| figures.tasks).sum::<u64>());
    }

    #[tokio::test]
    async fn a_failing_extractor_fails_every_check_closed() {
        let (dataset, catalog) = load("v2");
        let other = dataset::parse(
            "other",
            "x.jsonl",
            &std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/v1/tasks.jsonl")).unwrap(),
            &catalog,
        )
        .unwrap();
        // Gold built from another dataset knows none of these requests.
        let set = gold_set(&other, None, 8);
        let report = replay(&dataset, &catalog, &set, &options(Agent::Careful, 1), &|| {}).await;
        assert_eq!(report.figures.fail_closed, report.figures.tasks);
        assert_eq!(report.figures.wrong_missed, 0);
        assert_eq!(report.figures.questions, report.figures.tasks);
    }
}
