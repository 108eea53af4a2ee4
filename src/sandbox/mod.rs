//! The sandbox: replaying labelled datasets against the store, and comparing
//! extractors, to measure what the guard catches and what it costs in
//! questions (guard.md §10).
//!
//! Layout:
//! - [`dataset`]: loading `datasets/*/tasks.jsonl` and resolving carts.
//! - [`gold`], [`noisy`]: the offline extractors `gold` and `noisy:SEED:RATE`.
//! - [`registry`]: extractor names to sets, with a fallback for the rest.
//! - [`replay`]: simulated agents, the simulated person, the §10 figures.
//! - [`compare`]: per-field accuracy, disputes and decision effects per pair.
//! - [`chart`]: the comparison's SVG chart.
//! - [`random`]: the seeded generator every random choice goes through.
//! - [`command`]: the two subcommands' I/O: files, progress bar, output.
//!
//! Only `dataset` and `command` touch the file system, and only `command`
//! the terminal; the rest is a function of its inputs. The sandbox never
//! changes how the guard decides: it calls [`crate::decision::check`] and
//! [`crate::extract::set::ExtractorSet`] like any other caller.

pub mod chart;
pub mod command;
pub mod compare;
pub mod dataset;
pub mod devset;
pub mod gold;
pub mod noisy;
pub mod random;
pub mod registry;
pub mod replay;
