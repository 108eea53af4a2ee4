//! Canonical JSON and SHA-256 digests: the one definition of "the same
//! content" used by record ids, `mandate_ref`, `subject_digest` and the
//! evidence hash chain.
//!
//! Canonical form: object keys sorted by their UTF-8 bytes, no whitespace,
//! strings and numbers as serde_json writes them. It does not depend on how a
//! `serde_json::Map` happens to order its keys.

use serde_json::Value;
use sha2::{Digest, Sha256};

/// The canonical JSON text of `value`.
pub fn canonical(value: &Value) -> String {
    let mut out = String::new();
    write(value, &mut out);
    out
}

fn write(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_unstable();
            out.push('{');
            for (index, key) in keys.into_iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                write(&map[key], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// `sha256:<hex>` of `bytes`.
pub fn sha256(bytes: &[u8]) -> String {
    format!("sha256:{}", hex::encode(Sha256::digest(bytes)))
}

/// `sha256:<hex>` of the canonical JSON of `value`.
pub fn of_value(value: &Value) -> String {
    sha256(canonical(value).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn key_order_does_not_change_the_digest() {
        let one: Value = serde_json::from_str(r#"{"b":1,"a":{"y":[1,"x"],"x":null}}"#).unwrap();
        let two = json!({"a": {"x": null, "y": [1, "x"]}, "b": 1});
        assert_eq!(canonical(&one), r#"{"a":{"x":null,"y":[1,"x"]},"b":1}"#);
        assert_eq!(of_value(&one), of_value(&two));
        assert!(of_value(&one).starts_with("sha256:") && of_value(&one).len() == 7 + 64);
    }
}
