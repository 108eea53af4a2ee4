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

/// Appends the canonical JSON text of `value` to `out`: the very bytes of
/// `write_canonical(&serde_json::to_value(value)?, out)`, without building
/// the `Value`. A check's record body is kilobytes of nested structs; its
/// `Value` tree (a `String` per key and per string, a map per object) was
/// built only to be written out and freed, a tenth of a sealed check's CPU.
/// Scalars are still made by serde_json's own `Value` serializer and written
/// as `write_canonical` writes them, so numbers, floats and map keys come
/// out exactly as before; only objects are written here, each member as it
/// arrives and then, unless its keys came in byte order, rearranged in
/// place (a later member of the same key replacing an earlier one, as a
/// `Value` map's `insert` does). On an error nothing is promised of `out`.
pub fn write_canonical_of<T: serde::Serialize + ?Sized>(value: &T, out: &mut Vec<u8>) -> Result<(), serde_json::Error> {
    value.serialize(canonical::Writer { out })
}

/// The serializer behind [`super::write_canonical_of`].
mod canonical {
    use std::borrow::Cow;
    use std::ops::Range;

    use serde::ser::{self, Serialize};
    use serde_json::{Error, Value};

    use super::{write_canonical, write_json};

    pub(super) struct Writer<'a> {
        pub(super) out: &'a mut Vec<u8>,
    }

    impl Writer<'_> {
        /// A scalar, as `serde_json::to_value` makes it and `write_canonical`
        /// writes it.
        fn scalar<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
            write_canonical(&serde_json::to_value(value)?, self.out);
            Ok(())
        }
    }

    /// An array: elements written as they come.
    pub(super) struct Array<'a> {
        out: &'a mut Vec<u8>,
        first: bool,
        /// `]`, or `]}` for a tuple variant (`{"variant":[…]}`).
        close: &'static [u8],
    }

    /// An object: members written as they come (`"key":value`, commas
    /// between), each one's raw key and text range kept to sort them at the
    /// end.
    pub(super) struct Object<'a> {
        out: &'a mut Vec<u8>,
        /// Where the first member starts (after `{`).
        start: usize,
        members: Vec<(Cow<'static, str>, Range<usize>)>,
        /// The key of the member whose value comes next (maps only).
        key: Option<String>,
        /// `}`, or `}}` for a struct variant (`{"variant":{…}}`).
        close: &'static [u8],
    }

    impl<'a> Object<'a> {
        fn new(out: &'a mut Vec<u8>, close: &'static [u8], len: Option<usize>) -> Object<'a> {
            out.push(b'{');
            let start = out.len();
            Object { out, start, members: Vec::with_capacity(len.unwrap_or(8)), key: None, close }
        }

        fn member<T: Serialize + ?Sized>(&mut self, key: Cow<'static, str>, value: &T) -> Result<(), Error> {
            if !self.members.is_empty() {
                self.out.push(b',');
            }
            let begin = self.out.len();
            write_json(key.as_ref(), self.out);
            self.out.push(b':');
            value.serialize(Writer { out: self.out })?;
            self.members.push((key, begin..self.out.len()));
            Ok(())
        }

        fn finish(mut self) -> Result<(), Error> {
            let in_order = self.members.windows(2).all(|pair| pair[0].0.as_bytes() < pair[1].0.as_bytes());
            if !in_order {
                let written = self.out.split_off(self.start);
                let base = self.start;
                // Stable: of members with the same key, the last one stays.
                self.members.sort_by(|left, right| left.0.as_bytes().cmp(right.0.as_bytes()));
                let mut first = true;
                for (index, (key, range)) in self.members.iter().enumerate() {
                    if self.members.get(index + 1).is_some_and(|next| next.0 == *key) {
                        continue;
                    }
                    if !first {
                        self.out.push(b',');
                    }
                    first = false;
                    self.out.extend_from_slice(&written[range.start - base..range.end - base]);
                }
            }
            self.out.extend_from_slice(self.close);
            Ok(())
        }
    }

    /// A map key as `serde_json::to_value` makes it: a key that serialises
    /// as a string is that string; anything else (numbers, booleans) goes
    /// through serde_json's own key rules, by making a one-member `Value`
    /// map of it.
    fn map_key<T: Serialize + ?Sized>(key: &T) -> Result<String, Error> {
        if let Ok(Value::String(key)) = serde_json::to_value(key) {
            return Ok(key);
        }
        struct OneMember<'k, K: ?Sized>(&'k K);
        impl<K: Serialize + ?Sized> Serialize for OneMember<'_, K> {
            fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                use ser::SerializeMap;
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry(self.0, &())?;
                map.end()
            }
        }
        match serde_json::to_value(OneMember(key))? {
            Value::Object(map) => {
                map.into_iter().next().map(|(key, _)| key).ok_or_else(|| ser::Error::custom("a map key made no member"))
            }
            _ => Err(ser::Error::custom("a map key made no object")),
        }
    }

    impl<'a> ser::Serializer for Writer<'a> {
        type Ok = ();
        type Error = Error;
        type SerializeSeq = Array<'a>;
        type SerializeTuple = Array<'a>;
        type SerializeTupleStruct = Array<'a>;
        type SerializeTupleVariant = Array<'a>;
        type SerializeMap = Object<'a>;
        type SerializeStruct = Object<'a>;
        type SerializeStructVariant = Object<'a>;

        fn serialize_bool(self, value: bool) -> Result<(), Error> {
            self.scalar(&value)
        }
        fn serialize_i8(self, value: i8) -> Result<(), Error> {
            self.scalar(&value)
        }
        fn serialize_i16(self, value: i16) -> Result<(), Error> {
            self.scalar(&value)
        }
        fn serialize_i32(self, value: i32) -> Result<(), Error> {
            self.scalar(&value)
        }
        fn serialize_i64(self, value: i64) -> Result<(), Error> {
            self.scalar(&value)
        }
        fn serialize_i128(self, value: i128) -> Result<(), Error> {
            self.scalar(&value)
        }
        fn serialize_u8(self, value: u8) -> Result<(), Error> {
            self.scalar(&value)
        }
        fn serialize_u16(self, value: u16) -> Result<(), Error> {
            self.scalar(&value)
        }
        fn serialize_u32(self, value: u32) -> Result<(), Error> {
            self.scalar(&value)
        }
        fn serialize_u64(self, value: u64) -> Result<(), Error> {
            self.scalar(&value)
        }
        fn serialize_u128(self, value: u128) -> Result<(), Error> {
            self.scalar(&value)
        }
        fn serialize_f32(self, value: f32) -> Result<(), Error> {
            self.scalar(&value)
        }
        fn serialize_f64(self, value: f64) -> Result<(), Error> {
            self.scalar(&value)
        }
        fn serialize_char(self, value: char) -> Result<(), Error> {
            self.scalar(&value)
        }
        fn serialize_str(self, value: &str) -> Result<(), Error> {
            write_json(value, self.out);
            Ok(())
        }
        fn serialize_bytes(self, value: &[u8]) -> Result<(), Error> {
            // A `[u8]` is a sequence of numbers to serde, as `to_value` makes bytes.
            self.scalar(value)
        }
        fn serialize_none(self) -> Result<(), Error> {
            self.out.extend_from_slice(b"null");
            Ok(())
        }
        fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
            value.serialize(self)
        }
        fn serialize_unit(self) -> Result<(), Error> {
            self.out.extend_from_slice(b"null");
            Ok(())
        }
        fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
            self.out.extend_from_slice(b"null");
            Ok(())
        }
        fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result<(), Error> {
            write_json(variant, self.out);
            Ok(())
        }
        fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Result<(), Error> {
            value.serialize(self)
        }
        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self,
            _name: &'static str,
            _index: u32,
            variant: &'static str,
            value: &T,
        ) -> Result<(), Error> {
            self.out.push(b'{');
            write_json(variant, self.out);
            self.out.push(b':');
            value.serialize(Writer { out: &mut *self.out })?;
            self.out.push(b'}');
            Ok(())
        }
        fn serialize_seq(self, _len: Option<usize>) -> Result<Array<'a>, Error> {
            self.out.push(b'[');
            Ok(Array { out: self.out, first: true, close: b"]" })
        }
        fn serialize_tuple(self, len: usize) -> Result<Array<'a>, Error> {
            self.serialize_seq(Some(len))
        }
        fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Array<'a>, Error> {
            self.serialize_seq(Some(len))
        }
        fn serialize_tuple_variant(
            self,
            _name: &'static str,
            _index: u32,
            variant: &'static str,
            _len: usize,
        ) -> Result<Array<'a>, Error> {
            self.out.push(b'{');
            write_json(variant, self.out);
            self.out.extend_from_slice(b":[");
            Ok(Array { out: self.out, first: true, close: b"]}" })
        }
        fn serialize_map(self, len: Option<usize>) -> Result<Object<'a>, Error> {
            Ok(Object::new(self.out, b"}", len))
        }
        fn serialize_struct(self, name: &'static str, len: usize) -> Result<Object<'a>, Error> {
            // serde_json's raw and arbitrary-precision values are structs
            // of a private name that its `Value` serializer unpacks.
            if name.starts_with("$serde_json::private::") {
                return Err(ser::Error::custom("a raw JSON value has no canonical writer here"));
            }
            Ok(Object::new(self.out, b"}", Some(len)))
        }
        fn serialize_struct_variant(
            self,
            _name: &'static str,
            _index: u32,
            variant: &'static str,
            len: usize,
        ) -> Result<Object<'a>, Error> {
            self.out.push(b'{');
            write_json(variant, self.out);
            self.out.push(b':');
            Ok(Object::new(self.out, b"}}", Some(len)))
        }
    }

    impl Array<'_> {
        fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
            if !self.first {
                self.out.push(b',');
            }
            self.first = false;
            value.serialize(Writer { out: &mut *self.out })
        }

        fn finish(self) -> Result<(), Error> {
            self.out.extend_from_slice(self.close);
            Ok(())
        }
    }

    impl ser::SerializeSeq for Array<'_> {
        type Ok = ();
        type Error = Error;
        fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
            self.element(value)
        }
        fn end(self) -> Result<(), Error> {
            self.finish()
        }
    }

    impl ser::SerializeTuple for Array<'_> {
        type Ok = ();
        type Error = Error;
        fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
            self.element(value)
        }
        fn end(self) -> Result<(), Error> {
            self.finish()
        }
    }

    impl ser::SerializeTupleStruct for Array<'_> {
        type Ok = ();
        type Error = Error;
        fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
            self.element(value)
        }
        fn end(self) -> Result<(), Error> {
            self.finish()
        }
    }

    impl ser::SerializeTupleVariant for Array<'_> {
        type Ok = ();
        type Error = Error;
        fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
            self.element(value)
        }
        fn end(self) -> Result<(), Error> {
            self.finish()
        }
    }

    impl ser::SerializeMap for Object<'_> {
        type Ok = ();
        type Error = Error;
        fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
            self.key = Some(map_key(key)?);
            Ok(())
        }
        fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
            let key = self.key.take().ok_or_else(|| ser::Error::custom("a map value without its key"))?;
            self.member(Cow::Owned(key), value)
        }
        fn end(self) -> Result<(), Error> {
            self.finish()
        }
    }

    impl ser::SerializeStruct for Object<'_> {
        type Ok = ();
        type Error = Error;
        fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Error> {
            self.member(Cow::Borrowed(key), value)
        }
        fn end(self) -> Result<(), Error> {
            self.finish()
        }
    }

    impl ser::SerializeStructVariant for Object<'_> {
        type Ok = ();
        type Error = Error;
        fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Error> {
            self.member(Cow::Borrowed(key), value)
        }
        fn end(self) -> Result<(), Error> {
            self.finish()
        }
    }
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

    /// Every shape serde gives a value, written directly and through a
    /// `Value`: struct fields out of key order, enums of each kind, maps
    /// with non-string keys, floats, bytes, chars and members of one key.
    #[test]
    fn the_direct_writer_writes_what_to_value_then_write_canonical_writes() {
        use std::collections::BTreeMap;

        #[derive(serde::Serialize)]
        enum Kind {
            Unit,
            Newtype(u8),
            Tuple(i32, &'static str),
            Struct { z: bool, a: Option<f32> },
        }
        #[derive(serde::Serialize)]
        struct Unit;
        #[derive(serde::Serialize)]
        struct Inner {
            zeta: f64,
            alpha: Vec<Kind>,
        }
        #[derive(serde::Serialize)]
        struct Outer {
            name: String,
            #[serde(rename = "Ä")]
            umlaut: char,
            #[serde(skip_serializing_if = "Option::is_none")]
            skipped: Option<u32>,
            bytes: &'static [u8],
            numbers: BTreeMap<i64, u128>,
            flags: BTreeMap<bool, Unit>,
            tuple: (i8, f32, (), Option<String>),
            inner: Inner,
            #[serde(flatten)]
            extra: BTreeMap<String, Value>,
            value: Value,
            a: i128,
        }
        let outer = Outer {
            name: "Zoë \"größe\"\n\u{2028}\u{1}".into(),
            umlaut: 'é',
            skipped: None,
            bytes: b"\x00\xff",
            numbers: BTreeMap::from([(-5, 1), (12, u128::from(u64::MAX))]),
            flags: BTreeMap::from([(true, Unit), (false, Unit)]),
            tuple: (-1, 0.1, (), Some("x".into())),
            inner: Inner {
                zeta: -0.0,
                alpha: vec![Kind::Unit, Kind::Newtype(7), Kind::Tuple(-3, "t"), Kind::Struct { z: true, a: Some(1.5) }],
            },
            // Flattened members land among the struct's own; "name" again
            // replaces the field, as a `Value` map's insert does.
            extra: BTreeMap::from([("b".into(), json!([1, {"y": 2, "x": 1}])), ("name".into(), json!("again"))]),
            value: json!({"z": [1e300, 12345678901234567890u64, null], "": {}, "a": {"c": 1, "b": 2}}),
            a: -(1i128 << 40),
        };
        let mut direct = Vec::new();
        write_canonical_of(&outer, &mut direct).unwrap();
        let through_value = canonical(&serde_json::to_value(&outer).unwrap());
        assert_eq!(String::from_utf8(direct).unwrap(), through_value);
        assert!(through_value.contains(r#""name":"again""#), "{through_value}");
        // What a `Value` cannot hold fails both ways.
        assert!(serde_json::to_value(f64::NAN).unwrap().is_null());
        let mut nan = Vec::new();
        write_canonical_of(&[f64::NAN, f64::INFINITY], &mut nan).unwrap();
        assert_eq!(nan, b"[null,null]");
        let unsupported = BTreeMap::from([(vec![1u8], 1)]);
        assert!(serde_json::to_value(&unsupported).is_err());
        assert!(write_canonical_of(&unsupported, &mut Vec::new()).is_err());
    }

    proptest::proptest! {
        #[test]
        fn any_value_is_written_directly_as_write_canonical_writes_it(value in arbitrary_value()) {
            let mut direct = Vec::new();
            write_canonical_of(&value, &mut direct).unwrap();
            proptest::prop_assert_eq!(String::from_utf8(direct).unwrap(), canonical(&value));
        }
    }

    fn arbitrary_value() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            ".{0,8}".prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 64, 8, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                proptest::collection::vec((".{0,6}", inner), 0..6)
                    .prop_map(|members| Value::Object(members.into_iter().collect())),
            ]
        })
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
