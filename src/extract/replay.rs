//! Recorded extraction: [`Recording`] saves every raw output an extractor
//! produces, and [`ReplayExtractor`] returns those outputs later, offline and
//! deterministically, so a dataset checked once with a hosted model can be
//! checked again without it.
//!
//! A recording is a folder with one JSON file per request, named by the
//! request's digest ([`request_digest`]): the SHA-256 of a canonical JSON of
//! the request, today and the answers. A replayed output is validated
//! against the facts schema like a live one: a hand-edited file cannot
//! smuggle in facts the schema forbids.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;
use sha2::{Digest, Sha256};

use super::name::REPLAY_PREFIX;
use super::schema::validate;
use super::{Cost, ExtractError, ExtractFuture, ExtractInput, Extraction, Extractor};

/// The canonical form that is hashed. Field order is fixed by the struct
/// (alphabetical), so the digest does not depend on map ordering.
#[derive(Serialize)]
struct Canonical<'a> {
    answers: &'a [String],
    request: &'a str,
    today: String,
}

/// The lowercase hex SHA-256 of `{"answers":[…],"request":"…","today":"YYYY-MM-DD"}`
/// (compact JSON, keys in that order).
pub fn request_digest(input: &ExtractInput) -> String {
    let canonical = Canonical {
        answers: &input.answers,
        request: &input.request,
        today: input.today.format("%Y-%m-%d").to_string(),
    };
    // Serializing strings and a slice of strings cannot fail.
    let bytes = serde_json::to_vec(&canonical).unwrap_or_default();
    hex::encode(Sha256::digest(&bytes))
}

/// The file that holds the output for `input` in `dir`.
pub fn recording_path(dir: &Path, input: &ExtractInput) -> PathBuf {
    dir.join(format!("{}.json", request_digest(input)))
}

/// Returns outputs recorded earlier; a request never recorded is an error
/// (`NotRecorded`, naming the digest), never an empty set of facts.
#[derive(Debug, Clone)]
pub struct ReplayExtractor {
    name: String,
    dir: PathBuf,
}

impl ReplayExtractor {
    /// Named `replay:DIR`, so two replays of different recordings can run in
    /// one set.
    pub fn new(dir: impl Into<PathBuf>) -> ReplayExtractor {
        let dir = dir.into();
        ReplayExtractor { name: format!("{REPLAY_PREFIX}{}", dir.display()), dir }
    }

    async fn run(&self, input: &ExtractInput) -> Result<Extraction, ExtractError> {
        let path = recording_path(&self.dir, input);
        let text = match tokio::fs::read_to_string(&path).await {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                return Err(ExtractError::NotRecorded(format!(
                    "digest {} (no {})",
                    request_digest(input),
                    path.display()
                )));
            }
            Err(error) => return Err(ExtractError::Other(format!("cannot read {}: {error}", path.display()))),
        };
        let raw: serde_json::Value = serde_json::from_str(&text)
            .map_err(|error| ExtractError::Malformed(format!("{} is not json: {error}", path.display())))?;
        let extracted = validate(&raw).map_err(|error| match (error, older_than_schema(&raw)) {
            // Outputs recorded before models quoted their evidence
            // (2026-12-01) or named the product (2026-12-03) have every
            // other key: say how to replay them as they were rather than
            // only that the schema refused them.
            (ExtractError::SchemaInvalid(detail), Some(added)) => ExtractError::SchemaInvalid(format!(
                "{detail} ({} was recorded before {added} to replay it unchanged)",
                path.display()
            )),
            (other, _) => other,
        })?;
        Ok(Extraction { extracted, raw, cost: Cost::default() })
    }
}

/// What an output recorded before a later schema key lacks, as the words
/// of a hint: "quotes: add \"evidence\": []", "the product: add …".
fn older_than_schema(raw: &serde_json::Value) -> Option<String> {
    let object = raw.as_object()?;
    let lines_lack_product = object
        .get("lines")
        .and_then(serde_json::Value::as_array)
        .is_some_and(|lines| lines.iter().any(|line| line.is_object() && line.get("product").is_none()));
    let mut added = Vec::new();
    if !object.contains_key("evidence") {
        added.push(("quotes", "\"evidence\": []"));
    }
    if !object.contains_key("product") || lines_lack_product {
        added.push(("the product", "\"product\": \"\" (at the top and in every line)"));
    }
    if added.is_empty() {
        return None;
    }
    let (what, keys): (Vec<&str>, Vec<&str>) = added.into_iter().unzip();
    Some(format!("{}: add {}", what.join(" and "), keys.join(" and ")))
}

impl Extractor for ReplayExtractor {
    fn name(&self) -> &str {
        &self.name
    }

    fn extract<'a>(&'a self, input: &'a ExtractInput) -> ExtractFuture<'a> {
        Box::pin(self.run(input))
    }
}

/// Wraps an extractor and writes every raw output it returns to
/// `DIR/<digest>.json` (`--record DIR`). The output is passed on unchanged;
/// a failed write is logged, not turned into a failed extraction, because
/// recording is a by-product of checking.
#[derive(Debug)]
pub struct Recording<E> {
    inner: E,
    dir: PathBuf,
}

impl<E: Extractor> Recording<E> {
    pub fn new(inner: E, dir: impl Into<PathBuf>) -> Recording<E> {
        Recording { inner, dir: dir.into() }
    }

    async fn run(&self, input: &ExtractInput) -> Result<Extraction, ExtractError> {
        let extraction = self.inner.extract(input).await?;
        let path = recording_path(&self.dir, input);
        if let Err(error) = write_atomically(&path, &extraction.raw).await {
            tracing::warn!(extractor = self.inner.name(), path = %path.display(), %error, "cannot record output");
        }
        Ok(extraction)
    }
}

impl<E: Extractor> Extractor for Recording<E> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn extract<'a>(&'a self, input: &'a ExtractInput) -> ExtractFuture<'a> {
        Box::pin(self.run(input))
    }
}

/// A shared extractor is an extractor, so a configured set's
/// `Arc<dyn Extractor>` can be wrapped in [`Recording`].
impl<E: Extractor + ?Sized> Extractor for Arc<E> {
    fn name(&self) -> &str {
        (**self).name()
    }

    fn extract<'a>(&'a self, input: &'a ExtractInput) -> ExtractFuture<'a> {
        (**self).extract(input)
    }
}

/// Wraps every extractor of a set for `--record DIR`. Each extractor records
/// into its own folder, `DIR/<name>`, because all of them see the same
/// request and so the same digest; replay one with `replay:DIR/<name>`.
pub fn record_all(extractors: Vec<Arc<dyn Extractor>>, dir: &Path) -> Vec<Arc<dyn Extractor>> {
    extractors
        .into_iter()
        .map(|extractor| {
            let folder = dir.join(folder_name(extractor.name()));
            Arc::new(Recording::new(extractor, folder)) as Arc<dyn Extractor>
        })
        .collect()
}

/// An extractor name as a single path component (`replay:a/b` → `replay_a_b`).
fn folder_name(name: &str) -> String {
    name.chars()
        .map(|character| if character.is_ascii_alphanumeric() || "-_.".contains(character) { character } else { '_' })
        .collect()
}

/// Writes `value` to `path` via a temporary file in the same folder and a
/// rename, so a reader never sees half a file and a crash leaves no torn one.
async fn write_atomically(path: &Path, value: &serde_json::Value) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    tokio::fs::create_dir_all(dir).await?;
    let mut text = serde_json::to_string_pretty(value).map_err(std::io::Error::other)?;
    text.push('\n');
    let file_name = path.file_name().and_then(|name| name.to_str()).unwrap_or("output.json");
    let temporary = dir.join(format!(".{file_name}.{}.{}.tmp", std::process::id(), fastrand::u64(..)));
    tokio::fs::write(&temporary, text).await?;
    if let Err(error) = tokio::fs::rename(&temporary, path).await {
        let _ = tokio::fs::remove_file(&temporary).await;
        return Err(error);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::schema::empty_facts_value;
    use chrono::NaiveDate;
    use serde_json::json;

    fn input(request: &str) -> ExtractInput {
        ExtractInput {
            request: request.into(),
            today: NaiveDate::from_ymd_opt(2026, 11, 2).unwrap(),
            answers: vec!["size 42".into()],
        }
    }

    /// Returns a fixed raw output, as a provider would.
    struct Fixed(serde_json::Value);

    impl Extractor for Fixed {
        fn name(&self) -> &str {
            "fixed"
        }
        fn extract<'a>(&'a self, _input: &'a ExtractInput) -> ExtractFuture<'a> {
            Box::pin(async move {
                Ok(Extraction { extracted: validate(&self.0)?, raw: self.0.clone(), cost: Cost::default() })
            })
        }
    }

    #[test]
    fn digest_is_the_sha256_of_canonical_json() {
        let expected =
            hex::encode(Sha256::digest(br#"{"answers":["size 42"],"request":"black shoes","today":"2026-11-02"}"#));
        assert_eq!(request_digest(&input("black shoes")), expected);
        assert_ne!(request_digest(&input("white shoes")), expected);
    }

    #[tokio::test]
    async fn recorded_outputs_replay_and_missing_ones_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let mut raw = empty_facts_value();
        raw["color"] = json!("black");
        let recorder = record_all(vec![Arc::new(Fixed(raw.clone()))], dir.path());
        let recorded = recorder[0].extract(&input("black shoes")).await.unwrap();
        assert_eq!(recorded.raw, raw);
        let folder = dir.path().join("fixed");
        let files: Vec<_> = std::fs::read_dir(&folder).unwrap().map(|entry| entry.unwrap().file_name()).collect();
        assert_eq!(files.len(), 1, "one file, no temporary left: {files:?}");

        let replay = ReplayExtractor::new(&folder);
        assert_eq!(replay.name(), format!("replay:{}", folder.display()));
        let replayed = replay.extract(&input("black shoes")).await.unwrap();
        assert_eq!((replayed.raw, replayed.extracted), (raw, recorded.extracted));

        let missing = replay.extract(&input("white shoes")).await.unwrap_err();
        let digest = request_digest(&input("white shoes"));
        assert!(matches!(&missing, ExtractError::NotRecorded(detail) if detail.contains(&digest)), "{missing}");
    }

    #[tokio::test]
    async fn a_tampered_recording_is_schema_checked() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(recording_path(dir.path(), &input("x")), r#"{"colour": "black"}"#).unwrap();
        let error = ReplayExtractor::new(dir.path()).extract(&input("x")).await.unwrap_err();
        assert!(matches!(error, ExtractError::SchemaInvalid(_)), "{error}");
    }

    #[tokio::test]
    async fn a_recording_from_before_quotes_is_refused_with_the_remedy() {
        let dir = tempfile::tempdir().unwrap();
        let mut old = crate::extract::schema::empty_facts_value();
        old.as_object_mut().unwrap().remove("evidence");
        let path = recording_path(dir.path(), &input("x"));
        std::fs::write(&path, old.to_string()).unwrap();
        let error = ReplayExtractor::new(dir.path()).extract(&input("x")).await.unwrap_err();
        assert!(error.to_string().contains("add \"evidence\": [] to replay it unchanged"), "{error}");
        // With the key added, as the message says, it replays.
        old["evidence"] = serde_json::json!([]);
        std::fs::write(&path, old.to_string()).unwrap();
        assert!(ReplayExtractor::new(dir.path()).extract(&input("x")).await.is_ok());
    }

    #[tokio::test]
    async fn a_recording_from_before_the_product_is_refused_with_the_remedy() {
        let dir = tempfile::tempdir().unwrap();
        let mut old = crate::extract::schema::empty_facts_value();
        old.as_object_mut().unwrap().remove("product");
        old["lines"] = serde_json::json!([{"model": null, "color": "black", "size_label": null, "quantity": null}]);
        let path = recording_path(dir.path(), &input("x"));
        std::fs::write(&path, old.to_string()).unwrap();
        let error = ReplayExtractor::new(dir.path()).extract(&input("x")).await.unwrap_err();
        assert!(error.to_string().contains("recorded before the product: add \"product\": \"\""), "{error}");
        old["product"] = serde_json::json!("");
        std::fs::write(&path, old.to_string()).unwrap();
        let error = ReplayExtractor::new(dir.path()).extract(&input("x")).await.unwrap_err();
        assert!(error.to_string().contains("in every line"), "a line without it too: {error}");
        old["lines"][0]["product"] = serde_json::json!("");
        std::fs::write(&path, old.to_string()).unwrap();
        let replayed = ReplayExtractor::new(dir.path()).extract(&input("x")).await.unwrap();
        assert_eq!(replayed.extracted.lines[0].product, None);
    }
}
