//! One sealed record: its fields, its canonical text, its hash, its line.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::digest;

/// One sealed record as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SealedRecord {
    /// 1-based position in the log.
    pub seq: u64,
    pub record_id: String,
    #[serde(default)]
    pub previous_record_id: Option<String>,
    /// 1 for a first check, n for the n-th attempt of a chain.
    pub attempt: u32,
    /// RFC 3339, UTC.
    pub sealed_at: String,
    /// The person's words: attempts of one chain must share them.
    pub request: String,
    pub body: Value,
    /// The `hash` of the record before (or [`GENESIS`](crate::evidence::GENESIS)).
    pub prev_hash: String,
    /// SHA-256 of this record's canonical JSON without `hash`.
    pub hash: String,
}

impl SealedRecord {
    /// The hash the record's content gives; a record whose `hash` differs
    /// was altered after it was sealed.
    pub fn compute_hash(&self) -> Result<String, serde_json::Error> {
        let mut body = Vec::new();
        digest::write_canonical(&self.body, &mut body);
        Ok(self.fields(&body).hash())
    }

    pub(super) fn fields<'a>(&'a self, body: &'a [u8]) -> Fields<'a> {
        Fields {
            seq: self.seq,
            record_id: &self.record_id,
            previous_record_id: self.previous_record_id.as_deref(),
            attempt: self.attempt,
            sealed_at: &self.sealed_at,
            request: &self.request,
            body,
            prev_hash: &self.prev_hash,
        }
    }
}

/// A record's fields other than its body: what the chain's checks and the
/// index compare.
#[derive(Debug, Clone, Copy)]
pub(super) struct Keys<'a> {
    pub(super) seq: u64,
    pub(super) record_id: &'a str,
    pub(super) previous_record_id: Option<&'a str>,
    pub(super) attempt: u32,
    pub(super) request: &'a str,
    pub(super) prev_hash: &'a str,
    pub(super) hash: &'a str,
}

/// A record's line as read back, its body left as written: its fields
/// borrowed from the line where they have no escapes, the body not parsed.
#[derive(Deserialize)]
struct LineRecord<'a> {
    seq: u64,
    #[serde(borrow)]
    record_id: Cow<'a, str>,
    #[serde(default, borrow)]
    previous_record_id: Option<Cow<'a, str>>,
    attempt: u32,
    #[serde(borrow)]
    sealed_at: Cow<'a, str>,
    #[serde(borrow)]
    request: Cow<'a, str>,
    #[serde(borrow)]
    body: &'a RawValue,
    #[serde(borrow)]
    prev_hash: Cow<'a, str>,
    #[serde(borrow)]
    hash: Cow<'a, str>,
}

/// One line of a log as the chain's checks read it.
pub(super) enum ReadLine<'a> {
    /// Its hash is that of its content.
    Sealed(LineKeys<'a>),
    /// Its hash is not that of its content: it was altered.
    Altered(LineKeys<'a>),
}

/// The owned or borrowed fields of a line (see [`Keys`]).
pub(super) struct LineKeys<'a> {
    seq: u64,
    record_id: Cow<'a, str>,
    previous_record_id: Option<Cow<'a, str>>,
    attempt: u32,
    request: Cow<'a, str>,
    prev_hash: Cow<'a, str>,
    hash: Cow<'a, str>,
}

impl LineKeys<'_> {
    pub(super) fn keys(&self) -> Keys<'_> {
        Keys {
            seq: self.seq,
            record_id: &self.record_id,
            previous_record_id: self.previous_record_id.as_deref(),
            attempt: self.attempt,
            request: &self.request,
            prev_hash: &self.prev_hash,
            hash: &self.hash,
        }
    }
}

/// Reads one line of a log (without its newline) and checks its hash
/// against its content, as [`SealedRecord::compute_hash`] defines it.
///
/// Why not simply parse it into a [`SealedRecord`]: that builds the body's
/// `Value` (kilobytes of JSON, hundreds of allocations) and writes it back
/// as canonical text only to hash it, for every record of the log each time
/// a process opens it (every `asasked check`) and for every record another
/// process appended each time a writer catches up. This log writes every
/// body as its canonical text (`Fields::write_line`), so the line's body,
/// hashed as written, gives the record's hash: such a line is sealed
/// without building its body. Any other line (one that does not parse this
/// way, or whose hash differs, altered or merely written differently) is
/// read as before, parsed whole and its body made canonical, so it gets the
/// answer and the error it always got.
pub(super) fn read_line(line: &[u8]) -> Result<ReadLine<'_>, serde_json::Error> {
    if let Ok(read) = serde_json::from_slice::<LineRecord>(line) {
        let fields = Fields {
            seq: read.seq,
            record_id: &read.record_id,
            previous_record_id: read.previous_record_id.as_deref(),
            attempt: read.attempt,
            sealed_at: &read.sealed_at,
            request: &read.request,
            body: read.body.get().as_bytes(),
            prev_hash: &read.prev_hash,
        };
        if fields.hash() == read.hash {
            return Ok(ReadLine::Sealed(LineKeys {
                seq: read.seq,
                record_id: read.record_id,
                previous_record_id: read.previous_record_id,
                attempt: read.attempt,
                request: read.request,
                prev_hash: read.prev_hash,
                hash: read.hash,
            }));
        }
    }
    let record: SealedRecord = serde_json::from_slice(line)?;
    let sealed = record.compute_hash()? == record.hash;
    let keys = LineKeys {
        seq: record.seq,
        record_id: Cow::Owned(record.record_id),
        previous_record_id: record.previous_record_id.map(Cow::Owned),
        attempt: record.attempt,
        request: Cow::Owned(record.request),
        prev_hash: Cow::Owned(record.prev_hash),
        hash: Cow::Owned(record.hash),
    };
    Ok(if sealed { ReadLine::Sealed(keys) } else { ReadLine::Altered(keys) })
}

/// A record's fields with its body as canonical JSON text, written once and
/// used for both its hash and its line: the record is never turned into a
/// `Value` (a deep copy of its kilobytes of body) to be hashed.
pub(super) struct Fields<'a> {
    seq: u64,
    record_id: &'a str,
    previous_record_id: Option<&'a str>,
    attempt: u32,
    sealed_at: &'a str,
    request: &'a str,
    /// Canonical JSON (digest::write_canonical).
    body: &'a [u8],
    prev_hash: &'a str,
}

impl Fields<'_> {
    /// `sha256:` of the record's canonical JSON without `hash`
    /// (digest::canonical of it as a `Value`): its keys in byte order.
    pub(super) fn hash(&self) -> String {
        let mut out = Vec::with_capacity(self.body.len() + self.request.len() + 384);
        out.extend_from_slice(b"{\"attempt\":");
        digest::write_json(&self.attempt, &mut out);
        out.extend_from_slice(b",\"body\":");
        out.extend_from_slice(self.body);
        out.extend_from_slice(b",\"prev_hash\":");
        digest::write_json(self.prev_hash, &mut out);
        out.extend_from_slice(b",\"previous_record_id\":");
        digest::write_json(&self.previous_record_id, &mut out);
        out.extend_from_slice(b",\"record_id\":");
        digest::write_json(self.record_id, &mut out);
        out.extend_from_slice(b",\"request\":");
        digest::write_json(self.request, &mut out);
        out.extend_from_slice(b",\"sealed_at\":");
        digest::write_json(self.sealed_at, &mut out);
        out.extend_from_slice(b",\"seq\":");
        digest::write_json(&self.seq, &mut out);
        out.push(b'}');
        digest::sha256(&out)
    }

    /// Appends the record's line, newline included: what serde_json writes
    /// for the [`SealedRecord`] (its fields in declaration order). The body's
    /// canonical text is serde_json's own compact text of it, since
    /// serde_json's map keeps its keys sorted (digest's tests check both).
    pub(super) fn write_line(&self, hash: &str, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"seq\":");
        digest::write_json(&self.seq, out);
        out.extend_from_slice(b",\"record_id\":");
        digest::write_json(self.record_id, out);
        out.extend_from_slice(b",\"previous_record_id\":");
        digest::write_json(&self.previous_record_id, out);
        out.extend_from_slice(b",\"attempt\":");
        digest::write_json(&self.attempt, out);
        out.extend_from_slice(b",\"sealed_at\":");
        digest::write_json(self.sealed_at, out);
        out.extend_from_slice(b",\"request\":");
        digest::write_json(self.request, out);
        out.extend_from_slice(b",\"body\":");
        out.extend_from_slice(self.body);
        out.extend_from_slice(b",\"prev_hash\":");
        digest::write_json(self.prev_hash, out);
        out.extend_from_slice(b",\"hash\":");
        digest::write_json(hash, out);
        out.extend_from_slice(b"}\n");
    }
}

/// What the service asks to seal.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    pub record_id: String,
    pub previous_record_id: Option<String>,
    pub request: String,
    pub sealed_at: String,
    pub body: Body,
}

/// A record's body as it is sealed: its canonical JSON text
/// (`digest::write_canonical`), written once, in the caller's task, and
/// used as it is for both the record's hash and its line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Body(Vec<u8>);

impl Body {
    /// The canonical text of `value` (any `Serialize`), written straight
    /// from it: the same bytes as the canonical text of
    /// `serde_json::to_value(value)`, without building that `Value`
    /// (`digest::write_canonical_of`), so a check's body is never turned
    /// into a tree only to be written out and freed.
    pub fn of<T: Serialize + ?Sized>(value: &T) -> Result<Body, serde_json::Error> {
        let mut text = Vec::with_capacity(4096);
        if digest::write_canonical_of(value, &mut text).is_err() {
            // What the direct writer does not write (serde_json's raw
            // values) goes the long way, or fails as it always did.
            text.clear();
            digest::write_canonical(&serde_json::to_value(value)?, &mut text);
        }
        // Tests and the debug builds the conformance and integration
        // suites run compare every body with its definition.
        #[cfg(debug_assertions)]
        if let Ok(value) = serde_json::to_value(value) {
            let mut defined = Vec::new();
            digest::write_canonical(&value, &mut defined);
            assert!(defined == text, "the canonical writer and write_canonical(to_value) differ");
        }
        Ok(Body(text))
    }

    /// The canonical JSON text.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The body as a `Value`, parsed back from its text.
    pub fn to_value(&self) -> Result<Value, serde_json::Error> {
        serde_json::from_slice(&self.0)
    }
}

impl From<Value> for Body {
    fn from(value: Value) -> Body {
        let mut text = Vec::with_capacity(256);
        digest::write_canonical(&value, &mut text);
        Body(text)
    }
}

/// What an append sealed: the record's place in the chain. Its body and
/// request are the draft's, which the caller had; a store returns this
/// rather than a [`SealedRecord`], whose body is a `Value` that only a
/// reader needs (parsing it back would cost what writing it once saved).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sealed {
    pub seq: u64,
    pub record_id: String,
    pub previous_record_id: Option<String>,
    pub attempt: u32,
    pub sealed_at: String,
    pub prev_hash: String,
    pub hash: String,
}

impl Sealed {
    pub(super) fn keys<'a>(&'a self, request: &'a str) -> Keys<'a> {
        Keys {
            seq: self.seq,
            record_id: &self.record_id,
            previous_record_id: self.previous_record_id.as_deref(),
            attempt: self.attempt,
            request,
            prev_hash: &self.prev_hash,
            hash: &self.hash,
        }
    }
}

/// Seals `draft` as record `seq`, attempt `attempt`, after the record whose
/// hash is `prev_hash`: the record's place with its hash, and its line
/// exactly as the embedded log writes it (newline included). A store other
/// than the embedded log keeps this line, so its records verify as a log
/// does.
pub fn seal(draft: Draft, seq: u64, attempt: u32, prev_hash: String) -> (Sealed, Vec<u8>) {
    let mut line = Vec::with_capacity(draft.body.0.len() + draft.request.len() + 512);
    let sealed = seal_onto(&draft, seq, attempt, prev_hash, &mut line);
    (sealed, line)
}

/// [`seal`], appending the record's line to `out` (a batch's lines).
pub fn seal_onto(draft: &Draft, seq: u64, attempt: u32, prev_hash: String, out: &mut Vec<u8>) -> Sealed {
    let fields = Fields {
        seq,
        record_id: &draft.record_id,
        previous_record_id: draft.previous_record_id.as_deref(),
        attempt,
        sealed_at: &draft.sealed_at,
        request: &draft.request,
        body: draft.body.as_bytes(),
        prev_hash: &prev_hash,
    };
    let hash = fields.hash();
    fields.write_line(&hash, out);
    Sealed {
        seq,
        record_id: draft.record_id.clone(),
        previous_record_id: draft.previous_record_id.clone(),
        attempt,
        sealed_at: draft.sealed_at.clone(),
        prev_hash,
        hash,
    }
}
