//! What the payment and redemption benches share: a service on a data
//! folder (the `fixed` extractor, the embedded catalog, log and receipt
//! keys), the checks they make, where they run (disk and tmpfs) and how a
//! series of latencies is summed up. Included by each with `mod common;`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use asasked::service::{CheckRequest, Service, SystemClock};
use serde_json::json;

/// The facts the `fixed` extractor gives for every check.
const FACTS: &str = r#"{"brand":"Nike","model":"Pegasus 41","color":"white","size_label":"42"}"#;

/// A service whose checks of [`check`] proceed (shoe-003, 139.99 USD),
/// sealing in `data`.
pub fn service(directory: &Path, data: &Path) -> Service {
    let facts = directory.join("facts.json");
    std::fs::write(&facts, FACTS).expect("facts");
    let names = [asasked::extract::name::ExtractorName::Fixed(facts)];
    let extractors = Arc::new(asasked::extractors::build(&names, &|_| None).expect("extractors"));
    let catalog = Some(Arc::new(asasked::catalog::Catalog::embedded().expect("catalog")));
    let keys = asasked::receipt::KeyRing::open_or_create(&data.join("keys")).expect("keys");
    let store = asasked::evidence::EvidenceStore::open(data).expect("store");
    Service::new(extractors, catalog, store, Arc::new(SystemClock)).with_receipts(Arc::new(keys))
}

/// The `index`th check: its own request words (so its own record), one
/// shoe-003, which proceeds.
pub fn check(index: usize) -> CheckRequest {
    serde_json::from_value(json!({
        "request": format!("Nike Pegasus 41, white, size 42 please (order {index})"),
        "cart": [{"id": "shoe-003", "quantity": 1}],
        "today": "2026-11-02",
    }))
    .expect("arguments")
}

/// Where the data folders go: the temporary folder (disk), and `/dev/shm`
/// (tmpfs: an fsync there costs nothing) where there is one.
pub fn roots() -> Vec<(&'static str, PathBuf)> {
    let mut roots = vec![("disk", std::env::temp_dir())];
    if Path::new("/dev/shm").is_dir() {
        roots.push(("tmpfs", PathBuf::from("/dev/shm")));
    }
    roots
}

fn percentile(sorted: &[Duration], fraction: f64) -> Duration {
    let index = ((sorted.len() as f64 * fraction).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[index]
}

/// `n=… p50=… p99=… max=… ms` of `latencies`.
pub fn summary(mut latencies: Vec<Duration>) -> String {
    latencies.sort();
    format!(
        "n={} p50={:.2} p99={:.2} max={:.2} ms",
        latencies.len(),
        percentile(&latencies, 0.50).as_secs_f64() * 1e3,
        percentile(&latencies, 0.99).as_secs_f64() * 1e3,
        latencies.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
    )
}
