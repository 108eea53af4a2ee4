//! The sandbox: replaying labelled datasets against the store, and comparing
//! extractors, to measure what the guard catches and what it costs in
//! questions (guard.md §10).
//!
//! Layout:
//! - [`dataset`]: loading `datasets/*/tasks.jsonl` and resolving carts.
//! - [`gold`], [`noisy`]: the offline extractors `gold` and `noisy:SEED:RATE`.
//! - [`registry`]: extractor names to sets, with a fallback for the rest.
//! - [`random`]: the seeded generator every random choice goes through.
//!
//! Only `dataset` touches the file system; the rest is a function of its
//! inputs. The sandbox never changes how the guard decides.

pub mod dataset;
pub mod gold;
pub mod noisy;
pub mod random;
pub mod registry;
