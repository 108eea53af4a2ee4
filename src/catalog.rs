//! The sandbox store: catalog items loaded from `catalog/*.json`, looked up by
//! id, and searched by keyword for simulated agents.
//!
//! Each catalog file is a JSON array of items (one per line by convention),
//! each an item of the FORMAT.md shape plus `category` and `tags` (which
//! become the item's [`ItemWords`](crate::cart::ItemWords) with any
//! `description` and `attributes` it has). A bad item
//! is reported with its file and line, never skipped. The repository's own
//! catalog is embedded in the binary so the offline default works anywhere.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;
use serde_json::value::RawValue;

use crate::cart::{CartError, Item, error, parse_item};
use crate::normalize;

/// One item of the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogItem {
    pub category: String,
    pub tags: Vec<String>,
    pub item: Item,
}

impl CatalogItem {
    pub fn id(&self) -> &str {
        self.item.id.as_deref().unwrap_or_default()
    }
}

/// A catalog that could not be loaded, with where.
#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    #[error("cannot read {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("{file}:{line}: {message}")]
    Item { file: String, line: usize, message: String },
    #[error("{file}: {message}")]
    File { file: String, message: String },
    #[error("no catalog files (*.json) in {0}")]
    Empty(PathBuf),
}

/// The store's items, in file-name then file order.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    items: Vec<CatalogItem>,
    by_id: BTreeMap<String, usize>,
}

/// The repository's catalog, compiled in.
const EMBEDDED: [(&str, &str); 8] = [
    ("clothing.json", include_str!("../catalog/clothing.json")),
    ("gifts.json", include_str!("../catalog/gifts.json")),
    ("groceries.json", include_str!("../catalog/groceries.json")),
    ("headphones.json", include_str!("../catalog/headphones.json")),
    ("phone-cases.json", include_str!("../catalog/phone-cases.json")),
    ("running-shoes.json", include_str!("../catalog/running-shoes.json")),
    ("tennis-balls.json", include_str!("../catalog/tennis-balls.json")),
    ("tennis-rackets.json", include_str!("../catalog/tennis-rackets.json")),
];

impl Catalog {
    /// The catalog shipped in `catalog/`, as compiled into the binary.
    pub fn embedded() -> Result<Catalog, CatalogError> {
        let mut catalog = Catalog::default();
        for (name, text) in EMBEDDED {
            catalog.add_file(name, text)?;
        }
        Ok(catalog)
    }

    /// Loads every `*.json` file in `directory` except `*.schema.json`.
    pub fn load_dir(directory: &Path) -> Result<Catalog, CatalogError> {
        let read_error = |source| CatalogError::Read { path: directory.to_owned(), source };
        let mut files: Vec<PathBuf> = fs::read_dir(directory)
            .map_err(read_error)?
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| {
                path.extension().is_some_and(|extension| extension == "json")
                    && !path.to_string_lossy().ends_with(".schema.json")
            })
            .collect();
        files.sort();
        if files.is_empty() {
            return Err(CatalogError::Empty(directory.to_owned()));
        }
        let mut catalog = Catalog::default();
        for file in files {
            let text = fs::read_to_string(&file).map_err(|source| CatalogError::Read { path: file.clone(), source })?;
            catalog.add_file(&file.display().to_string(), &text)?;
        }
        Ok(catalog)
    }

    /// Parses one catalog file's text; `name` is used in errors.
    pub fn add_file(&mut self, name: &str, text: &str) -> Result<(), CatalogError> {
        let raw_items: Vec<&RawValue> = serde_json::from_str(text)
            .map_err(|error| CatalogError::File { file: name.to_owned(), message: error.to_string() })?;
        for (index, raw) in raw_items.into_iter().enumerate() {
            // The raw slice points into `text`: its offset gives the line.
            let offset = (raw.get().as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
            let line = text[..offset.min(text.len())].matches('\n').count() + 1;
            let item_error = |message: String| CatalogError::Item { file: name.to_owned(), line, message };
            let value: Value = serde_json::from_str(raw.get()).map_err(|error| item_error(error.to_string()))?;
            let parsed =
                parse_catalog_item(&value, &format!("$[{index}]")).map_err(|error| item_error(error.to_string()))?;
            let id = parsed.id().to_owned();
            if self.by_id.contains_key(&id) {
                return Err(item_error(format!("duplicate id {id:?}")));
            }
            self.by_id.insert(id, self.items.len());
            self.items.push(parsed);
        }
        Ok(())
    }

    pub fn items(&self) -> &[CatalogItem] {
        &self.items
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn get(&self, id: &str) -> Option<&CatalogItem> {
        self.by_id.get(id).map(|&index| &self.items[index])
    }

    /// The categories, sorted.
    pub fn categories(&self) -> Vec<&str> {
        let mut categories: Vec<&str> = self.items.iter().map(|item| item.category.as_str()).collect();
        categories.sort_unstable();
        categories.dedup();
        categories
    }

    /// The items of one category, in catalog order.
    pub fn in_category<'a>(&'a self, category: &'a str) -> impl Iterator<Item = &'a CatalogItem> + 'a {
        self.items.iter().filter(move |item| item.category == category)
    }

    /// Keyword search: items ranked by how many of the query's words appear
    /// in their brand, name, colour, size, category and tags; ties keep
    /// catalog order. Items matching no word are left out.
    pub fn search(&self, query: &str, limit: usize) -> Vec<&CatalogItem> {
        let query_words: Vec<String> = normalize::words(query);
        let mut scored: Vec<(usize, usize)> = self
            .items
            .iter()
            .enumerate()
            .filter_map(|(index, item)| {
                let text = [
                    item.item.brand.as_deref().unwrap_or_default(),
                    item.item.name.as_deref().unwrap_or_default(),
                    item.item.color.as_deref().unwrap_or_default(),
                    item.item.size.as_deref().unwrap_or_default(),
                    &item.category,
                    &item.tags.join(" "),
                ]
                .join(" ");
                let item_words = normalize::words(&text);
                let score = query_words.iter().filter(|word| item_words.contains(word)).count();
                (score > 0).then_some((score, index))
            })
            .collect();
        scored.sort_by(|left, right| right.0.cmp(&left.0).then(left.1.cmp(&right.1)));
        scored.into_iter().take(limit).map(|(_, index)| &self.items[index]).collect()
    }
}

/// Parses one item of the catalog shape (an item plus `category` and
/// `tags`, `id` required) at `path`; also the shape of a dataset's inline
/// cart items.
pub fn parse_catalog_item(value: &Value, path: &str) -> Result<CatalogItem, CartError> {
    let mut object = value.as_object().cloned().ok_or_else(|| error(path, "expected an item object"))?;
    let category = match object.remove("category") {
        Some(Value::String(category)) if !category.is_empty() => category,
        _ => return Err(error(&format!("{path}.category"), "a non-empty string is required")),
    };
    let tags = match object.remove("tags") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(tags)) => tags
            .into_iter()
            .enumerate()
            .map(|(index, tag)| match tag {
                Value::String(tag) => Ok(tag),
                _ => Err(error(&format!("{path}.tags[{index}]"), "expected a string")),
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(error(&format!("{path}.tags"), "expected a list of strings")),
    };
    let mut item = parse_item(&Value::Object(object), path)?;
    if item.id.as_deref().is_none_or(str::is_empty) {
        return Err(error(&format!("{path}.id"), "every catalog item needs an id"));
    }
    // The catalog's words travel with the item into a cart, for the checks
    // that read what an item is; they stay out of its digest (the id names
    // them), so catalog carts keep their record ids.
    item.words.category = Some(category.clone());
    item.words.tags = tags.clone();
    item.words.from_catalog = true;
    Ok(CatalogItem { category, tags, item })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_catalog_loads_and_matches_the_folder() {
        let embedded = Catalog::embedded().unwrap();
        let folder = Catalog::load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("catalog")).unwrap();
        assert_eq!(embedded.len(), folder.len(), "a catalog file is missing from EMBEDDED");
        assert!(embedded.len() >= 300, "{} items", embedded.len());
        assert!(embedded.categories().len() >= 8);
    }

    #[test]
    fn bad_items_report_file_and_line() {
        let mut catalog = Catalog::default();
        let text =
            "[\n{\"id\": \"a\", \"category\": \"x\"},\n{\"id\": \"b\", \"category\": \"x\", \"colour\": \"red\"}\n]";
        let error = catalog.add_file("shoes.json", text).unwrap_err();
        assert_eq!(error.to_string(), "shoes.json:3: $[1].colour: unknown item attribute");
        let duplicate = "[\n{\"id\": \"a\", \"category\": \"x\"}\n]";
        assert!(
            catalog.add_file("more.json", duplicate).unwrap_err().to_string().starts_with("more.json:2: duplicate id")
        );
        let no_category = "[{\"id\": \"c\"}]";
        assert!(catalog.add_file("c.json", no_category).unwrap_err().to_string().contains("category"));
    }

    #[test]
    fn search_ranks_by_matching_words() {
        let mut catalog = Catalog::default();
        let text = r#"[
{"id": "a", "category": "shoes", "brand": "Nike", "name": "Nike Pegasus 40", "color": "Black"},
{"id": "b", "category": "shoes", "brand": "Nike", "name": "Nike Pegasus 41", "color": "Black"},
{"id": "c", "category": "balls", "brand": "Dunlop", "name": "Dunlop ATP", "tags": ["4-can box"]}
]"#;
        catalog.add_file("t.json", text).unwrap();
        let ids: Vec<&str> = catalog.search("black pegasus 41", 5).iter().map(|item| item.id()).collect();
        assert_eq!(ids, vec!["b", "a"]);
        assert_eq!(catalog.search("can", 5)[0].id(), "c");
        assert!(catalog.search("racket", 5).is_empty());
    }

    #[test]
    fn catalog_items_carry_the_catalog_s_words() {
        let mut catalog = Catalog::default();
        let text = r#"[{"id": "a", "category": "running-shoes", "brand": "Nike", "name": "Nike Pegasus 41",
            "tags": ["road running", "neutral"], "description": "Daily trainer", "attributes": {"Drop": "10 mm"}}]"#;
        catalog.add_file("t.json", text).unwrap();
        let words = &catalog.get("a").unwrap().item.words;
        assert_eq!(words.category.as_deref(), Some("running-shoes"));
        assert_eq!(words.tags, ["road running", "neutral"]);
        assert_eq!(words.description.as_deref(), Some("Daily trainer"));
        assert_eq!(words.attributes, [crate::cart::NamedValue::new("Drop", "10 mm")]);
        assert!(words.from_catalog, "the catalog's words stay out of the digest");
        let embedded = Catalog::embedded().unwrap();
        assert!(embedded.items().iter().all(|item| item.item.words.category.as_deref() == Some(&item.category)));
    }
}
