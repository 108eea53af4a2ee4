//! A configured set of extractors: runs them concurrently on one request,
//! merges their facts, fails closed, and caches the result per request.
//!
//! Extraction happens once per (request, answers, today, extractor set), not
//! once per cart: a second cart check of the same request is a cache hit and
//! makes no provider call. Only successful merges are cached; a failure is
//! retried on the next check rather than remembered.
//!
//! Behind the in-memory LRU a set may have a [`SharedFacts`] second level
//! (a database table, `crate::pg`), so that several instances behind one
//! balancer extract a request once between them. Its key names the request,
//! answers, today, the extractor set (names and how many must succeed) and
//! the merge policy; a shared cache that fails is a miss, never a failed check.

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::future::join_all;
use lru::LruCache;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::ground::Grounding;
use super::merge::{MergePolicy, Output, Words, ground_and_merge};
use super::screen::{Flag, screen_input};
use super::{Cost, ExtractError, ExtractInput, Extractor, Quote};
use crate::facts::Facts;
use crate::messages::{Cause, Message, Screened};

/// How a failed set's error text starts (the record's `fail_closed`, logs);
/// the person reads `messages`' words instead.
pub const COULD_NOT_CHECK: &str = "The request could not be checked";

/// What one extractor did for one request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtractorReport {
    pub name: String,
    /// The facts it produced (weekday resolved), if it succeeded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub facts: Option<Facts>,
    /// Its raw output, if any was received.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw: Option<Value>,
    /// Why it failed, if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub cost: Cost,
    /// The extractor's quotes: where it says it read each value (models
    /// only). Grounding checks them; the misquoted ones are in `grounding`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub quotes: Vec<Quote>,
    /// Under the `grounded` policy: the words that support each value, and
    /// the values dropped because no words do (guard.md §8: every ask can be
    /// verified by a person without trusting a model).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grounding: Option<Grounding>,
}

/// The facts a check may use, or why there are none.
#[derive(Debug, Clone)]
pub struct SetOutcome {
    pub reports: Vec<ExtractorReport>,
    /// The merged facts, or the reason the check must fail closed.
    pub merged: Result<Facts, FailClosed>,
}

/// `{reports, merged, could_not_check}`: `merged` is the facts or null, and
/// `could_not_check` says why when it is null, rather than Rust's
/// `{"Ok": …}` / `{"Err": …}`, which a reader of `extract --json` should
/// not have to know.
impl Serialize for SetOutcome {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let failed = self.merged.as_ref().err();
        let mut state = serializer.serialize_struct("SetOutcome", 2 + usize::from(failed.is_some()))?;
        state.serialize_field("reports", &self.reports)?;
        state.serialize_field("merged", &self.merged.as_ref().ok())?;
        if let Some(failure) = failed {
            state.serialize_field("could_not_check", failure)?;
        }
        state.end()
    }
}

impl SetOutcome {
    /// One note per value dropped by grounding, naming the extractor that
    /// read it ("An extractor (claude) read the size as '43', which the
    /// request does not say; ignored"), for the person's language.
    pub fn drop_notes(&self) -> Vec<Message> {
        self.reports
            .iter()
            .flat_map(|report| {
                report
                    .grounding
                    .iter()
                    .flat_map(|grounding| grounding.dropped.iter().map(|drop| drop.note(&report.name)))
            })
            .collect()
    }
}

/// Too few extractors succeeded: the decision is `ask`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{COULD_NOT_CHECK}: {detail}")]
pub struct FailClosed {
    pub detail: String,
    /// Machine-addressed text found by the screen, if that is why no
    /// extractor ran (empty otherwise).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub screened: Vec<Flag>,
}

impl FailClosed {
    fn new(detail: String) -> FailClosed {
        FailClosed { detail, screened: Vec::new() }
    }

    /// When the screen stopped the check, what it found and where: the
    /// reason adds it to the fixed sentence of guard.md §4.5.
    pub fn found(&self) -> Option<Screened> {
        super::screen::found(&self.screened)
    }

    /// Why, for the person, after "because": what the screen found, or that
    /// the reading of the request failed (the technical detail, naming
    /// providers and timeouts, stays in the record).
    pub fn cause(&self) -> Cause {
        match self.found() {
            Some(found) => Cause::Screened(found),
            None => Cause::ReadingFailed,
        }
    }
}

/// A set that cannot be built as configured.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetError {
    #[error("no extractors configured")]
    Empty,
    #[error("{required} extractors required but only {configured} configured")]
    RequiredAboveConfigured { required: usize, configured: usize },
    #[error("extractor {0:?} is configured twice")]
    Duplicate(String),
}

/// A facts cache shared by several instances: successful outcomes as JSON
/// text under a digest of everything that decides them ([`ExtractorSet`]
/// builds both). An implementation logs its own failures and answers them as
/// a miss: a check must not fail because a cache did.
pub trait SharedFacts: Send + Sync {
    fn get<'a>(&'a self, key: &'a str) -> futures_util::future::BoxFuture<'a, Option<String>>;
    fn put<'a>(&'a self, key: &'a str, outcome: String) -> futures_util::future::BoxFuture<'a, ()>;
}

/// A cached outcome as the shared cache holds it: only merged ones are cached.
#[derive(Serialize, Deserialize)]
struct Cached {
    reports: Vec<ExtractorReport>,
    merged: Facts,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct CacheKey {
    request: String,
    answers: Vec<String>,
    today: chrono::NaiveDate,
    policy: MergePolicy,
    /// The named principal the entry is for; `None` for the local one.
    principal: Option<String>,
}

/// Extractors run together on each request.
pub struct ExtractorSet {
    extractors: Vec<Arc<dyn Extractor>>,
    required: usize,
    deadline: Duration,
    cache: Mutex<LruCache<CacheKey, Arc<SetOutcome>>>,
    /// Whether requests go through [`super::screen`] first (always, except
    /// in tests that measure the layers behind it).
    screen: bool,
    policy: MergePolicy,
    shared: Option<Arc<dyn SharedFacts>>,
}

impl std::fmt::Debug for ExtractorSet {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("ExtractorSet")
            .field("extractors", &self.names())
            .field("required", &self.required)
            .field("deadline", &self.deadline)
            .finish()
    }
}

impl ExtractorSet {
    /// `required`: how many must succeed (default: all). `deadline`: the most
    /// one check waits for extraction. `cache_capacity`: requests remembered.
    pub fn new(
        extractors: Vec<Arc<dyn Extractor>>,
        required: Option<usize>,
        deadline: Duration,
        cache_capacity: NonZeroUsize,
    ) -> Result<ExtractorSet, SetError> {
        if extractors.is_empty() {
            return Err(SetError::Empty);
        }
        for (index, extractor) in extractors.iter().enumerate() {
            if extractors[..index].iter().any(|earlier| earlier.name() == extractor.name()) {
                return Err(SetError::Duplicate(extractor.name().to_owned()));
            }
        }
        let required = required.unwrap_or(extractors.len()).max(1);
        if required > extractors.len() {
            return Err(SetError::RequiredAboveConfigured { required, configured: extractors.len() });
        }
        Ok(ExtractorSet {
            extractors,
            required,
            deadline,
            cache: Mutex::new(LruCache::new(cache_capacity)),
            screen: true,
            policy: MergePolicy::default(),
            shared: None,
        })
    }

    /// The same set without the injection screen, so a test can measure what
    /// stands behind it: the request's delimiting in prompts, the merge rules,
    /// the deterministic checks. No command line option turns it off: a
    /// deployment always screens.
    pub fn without_screen(mut self) -> ExtractorSet {
        self.screen = false;
        self
    }

    /// The same set merging by `policy` (the default is `grounded`).
    pub fn with_policy(mut self, policy: MergePolicy) -> ExtractorSet {
        self.policy = policy;
        self
    }

    /// The same set with `shared` behind its in-memory cache.
    pub fn with_shared_cache(mut self, shared: Arc<dyn SharedFacts>) -> ExtractorSet {
        self.shared = Some(shared);
        self
    }

    pub fn policy(&self) -> MergePolicy {
        self.policy
    }

    pub fn names(&self) -> Vec<&str> {
        self.extractors.iter().map(|extractor| extractor.name()).collect()
    }

    pub fn required(&self) -> usize {
        self.required
    }

    /// How many requests the cache holds now.
    pub fn cached(&self) -> usize {
        self.cache.lock().map(|cache| cache.len()).unwrap_or(0)
    }

    /// Facts for one request: from the cache, or extracted by every extractor
    /// concurrently (a check waits for the slowest, not the sum) and merged.
    pub async fn extract(&self, input: &ExtractInput) -> Arc<SetOutcome> {
        self.extract_scoped(input, None).await
    }

    /// [`Self::extract`] with the cache entries of one principal (its name;
    /// `None` for the local principal): one principal's entries are never
    /// another's hits, so no caller learns from a cache hit's speed which
    /// requests another made.
    pub async fn extract_scoped(&self, input: &ExtractInput, principal: Option<&str>) -> Arc<SetOutcome> {
        let key = CacheKey {
            request: input.request.clone(),
            answers: input.answers.clone(),
            today: input.today,
            policy: self.policy,
            principal: principal.map(str::to_owned),
        };
        if let Ok(mut cache) = self.cache.lock()
            && let Some(hit) = cache.get(&key)
        {
            return Arc::clone(hit);
        }
        let shared_key = self.shared.as_ref().map(|_| self.shared_key(&key));
        if let (Some(shared), Some(shared_key)) = (&self.shared, &shared_key)
            && let Some(text) = shared.get(shared_key).await
        {
            match serde_json::from_str::<Cached>(&text) {
                Ok(cached) => {
                    let outcome = Arc::new(SetOutcome { reports: cached.reports, merged: Ok(cached.merged) });
                    if let Ok(mut cache) = self.cache.lock() {
                        cache.put(key, Arc::clone(&outcome));
                    }
                    return outcome;
                }
                Err(error) => tracing::warn!(%error, "shared facts cache: an unreadable entry, extracting again"),
            }
        }
        let outcome = Arc::new(self.extract_uncached(input).await);
        if let Ok(merged) = &outcome.merged {
            if let Ok(mut cache) = self.cache.lock() {
                cache.put(key, Arc::clone(&outcome));
            }
            if let (Some(shared), Some(shared_key)) = (&self.shared, &shared_key) {
                let cached = Cached { reports: outcome.reports.clone(), merged: merged.clone() };
                match serde_json::to_string(&cached) {
                    Ok(text) => shared.put(shared_key, text).await,
                    Err(error) => tracing::warn!(%error, "shared facts cache: cannot encode an outcome"),
                }
            }
        }
        outcome
    }

    /// The shared cache's key: a digest of what the in-memory key holds and
    /// of the set itself (its extractors and how many must succeed), which
    /// another instance may have configured differently.
    fn shared_key(&self, key: &CacheKey) -> String {
        let mut value = serde_json::json!({
            "request": key.request,
            "answers": key.answers,
            "today": key.today.to_string(),
            "policy": key.policy.as_str(),
            "extractors": self.names(),
            "required": self.required,
        });
        // Only a named principal's keys hold it: the local principal's
        // entries keep the keys they had before principals existed.
        if let Some(principal) = &key.principal {
            value["principal"] = serde_json::json!(principal);
        }
        crate::digest::of_value(&value)
    }

    async fn extract_uncached(&self, input: &ExtractInput) -> SetOutcome {
        // Text addressed to the checker never reaches a model: the screen runs
        // first and, if it finds any, the check fails closed (screen.rs says
        // why this is the guard's answer to an extractor that obeys).
        let screened = if self.screen { screen_input(&input.request, &input.answers) } else { Vec::new() };
        if !screened.is_empty() {
            let detail = screened
                .iter()
                .map(|flag| format!("{}: {} ({:?})", flag.field, flag.rule.describe(), flag.excerpt))
                .collect::<Vec<_>>()
                .join("; ");
            return SetOutcome {
                reports: Vec::new(),
                merged: Err(FailClosed { detail: format!("screened, no extractor ran: {detail}"), screened }),
            };
        }
        let runs = self.extractors.iter().map(|extractor| async move {
            let started = Instant::now();
            let result = match tokio::time::timeout(self.deadline, extractor.extract(input)).await {
                Ok(result) => result,
                Err(_) => Err(ExtractError::Timeout(self.deadline)),
            };
            let elapsed = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
            match result {
                Ok(extraction) => {
                    let quotes = extraction.extracted.evidence.clone();
                    let facts = extraction.extracted.into_facts(input.today);
                    let mut cost = extraction.cost;
                    if cost.latency_ms == 0 {
                        cost.latency_ms = elapsed;
                    }
                    match facts.validate() {
                        Ok(()) => ExtractorReport {
                            name: extractor.name().to_owned(),
                            facts: Some(facts),
                            raw: Some(extraction.raw),
                            error: None,
                            cost,
                            quotes,
                            grounding: None,
                        },
                        Err(error) => ExtractorReport {
                            name: extractor.name().to_owned(),
                            facts: None,
                            raw: Some(extraction.raw),
                            error: Some(format!("invalid facts: {error}")),
                            cost,
                            quotes: Vec::new(),
                            grounding: None,
                        },
                    }
                }
                Err(error) => {
                    tracing::warn!(extractor = extractor.name(), %error, "extraction failed");
                    ExtractorReport {
                        name: extractor.name().to_owned(),
                        facts: None,
                        raw: None,
                        error: Some(error.to_string()),
                        cost: Cost { latency_ms: elapsed, ..Cost::default() },
                        quotes: Vec::new(),
                        grounding: None,
                    }
                }
            }
        });
        let mut reports: Vec<ExtractorReport> = join_all(runs).await;
        // Grounding runs on every extractor's facts, `rules` included: the
        // person's words are the referee, not any one extractor.
        let outputs: Vec<Output> = reports
            .iter()
            .filter_map(|report| report.facts.as_ref().map(|facts| Output { facts, quotes: &report.quotes }))
            .collect();
        let succeeded = outputs.len();
        let words = Words { request: &input.request, answers: &input.answers, today: input.today };
        let (merged, groundings) = ground_and_merge(self.policy, &outputs, words);
        let mut groundings = groundings.into_iter();
        for report in reports.iter_mut().filter(|report| report.facts.is_some()) {
            report.grounding = groundings.next().flatten();
        }
        let merged = if succeeded < self.required {
            let failures: Vec<String> = reports
                .iter()
                .filter_map(|report| report.error.as_ref().map(|error| format!("{}: {error}", report.name)))
                .collect();
            Err(FailClosed::new(format!(
                "{} of {} extractors succeeded, {} required ({})",
                succeeded,
                reports.len(),
                self.required,
                failures.join("; ")
            )))
        } else {
            merged.map_err(|error| FailClosed::new(error.to_string())).and_then(|facts| {
                facts
                    .validate()
                    .map(|()| facts)
                    .map_err(|error| FailClosed::new(format!("merged facts invalid: {error}")))
            })
        };
        SetOutcome { reports, merged }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::{ExtractFuture, ExtractedFacts, Extraction};
    use std::sync::atomic::{AtomicUsize, Ordering};

    struct Fake {
        name: &'static str,
        delay: Duration,
        output: Result<ExtractedFacts, &'static str>,
        calls: AtomicUsize,
    }

    impl Extractor for Fake {
        fn name(&self) -> &str {
            self.name
        }
        fn extract<'a>(&'a self, _input: &'a ExtractInput) -> ExtractFuture<'a> {
            Box::pin(async move {
                self.calls.fetch_add(1, Ordering::SeqCst);
                tokio::time::sleep(self.delay).await;
                match &self.output {
                    Ok(extracted) => Ok(Extraction {
                        extracted: extracted.clone(),
                        raw: serde_json::to_value(extracted).unwrap(),
                        cost: Cost::default(),
                    }),
                    Err(message) => Err(ExtractError::Malformed((*message).to_owned())),
                }
            })
        }
    }

    fn fake(name: &'static str, delay_ms: u64, output: Result<ExtractedFacts, &'static str>) -> Arc<Fake> {
        Arc::new(Fake { name, delay: Duration::from_millis(delay_ms), output, calls: AtomicUsize::new(0) })
    }

    fn input() -> ExtractInput {
        ExtractInput {
            request: "black shoes size 42".into(),
            today: chrono::NaiveDate::from_ymd_opt(2026, 11, 2).unwrap(),
            answers: vec![],
        }
    }

    fn colour(text: &str) -> ExtractedFacts {
        ExtractedFacts { color: Some(text.into()), ..ExtractedFacts::default() }
    }

    #[tokio::test(start_paused = true)]
    async fn a_principal_s_cache_entries_are_its_own() {
        let counted = fake("counted", 10, Ok(colour("black")));
        let set = ExtractorSet::new(vec![counted.clone()], None, Duration::from_secs(5), NonZeroUsize::new(8).unwrap())
            .unwrap();
        set.extract_scoped(&input(), Some("shop")).await;
        set.extract_scoped(&input(), Some("shop")).await;
        assert_eq!(counted.calls.load(Ordering::SeqCst), 1, "the principal's own second check is a hit");
        set.extract_scoped(&input(), Some("other")).await;
        set.extract(&input()).await;
        assert_eq!(counted.calls.load(Ordering::SeqCst), 3, "another principal's, or the local one's, is a miss");
        set.extract_scoped(&input(), None).await;
        assert_eq!(counted.calls.load(Ordering::SeqCst), 3, "`extract` is the local principal's");
    }

    #[tokio::test(start_paused = true)]
    async fn extractors_run_concurrently_and_merge() {
        let slow = fake("slow", 500, Ok(colour("black")));
        let fast = fake("fast", 300, Ok(colour("white")));
        let set = ExtractorSet::new(
            vec![slow.clone(), fast.clone()],
            None,
            Duration::from_secs(5),
            NonZeroUsize::new(4).unwrap(),
        )
        .unwrap();
        let started = tokio::time::Instant::now();
        let outcome = set.extract(&input()).await;
        assert_eq!(started.elapsed(), Duration::from_millis(500), "waits for the slowest, not the sum");
        let merged = outcome.merged.as_ref().unwrap();
        assert_eq!(merged.color.as_deref(), Some("black"));
        assert!(merged.disputed.contains(&crate::facts::FieldName::Color.into()));
        // A second check of the same request is a cache hit: no provider call.
        set.extract(&input()).await;
        assert_eq!((slow.calls.load(Ordering::SeqCst), fast.calls.load(Ordering::SeqCst)), (1, 1));
    }

    #[tokio::test(start_paused = true)]
    async fn a_model_s_quotes_are_kept_and_checked_against_the_words() {
        let quoted = ExtractedFacts {
            color: Some("black".into()),
            size_label: Some("42".into()),
            evidence: vec![
                crate::extract::Quote { field: "color".into(), quote: "black".into() },
                crate::extract::Quote { field: "size_label".into(), quote: "in size 42".into() },
            ],
            ..ExtractedFacts::default()
        };
        let set = ExtractorSet::new(
            vec![fake("model", 10, Ok(quoted)), fake("other", 10, Ok(colour("black")))],
            None,
            Duration::from_secs(5),
            NonZeroUsize::new(4).unwrap(),
        )
        .unwrap()
        .with_policy(MergePolicy::Grounded);
        let outcome = set.extract(&input()).await;
        let merged = outcome.merged.as_ref().unwrap();
        assert_eq!((merged.color.as_deref(), merged.size_label.as_deref()), (Some("black"), Some("42")));
        let report = &outcome.reports[0];
        assert_eq!(report.quotes.len(), 2, "the quotes are sealed with the report");
        let grounding = report.grounding.as_ref().unwrap();
        assert_eq!(grounding.misquoted.len(), 1, "{grounding:?}");
        assert_eq!(grounding.misquoted[0].quote, "in size 42");
        assert!(outcome.reports[1].quotes.is_empty());
    }

    #[tokio::test(start_paused = true)]
    async fn a_failed_or_late_extractor_fails_closed_and_is_not_cached() {
        let good = fake("good", 10, Ok(colour("black")));
        let bad = fake("bad", 10, Err("not json"));
        let set = ExtractorSet::new(
            vec![good.clone(), bad.clone()],
            None,
            Duration::from_secs(5),
            NonZeroUsize::new(4).unwrap(),
        )
        .unwrap();
        let outcome = set.extract(&input()).await;
        let error = outcome.merged.as_ref().unwrap_err();
        assert!(error.to_string().starts_with(COULD_NOT_CHECK), "{error}");
        assert!(error.detail.contains("bad: malformed output: not json"), "{error}");
        set.extract(&input()).await;
        assert_eq!(bad.calls.load(Ordering::SeqCst), 2, "failures are not cached");

        let late = fake("late", 10_000, Ok(colour("black")));
        let set =
            ExtractorSet::new(vec![good, late], None, Duration::from_secs(2), NonZeroUsize::new(4).unwrap()).unwrap();
        let started = tokio::time::Instant::now();
        let outcome = set.extract(&input()).await;
        assert_eq!(started.elapsed(), Duration::from_secs(2), "the per-check deadline bounds the wait");
        assert!(outcome.merged.is_err());
    }

    #[tokio::test(start_paused = true)]
    async fn required_count_allows_one_failure_when_configured() {
        let good = fake("good", 10, Ok(colour("black")));
        let bad = fake("bad", 10, Err("boom"));
        let set =
            ExtractorSet::new(vec![good, bad], Some(1), Duration::from_secs(5), NonZeroUsize::new(4).unwrap()).unwrap();
        let outcome = set.extract(&input()).await;
        assert!(outcome.merged.as_ref().unwrap().disputed.is_empty(), "one success is a single extractor");
    }

    #[test]
    fn configuration_errors_are_refused() {
        let one = fake("a", 1, Ok(colour("x")));
        let limit = NonZeroUsize::new(1).unwrap();
        assert_eq!(ExtractorSet::new(vec![], None, Duration::from_secs(1), limit).unwrap_err(), SetError::Empty);
        assert!(matches!(
            ExtractorSet::new(vec![one.clone()], Some(2), Duration::from_secs(1), limit),
            Err(SetError::RequiredAboveConfigured { .. })
        ));
        assert!(matches!(
            ExtractorSet::new(vec![one.clone(), one], None, Duration::from_secs(1), limit),
            Err(SetError::Duplicate(_))
        ));
    }
}
