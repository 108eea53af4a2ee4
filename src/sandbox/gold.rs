//! The `gold` extractor: returns a task's gold facts for its request, so a
//! replay through the ordinary [`ExtractorSet`](crate::extract::set::ExtractorSet)
//! measures the deterministic stage alone.
//!
//! It knows only the requests of the dataset it was built from; any other
//! request is `NotRecorded`, which fails the check closed like a missing
//! recording would.

use std::collections::BTreeMap;
use std::sync::Arc;

use chrono::NaiveDate;

use super::dataset::Dataset;
use crate::extract::name::GOLD;
use crate::extract::{
    Cost, ExtractError, ExtractFuture, ExtractInput, ExtractedFacts, ExtractedLine, Extraction, Extractor,
};
use crate::facts::Facts;

/// Gold facts by (request, today), with the task each came from. Keyed by
/// today too, because the same words on another day are another deadline.
#[derive(Debug, Clone, Default)]
pub struct GoldBook {
    entries: BTreeMap<(String, NaiveDate), (String, ExtractedFacts)>,
}

impl GoldBook {
    pub fn new(dataset: &Dataset) -> GoldBook {
        let entries = dataset
            .tasks
            .iter()
            .map(|task| ((task.request.clone(), task.today), (task.id.clone(), to_extracted(&task.gold))))
            .collect();
        GoldBook { entries }
    }

    /// The task id and gold facts for an input, if the dataset has it.
    pub fn lookup(&self, input: &ExtractInput) -> Option<&(String, ExtractedFacts)> {
        self.entries.get(&(input.request.clone(), input.today))
    }
}

/// Gold facts in the wire shape an extractor returns. Gold counts deadlines in
/// days already, so no weekday is set; gold is never disputed.
pub fn to_extracted(gold: &Facts) -> ExtractedFacts {
    ExtractedFacts {
        product: gold.product.clone(),
        brand: gold.brand.clone(),
        brand_any: gold.brand_any.clone(),
        brand_not: gold.brand_not.clone(),
        model: gold.model.clone(),
        color: gold.color.clone(),
        color_any: gold.color_any.clone(),
        color_not: gold.color_not.clone(),
        size_label: gold.size_label.clone(),
        size_any: gold.size_any.clone(),
        level: gold.level,
        price_preference: gold.price_preference,
        explicit_max_cents: gold.explicit_max_cents,
        explicit_max_currency: gold.explicit_max_currency.clone(),
        price_min_cents: gold.price_min_cents,
        price_min_currency: gold.price_min_currency.clone(),
        free_shipping: gold.free_shipping,
        quantity: gold.quantity,
        needs_refundable: gold.needs_refundable,
        deadline_days: gold.deadline_days,
        deadline_weekday: None,
        lines: gold.lines.iter().map(ExtractedLine::of).collect(),
        other: gold.other.clone(),
        other_optional: gold.other_optional.clone(),
        soft: gold.soft.iter().map(ToString::to_string).collect(),
        // Labels are facts, not readings: they point at no words.
        evidence: Vec::new(),
    }
}

/// An extraction that cost nothing: offline extractors report zero tokens,
/// and the set measures their (tiny) latency itself.
pub fn offline_extraction(extracted: ExtractedFacts) -> Result<Extraction, ExtractError> {
    let raw = serde_json::to_value(&extracted).map_err(|error| ExtractError::Malformed(error.to_string()))?;
    Ok(Extraction { extracted, raw, cost: Cost::default() })
}

/// The `gold` extractor.
#[derive(Debug, Clone)]
pub struct GoldExtractor {
    book: Arc<GoldBook>,
}

impl GoldExtractor {
    pub fn new(book: Arc<GoldBook>) -> GoldExtractor {
        GoldExtractor { book }
    }
}

impl Extractor for GoldExtractor {
    fn name(&self) -> &str {
        GOLD
    }

    fn extract<'a>(&'a self, input: &'a ExtractInput) -> ExtractFuture<'a> {
        Box::pin(async move {
            match self.book.lookup(input) {
                Some((_, gold)) => offline_extraction(gold.clone()),
                None => Err(ExtractError::NotRecorded(input.request.clone())),
            }
        })
    }
}
