//! Building extractor sets from names (`--extractors gold,noisy:1:0.2`).
//!
//! The registry knows the sandbox's own offline extractors, `gold` and
//! `noisy:SEED:RATE`, which need the loaded dataset. Every other name
//! (`rules`, `replay:DIR`, hosted providers) is asked of a fallback the
//! caller passes in, so this module never depends on how those are built.

use std::num::NonZeroUsize;
use std::sync::Arc;
use std::time::Duration;

use super::dataset::Dataset;
use super::gold::{GOLD, GoldBook, GoldExtractor};
use super::noisy::{self, NoisyExtractor};
use crate::extract::Extractor;
use crate::extract::set::{ExtractorSet, SetError};

/// Builds the extractors the registry does not know; `None`: unknown name.
pub type Fallback<'a> = &'a dyn Fn(&str) -> Option<Arc<dyn Extractor>>;

/// A fallback that knows nothing more.
pub fn no_fallback(_name: &str) -> Option<Arc<dyn Extractor>> {
    None
}

/// The most a sandbox check waits for extraction. Offline extractors answer
/// at once; a hosted one that takes longer than this has failed, and the
/// check fails closed as it would in production.
pub const SANDBOX_DEADLINE: Duration = Duration::from_secs(120);

/// A name list that could not become a set.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    #[error("no extractor names given")]
    Empty,
    #[error("unknown extractor {0:?} (known here: gold, noisy:SEED:RATE, and whatever this build adds)")]
    Unknown(String),
    #[error("bad extractor name {name:?}: {message}")]
    BadName { name: String, message: String },
    #[error(transparent)]
    Set(#[from] SetError),
}

/// Names to extractors, for one dataset.
pub struct Registry<'a> {
    book: Arc<GoldBook>,
    fallback: Fallback<'a>,
}

impl<'a> Registry<'a> {
    pub fn new(dataset: &Dataset, fallback: Fallback<'a>) -> Registry<'a> {
        Registry { book: Arc::new(GoldBook::new(dataset)), fallback }
    }

    /// One extractor by name.
    pub fn extractor(&self, name: &str) -> Result<Arc<dyn Extractor>, RegistryError> {
        let name = name.trim();
        if name == GOLD {
            return Ok(Arc::new(GoldExtractor::new(Arc::clone(&self.book))));
        }
        if let Some(parsed) = noisy::parse_name(name) {
            let (seed, rate) = parsed.map_err(|message| RegistryError::BadName { name: name.to_owned(), message })?;
            return Ok(Arc::new(NoisyExtractor::new(Arc::clone(&self.book), seed, rate).named(name)));
        }
        (self.fallback)(name).ok_or_else(|| RegistryError::Unknown(name.to_owned()))
    }

    /// The extractors of a comma-separated list, in order.
    pub fn extractors(&self, names: &str) -> Result<Vec<Arc<dyn Extractor>>, RegistryError> {
        let names: Vec<&str> = split_names(names);
        if names.is_empty() {
            return Err(RegistryError::Empty);
        }
        names.into_iter().map(|name| self.extractor(name)).collect()
    }

    /// A set of the given extractors in which all must succeed (the spec's
    /// default: a missing extractor fails the check closed).
    pub fn set(&self, extractors: Vec<Arc<dyn Extractor>>, task_count: usize) -> Result<ExtractorSet, RegistryError> {
        // One cache slot per task: a replay never extracts a request twice.
        let capacity = NonZeroUsize::new(task_count.max(1)).unwrap_or(NonZeroUsize::MIN);
        Ok(ExtractorSet::new(extractors, None, SANDBOX_DEADLINE, capacity)?)
    }
}

/// `"gold, noisy:1:0.2"` → `["gold", "noisy:1:0.2"]`.
pub fn split_names(names: &str) -> Vec<&str> {
    names.split(',').map(str::trim).filter(|name| !name.is_empty()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Catalog;
    use std::path::Path;

    #[test]
    fn known_names_fallback_and_errors() {
        let catalog = Catalog::embedded().unwrap();
        let dataset =
            super::super::dataset::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/v1"), &catalog).unwrap();
        let registry = Registry::new(&dataset, &no_fallback);
        let names: Vec<String> = registry
            .extractors("gold, noisy:1:0.20")
            .unwrap()
            .iter()
            .map(|extractor| extractor.name().to_owned())
            .collect();
        assert_eq!(names, ["gold", "noisy:1:0.20"]);
        assert!(matches!(registry.extractor("rules"), Err(RegistryError::Unknown(_))));
        assert!(matches!(registry.extractor("noisy:x:0.2"), Err(RegistryError::BadName { .. })));
        assert!(matches!(registry.extractors(" , "), Err(RegistryError::Empty)));

        let with_rules = |name: &str| -> Option<Arc<dyn Extractor>> {
            (name == "rules").then(|| registry.extractor("gold").ok()).flatten()
        };
        let extended = Registry::new(&dataset, &with_rules);
        assert!(extended.extractor("rules").is_ok(), "other names go to the fallback");
        let set = extended.set(extended.extractors("gold,noisy:1:0.2").unwrap(), 10).unwrap();
        assert_eq!(set.names(), ["gold", "noisy:1:0.2"]);
        assert!(matches!(extended.set(extended.extractors("gold,gold").unwrap(), 1), Err(RegistryError::Set(_))));
    }
}
