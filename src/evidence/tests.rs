//! The evidence log's tests: chains, replays, group commit, torn tails,
//! several stores on one log and verification.

use std::fs::{self, OpenOptions};
use std::io::Write;

use super::index::RECENT_RECORDS;
use super::*;
use crate::digest;
use serde_json::json;

fn draft(id: &str, previous: Option<&str>, request: &str) -> Draft {
    Draft {
        record_id: id.into(),
        previous_record_id: previous.map(str::to_owned),
        request: request.into(),
        sealed_at: "2026-11-02T10:00:00Z".into(),
        body: json!({"decision": "ask", "person": {"name": "Ada Lovelace"}}).into(),
    }
}

#[tokio::test]
async fn appends_chain_links_and_replays() {
    let directory = tempfile::tempdir().unwrap();
    let store = EvidenceStore::open(directory.path()).unwrap();
    let first = store.append(draft("a", None, "shoes")).await.unwrap().unwrap();
    assert!(matches!(first, Appended::New(_)));
    assert!(matches!(store.append(draft("a", None, "shoes")).await.unwrap().unwrap(), Appended::Existing(_)));
    let second = store.append(draft("b", Some("a"), "shoes")).await.unwrap().unwrap();
    assert_eq!(second.attempt(), 2);
    assert_eq!(second.prev_hash(), first.hash());
    assert_eq!(
        store.append(draft("c", Some("a"), "shoes")).await.unwrap(),
        Err(LinkError::NotHead("a".into(), "b".into()))
    );
    assert_eq!(store.append(draft("c", Some("b"), "a hat")).await.unwrap(), Err(LinkError::OtherRequest("b".into())));
    assert_eq!(store.append(draft("c", Some("zz"), "shoes")).await.unwrap(), Err(LinkError::NotFound("zz".into())));
    drop(store);
    let path = directory.path().join(LOG_FILE);
    let report = verify_file(&path).unwrap();
    assert!(report.ok() && report.records == 2, "{report:?}");
    // Reopening rebuilds the index from the file.
    let store = EvidenceStore::open(directory.path()).unwrap();
    assert_eq!(store.successor("a").await.unwrap().as_deref(), Some("b"));
    assert_eq!(chain(&read_all(&path).unwrap(), "b").len(), 2);
}

#[test]
fn an_empty_log_verifies_as_no_records() {
    // An empty file read as one unparsable line: a log whose first write
    // a full disk cut back to nothing (`write_and_sync` creates the file,
    // then truncates it to its old length, 0) refused to open again, and
    // `evidence verify` called it broken.
    let report = verify_bytes(b"");
    assert!(report.ok() && report.records == 0 && report.head == GENESIS, "{report:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stores_on_one_log_share_one_chain_and_see_each_others_records() {
    // The lock is `flock`, held per open file description: two stores in
    // one process take turns exactly as two processes do.
    let directory = tempfile::tempdir().unwrap();
    let first = EvidenceStore::open(directory.path()).unwrap();
    let second = EvidenceStore::open(directory.path()).unwrap();
    first.append(draft("a", None, "shoes")).await.unwrap().unwrap();
    // Each sees what the other sealed: a lookup, a link, the link rules.
    assert_eq!(second.get("a").await.unwrap().unwrap().seq, 1);
    let b = second.append(draft("b", Some("a"), "shoes")).await.unwrap().unwrap();
    assert_eq!((b.seq(), b.attempt()), (2, 2));
    assert_eq!(first.successor("a").await.unwrap().as_deref(), Some("b"));
    assert_eq!(
        first.append(draft("c", Some("a"), "shoes")).await.unwrap(),
        Err(LinkError::NotHead("a".into(), "b".into()))
    );
    assert!(matches!(first.append(draft("b", Some("a"), "shoes")).await.unwrap().unwrap(), Appended::Existing(_)));
    // Both at once, interleaved batches.
    let appends: Vec<_> = (0..200)
        .map(|number| {
            let store = if number % 2 == 0 { first.clone() } else { second.clone() };
            tokio::spawn(async move { store.append(draft(&format!("r{number}"), None, "hats")).await })
        })
        .collect();
    for append in appends {
        assert!(matches!(append.await.unwrap().unwrap().unwrap(), Appended::New(_)));
    }
    let c = first.append(draft("c", Some("b"), "shoes")).await.unwrap().unwrap();
    assert_eq!(c.attempt(), 3);
    // Readers take no lock.
    let path = directory.path().join(LOG_FILE);
    let report = verify_file(&path).unwrap();
    assert!(report.ok() && report.records == 203, "{report:?}");
    assert!(show(&path, "a").unwrap().is_some());
    drop((first, second));
    assert_eq!(read_all(&path).unwrap().len(), 203);
}

#[tokio::test]
async fn a_torn_line_another_writer_left_is_set_aside_by_the_next_append() {
    let directory = tempfile::tempdir().unwrap();
    let store = EvidenceStore::open(directory.path()).unwrap();
    store.append(draft("a", None, "shoes")).await.unwrap().unwrap();
    // Another process wrote half a record and died (so its lock is gone).
    let path = directory.path().join(LOG_FILE);
    let mut log = OpenOptions::new().append(true).open(&path).unwrap();
    log.write_all(b"{\"seq\":2,\"record_id\":\"half").unwrap();
    drop(log);
    let b = store.append(draft("b", Some("a"), "shoes")).await.unwrap().unwrap();
    assert_eq!(b.seq(), 2);
    let side_files = set_aside_files(directory.path());
    assert_eq!(side_files.len(), 1, "{side_files:?}");
    assert_eq!(fs::read_to_string(&side_files[0]).unwrap(), "{\"seq\":2,\"record_id\":\"half");
    drop(store);
    assert!(verify_file(&path).unwrap().ok());
}

#[tokio::test]
async fn a_record_another_writer_appended_that_does_not_verify_fails_closed() {
    let directory = tempfile::tempdir().unwrap();
    let store = EvidenceStore::open(directory.path()).unwrap();
    store.append(draft("a", None, "shoes")).await.unwrap().unwrap();
    let path = directory.path().join(LOG_FILE);
    let original = fs::read_to_string(&path).unwrap();
    // A copy of record 1 as record 2: its sequence and hashes are wrong.
    let mut log = OpenOptions::new().append(true).open(&path).unwrap();
    log.write_all(original.as_bytes()).unwrap();
    drop(log);
    let error = store.append(draft("b", None, "hats")).await.unwrap_err();
    assert!(matches!(error, StoreError::Broken { line: 2, .. }), "{error}");
    assert!(store.get("zz").await.is_err(), "lookups fail closed too");
    assert_eq!(fs::read_to_string(&path).unwrap(), original.repeat(2), "never repaired");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_appends_share_fsyncs_and_old_records_are_read_back() {
    let directory = tempfile::tempdir().unwrap();
    let store = EvidenceStore::open(directory.path()).unwrap();
    let count = RECENT_RECORDS.get() + 100;
    let appends: Vec<_> = (0..count)
        .map(|number| {
            let store = store.clone();
            tokio::spawn(async move { store.append(draft(&format!("r{number}"), None, "shoes")).await })
        })
        .collect();
    let mut first = None;
    for (number, append) in appends.into_iter().enumerate() {
        let appended = append.await.unwrap().unwrap().unwrap();
        let Appended::New(sealed) = appended else { panic!("not new: {appended:?}") };
        if number == 0 {
            first = Some(sealed);
        }
    }
    let first = first.unwrap();
    // r0 left the in-memory window long ago: it comes back from the file,
    // as it was sealed.
    let read = store.get("r0").await.unwrap().unwrap();
    assert_eq!(
        (read.seq, &read.record_id, read.attempt, &read.sealed_at, &read.prev_hash, &read.hash),
        (first.seq, &first.record_id, first.attempt, &first.sealed_at, &first.prev_hash, &first.hash)
    );
    assert_eq!(read.body, draft("r0", None, "shoes").body.to_value().unwrap());
    assert_eq!(read.compute_hash().unwrap(), first.hash);
    assert!(matches!(store.append(draft("r0", None, "shoes")).await.unwrap().unwrap(), Appended::Existing(_)));
    assert_eq!(
        store.append(draft("next", Some("r0"), "a hat")).await.unwrap(),
        Err(LinkError::OtherRequest("r0".into()))
    );
    let next = store.append(draft("next", Some("r0"), "shoes")).await.unwrap().unwrap();
    assert_eq!(next.attempt(), 2);
    drop(store);
    let report = verify_file(&directory.path().join(LOG_FILE)).unwrap();
    assert!(report.ok() && report.records == count as u64 + 1, "{report:?}");
}

#[tokio::test]
async fn lines_and_hashes_are_what_serde_json_and_the_canonical_digest_give() {
    let directory = tempfile::tempdir().unwrap();
    let store = EvidenceStore::open(directory.path()).unwrap();
    let mut first = draft("a", None, "Schuhe für Zoë \"größe\" 42\n\u{2028}");
    first.body =
        json!({"z": 1, "a": [1.5, -0.0, null, {"y": "\u{1}", "x": true}], "M": {"é": 12345678901234567890u64}}).into();
    store.append(first.clone()).await.unwrap().unwrap();
    store.append(draft("b", Some("a"), &first.request)).await.unwrap().unwrap();
    drop(store);
    let text = fs::read_to_string(directory.path().join(LOG_FILE)).unwrap();
    for line in text.lines() {
        let record: SealedRecord = serde_json::from_str(line).unwrap();
        assert_eq!(serde_json::to_string(&record).unwrap(), line);
        // The definition: the canonical digest of the record as a value, less `hash`.
        let mut value = serde_json::to_value(&record).unwrap();
        value.as_object_mut().unwrap().remove("hash");
        assert_eq!(record.hash, digest::of_value(&value));
        assert_eq!(record.compute_hash().unwrap(), record.hash);
    }
    assert!(verify_file(&directory.path().join(LOG_FILE)).unwrap().ok());
}

#[tokio::test]
async fn get_sees_what_a_program_ignoring_the_lock_appended() {
    let directory = tempfile::tempdir().unwrap();
    let server = EvidenceStore::open(directory.path()).unwrap();
    server.append(draft("a", None, "shoes")).await.unwrap().unwrap();
    assert!(server.get("a").await.unwrap().is_some());
    assert!(server.get("b").await.unwrap().is_none());
    // The same two records sealed elsewhere: the second line is a valid
    // continuation of the server's log, appended behind its back.
    let elsewhere = tempfile::tempdir().unwrap();
    let other = EvidenceStore::open(elsewhere.path()).unwrap();
    other.append(draft("a", None, "shoes")).await.unwrap().unwrap();
    let appended = other.append(draft("b", Some("a"), "shoes")).await.unwrap().unwrap();
    drop(other);
    let lines = fs::read_to_string(elsewhere.path().join(LOG_FILE)).unwrap();
    let second = lines.lines().nth(1).unwrap();
    let mut log = OpenOptions::new().append(true).open(directory.path().join(LOG_FILE)).unwrap();
    log.write_all(format!("{second}\n").as_bytes()).unwrap();
    drop(log);
    let read = server.get("b").await.unwrap().unwrap();
    assert_eq!((read.seq, read.record_id.as_str(), read.hash.as_str()), (appended.seq(), "b", appended.hash()));
    assert_eq!(server.successor("a").await.unwrap().as_deref(), Some("b"));
    let next = server.append(draft("c", Some("b"), "shoes")).await.unwrap().unwrap();
    assert_eq!(next.seq(), 3);
    drop(server);
    assert!(verify_file(&directory.path().join(LOG_FILE)).unwrap().ok());
}

#[tokio::test]
async fn tampering_and_a_torn_line_are_reported() {
    let directory = tempfile::tempdir().unwrap();
    let store = EvidenceStore::open(directory.path()).unwrap();
    for (id, previous) in [("a", None), ("b", Some("a")), ("c", Some("b"))] {
        store.append(draft(id, previous, "shoes")).await.unwrap().unwrap();
    }
    drop(store);
    let path = directory.path().join(LOG_FILE);
    let original = fs::read_to_string(&path).unwrap();

    let tampered = original.replacen("\"decision\":\"ask\"", "\"decision\":\"proceed\"", 2);
    let report = verify_bytes(tampered.as_bytes());
    let broken = report.first_broken.unwrap();
    assert_eq!((broken.line, broken.record_id.as_deref()), (1, Some("a")));
    assert!(broken.reason.contains("altered"), "{}", broken.reason);

    let torn = &original[..original.len() - 20];
    let report = verify_bytes(torn.as_bytes());
    let broken = report.first_broken.unwrap();
    assert_eq!(broken.line, 3);
    assert!(broken.reason.contains("torn"), "{}", broken.reason);
    assert_eq!(report.records, 2);
    // A torn tail is set aside verbatim, and the log goes on after the
    // last complete record.
    fs::write(&path, torn).unwrap();
    let store = EvidenceStore::open(directory.path()).unwrap();
    let side_files = set_aside_files(directory.path());
    assert_eq!(side_files.len(), 1, "{side_files:?}");
    let kept_length = original.trim_end_matches('\n').rfind('\n').unwrap() + 1;
    assert_eq!(fs::read_to_string(&side_files[0]).unwrap(), &torn[kept_length..]);
    assert_eq!(fs::read_to_string(&path).unwrap(), &original[..kept_length]);
    store.append(draft("d", None, "hats")).await.unwrap().unwrap();
    drop(store);
    assert!(verify_file(&path).unwrap().ok());

    // Anything else is refused, and the log is left as it is.
    fs::write(&path, &tampered).unwrap();
    let error = EvidenceStore::open(directory.path()).unwrap_err();
    assert!(error.to_string().contains("line 1"), "{error}");
    let torn_and_tampered = &tampered[..tampered.len() - 20];
    fs::write(&path, torn_and_tampered).unwrap();
    assert!(EvidenceStore::open(directory.path()).is_err());
    assert_eq!(fs::read_to_string(&path).unwrap(), torn_and_tampered, "never repaired");
    assert_eq!(set_aside_files(directory.path()).len(), 1);
}

#[tokio::test]
async fn a_body_written_other_than_canonically_is_read_whole_and_still_verifies() {
    // A line is checked by hashing its body as written (`record::read_line`);
    // one written otherwise (spaces, another key order, escapes), whose
    // content is unchanged, gets the answer the whole parse always gave.
    let directory = tempfile::tempdir().unwrap();
    let store = EvidenceStore::open(directory.path()).unwrap();
    store.append(draft("a", None, "shoes")).await.unwrap().unwrap();
    store.append(draft("b", Some("a"), "shoes")).await.unwrap().unwrap();
    drop(store);
    let original = fs::read_to_string(directory.path().join(LOG_FILE)).unwrap();
    let canonical = r#""body":{"decision":"ask","person":{"name":"Ada Lovelace"}}"#;
    let respelled = r#""body":{ "person": {"name": "Ada Lov\u0065lace"}, "decision": "ask" }"#;
    let lines: Vec<&str> = original.split_inclusive('\n').collect();
    assert!(lines.len() == 2 && lines.iter().all(|line| line.contains(canonical)), "{original}");
    let second = lines[1].replace(canonical, respelled);
    let rewritten = format!("{}{second}", lines[0]);
    let report = verify_bytes(rewritten.as_bytes());
    assert!(report.ok() && report.records == 2, "{report:?}");
    assert_eq!(report.head, verify_bytes(original.as_bytes()).head);
    // A store takes it in when it opens the log, and when it catches up
    // with a line another program appended.
    let opened = tempfile::tempdir().unwrap();
    fs::write(opened.path().join(LOG_FILE), &rewritten).unwrap();
    let store = EvidenceStore::open(opened.path()).unwrap();
    assert_eq!(store.append(draft("c", Some("b"), "shoes")).await.unwrap().unwrap().attempt(), 3);
    let caught_up = tempfile::tempdir().unwrap();
    let path = caught_up.path().join(LOG_FILE);
    fs::write(&path, lines[0]).unwrap();
    let store = EvidenceStore::open(caught_up.path()).unwrap();
    OpenOptions::new().append(true).open(&path).unwrap().write_all(second.as_bytes()).unwrap();
    assert_eq!(store.append(draft("c", Some("b"), "shoes")).await.unwrap().unwrap().attempt(), 3);
    drop(store);
    assert!(verify_file(&path).unwrap().ok());
    // The same content changed is still an alteration.
    let altered = format!("{}{}", lines[0], lines[1].replace(canonical, &respelled.replace("Lov", "Loo")));
    let broken = verify_bytes(altered.as_bytes()).first_broken.unwrap();
    assert!(broken.line == 2 && broken.reason.contains("altered"), "{broken:?}");
}
