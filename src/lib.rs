//! asasked: a pre-checkout guard for AI shopping agents.
//!
//! Before an agent pays, it asks one question: does this cart match what the
//! person asked for? The guard answers `proceed` or `ask` (guard.md §6).
//!
//! Layout:
//! - [`facts`]: the intent facts of guard.md §3.
//! - [`cart`]: items and carts, and the parsing of both item shapes.
//! - [`normalize`]: Unicode folding, words, colours and sizes.
//! - [`protocols`]: UCP checkouts, ACP CheckoutSessions and AP2 mandates read into carts, requests and mandate facts.
//! - [`checks`]: one file per rule of guard.md §5, and their runner.
//! - [`lines`]: the exact assignment of cart entries to requested lines.
//! - [`decision`]: findings to `proceed`/`ask`, reasons, notes and question.
//! - [`messages`]: every sentence a person reads, one table per language (English, Russian).
//! - [`providers`]: LLM clients over HTTP (Anthropic, OpenAI-compatible).
//! - [`conform`]: the conformance case runner (`shared/conformance/FORMAT.md`).
//! - [`sandbox`]: replaying labelled datasets and comparing extractors (guard.md §10).
//! - [`today`]: reading the date deadlines are counted from.
//! - [`digest`]: canonical JSON and SHA-256 digests.
//! - [`acf`]: findings rendered as ACF v0.2 messages and conformity, and ACF v0.1.
//! - [`evidence`]: the hash-chained, fsynced evidence log, and the `RecordStore` seam.
//! - `pg` (feature `postgres`): the evidence chain and the facts cache in PostgreSQL, for several instances.
//! - [`principal`]: who a call is for (the local principal, or a named one of the bearer-token file).
//! - [`pay`]: the guarded payment: check, then pay at most once through a publisher's Agentic Action Profile, and its ledger.
//! - [`redeem`]: redemption of a `proceed` at most once (the merchant's side), and its ledger.
//! - [`receipt`]: signed `proceed` receipts (Ed25519 JWS) and their keys.
//! - [`words`]: the tokeniser, the word classes (data under `extractors/words/`), the readers of dates, money, counts and sizes, and the product lexicon and requirement reading of the item check (`extractors/lexicon/`).
//! - [`extract`]: the extractor trait, extractor names, the merge, the screen and `rules`.
//! - [`extractors`]: building extractors, and a check's extractor set, from names.
//! - [`service`]: the one orchestration of a check, for the CLI and MCP.
//! - [`mcp`]: the MCP server (the only module that knows rmcp).
//! - [`cli`]: the binary's commands, one function each.
//!
//! The core (`facts`, `cart`, `normalize`, `messages`, `checks`, `lines`, `decision`) is
//! pure: no I/O, no clock, no model.

pub mod acf;
pub mod cart;
pub mod catalog;
pub mod checks;
#[cfg(feature = "server")]
pub mod cli;
pub mod conform;
pub mod decision;
pub mod digest;
pub mod evidence;
pub mod extract;
#[cfg(feature = "server")]
pub mod extractors;
pub mod facts;
pub mod finding;
pub mod lines;
#[cfg(feature = "server")]
pub mod mcp;
pub mod messages;
pub mod normalize;
#[cfg(feature = "server")]
pub mod pay;
#[cfg(feature = "postgres")]
pub mod pg;
#[cfg(feature = "server")]
pub mod principal;
pub mod protocols;
#[cfg(feature = "server")]
pub mod providers;
#[cfg(feature = "server")]
pub mod receipt;
#[cfg(feature = "server")]
pub mod redeem;
#[cfg(feature = "server")]
pub mod sandbox;
#[cfg(feature = "server")]
pub mod service;
pub mod today;
pub mod words;

pub use cart::{Cart, CartEntry, Item};
pub use decision::{Decision, Verdict, check};
pub use facts::Facts;
pub use finding::{Code, Finding, Severity};
