//! What a person's reply says and the answers in effect for a check: the
//! data [`super::answers`] works out and [`super::record`] seals. No logic
//! beyond reading one reply, so both can use it without using each other.

use serde::{Deserialize, Serialize};

use crate::finding::{Compared, Severity};

/// The reply that accepts a finding (read case-insensitively).
pub const ACCEPT_REPLY: &str = "accept";
/// The reply that declines a finding.
pub const DECLINE_REPLY: &str = "decline";

/// What one reply says. `accept` and `decline` are read case-insensitively
/// and without surrounding space, everywhere a reply is read (the service
/// and the redacted export alike), so "Accept" is an acceptance in both.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    Accept,
    Decline,
    /// The person's own words: a clarification, re-extracted with the request.
    Words(String),
}

impl Reply {
    pub fn parse(reply: &str) -> Reply {
        let trimmed = reply.trim();
        if trimmed.eq_ignore_ascii_case(ACCEPT_REPLY) {
            Reply::Accept
        } else if trimmed.eq_ignore_ascii_case(DECLINE_REPLY) {
            Reply::Decline
        } else {
            Reply::Words(trimmed.to_owned())
        }
    }
}

/// Answers in effect for a check: inherited along the attempt chain plus
/// the ones given now. Part of the mandate digest.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnswerState {
    pub accepted: Vec<Decided>,
    pub declined: Vec<Decided>,
    pub clarifications: Vec<String>,
}

/// A finding the person decided on, pinned to the item and value they saw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Decided {
    pub finding_id: String,
    pub item_digest: String,
    pub actual: Compared,
}

impl AnswerState {
    /// Whether the person accepted or declined the finding `id`.
    pub fn decision_on(&self, finding_id: &str) -> Option<Severity> {
        if self.accepted.iter().any(|decided| decided.finding_id == finding_id) {
            Some(Severity::Warn)
        } else if self.declined.iter().any(|decided| decided.finding_id == finding_id) {
            Some(Severity::Block)
        } else {
            None
        }
    }
}
