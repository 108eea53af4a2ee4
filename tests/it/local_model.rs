//! A real model, end to end: the `openai` provider against llama.cpp's
//! server running Gemma 3 270M (started by `scripts/local-model.sh`), beside
//! a second extractor, through `ExtractorSet`.
//!
//! The 270M base model is weak, so this asserts well-formedness and the
//! merge and fail-closed behaviour, never accuracy: whatever the model says,
//! either it is schema-valid facts that merge by the rules, or the check
//! fails closed.
//!
//! Needs a running server, so the test is `#[ignore]`d: `cargo test --locked`
//! counts it as ignored, and `cargo test --locked -- --ignored` (a step of
//! `.ci/run`) runs it with `ASASKED_LOCAL_MODEL_URL` set (e.g.
//! `http://127.0.0.1:8080/v1`, printed by `scripts/local-model.sh start`).
//! Run without the variable, it fails saying how to start the server.

use std::num::NonZeroUsize;
use std::sync::Arc;
use std::time::{Duration, Instant};

use asasked::extract::schema::{empty_facts_value, validate};
use asasked::extract::set::{COULD_NOT_CHECK, ExtractorSet};
use asasked::extract::{Cost, ExtractFuture, ExtractInput, Extraction, Extractor};
use asasked::providers::config::ExtractorsConfig;
use chrono::NaiveDate;
use serde_json::json;

const URL_ENV: &str = "ASASKED_LOCAL_MODEL_URL";

/// A stand-in second extractor with fixed facts (`rules` takes this place
/// once it is merged in). Its colour is always stated, so the merge's
/// one-sided and conflict rules are exercised on `color`.
struct Fixed;

const FIXED_COLOR: &str = "black";

impl Extractor for Fixed {
    fn name(&self) -> &str {
        "fixed"
    }

    fn extract<'a>(&'a self, _input: &'a ExtractInput) -> ExtractFuture<'a> {
        Box::pin(async move {
            let mut raw = empty_facts_value();
            raw["color"] = json!(FIXED_COLOR);
            Ok(Extraction { extracted: validate(&raw)?, raw, cost: Cost::default() })
        })
    }
}

/// The running server's URL; its absence is a failure, since the test runs
/// only when asked for (`--ignored`) and must not then pass doing nothing.
fn local_model_url() -> String {
    match std::env::var(URL_ENV) {
        Ok(url) if !url.trim().is_empty() => url,
        _ => panic!(
            "the local model server was not started: run `eval \"export $(scripts/local-model.sh start | tail -n 1)\"` \
             to set {URL_ENV}, then cargo test --locked -- --ignored (or .ci/run)"
        ),
    }
}

#[tokio::test]
#[ignore = "needs a local model server: run scripts/local-model.sh start, export ASASKED_LOCAL_MODEL_URL, then cargo test --locked -- --ignored (or .ci/run)"]
async fn a_real_local_model_gives_schema_valid_facts_or_fails_closed() {
    let base_url = local_model_url();
    // The checked-in `[extractors.local]` (with its length bounds, without
    // which the 270M model repeats list entries until the token limit),
    // pointed at the running server.
    let mut config = ExtractorsConfig::default_config().unwrap();
    config.extractors.get_mut("local").expect("extractors.toml names `local`").base_url = Some(base_url);
    let local = config.build("local", &|_: &str| None).expect("a table").unwrap();
    let extractors: Vec<Arc<dyn Extractor>> = vec![local, Arc::new(Fixed)];
    let set = ExtractorSet::new(extractors, None, Duration::from_secs(400), NonZeroUsize::new(8).unwrap()).unwrap();
    let requests = [
        "Black Nike running shoes, size 42, under $120, by Friday please",
        "Two cans of tennis balls, anything but Wilson, I need to be able to return them",
        "A beginner tennis racket, white ideally but any colour is fine",
    ];
    let mut succeeded = 0;
    for request in requests {
        let input = ExtractInput {
            request: request.into(),
            today: NaiveDate::from_ymd_opt(2026, 11, 2).unwrap(),
            answers: vec![],
        };
        let started = Instant::now();
        let outcome = set.extract(&input).await;
        let elapsed = started.elapsed();
        let local = outcome.reports.iter().find(|report| report.name == "local").unwrap();
        eprintln!(
            "{request:?}: {elapsed:?}, tokens in/out {:?}/{:?}\n  raw: {}\n  error: {:?}",
            local.cost.input_tokens,
            local.cost.output_tokens,
            local.raw.as_ref().map(|raw| raw.to_string()).unwrap_or_default(),
            local.error
        );
        if let Some(raw) = &local.raw {
            validate(raw).expect("a recorded raw output is schema-valid");
        }
        match (&local.facts, &outcome.merged) {
            (Some(facts), Ok(merged)) => {
                succeeded += 1;
                assert!(local.error.is_none());
                merged.validate().expect("merged facts are well-formed");
                // One-sided: only the fixed extractor stated a colour.
                if facts.color.is_none() {
                    assert_eq!(merged.color.as_deref(), Some(FIXED_COLOR));
                    assert!(merged.disputed.contains(&asasked::facts::FieldName::Color.into()), "{merged:?}");
                }
                // The first extractor wins a conflict, marked disputed.
                if let Some(color) = &facts.color
                    && !color.eq_ignore_ascii_case(FIXED_COLOR)
                {
                    assert_eq!(merged.color.as_ref(), Some(color));
                    assert!(merged.disputed.contains(&asasked::facts::FieldName::Color.into()), "{merged:?}");
                }
                assert!(local.cost.output_tokens.is_some_and(|tokens| tokens > 0), "usage is read");
            }
            (None, Err(fail_closed)) => {
                // Schema-invalid twice, invalid facts or a server error: the
                // check must fail closed, naming the extractor.
                assert!(local.error.is_some());
                assert!(fail_closed.to_string().starts_with(COULD_NOT_CHECK), "{fail_closed}");
                assert!(fail_closed.detail.contains("local: "), "{fail_closed}");
            }
            (facts, merged) => panic!("inconsistent outcome: local facts {facts:?}, merged {merged:?}"),
        }
    }
    eprintln!("{succeeded} of {} requests gave merged facts; the rest failed closed", requests.len());
}
