use std::os::unix::fs::PermissionsExt;

use chrono::{Duration, TimeZone};

use super::*;

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 1, 12, 0, 0).unwrap()
}

const SUBJECT: Subject<'static> =
    Subject { record_id: "sha256:record", subject_digest: "sha256:cart", mandate_digest: "sha256:mandate" };

fn ring() -> (tempfile::TempDir, KeyRing) {
    let folder = tempfile::tempdir().unwrap();
    let ring = KeyRing::open_or_create(&folder.path().join("keys")).unwrap();
    (folder, ring)
}

#[test]
fn a_fresh_receipt_for_the_same_cart_is_valid() {
    let (_folder, ring) = ring();
    let token = issue(&ring, &SUBJECT, now(), now() + Duration::minutes(15)).unwrap();
    match verify(&token, &ring.jwks(), now() + Duration::minutes(14), Some("sha256:cart")) {
        Verification::Valid { claims } => {
            assert_eq!(claims.record_id, "sha256:record");
            assert_eq!(claims.mandate_digest, "sha256:mandate");
            assert_eq!(claims.exp - claims.iat, 15 * 60);
            assert_eq!(claims.nonce.len(), 32);
        }
        other => panic!("{other:?}"),
    }
    // Two receipts for one check differ by their nonce.
    let again = issue(&ring, &SUBJECT, now(), now() + Duration::minutes(15)).unwrap();
    assert_ne!(token, again);
}

#[test]
fn each_failure_is_its_own_answer() {
    let (_folder, ring) = ring();
    let jwks = ring.jwks();
    let token = issue(&ring, &SUBJECT, now(), now() + Duration::minutes(15)).unwrap();

    let expired = verify(&token, &jwks, now() + Duration::minutes(15), Some("sha256:cart"));
    assert_eq!(expired.result(), "expired", "{expired:?}");

    let changed = verify(&token, &jwks, now(), Some("sha256:another"));
    assert_eq!(
        changed,
        Verification::CartChanged { receipt_cart: "sha256:cart".into(), presented_cart: "sha256:another".into() }
    );

    let (_other_folder, other) = self::ring();
    assert_eq!(verify(&token, &other.jwks(), now(), None).result(), "unknown_key");

    // The claims altered (another cart digest), the signature kept.
    let parts: Vec<&str> = token.split('.').collect();
    let mut claims: serde_json::Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[1]).unwrap()).unwrap();
    claims["subject_digest"] = "sha256:another".into();
    let forged = format!("{}.{}.{}", parts[0], URL_SAFE_NO_PAD.encode(claims.to_string()), parts[2]);
    assert_eq!(verify(&forged, &jwks, now(), Some("sha256:another")), Verification::BadSignature);

    // Our key id, another key's signature.
    let foreign = issue(&other, &SUBJECT, now(), now() + Duration::minutes(15)).unwrap();
    let foreign_parts: Vec<&str> = foreign.split('.').collect();
    let spliced = format!("{}.{}.{}", parts[0], parts[1], foreign_parts[2]);
    assert_eq!(verify(&spliced, &jwks, now(), None), Verification::BadSignature);

    for bad in ["", "a.b", "a.b.c", "....", &format!("{}.{}", parts[0], parts[1])] {
        assert_eq!(verify(bad, &jwks, now(), None).result(), "malformed", "{bad:?}");
    }
}

#[test]
fn another_algorithm_or_type_is_refused_before_any_key_is_used() {
    let (_folder, ring) = ring();
    let token = issue(&ring, &SUBJECT, now(), now() + Duration::minutes(15)).unwrap();
    let parts: Vec<&str> = token.split('.').collect();
    let kid = ring.current().unwrap().kid().to_owned();
    for header in [
        serde_json::json!({"alg": "none", "typ": TOKEN_TYPE, "kid": kid}),
        serde_json::json!({"alg": "HS256", "typ": TOKEN_TYPE, "kid": kid}),
        serde_json::json!({"alg": "EdDSA", "typ": "JWT", "kid": kid}),
    ] {
        let token = format!("{}.{}.{}", URL_SAFE_NO_PAD.encode(header.to_string()), parts[1], parts[2]);
        assert_eq!(verify(&token, &ring.jwks(), now(), None).result(), "malformed", "{header}");
    }
}

#[test]
fn keys_persist_rotate_and_stay_private() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("keys");
    let mut ring = KeyRing::open_or_create(&path).unwrap();
    let first = ring.current().unwrap().kid().to_owned();
    let old_token = issue(&ring, &SUBJECT, now(), now() + Duration::minutes(15)).unwrap();

    let reopened = KeyRing::open_or_create(&path).unwrap();
    assert_eq!(reopened.current().unwrap().kid(), first, "a second open reuses the key");

    let second = ring.rotate().unwrap();
    assert_ne!(first, second);
    let reopened = KeyRing::open_or_create(&path).unwrap();
    assert_eq!(reopened.current().unwrap().kid(), second);
    let jwks = reopened.jwks();
    assert_eq!(jwks.keys.iter().map(|key| key.kid.as_str()).collect::<Vec<_>>(), [second.as_str(), first.as_str()]);
    // A receipt signed before the rotation still verifies.
    assert_eq!(verify(&old_token, &jwks, now(), Some("sha256:cart")).result(), "valid");

    assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o700);
    for entry in std::fs::read_dir(&path).unwrap() {
        let mode = entry.unwrap().metadata().unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
    // The JWKS carries public keys only.
    let text = serde_json::to_string(&jwks).unwrap();
    assert!(text.contains("\"kty\":\"OKP\"") && text.contains("\"use\":\"sig\"") && !text.contains("\"d\""));
}

#[test]
fn a_broken_key_folder_is_an_error_naming_it() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("keys");
    KeyRing::open_or_create(&path).unwrap();
    std::fs::write(path.join(CURRENT_FOR_TESTS), "0000000000000000").unwrap();
    let error = KeyRing::open_or_create(&path).err().unwrap().to_string();
    assert!(error.contains("0000000000000000") && error.contains("keys"), "{error}");

    std::fs::write(path.join("bad.ed25519.pk8"), b"not a key").unwrap();
    let error = KeyRing::open_or_create(&path).err().unwrap().to_string();
    assert!(error.contains("bad.ed25519.pk8"), "{error}");
}

const CURRENT_FOR_TESTS: &str = "current";

#[test]
fn the_request_state_secret_is_made_once_private_and_a_short_one_is_refused() {
    let directory = tempfile::tempdir().unwrap();
    let folder = directory.path().join("keys");
    let secret = keys::state_secret(&folder).unwrap();
    assert_eq!(secret.len(), 32);
    let path = folder.join(keys::STATE_SECRET);
    assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
    assert_eq!(keys::state_secret(&folder).unwrap(), secret, "read back, not drawn again");
    std::fs::write(&path, b"short").unwrap();
    let error = keys::state_secret(&folder).unwrap_err().to_string();
    assert!(error.contains("holds 5 bytes") && error.contains(keys::STATE_SECRET), "{error}");
}

/// Several servers started at once on a fresh data folder (issue 31): one
/// creates the first key and the request-state secret, and every other
/// reads them, never half of them.
#[test]
fn processes_starting_at_once_share_one_first_key_and_one_secret() {
    let folder = tempfile::tempdir().unwrap();
    let keys = folder.path().join("keys");
    let opened: Vec<(String, Vec<u8>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..8)
            .map(|_| {
                scope.spawn(|| {
                    let ring = KeyRing::open_or_create(&keys).unwrap();
                    let kid = ring.jwks().keys[0].kid.clone();
                    (kid, super::keys::state_secret(&keys).unwrap())
                })
            })
            .collect();
        handles.into_iter().map(|handle| handle.join().unwrap()).collect()
    });
    assert!(opened.iter().all(|one| one == &opened[0]), "{opened:?}");
    assert_eq!(KeyRing::open_existing(&keys).unwrap().jwks().keys.len(), 1);
}
