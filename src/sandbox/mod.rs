//! The sandbox: replaying labelled datasets against the store, and comparing
//! extractors, to measure what the guard catches and what it costs in
//! questions (guard.md §10).
//!
//! Layout:
//! - [`dataset`]: loading `datasets/*/tasks.jsonl` and resolving carts.
//! - [`gold`], [`noisy`]: the offline extractors `gold` and `noisy:SEED:RATE`
//!   (built from their names by [`crate::extractors`], like every extractor).
//! - [`replay`]: simulated agents, the simulated person, the §10 figures.
//! - [`compare`]: per-field accuracy, disputes and decision effects per pair.
//! - [`chart`]: the comparison's SVG chart.
//! - [`random`]: the seeded generator every random choice goes through.
//!
//! Only `dataset` touches the file system, and nothing here the terminal
//! (`crate::cli` does both for `asasked replay` and `asasked compare`); the
//! rest is a function of its inputs. The sandbox never changes how the guard
//! decides: it calls [`crate::decision::check`] and [`ExtractorSet`] like any
//! other caller, and it never builds an extractor from a name.

pub mod chart;
pub mod compare;
pub mod dataset;
pub mod devset;
pub mod gold;
pub mod noisy;
pub mod random;
pub mod replay;

use std::num::NonZeroUsize;
use std::sync::Arc;
use std::time::Duration;

use crate::extract::Extractor;
use crate::extract::set::{ExtractorSet, SetError};

/// The most a sandbox check waits for extraction. Offline extractors answer
/// at once; a hosted one that takes longer than this has failed, and the
/// check fails closed as it would in production.
pub const SANDBOX_DEADLINE: Duration = Duration::from_secs(120);

/// A set of the given extractors in which all must succeed (the spec's
/// default: a missing extractor fails the check closed), with one cache slot
/// per task, so a replay never extracts a request twice.
pub fn extractor_set(extractors: Vec<Arc<dyn Extractor>>, task_count: usize) -> Result<ExtractorSet, SetError> {
    let capacity = NonZeroUsize::new(task_count.max(1)).unwrap_or(NonZeroUsize::MIN);
    ExtractorSet::new(extractors, None, SANDBOX_DEADLINE, capacity)
}
