//! Labelled sandbox datasets (`datasets/*/tasks.jsonl`, described in
//! `datasets/README.md`): loading, validating and resolving cart ids against
//! the catalog.
//!
//! A cart entry is `{id, quantity}` (a catalog id) or `{item, quantity}`
//! with an inline item of the catalog shape (`catalog::parse_catalog_item`:
//! a task-local `id`, `category`, `tags` and the item attributes), for
//! products the sandbox store does not sell (`datasets/real`). Inline items
//! never join the catalog, so the `rules` extractor, whose vocabulary comes
//! from the catalog, does not learn their brands. A task's `allowed_items`
//! (the `price` check's alternatives) are its category's catalog items and
//! its inline items.
//!
//! A bad task is an error naming `file:line`, the task id once it is known,
//! and the field's JSON path, never skipped: a silently dropped task would
//! change every figure computed from the set.
//! This module reads files; it does not run the guard.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use chrono::NaiveDate;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::cart::{Cart, CartEntry, Item, MAX_PRICE_MINOR, Shipping};
use crate::catalog::{Catalog, parse_catalog_item};
use crate::extract::ExtractedLine;
use crate::facts::Facts;
use crate::finding::Code;

/// The file a dataset folder holds.
pub const TASKS_FILE: &str = "tasks.jsonl";

/// The keys a task line may have; anything else is a typo worth an error.
const TASK_KEYS: [&str; 11] = [
    "id",
    "split",
    "category",
    "request",
    "lang",
    "today",
    "gold",
    "carts",
    "expect_ask_on_right",
    "note",
    "derived_from",
];

/// Which half of a dataset a task is in. The held-out half is never used to
/// tune the rules extractor, so its figures are reported separately.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Split {
    Open,
    Heldout,
}

impl Split {
    pub fn as_str(self) -> &'static str {
        match self {
            Split::Open => "open",
            Split::Heldout => "heldout",
        }
    }
}

/// Which tasks a run uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SplitFilter {
    Open,
    Heldout,
    All,
}

impl SplitFilter {
    pub fn admits(self, split: Split) -> bool {
        match self {
            SplitFilter::All => true,
            SplitFilter::Open => split == Split::Open,
            SplitFilter::Heldout => split == Split::Heldout,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            SplitFilter::Open => "open",
            SplitFilter::Heldout => "heldout",
            SplitFilter::All => "all",
        }
    }
}

impl FromStr for SplitFilter {
    type Err = String;
    fn from_str(text: &str) -> Result<SplitFilter, String> {
        match text {
            "open" => Ok(SplitFilter::Open),
            "heldout" => Ok(SplitFilter::Heldout),
            "all" => Ok(SplitFilter::All),
            _ => Err(format!("unknown split {text:?} (open, heldout or all)")),
        }
    }
}

impl fmt::Display for SplitFilter {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.as_str())
    }
}

/// Whether a labelled cart is what the person wanted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Label {
    Right,
    Wrong,
}

/// One line of a cart as the dataset writes it: a catalog id (or an inline
/// item's task-local id) and a quantity.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct CartLine {
    pub id: String,
    pub quantity: u64,
}

/// A cart of the dataset, with its items looked up in the catalog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabelledCart {
    pub label: Label,
    pub lines: Vec<CartLine>,
    /// The catalog items, in the order of `lines`.
    pub cart: Cart,
    /// On wrong carts: the block codes the guard must raise with the gold facts.
    pub codes: BTreeSet<String>,
}

impl LabelledCart {
    /// The cart's lines sorted, so two carts compare equal whatever their order.
    pub fn key(&self) -> Vec<CartLine> {
        sorted(&self.lines)
    }
}

/// The lines of a cart sorted by id then quantity.
pub fn sorted(lines: &[CartLine]) -> Vec<CartLine> {
    let mut key = lines.to_vec();
    key.sort();
    key
}

/// One labelled shopping task.
#[derive(Debug, Clone, PartialEq)]
pub struct Task {
    pub id: String,
    pub split: Split,
    /// The catalog category the carts draw from; `None` when every cart
    /// holds inline items only.
    pub category: Option<String>,
    pub request: String,
    pub lang: String,
    pub today: NaiveDate,
    pub gold: Facts,
    pub carts: Vec<LabelledCart>,
    /// Block codes the guard raises on every cart, right ones included
    /// (`other` for a must-have free-text requirement).
    pub expect_ask_on_right: BTreeSet<String>,
    /// The distinct inline items of the carts, in order of first mention.
    pub inline_items: Vec<Item>,
    /// Where the task is: `file:line`.
    pub origin: String,
}

impl Task {
    /// `facts` with what the request asks about charges beyond the items
    /// (`Facts::asked`, issue 29), read from the request's words as
    /// `check_order` reads them, so that a replay or a comparison decides as
    /// the product does.
    pub fn as_asked(&self, facts: &Facts) -> Facts {
        Facts { asked: crate::words::charges::asked(&self.request), ..facts.clone() }
    }

    pub fn right_carts(&self) -> impl Iterator<Item = &LabelledCart> {
        self.carts.iter().filter(|cart| cart.label == Label::Right)
    }

    pub fn wrong_carts(&self) -> impl Iterator<Item = &LabelledCart> {
        self.carts.iter().filter(|cart| cart.label == Label::Wrong)
    }

    /// The `allowed_items` of the `price` check: every catalog item of the
    /// task's category, then the task's inline items.
    pub fn allowed_items(&self, catalog: &Catalog) -> Vec<Item> {
        let mut allowed = match &self.category {
            Some(category) => Dataset::allowed_items(catalog, category),
            None => Vec::new(),
        };
        allowed.extend(self.inline_items.iter().cloned());
        allowed
    }

    /// The category for reports: the catalog category, or `inline`.
    pub fn category_label(&self) -> &str {
        self.category.as_deref().unwrap_or(INLINE_CATEGORY)
    }
}

/// What reports call the category of a task whose carts are inline items.
pub const INLINE_CATEGORY: &str = "inline";

/// A dataset folder's tasks, in file order.
#[derive(Debug, Clone)]
pub struct Dataset {
    /// The folder name (`v1`), used in reports.
    pub name: String,
    pub tasks: Vec<Task>,
}

impl Dataset {
    /// The tasks of one split, in file order.
    pub fn tasks(&self, split: SplitFilter) -> impl Iterator<Item = &Task> {
        self.tasks.iter().filter(move |task| split.admits(task.split))
    }

    /// The items of a category, for the price check's `allowed_items`.
    pub fn allowed_items(catalog: &Catalog, category: &str) -> Vec<Item> {
        catalog.in_category(category).map(|item| item.item.clone()).collect()
    }
}

/// A dataset that could not be loaded, with where.
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    #[error("cannot read {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("{file}:{line}: {}{field}: {message}", task.as_ref().map(|id| format!("task {id:?}: ")).unwrap_or_default())]
    Task { file: String, line: usize, task: Option<String>, field: String, message: String },
    #[error("{0}: no tasks")]
    Empty(String),
}

/// Loads a dataset: a folder holding `tasks.jsonl`, or the file itself.
pub fn load(path: &Path, catalog: &Catalog) -> Result<Dataset, DatasetError> {
    let file = if path.is_dir() { path.join(TASKS_FILE) } else { path.to_owned() };
    let text = fs::read_to_string(&file).map_err(|source| DatasetError::Read { path: file.clone(), source })?;
    let name = if path.is_dir() { path } else { path.parent().unwrap_or(path) }
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| file.display().to_string());
    parse(&name, &file.display().to_string(), &text, catalog)
}

/// Parses the text of a tasks file; `file` names it in errors.
pub fn parse(name: &str, file: &str, text: &str, catalog: &Catalog) -> Result<Dataset, DatasetError> {
    let mut tasks: Vec<Task> = Vec::new();
    let mut first_line_of: BTreeMap<String, usize> = BTreeMap::new();
    // The gold extractor looks facts up by request and today: two tasks with
    // the same words on the same day must have the same gold.
    let mut gold_of: BTreeMap<(String, NaiveDate), (usize, Facts)> = BTreeMap::new();
    for (index, line_text) in text.lines().enumerate() {
        let line = index + 1;
        if line_text.trim().is_empty() {
            continue;
        }
        let task = parse_task(line_text, catalog, &format!("{file}:{line}")).map_err(|(task, (field, message))| {
            DatasetError::Task { file: file.to_owned(), line, task, field, message }
        })?;
        let fail = |field: &str, message: String| DatasetError::Task {
            file: file.to_owned(),
            line,
            task: Some(task.id.clone()),
            field: field.to_owned(),
            message,
        };
        if let Some(earlier) = first_line_of.insert(task.id.clone(), line) {
            return Err(fail("id", format!("duplicate id {:?} (first on line {earlier})", task.id)));
        }
        let key = (task.request.clone(), task.today);
        match gold_of.get(&key) {
            Some((earlier, gold)) if *gold != task.gold => {
                return Err(fail(
                    "gold",
                    format!("line {earlier} has the same request and today with other gold facts"),
                ));
            }
            Some(_) => {}
            None => {
                gold_of.insert(key, (line, task.gold.clone()));
            }
        }
        tasks.push(task);
    }
    if tasks.is_empty() {
        return Err(DatasetError::Empty(file.to_owned()));
    }
    Ok(Dataset { name: name.to_owned(), tasks })
}

type FieldError = (String, String);

fn field_error(field: &str, message: impl Into<String>) -> FieldError {
    (field.to_owned(), message.into())
}

/// A task that could not be parsed: its id when known, the field, why.
type TaskError = (Option<String>, FieldError);

fn parse_task(text: &str, catalog: &Catalog, origin: &str) -> Result<Task, TaskError> {
    let value: Value =
        serde_json::from_str(text).map_err(|error| (None, field_error("$", format!("not JSON: {error}"))))?;
    let object = value.as_object().ok_or_else(|| (None, field_error("$", "expected a task object")))?;
    if let Some(key) = object.keys().find(|key| !TASK_KEYS.contains(&key.as_str())) {
        return Err((None, field_error(key, "unknown task field")));
    }
    let id = required_string(object, "id").map_err(|error| (None, error))?;
    parse_task_fields(object, id.clone(), catalog, origin).map_err(|error| (Some(id), error))
}

fn parse_task_fields(
    object: &Map<String, Value>,
    id: String,
    catalog: &Catalog,
    origin: &str,
) -> Result<Task, FieldError> {
    let split = match required_string(object, "split")?.as_str() {
        "open" => Split::Open,
        "heldout" => Split::Heldout,
        other => return Err(field_error("split", format!("{other:?} is neither open nor heldout"))),
    };
    let category = match object.get("category") {
        None => None,
        Some(_) => {
            let category = required_string(object, "category")?;
            if catalog.in_category(&category).next().is_none() {
                return Err(field_error("category", format!("no catalog item is in category {category:?}")));
            }
            Some(category)
        }
    };
    let request = required_string(object, "request")?;
    let lang = required_string(object, "lang")?;
    let today_text = required_string(object, "today")?;
    let today = NaiveDate::parse_from_str(&today_text, "%Y-%m-%d")
        .map_err(|error| field_error("today", format!("{today_text:?} is not a YYYY-MM-DD date: {error}")))?;
    let gold_value = object.get("gold").ok_or_else(|| field_error("gold", "missing"))?;
    let gold: Facts =
        serde_json::from_value(gold_value.clone()).map_err(|error| field_error("gold", error.to_string()))?;
    gold.validate()
        .map_err(|error| field_error(&format!("gold{}", error.path.trim_start_matches('$')), error.message))?;
    if !gold.disputed.is_empty() {
        return Err(field_error("gold.disputed", "gold facts are never disputed"));
    }
    // Candidates are what a merge makes of two readings; gold is one reading
    // (and the gold extractor's wire shape has no place for them).
    if !gold.model_any.is_empty() {
        return Err(field_error("gold.model_any", "gold facts never hold merge candidates"));
    }
    if !gold.quantity_any.is_empty() {
        return Err(field_error("gold.quantity_any", "gold facts never hold merge candidates"));
    }
    if let Some(index) = gold.lines.iter().position(|line| *line != ExtractedLine::of(line).into_line()) {
        return Err(field_error(&format!("gold.lines[{index}]"), "gold facts never hold merge candidates"));
    }
    let expect_ask_on_right = match object.get("expect_ask_on_right") {
        None | Some(Value::Null) => BTreeSet::new(),
        Some(value) => codes(value, "expect_ask_on_right")?,
    };
    let carts_value = object.get("carts").ok_or_else(|| field_error("carts", "missing"))?;
    let carts_list = carts_value.as_array().ok_or_else(|| field_error("carts", "expected a list of carts"))?;
    let mut inline = InlineItems { catalog, category: category.as_deref(), items: Vec::new() };
    let carts = carts_list
        .iter()
        .enumerate()
        .map(|(index, cart)| parse_cart(cart, &format!("carts[{index}]"), &mut inline))
        .collect::<Result<Vec<_>, _>>()?;
    if !carts.iter().any(|cart| cart.label == Label::Right) {
        return Err(field_error("carts", "no cart is labelled right"));
    }
    let inline_items = inline.items;
    Ok(Task {
        id,
        split,
        category,
        request,
        lang,
        today,
        gold,
        carts,
        expect_ask_on_right,
        inline_items,
        origin: origin.to_owned(),
    })
}

fn required_string(object: &Map<String, Value>, key: &str) -> Result<String, FieldError> {
    match object.get(key) {
        Some(Value::String(text)) if !text.trim().is_empty() => Ok(text.clone()),
        Some(Value::String(_)) => Err(field_error(key, "empty")),
        Some(_) => Err(field_error(key, "expected a string")),
        None => Err(field_error(key, "missing")),
    }
}

fn codes(value: &Value, field: &str) -> Result<BTreeSet<String>, FieldError> {
    let list = value.as_array().ok_or_else(|| field_error(field, "expected a list of finding codes"))?;
    list.iter()
        .enumerate()
        .map(|(index, code)| {
            let path = format!("{field}[{index}]");
            let text = code.as_str().ok_or_else(|| field_error(&path, "expected a string"))?;
            match Code::parse(text) {
                Some(Code::Unchecked) => Err(field_error(&path, "unchecked is always warn, never a block code")),
                Some(code) => Ok(code.as_str().to_owned()),
                None => Err(field_error(&path, format!("unknown finding code {text:?}"))),
            }
        })
        .collect()
}

/// Where a task's cart entries are resolved: catalog ids against the
/// catalog (and the task's category), inline items collected per task.
struct InlineItems<'a> {
    catalog: &'a Catalog,
    category: Option<&'a str>,
    /// The task's inline items so far: one per task-local id.
    items: Vec<Item>,
}

impl InlineItems<'_> {
    /// Resolves one entry, `{id, quantity}` or `{item, quantity}`.
    fn entry(&mut self, entry: &Value, path: &str) -> Result<(CartLine, CartEntry), FieldError> {
        let object =
            entry.as_object().ok_or_else(|| field_error(path, "expected {id, quantity} or {item, quantity}"))?;
        if let Some(key) = object.keys().find(|key| !["id", "item", "quantity"].contains(&key.as_str())) {
            return Err(field_error(&format!("{path}.{key}"), "unknown cart entry field"));
        }
        let quantity = object
            .get("quantity")
            .and_then(Value::as_u64)
            .filter(|quantity| *quantity > 0)
            .ok_or_else(|| field_error(&format!("{path}.quantity"), "expected a positive integer"))?;
        let item = match (object.get("id"), object.get("item")) {
            (Some(_), Some(_)) => return Err(field_error(path, "give id or item, not both")),
            (None, Some(value)) => self.inline(value, &format!("{path}.item"))?,
            (Some(id), None) => {
                let id = id.as_str().ok_or_else(|| field_error(&format!("{path}.id"), "expected a catalog id"))?;
                let found = self
                    .catalog
                    .get(id)
                    .ok_or_else(|| field_error(&format!("{path}.id"), format!("{id:?} is not in the catalog")))?;
                if self.category.is_none() {
                    return Err(field_error(
                        &format!("{path}.id"),
                        "a catalog id needs the task's category (the price check's allowed items)",
                    ));
                }
                found.item.clone()
            }
            (None, None) => return Err(field_error(&format!("{path}.id"), "expected a catalog id or an inline item")),
        };
        let id = item.id.clone().unwrap_or_default();
        Ok((CartLine { id, quantity }, CartEntry { item, quantity }))
    }

    /// An inline item: the catalog item shape, an id no catalog item has,
    /// and the same attributes wherever the task mentions that id.
    fn inline(&mut self, value: &Value, path: &str) -> Result<Item, FieldError> {
        let parsed = parse_catalog_item(value, path).map_err(|error| field_error(&error.path, error.message))?;
        let item = parsed.item;
        let id = item.id.clone().unwrap_or_default();
        if self.catalog.get(&id).is_some() {
            return Err(field_error(
                &format!("{path}.id"),
                format!("{id:?} is a catalog id: an inline item needs a task-local id"),
            ));
        }
        match self.items.iter().find(|known| known.id == item.id) {
            Some(known) if *known != item => Err(field_error(
                &format!("{path}.id"),
                format!("{id:?} names another inline item earlier in this task"),
            )),
            Some(_) => Ok(item),
            None => {
                self.items.push(item.clone());
                Ok(item)
            }
        }
    }
}

fn parse_cart(value: &Value, path: &str, resolver: &mut InlineItems) -> Result<LabelledCart, FieldError> {
    let object = value.as_object().ok_or_else(|| field_error(path, "expected a cart object"))?;
    if let Some(key) = object.keys().find(|key| !["label", "items", "codes", "shipping"].contains(&key.as_str())) {
        return Err(field_error(&format!("{path}.{key}"), "unknown cart field"));
    }
    let label = match object.get("label").and_then(Value::as_str) {
        Some("right") => Label::Right,
        Some("wrong") => Label::Wrong,
        _ => return Err(field_error(&format!("{path}.label"), "expected \"right\" or \"wrong\"")),
    };
    let codes = match (label, object.get("codes")) {
        (Label::Wrong, Some(value)) => codes(value, &format!("{path}.codes"))?,
        (Label::Wrong, None) => return Err(field_error(&format!("{path}.codes"), "a wrong cart names its codes")),
        (Label::Right, None) => BTreeSet::new(),
        (Label::Right, Some(_)) => return Err(field_error(&format!("{path}.codes"), "a right cart has no codes")),
    };
    if label == Label::Wrong && codes.is_empty() {
        return Err(field_error(&format!("{path}.codes"), "a wrong cart raises at least one block code"));
    }
    let items_path = format!("{path}.items");
    let items =
        object.get("items").and_then(Value::as_array).filter(|items| !items.is_empty()).ok_or_else(|| {
            field_error(&items_path, "expected a non-empty list of {id, quantity} or {item, quantity}")
        })?;
    let mut lines = Vec::with_capacity(items.len());
    let mut entries = Vec::with_capacity(items.len());
    for (index, entry) in items.iter().enumerate() {
        let (line, entry) = resolver.entry(entry, &format!("{items_path}[{index}]"))?;
        lines.push(line);
        entries.push(entry);
    }
    let shipping = match object.get("shipping") {
        None | Some(Value::Null) => None,
        Some(value) => Some(shipping(value, &format!("{path}.shipping"))?),
    };
    Ok(LabelledCart { label, lines, cart: Cart { shipping, charges: Default::default(), entries }, codes })
}

/// What a labelled cart states it charges for shipping,
/// `{"price_cents": n, "currency": "PHP"}`: a checkout's fulfillment total
/// (an ACP session's), which items of the catalog shape cannot carry. A cart
/// that states none says nothing, as a checkout that does not say.
fn shipping(value: &Value, field: &str) -> Result<Shipping, FieldError> {
    let object = value.as_object().ok_or_else(|| field_error(field, "expected {price_cents, currency}"))?;
    if let Some(key) = object.keys().find(|key| !["price_cents", "currency"].contains(&key.as_str())) {
        return Err(field_error(&format!("{field}.{key}"), "unknown shipping field"));
    }
    let minor = object
        .get("price_cents")
        .and_then(Value::as_u64)
        .filter(|minor| *minor <= MAX_PRICE_MINOR)
        .ok_or_else(|| {
            field_error(&format!("{field}.price_cents"), format!("expected minor units from 0 to {MAX_PRICE_MINOR}"))
        })?;
    let currency = object
        .get("currency")
        .and_then(Value::as_str)
        .filter(|code| code.len() == 3 && code.chars().all(|character| character.is_ascii_uppercase()))
        .ok_or_else(|| field_error(&format!("{field}.currency"), "expected an ISO 4217 code"))?;
    Ok(Shipping { minor, currency: Some(currency.to_owned()) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog() -> Catalog {
        Catalog::embedded().unwrap()
    }

    const GOOD: &str = r#"{"id": "t-1", "split": "open", "category": "gifts", "request": "a red notebook", "lang": "en", "today": "2026-11-02", "gold": {"color": "red"}, "carts": [{"label": "right", "items": [{"id": "gift-023", "quantity": 1}]}, {"label": "wrong", "items": [{"id": "gift-021", "quantity": 1}], "codes": ["color"]}]}"#;

    fn error_of(text: &str) -> String {
        parse("t", "tasks.jsonl", text, &catalog()).unwrap_err().to_string()
    }

    #[test]
    fn the_shipped_datasets_load() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets");
        let v1 = load(&root.join("v1"), &catalog()).unwrap();
        let v2 = load(&root.join("v2"), &catalog()).unwrap();
        assert_eq!((v1.name.as_str(), v1.tasks.len()), ("v1", 128));
        assert_eq!(v2.tasks.len(), 74);
        assert_eq!(v1.tasks(SplitFilter::Open).count(), 64);
    }

    #[test]
    fn a_task_decides_with_what_its_request_asks_about_charges() {
        let text = GOOD.replace("a red notebook", "a red notebook, gift wrapped, with no extra fees");
        let task = &parse("t", "tasks.jsonl", &text, &catalog()).unwrap().tasks[0];
        let asked = task.as_asked(&task.gold).asked;
        assert!(asked.no_extra_charges, "{asked:?}");
        assert_eq!(task.as_asked(&task.gold).color, task.gold.color, "the gold facts stay as they are");
        let plain = &parse("t", "tasks.jsonl", GOOD, &catalog()).unwrap().tasks[0];
        assert!(!plain.as_asked(&plain.gold).asked.no_extra_charges);
    }

    #[test]
    fn errors_name_file_line_and_field() {
        let good = parse("t", "tasks.jsonl", GOOD, &catalog()).unwrap();
        assert_eq!(good.tasks[0].carts[1].codes, BTreeSet::from(["color".to_owned()]));
        let unknown_id = GOOD.replace("gift-021", "gift-999");
        assert_eq!(
            error_of(&format!("{GOOD}\n\n{}", unknown_id.replace("t-1", "t-2"))),
            "tasks.jsonl:3: task \"t-2\": carts[1].items[0].id: \"gift-999\" is not in the catalog"
        );
        assert_eq!(
            error_of(&GOOD.replace("\"color\": \"red\"", "\"colour\": \"red\"")),
            "tasks.jsonl:1: task \"t-1\": gold: unknown field `colour`, expected one of `product`, `brand`, `brand_any`, `brand_not`, `model`, `model_any`, `color`, `color_any`, `color_not`, `size_label`, `size_any`, `level`, `price_preference`, `explicit_max_cents`, `explicit_max_currency`, `price_min_cents`, `price_min_currency`, `free_shipping`, `quantity`, `quantity_any`, `needs_refundable`, `deadline_days`, `lines`, `other`, `other_optional`, `soft`, `disputed`"
        );
        assert_eq!(
            error_of(&GOOD.replace(r#"{"color": "red"}"#, r#"{"color": "red", "quantity": 1, "quantity_any": [2]}"#)),
            "tasks.jsonl:1: task \"t-1\": gold.quantity_any: gold facts never hold merge candidates"
        );
        assert_eq!(
            error_of(&GOOD.replace("\"color\"]", "\"colour\"]")),
            "tasks.jsonl:1: task \"t-1\": carts[1].codes[0]: unknown finding code \"colour\""
        );
        assert_eq!(
            error_of(&GOOD.replace("2026-11-02", "2026-13-02")).split(": ").take(3).collect::<Vec<_>>(),
            ["tasks.jsonl:1", "task \"t-1\"", "today"]
        );
        assert_eq!(
            error_of(&format!("{GOOD}\n{GOOD}")),
            "tasks.jsonl:2: task \"t-1\": id: duplicate id \"t-1\" (first on line 1)"
        );
        assert_eq!(
            error_of(&GOOD.replace("\"split\": \"open\"", "\"split\": \"closed\"")),
            "tasks.jsonl:1: task \"t-1\": split: \"closed\" is neither open nor heldout"
        );
        assert_eq!(
            error_of("{\"id\": 1"),
            "tasks.jsonl:1: $: not JSON: EOF while parsing an object at line 1 column 8"
        );
        assert_eq!(error_of(""), "tasks.jsonl: no tasks");
        let same_words = GOOD.replace("t-1", "t-2").replace("\"color\": \"red\"}", "\"color\": \"blue\"}");
        assert_eq!(
            error_of(&format!("{GOOD}\n{same_words}")),
            "tasks.jsonl:2: task \"t-2\": gold: line 1 has the same request and today with other gold facts"
        );
    }

    /// A task whose carts hold inline items (no category).
    const INLINE: &str = r#"{"id": "r-1", "split": "open", "request": "a red Quolvex kettle under $30", "lang": "en", "today": "2026-11-02", "gold": {"brand": "Quolvex", "color": "red", "explicit_max_cents": 3000}, "carts": [{"label": "right", "items": [{"item": {"id": "r-1/right", "category": "devset", "brand": "Quolvex", "name": "Quolvex", "color": "red", "size": null, "level": "any", "final_sale": false, "delivery_days": 2, "units": 1, "price_cents": 2500, "currency": "USD", "tags": []}, "quantity": 1}]}, {"label": "wrong", "items": [{"item": {"id": "r-1/color", "category": "devset", "brand": "Quolvex", "name": "Quolvex", "color": "blue", "units": 1, "price_cents": 2500, "currency": "USD"}, "quantity": 1}], "codes": ["color"]}, {"label": "wrong", "items": [{"item": {"id": "r-1/right", "category": "devset", "brand": "Quolvex", "name": "Quolvex", "color": "red", "size": null, "level": "any", "final_sale": false, "delivery_days": 2, "units": 1, "price_cents": 2500, "currency": "USD", "tags": []}, "quantity": 2}], "codes": ["explicit-max"]}]}"#;

    #[test]
    fn inline_items_load_as_the_tasks_allowed_items() {
        let catalog = catalog();
        let dataset = parse("t", "tasks.jsonl", INLINE, &catalog).unwrap();
        let task = &dataset.tasks[0];
        assert_eq!(task.category, None);
        assert_eq!(task.category_label(), INLINE_CATEGORY);
        let ids: Vec<&str> = task.inline_items.iter().map(|item| item.id.as_deref().unwrap()).collect();
        assert_eq!(ids, ["r-1/right", "r-1/color"], "each task-local id once, in order of mention");
        assert_eq!(task.allowed_items(&catalog), task.inline_items, "no category: the inline items alone");
        assert_eq!(task.carts[0].lines, [CartLine { id: "r-1/right".into(), quantity: 1 }]);
        let item = &task.carts[1].cart.entries[0].item;
        assert_eq!((item.color.as_deref(), item.price_cents, item.size.as_deref()), (Some("blue"), Some(2500), None));
        assert_eq!(task.carts[2].cart.entries[0].quantity, 2);
        // They never join the catalog (the rules extractor's vocabulary).
        assert!(catalog.get("r-1/right").is_none());
        assert!(catalog.items().iter().all(|known| known.item.brand.as_deref() != Some("Quolvex")));
        // Beside a category, the allowed items are the category's and the inline ones.
        let mixed = GOOD.replace(
            r#"{"label": "wrong", "items": [{"id": "gift-021""#,
            r#"{"label": "wrong", "items": [{"item": {"id": "t-1/x", "category": "devset", "color": "blue"}, "quantity": 1}], "codes": ["color"]}, {"label": "wrong", "items": [{"id": "gift-021""#,
        );
        let mixed = parse("t", "tasks.jsonl", &mixed, &catalog).unwrap();
        let allowed = mixed.tasks[0].allowed_items(&catalog);
        assert_eq!(allowed.len(), catalog.in_category("gifts").count() + 1);
        assert_eq!(allowed.last().and_then(|item| item.id.as_deref()), Some("t-1/x"));
    }

    /// Issue 28: a labelled cart may state its shipping, as the checkout it
    /// stands for does, so that free shipping asked is checked against it.
    #[test]
    fn a_labelled_cart_states_its_shipping() {
        let stated = INLINE.replace(
            r#"{"label": "right", "items""#,
            r#"{"label": "right", "shipping": {"price_cents": 0, "currency": "USD"}, "items""#,
        );
        let task = &parse("t", "tasks.jsonl", &stated, &catalog()).unwrap().tasks[0];
        assert_eq!(task.carts[0].cart.shipping, Some(Shipping { minor: 0, currency: Some("USD".into()) }));
        assert_eq!(task.carts[1].cart.shipping, None, "a cart that states none says nothing");
        let mut free = task.gold.clone();
        free.free_shipping = true;
        let codes = |index: usize| {
            crate::decision::check(&free, &task.carts[index].cart, &task.inline_items)
                .codes(crate::finding::Severity::Block)
        };
        assert!(!codes(0).contains(&"free-shipping"), "{:?}", codes(0));
        assert!(codes(1).contains(&"free-shipping"), "unstated shipping is asked: {:?}", codes(1));
        let cases = [
            (r#"{"price_cents": -1, "currency": "USD"}"#, "price_cents: expected minor units from 0 to 1000000000000"),
            (r#"{"price_cents": 0}"#, "currency: expected an ISO 4217 code"),
            (r#"{"price_cents": 0, "currency": "usd"}"#, "currency: expected an ISO 4217 code"),
            (r#"{"price_cents": 0, "currency": "USD", "free": true}"#, "free: unknown shipping field"),
        ];
        for (shipping, want) in cases {
            let bad = INLINE.replace(
                r#"{"label": "right", "items""#,
                &format!(r#"{{"label": "right", "shipping": {shipping}, "items""#),
            );
            assert_eq!(error_of(&bad), format!("tasks.jsonl:1: task \"r-1\": carts[0].shipping.{want}"));
        }
        let bad = INLINE.replace(r#"{"label": "right", "items""#, r#"{"label": "right", "shipping": 0, "items""#);
        assert_eq!(error_of(&bad), "tasks.jsonl:1: task \"r-1\": carts[0].shipping: expected {price_cents, currency}");
    }

    #[test]
    fn bad_inline_items_name_the_task_and_the_json_path() {
        let cases: [(&str, &str, &str); 9] = [
            (
                r#""color": "blue", "units""#,
                r#""colour": "blue", "units""#,
                "carts[1].items[0].item.colour: unknown item attribute",
            ),
            (
                r#""price_cents": 2500, "currency": "USD"}, "quantity": 1}], "codes": ["color"]"#,
                r#""price_cents": -5, "currency": "USD"}, "quantity": 1}], "codes": ["color"]"#,
                "carts[1].items[0].item.price_cents: -5 is negative",
            ),
            (
                r#""id": "r-1/color", "category": "devset", "#,
                r#""category": "devset", "#,
                "carts[1].items[0].item.id: every catalog item needs an id",
            ),
            (
                r#""id": "r-1/color", "category": "devset", "#,
                r#""id": "r-1/color", "#,
                "carts[1].items[0].item.category: a non-empty string is required",
            ),
            (
                r#""id": "r-1/color""#,
                r#""id": "gift-023""#,
                "carts[1].items[0].item.id: \"gift-023\" is a catalog id: an inline item needs a task-local id",
            ),
            (
                r#""id": "r-1/color""#,
                r#""id": "r-1/right""#,
                "carts[1].items[0].item.id: \"r-1/right\" names another inline item earlier in this task",
            ),
            (
                r#""currency": "USD", "tags": []}, "quantity": 2}"#,
                r#""currency": "USD", "tags": []}, "quantity": 0}"#,
                "carts[2].items[0].quantity: expected a positive integer",
            ),
            (
                r#"{"item": {"id": "r-1/color""#,
                r#"{"id": "gift-023", "item": {"id": "r-1/color""#,
                "carts[1].items[0]: give id or item, not both",
            ),
            (
                r#"{"item": {"id": "r-1/color""#,
                r#"{"id": "gift-023", "qty": 1, "x": {"id": "r-1/color""#,
                "carts[1].items[0].qty: unknown cart entry field",
            ),
        ];
        for (from, to, want) in cases {
            assert_eq!(INLINE.matches(from).count(), 1, "{from}");
            assert_eq!(error_of(&INLINE.replace(from, to)), format!("tasks.jsonl:1: task \"r-1\": {want}"));
        }
        let catalog_id = INLINE.replace(
            r#"{"item": {"id": "r-1/color""#,
            r#"{"id": "gift-023", "quantity": 1}, {"item": {"id": "r-1/color""#,
        );
        assert_eq!(
            error_of(&catalog_id),
            "tasks.jsonl:1: task \"r-1\": carts[1].items[0].id: a catalog id needs the task's category (the price check's allowed items)"
        );
        assert_eq!(
            error_of(&INLINE.replace(
                r#""items": [{"item": {"id": "r-1/color""#,
                r#""items": [{"item": 7, "zz": {"id": "r-1/color""#
            )),
            "tasks.jsonl:1: task \"r-1\": carts[1].items[0].zz: unknown cart entry field"
        );
        assert_eq!(
            error_of(&INLINE.replace(r#"{"item": {"id": "r-1/color", "category": "devset", "brand": "Quolvex", "name": "Quolvex", "color": "blue", "units": 1, "price_cents": 2500, "currency": "USD"}, "quantity": 1}"#, r#"{"item": [1], "quantity": 1}"#)),
            "tasks.jsonl:1: task \"r-1\": carts[1].items[0].item: expected an item object"
        );
    }
}
