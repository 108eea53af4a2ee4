//! Signed receipts end to end (issue 15, item 3): a `proceed` from
//! `asasked check` carries a receipt; a separate verifier process holding
//! only the public keys (the JWKS `asasked keys` prints) accepts it for the
//! same cart and refuses it for another cart, under another key set, or
//! altered; an `ask` carries none.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

const REQUEST: &str = "please order a red Moleskine Classic Notebook, only if it's returnable";

fn asasked(arguments: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_asasked")).args(arguments).output().unwrap()
}

fn write(folder: &Path, name: &str, text: &str) -> String {
    let path = folder.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_owned()
}

fn check(folder: &Path, data: &str, cart: &str) -> Value {
    let output = asasked(&[
        "check",
        "--request",
        REQUEST,
        "--cart",
        cart,
        "--today",
        "2026-11-19",
        "--data-dir",
        data,
        "--extractors",
        "rules",
        "--json",
    ]);
    assert!(output.status.code().is_some_and(|code| code < 2), "{}", String::from_utf8_lossy(&output.stderr));
    let _ = folder;
    serde_json::from_slice(&output.stdout).unwrap()
}

fn verify(token: &str, cart: &str, jwks: &str) -> (Option<i32>, String) {
    let output = asasked(&["verify", token, "--cart", cart, "--jwks", jwks]);
    let result: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|_| panic!("not JSON: {}", String::from_utf8_lossy(&output.stderr)));
    (output.status.code(), result["result"].as_str().unwrap().to_owned())
}

#[test]
fn a_proceed_carries_a_receipt_that_only_the_public_key_verifies_for_that_cart() {
    let folder = tempfile::tempdir().unwrap();
    let data = folder.path().join("data");
    let data = data.to_str().unwrap();
    let right = write(folder.path(), "right.json", r#"[{"id": "gift-023", "quantity": 1}]"#);
    let other = write(folder.path(), "other.json", r#"[{"id": "gift-023", "quantity": 2}]"#);

    let result = check(folder.path(), data, &right);
    assert_eq!(result["decision"], "proceed", "{result}");
    let token = result["receipt"].as_str().expect("a proceed carries a receipt").to_owned();

    let keys = asasked(&["keys", "--data-dir", data]);
    assert!(keys.status.success());
    // The verifier gets the public keys only: a JWKS holds no private part.
    let jwks_text = String::from_utf8(keys.stdout).unwrap();
    assert!(!jwks_text.contains("\"d\""), "{jwks_text}");
    let jwks = write(folder.path(), "jwks.json", &jwks_text);

    assert_eq!(verify(&token, &right, &jwks), (Some(0), "valid".to_owned()));
    assert_eq!(verify(&token, &other, &jwks), (Some(1), "cart_changed".to_owned()));

    // One character of the signature changed (not the last, whose low bits
    // are padding).
    let at = token.len() - 10;
    let changed = if &token[at..=at] == "A" { "B" } else { "A" };
    let altered = format!("{}{changed}{}", &token[..at], &token[at + 1..]);
    assert_eq!(verify(&altered, &right, &jwks), (Some(1), "bad_signature".to_owned()));

    let stranger = folder.path().join("stranger");
    let stranger_keys = asasked(&["keys", "--data-dir", stranger.to_str().unwrap()]);
    let stranger_jwks = write(folder.path(), "stranger.json", &String::from_utf8(stranger_keys.stdout).unwrap());
    assert_eq!(verify(&token, &right, &stranger_jwks), (Some(1), "unknown_key".to_owned()));

    // After a rotation the old receipt still verifies with the new JWKS.
    let rotated = asasked(&["keys", "--data-dir", data, "--rotate"]);
    let rotated_jwks = write(folder.path(), "rotated.json", &String::from_utf8(rotated.stdout).unwrap());
    assert_eq!(verify(&token, &right, &rotated_jwks), (Some(0), "valid".to_owned()));
}

#[test]
fn an_ask_carries_no_receipt_and_a_verifier_without_keys_is_an_error() {
    let folder = tempfile::tempdir().unwrap();
    let data = folder.path().join("data");
    let wrong = write(folder.path(), "wrong.json", r#"[{"id": "gift-021", "quantity": 1}]"#);
    let result = check(folder.path(), data.to_str().unwrap(), &wrong);
    assert_eq!(result["decision"], "ask", "{result}");
    assert!(result.get("receipt").is_none(), "{result}");

    let empty = folder.path().join("empty");
    std::fs::create_dir_all(empty.join("keys")).unwrap();
    let output = asasked(&["verify", "x.y.z", "--data-dir", empty.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("holds no key"));
}
