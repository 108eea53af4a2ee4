//! The person's answers to an earlier `ask` (guard.md §6: the guard requires
//! the person to be consulted; a person who knowingly accepts a mismatch has
//! decided).
//!
//! Pure: the previous record's findings and cart and this call's answers in,
//! the answers in effect out ([`resolve`]); the findings of a new check and
//! those answers in, the findings the person has decided on marked out
//! ([`apply`]). No store, no clock, no model: the service fetched the
//! previous record before, and re-extraction of the person's own words
//! happens after.

use serde_json::Value;

use super::answer_state::{AnswerState, Decided, Reply};
use super::record::CheckRecord;
use super::{Answer, CheckError, MAX_ANSWER_BYTES, invalid};
use crate::cart::Cart;
use crate::digest;
use crate::finding::{Finding, Severity};
use crate::messages::Message;

/// The note appended to an accepted finding (guard.md §6: the person decided).
pub const ACCEPTED: &str = "accepted by the person";
/// The note appended to a declined finding.
pub const DECLINED: &str = "the person declined this";

/// The digest of the item a finding is about (its cart entry), or of the
/// whole cart for whole-cart findings: an acceptance holds only for it.
pub fn item_digest(cart: &Cart, entry: Option<usize>) -> String {
    let value = match entry.and_then(|index| cart.entries.get(index)) {
        Some(entry) => serde_json::to_value(&entry.item),
        None => serde_json::to_value(cart),
    };
    // Items and carts are plain data: serialising them cannot fail.
    digest::of_value(&value.unwrap_or(Value::Null))
}

/// Validates this call's answers against the previous record's findings and
/// adds them to the answers inherited along the chain.
pub fn resolve(previous: Option<&CheckRecord>, answers: &[Answer]) -> Result<AnswerState, CheckError> {
    let Some(previous) = previous else {
        if !answers.is_empty() {
            return Err(invalid("$.answers", "answers need the previous_record_id of the check they answer"));
        }
        return Ok(AnswerState::default());
    };
    let mut state = previous.answer_state.clone();
    for (index, answer) in answers.iter().enumerate() {
        if answer.reply.trim().is_empty() {
            return Err(invalid(format!("$.answers[{index}].reply"), "empty: accept, decline or the person's words"));
        }
        if answer.reply.trim().len() > MAX_ANSWER_BYTES {
            return Err(invalid(
                format!("$.answers[{index}].reply"),
                format!("above the bound of {MAX_ANSWER_BYTES} bytes"),
            ));
        }
        let Some(finding) = previous.result.findings.iter().find(|finding| finding.id == answer.finding_id) else {
            return Err(invalid(
                format!("$.answers[{index}].finding_id"),
                format!(
                    "record {:?} raised no finding {:?}: answer only what the person was asked",
                    previous.result.record_id, answer.finding_id
                ),
            ));
        };
        let decided = || Decided {
            finding_id: finding.id.clone(),
            item_digest: item_digest(&previous.cart, finding.entry),
            actual: finding.actual.clone(),
        };
        match Reply::parse(&answer.reply) {
            Reply::Accept => {
                let decided = decided();
                state.declined.retain(|other| other.finding_id != decided.finding_id);
                if !state.accepted.contains(&decided) {
                    state.accepted.push(decided);
                }
            }
            Reply::Decline => {
                let decided = decided();
                state.accepted.retain(|other| other.finding_id != decided.finding_id);
                if !state.declined.contains(&decided) {
                    state.declined.push(decided);
                }
            }
            Reply::Words(words) => {
                if !state.clarifications.contains(&words) {
                    state.clarifications.push(words);
                }
            }
        }
    }
    Ok(state)
}

/// Accepted block findings become notes; declined ones keep blocking with the
/// refusal in their reason. Both only for the same finding on the same item
/// with the same actual value.
pub fn apply(findings: Vec<Finding>, state: &AnswerState, cart: &Cart) -> Vec<Finding> {
    let matches = |decided: &Decided, finding: &Finding| {
        decided.finding_id == finding.id
            && decided.actual == finding.actual
            && decided.item_digest == item_digest(cart, finding.entry)
    };
    findings
        .into_iter()
        .map(|mut finding| {
            // A mandate's finding is the mandate's, not the person's to
            // waive in a reply: only a changed cart or a new mandate clears it.
            if finding.severity != Severity::Block || finding.code.is_mandate() {
                return finding;
            }
            let accepted = state.accepted.iter().any(|decided| matches(decided, &finding));
            let declined = !accepted && state.declined.iter().any(|decided| matches(decided, &finding));
            if accepted {
                finding.severity = Severity::Warn;
            }
            match (accepted, declined, finding.message.take()) {
                (true, _, Some(message)) => finding.say(Message::Accepted(Box::new(message))),
                (_, true, Some(message)) => finding.say(Message::Declined(Box::new(message))),
                // A finding without a message is never built by the checks;
                // its words are kept and marked as they always were.
                (true, _, None) => {
                    finding.reason = format!("{} ({ACCEPTED})", finding.reason.trim_end_matches('.'));
                    finding
                }
                (_, true, None) => {
                    finding.reason = format!("{} ({DECLINED})", finding.reason.trim_end_matches('.'));
                    finding
                }
                (false, false, message) => {
                    finding.message = message;
                    finding
                }
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::{CartEntry, Item};
    use crate::facts::FieldName;
    use crate::finding::{Code, Compared, cart_path};

    fn cart(sizes: &[&str]) -> Cart {
        Cart {
            shipping: None,
            charges: Default::default(),
            entries: sizes
                .iter()
                .map(|size| CartEntry {
                    item: Item { name: Some("Nike Pegasus 41".into()), size: Some((*size).into()), ..Item::default() },
                    quantity: 1,
                })
                .collect(),
        }
    }

    fn size_finding(entry: usize, actual: &str) -> Finding {
        Finding {
            id: format!("size@{}", cart_path(Some(entry))),
            code: Code::Size,
            severity: Severity::Block,
            field: FieldName::SizeLabel,
            line: None,
            path: cart_path(Some(entry)),
            entry: Some(entry),
            expected: Compared::Text("42".into()),
            actual: Compared::Text(actual.into()),
            reason: String::new(),
            message: None,
        }
        .say(Message::Size {
            wanted: vec!["42".into()],
            actual: Some(actual.into()),
            item: "Nike Pegasus 41".into(),
        })
    }

    fn answer(finding_id: &str, reply: &str) -> Answer {
        Answer { finding_id: finding_id.into(), reply: reply.into() }
    }

    #[test]
    fn replies_are_read_the_same_way_everywhere() {
        let table = [
            ("accept", Reply::Accept),
            ("Accept", Reply::Accept),
            ("  ACCEPT \n", Reply::Accept),
            ("decline", Reply::Decline),
            ("Decline", Reply::Decline),
            ("accept it", Reply::Words("accept it".into())),
            (" 43 is fine too ", Reply::Words("43 is fine too".into())),
        ];
        for (text, expected) in table {
            assert_eq!(Reply::parse(text), expected, "{text:?}");
        }
    }

    /// A previous record as [`resolve`] sees it: its findings, cart and the
    /// answers it inherited. Built through serde like a stored one.
    fn previous(findings: Vec<Finding>, cart: Cart, state: AnswerState) -> CheckRecord {
        CheckRecord::for_tests("rec_previous", findings, cart, state)
    }

    #[test]
    fn resolve_table() {
        let cart = cart(&["EU 44"]);
        let finding = size_finding(0, "EU 44");
        let record = previous(vec![finding.clone()], cart.clone(), AnswerState::default());
        let digest = item_digest(&cart, Some(0));
        let decided =
            Decided { finding_id: finding.id.clone(), item_digest: digest, actual: Compared::Text("EU 44".into()) };

        // (answers, expected accepted, declined, clarifications) or the errored field.
        let accepted = resolve(Some(&record), &[answer(&finding.id, "Accept")]).unwrap();
        assert_eq!((accepted.accepted.clone(), accepted.declined.len()), (vec![decided.clone()], 0));

        let declined = resolve(Some(&record), &[answer(&finding.id, "decline")]).unwrap();
        assert_eq!((declined.accepted.len(), declined.declined.clone()), (0, vec![decided.clone()]));

        let flipped =
            resolve(Some(&previous(vec![finding.clone()], cart.clone(), accepted)), &[answer(&finding.id, "decline")])
                .unwrap();
        assert_eq!((flipped.accepted.len(), flipped.declined.len()), (0, 1), "the latest answer counts");

        let words =
            resolve(Some(&record), &[answer(&finding.id, "43 is fine"), answer(&finding.id, "43 is fine")]).unwrap();
        assert_eq!(words.clarifications, vec!["43 is fine".to_owned()], "one clarification, once");

        let errors = [
            (vec![answer(&finding.id, "  ")], "$.answers[0].reply"),
            (vec![answer(&finding.id, &"x".repeat(MAX_ANSWER_BYTES + 1))], "$.answers[0].reply"),
            (vec![answer(&finding.id, "accept"), answer("color@$.cart[0]", "accept")], "$.answers[1].finding_id"),
        ];
        for (answers, field) in errors {
            let Err(CheckError::InvalidArgument { field: got, .. }) = resolve(Some(&record), &answers) else {
                panic!("{answers:?} should be refused");
            };
            assert_eq!(got, field);
        }
        let Err(CheckError::InvalidArgument { field, .. }) = resolve(None, &[answer(&finding.id, "accept")]) else {
            panic!("answers without a previous record are refused");
        };
        assert_eq!(field, "$.answers");
        assert_eq!(resolve(None, &[]).unwrap(), AnswerState::default());
    }

    #[test]
    fn apply_holds_only_for_the_same_item_and_value() {
        let cart_seen = cart(&["EU 44"]);
        let finding = size_finding(0, "EU 44");
        let state = AnswerState {
            accepted: vec![Decided {
                finding_id: finding.id.clone(),
                item_digest: item_digest(&cart_seen, Some(0)),
                actual: Compared::Text("EU 44".into()),
            }],
            ..AnswerState::default()
        };
        let applied = apply(vec![finding.clone()], &state, &cart_seen);
        assert_eq!(applied[0].severity, Severity::Warn);
        assert!(applied[0].reason.ends_with(&format!("({ACCEPTED})")), "{}", applied[0].reason);

        // Another item at the same position: the acceptance does not carry over.
        let other_cart = cart(&["EU 45"]);
        let applied = apply(vec![size_finding(0, "EU 45")], &state, &other_cart);
        assert_eq!(applied[0].severity, Severity::Block);

        let declined = AnswerState { declined: state.accepted.clone(), ..AnswerState::default() };
        let applied = apply(vec![finding], &declined, &cart_seen);
        assert_eq!(applied[0].severity, Severity::Block);
        assert!(applied[0].reason.ends_with(&format!("({DECLINED})")), "{}", applied[0].reason);
    }
}
