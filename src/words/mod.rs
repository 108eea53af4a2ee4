//! The word layer: what the guard knows about words, as data, below
//! `extract` and the checks so both read words the same way.
//!
//! - [`product`]: what kind of thing an item's words name, against the kind
//!   the person asked for (the product lexicon in `extractors/lexicon/`).

pub mod product;
pub mod requirement;
