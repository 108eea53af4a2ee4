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
    let mut out = Vec::with_capacity(256);
    write_canonical(value, &mut out);
    // Only serde_json's own output and ASCII punctuation went in.
    String::from_utf8(out).unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned())
}

/// Appends the canonical JSON text of `value` to `out`. Writes straight into
/// the buffer: no `String` per key or scalar (a record's body has hundreds).
pub fn write_canonical(value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::Object(map) => {
            out.push(b'{');
            // serde_json's map (without `preserve_order`) iterates in key
            // order already; sort only if it ever does not.
            if map.keys().is_sorted() {
                for (index, (key, value)) in map.iter().enumerate() {
                    write_member(index, key, value, out);
                }
            } else {
                let mut members: Vec<(&String, &Value)> = map.iter().collect();
                members.sort_unstable_by(|left, right| left.0.cmp(right.0));
                for (index, (key, value)) in members.into_iter().enumerate() {
                    write_member(index, key, value, out);
                }
            }
            out.push(b'}');
        }
        Value::Array(items) => {
            out.push(b'[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(b',');
                }
                write_canonical(item, out);
            }
            out.push(b']');
        }
        scalar => write_json(scalar, out),
    }
}

fn write_member(index: usize, key: &str, value: &Value, out: &mut Vec<u8>) {
    if index > 0 {
        out.push(b',');
    }
    write_json(key, out);
    out.push(b':');
    write_canonical(value, out);
}

/// Appends `value` as serde_json writes it (compact).
pub fn write_json<T: serde::Serialize + ?Sized>(value: &T, out: &mut Vec<u8>) {
    // Strings, numbers, booleans and null cannot fail to serialise, and a
    // Vec never fails to grow.
    let _ = serde_json::to_writer(&mut *out, value);
}

/// `sha256:<hex>` of `bytes`.
pub fn sha256(bytes: &[u8]) -> String {
    format!("sha256:{}", hex::encode(Sha256::digest(bytes)))
}

/// `sha256:<hex>` of the canonical JSON of `value`.
pub fn of_value(value: &Value) -> String {
    let mut out = Vec::with_capacity(256);
    write_canonical(value, &mut out);
    sha256(&out)
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

    /// The definition the fast writer replaced: keys sorted by their bytes,
    /// each key and scalar as serde_json writes it.
    fn reference(value: &Value) -> String {
        match value {
            Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort_unstable();
                let members: Vec<String> = keys
                    .into_iter()
                    .map(|key| format!("{}:{}", Value::String(key.clone()), reference(&map[key])))
                    .collect();
                format!("{{{}}}", members.join(","))
            }
            Value::Array(items) => format!("[{}]", items.iter().map(reference).collect::<Vec<_>>().join(",")),
            scalar => scalar.to_string(),
        }
    }

    #[test]
    fn the_writer_matches_the_definition() {
        let value = json!({
            "z": [1, -2.5, 1e300, 12345678901234567890u64, null, true, "a\"b\\c\u{1}\n"],
            "Ä": {"é": "ß", "E": "\u{2028}", "": {}}, "a": [], "aa": [[{"y": 1, "x": 2}]],
        });
        assert_eq!(canonical(&value), reference(&value));
        // Without `preserve_order`, serde_json's compact text is canonical
        // already: the evidence log relies on it to write each record's body
        // once for both its line and its hash.
        assert_eq!(canonical(&value), serde_json::to_string(&value).unwrap());
    }
}
