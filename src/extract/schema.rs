//! The facts schema: the contract every extractor's output is held to.
//!
//! The schema is generated from the Rust type [`ExtractedFacts`] (schemars),
//! then made ready for providers' strict modes: every property is required
//! (an `Option` field is already nullable, so "not stated" is an explicit
//! `null`), every object has `additionalProperties: false`, and keywords that
//! strict modes reject (`format`, `minimum`, `default`…) are removed. The
//! checked-in copy `extractors/facts.schema.json` must equal [`facts_schema`];
//! a test fails when it is stale, and another ([`super::strict_subset`])
//! that it leaves OpenAI's or Anthropic's documented strict subset. Bounds
//! the subsets cannot carry (lengths, ranges) are checked by [`validate`].
//!
//! [`validate`] is the only way a model's JSON becomes [`ExtractedFacts`]:
//! malformed output is an error naming its path, never coerced to null.
//! This module does no I/O.

use std::sync::LazyLock;

use serde_json::{Map, Value};

use super::{ExtractError, ExtractedFacts};
use crate::facts::{FieldRef, MAX_FACT_LIST_LEN, MAX_FACT_STRING_BYTES};

/// The command that regenerates the checked-in schema.
pub const REGENERATE_COMMAND: &str = "cargo run -- schema > extractors/facts.schema.json";

/// Keywords that OpenAI's or Anthropic's strict modes reject. The type
/// (`integer`) is kept; the range check that `minimum: 0` gave is done by
/// serde, which refuses a negative number for a `u64`. `pattern` is kept:
/// both accept simple patterns, and `FieldRef`'s is one
/// ([`strict_subset`](super::strict_subset) checks that).
const STRIPPED_KEYWORDS: [&str; 11] = [
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "default",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "uniqueItems",
];

/// The most validation errors reported at once; a model that got everything
/// wrong does not need a thousand lines fed back. Above the number of
/// properties (23), so an answer in another shape gets every missing
/// property and the unexpected ones named.
const MAX_REPORTED_ERRORS: usize = 32;

/// The strict-mode-ready JSON Schema (draft 2020-12) of [`ExtractedFacts`].
pub fn facts_schema() -> Value {
    let mut schema = schemars::schema_for!(ExtractedFacts).to_value();
    make_strict(&mut schema);
    schema
}

/// The schema as sent to a provider: [`facts_schema`] without the top-level
/// `$schema` and `title`, which some strict modes do not accept.
pub fn wire_schema() -> Value {
    let mut schema = facts_schema();
    if let Value::Object(map) = &mut schema {
        map.remove("$schema");
        map.remove("title");
    }
    schema
}

/// [`facts_schema`] as pretty JSON with a final newline, exactly as checked in.
pub fn facts_schema_text() -> String {
    // Serializing a `Value` cannot fail: its keys are strings.
    let mut text = serde_json::to_string_pretty(&facts_schema()).unwrap_or_default();
    text.push('\n');
    text
}

/// Rewrites one schema object and, recursively, every subschema in it.
fn make_strict(schema: &mut Value) {
    visit_subschemas(schema, &mut |map| {
        for keyword in STRIPPED_KEYWORDS {
            map.remove(keyword);
        }
        if let Some(Value::Object(properties)) = map.get("properties") {
            let names: Vec<Value> = properties.keys().cloned().map(Value::String).collect();
            map.insert("required".into(), Value::Array(names));
            map.insert("additionalProperties".into(), Value::Bool(false));
        }
    });
}

/// Adds `maxItems` to every list and `maxLength` to every free string of a
/// schema sent to a grammar-constrained local server (llama.cpp). Small
/// models otherwise repeat list entries or characters until the token limit;
/// with the bounds the grammar closes the list. Hosted strict modes may
/// reject these keywords, so they are opt-in per extractor, and local
/// validation still uses [`facts_schema`].
pub fn bound_lengths(schema: &mut Value, max_items: Option<u32>, max_string_length: Option<u32>) {
    visit_subschemas(schema, &mut |map| {
        let has_type = |name: &str| match map.get("type") {
            Some(Value::String(single)) => single == name,
            Some(Value::Array(types)) => types.iter().any(|entry| entry == name),
            _ => false,
        };
        let (is_array, is_free_string) = (has_type("array"), has_type("string") && !map.contains_key("enum"));
        if let (true, Some(limit)) = (is_array, max_items) {
            map.insert("maxItems".into(), Value::from(limit));
        }
        if let (true, Some(limit)) = (is_free_string, max_string_length) {
            map.insert("maxLength".into(), Value::from(limit));
        }
    });
}

/// Calls `visit` on one schema object and on every subschema below it, and
/// never on a `properties` map itself (its keys are field names, not
/// keywords).
fn visit_subschemas(schema: &mut Value, visit: &mut dyn FnMut(&mut Map<String, Value>)) {
    let Value::Object(map) = schema else { return };
    visit(map);
    for keyword in ["properties", "$defs", "definitions"] {
        if let Some(Value::Object(children)) = map.get_mut(keyword) {
            children.values_mut().for_each(|child| visit_subschemas(child, visit));
        }
    }
    for keyword in ["anyOf", "oneOf", "allOf", "prefixItems"] {
        if let Some(Value::Array(children)) = map.get_mut(keyword) {
            children.iter_mut().for_each(|child| visit_subschemas(child, visit));
        }
    }
    for keyword in ["items", "additionalProperties", "not"] {
        if let Some(child @ Value::Object(_)) = map.get_mut(keyword) {
            visit_subschemas(child, visit);
        }
    }
}

/// The compiled validator, built once. Building can only fail if the
/// generated schema were not valid JSON Schema, which a test rules out; the
/// error is kept rather than panicking so extraction then fails closed.
static VALIDATOR: LazyLock<Result<jsonschema::Validator, String>> =
    LazyLock::new(|| jsonschema::draft202012::new(&facts_schema()).map_err(|error| error.to_string()));

/// Validates a model's output against the facts schema, then reads it and
/// checks the facts' own rules ([`crate::facts::Facts::validate`]).
///
/// The error lists every violation (up to 20) with its JSONPath, so it can be
/// fed back to the model verbatim.
pub fn validate(value: &Value) -> Result<ExtractedFacts, ExtractError> {
    let validator = VALIDATOR
        .as_ref()
        .map_err(|error| ExtractError::Other(format!("the facts schema does not compile: {error}")))?;
    let messages: Vec<String> = validator
        .iter_errors(value)
        .take(MAX_REPORTED_ERRORS)
        .map(|error| {
            let path = json_path(&error.instance_path().to_string());
            // "not valid under any of the schemas listed in the 'anyOf'
            // keyword" does not tell a model what to write instead.
            if path.starts_with("$.soft[") || (path.starts_with("$.evidence[") && path.ends_with(".field")) {
                format!("{path}: unknown field name {}", error.instance())
            } else {
                format!("{path}: {error}")
            }
        })
        .collect();
    if !messages.is_empty() {
        return Err(ExtractError::SchemaInvalid(messages.join("; ")));
    }
    let extracted = serde_json::from_value::<ExtractedFacts>(value.clone())
        .map_err(|error| ExtractError::SchemaInvalid(format!("$: {error}")))?;
    // The rules JSON Schema cannot state (no empty strings, no quantity 0, a
    // line index that fits a `usize`, which the `soft` pattern's `[0-9]+`
    // does not bound) are checked here too, so a model gets them fed back
    // like any schema error. They do not depend on the date, so any date
    // resolves the weekday.
    if let Some(unknown) = extracted.soft.iter().find(|name| FieldRef::parse(name).is_none()) {
        return Err(ExtractError::SchemaInvalid(format!("$.soft: unknown field name {unknown:?}")));
    }
    validate_quotes(&extracted.evidence)?;
    extracted
        .clone()
        .into_facts(chrono::NaiveDate::MIN)
        .validate()
        .map_err(|error| ExtractError::SchemaInvalid(error.to_string()))?;
    Ok(extracted)
}

/// The rules of `evidence` the schema cannot state: a known field, and a
/// quote that is words, not empty and not a document.
fn validate_quotes(quotes: &[super::Quote]) -> Result<(), ExtractError> {
    if quotes.len() > MAX_FACT_LIST_LEN {
        return Err(ExtractError::SchemaInvalid(format!(
            "$.evidence: {} quotes, at most {MAX_FACT_LIST_LEN}",
            quotes.len()
        )));
    }
    for (index, quote) in quotes.iter().enumerate() {
        if FieldRef::parse(&quote.field).is_none() {
            return Err(ExtractError::SchemaInvalid(format!(
                "$.evidence[{index}].field: unknown field name {:?}",
                quote.field
            )));
        }
        if quote.quote.trim().is_empty() {
            return Err(ExtractError::SchemaInvalid(format!("$.evidence[{index}].quote: empty")));
        }
        if quote.quote.len() > MAX_FACT_STRING_BYTES {
            return Err(ExtractError::SchemaInvalid(format!(
                "$.evidence[{index}].quote: {} bytes, at most {MAX_FACT_STRING_BYTES}",
                quote.quote.len()
            )));
        }
    }
    Ok(())
}

/// Turns a JSON Pointer (`/lines/0/color`) into the JSONPath the rest of
/// the guard uses (`$.lines[0].color`); also the payment profile's
/// validation errors (`crate::pay::profile`).
pub(crate) fn json_path(pointer: &str) -> String {
    let mut path = String::from("$");
    for segment in pointer.split('/').skip(1) {
        let segment = segment.replace("~1", "/").replace("~0", "~");
        if !segment.is_empty() && segment.bytes().all(|byte| byte.is_ascii_digit()) {
            path.push_str(&format!("[{segment}]"));
        } else {
            path.push('.');
            path.push_str(&segment);
        }
    }
    path
}

/// An object with every field of [`ExtractedFacts`] present and "not stated":
/// what a strict-mode model returns for a request that states nothing.
pub fn empty_facts_value() -> Value {
    let mut map = Map::new();
    if let Value::Object(properties) = &facts_schema()["properties"] {
        for (name, property) in properties {
            let empty = match property.get("type").and_then(Value::as_str) {
                Some("array") => Value::Array(vec![]),
                Some("boolean") => Value::Bool(false),
                // A string that cannot be null says "not stated" with "".
                Some("string") => Value::String(String::new()),
                _ => Value::Null,
            };
            map.insert(name.clone(), empty);
        }
    }
    Value::Object(map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const CHECKED_IN: &str = include_str!("../../extractors/facts.schema.json");

    #[test]
    fn checked_in_schema_is_current() {
        // Until the binary is built, `ASASKED_WRITE_SCHEMA=1 cargo test --lib
        // schema` writes the file as well.
        if std::env::var_os("ASASKED_WRITE_SCHEMA").is_some() {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/extractors/facts.schema.json");
            std::fs::write(path, facts_schema_text()).unwrap();
            return;
        }
        // Compared as JSON values, so key order (serde_json's
        // `preserve_order`, which another crate may enable) does not matter.
        let checked_in: Value = serde_json::from_str(CHECKED_IN).expect("extractors/facts.schema.json is json");
        assert!(
            checked_in == facts_schema(),
            "extractors/facts.schema.json is stale: regenerate it with `{REGENERATE_COMMAND}`"
        );
    }

    fn walk<'a>(value: &'a Value, found: &mut Vec<&'a Map<String, Value>>) {
        match value {
            Value::Object(map) => {
                found.push(map);
                map.values().for_each(|child| walk(child, found));
            }
            Value::Array(items) => items.iter().for_each(|child| walk(child, found)),
            _ => {}
        }
    }

    #[test]
    fn schema_is_strict_mode_ready() {
        let schema = facts_schema();
        let mut objects = vec![];
        walk(&schema, &mut objects);
        let mut with_properties = 0;
        for object in objects {
            for keyword in ["format", "minimum", "default"] {
                // `properties` maps are named by field, never by these keywords.
                assert!(!object.contains_key(keyword), "{keyword} left in {object:?}");
            }
            if let Some(Value::Object(properties)) = object.get("properties") {
                with_properties += 1;
                let required: Vec<&str> =
                    object["required"].as_array().unwrap().iter().map(|name| name.as_str().unwrap()).collect();
                let names: Vec<&str> = properties.keys().map(String::as_str).collect();
                assert_eq!(required, names, "every property is required");
                assert_eq!(object["additionalProperties"], json!(false));
            }
        }
        assert_eq!(with_properties, 3, "ExtractedFacts, Line and Quote");
        assert_eq!(schema["properties"]["quantity"]["type"], json!(["integer", "null"]));
        assert_eq!(schema["properties"]["needs_refundable"]["type"], json!("boolean"));
    }

    #[test]
    fn a_complete_output_validates() {
        let mut value = empty_facts_value();
        value["color"] = json!("black");
        value["deadline_weekday"] = json!("friday");
        value["product"] = json!("running shoes");
        value["lines"] = json!([
            {"product": "", "model": null, "color": null, "size_label": "40", "quantity": 1},
            {"product": "belt", "model": null, "color": null, "size_label": null, "quantity": null}
        ]);
        let facts = validate(&value).unwrap();
        assert_eq!(facts.color.as_deref(), Some("black"));
        assert_eq!(facts.product.as_deref(), Some("running shoes"));
        assert_eq!(facts.lines[0].size_label.as_deref(), Some("40"));
        assert_eq!(facts.lines[0].product, None, "an empty product is not stated");
        assert_eq!(facts.lines[1].product.as_deref(), Some("belt"));
    }

    #[test]
    fn product_is_a_string_that_is_empty_when_not_stated() {
        // Not a nullable union: the schema is at Anthropic's limit of 16.
        let schema = facts_schema();
        assert_eq!(schema["properties"]["product"]["type"], json!("string"));
        assert_eq!(schema["$defs"]["Line"]["properties"]["product"]["type"], json!("string"));
        assert_eq!(empty_facts_value()["product"], json!(""));
        let nothing = validate(&empty_facts_value()).unwrap();
        assert_eq!(nothing.product, None);
        assert_eq!(nothing.clone().into_facts(chrono::NaiveDate::MIN).product, None);
        // Written back as the schema has it, so a raw output replays.
        let written = serde_json::to_value(&nothing).unwrap();
        assert_eq!(written["product"], json!(""));
        assert_eq!(validate(&written).unwrap(), nothing);
        let mut null = empty_facts_value();
        null["product"] = json!(null);
        let ExtractError::SchemaInvalid(message) = validate(&null).unwrap_err() else { panic!() };
        assert!(message.starts_with("$.product:"), "{message}");
        let mut missing = empty_facts_value();
        missing.as_object_mut().unwrap().remove("product");
        assert!(matches!(validate(&missing), Err(ExtractError::SchemaInvalid(_))), "every property is required");
    }

    #[test]
    fn errors_are_located_and_nothing_is_coerced() {
        let mut value = empty_facts_value();
        value["quantity"] = json!("two");
        value["lines"] = json!([{"product": "", "model": null, "color": 7, "size_label": null, "quantity": null}]);
        value.as_object_mut().unwrap().remove("brand");
        value["colour"] = json!("black");
        let ExtractError::SchemaInvalid(message) = validate(&value).unwrap_err() else { panic!() };
        for expected in ["$.quantity:", "$.lines[0].color:", "brand", "colour"] {
            assert!(message.contains(expected), "{expected} missing from {message}");
        }
        let mut negative = empty_facts_value();
        negative["explicit_max_cents"] = json!(-5);
        assert!(matches!(validate(&negative), Err(ExtractError::SchemaInvalid(_))));
        assert!(matches!(validate(&json!("not an object")), Err(ExtractError::SchemaInvalid(_))));
        let mut unknown_soft = empty_facts_value();
        unknown_soft["soft"] = json!(["colour"]);
        let ExtractError::SchemaInvalid(message) = validate(&unknown_soft).unwrap_err() else { panic!() };
        assert_eq!(message, "$.soft[0]: unknown field name \"colour\"");
        let mut line_field = empty_facts_value();
        line_field["soft"] = json!(["lines[1].size_label", "brand"]);
        assert!(validate(&line_field).is_ok());
        line_field["soft"] = json!(["lines[1].brand"]);
        assert!(matches!(validate(&line_field), Err(ExtractError::SchemaInvalid(_))), "brand is not a line field");
    }

    #[test]
    fn lengths_are_bounded_only_on_request() {
        let mut schema = wire_schema();
        bound_lengths(&mut schema, Some(4), Some(64));
        assert_eq!(schema["properties"]["brand_not"]["maxItems"], json!(4));
        assert_eq!(schema["properties"]["brand_not"]["items"]["maxLength"], json!(64));
        assert_eq!(schema["properties"]["brand"]["maxLength"], json!(64));
        assert_eq!(schema["$defs"]["Line"]["properties"]["color"]["maxLength"], json!(64));
        assert!(schema["$defs"]["Weekday"].get("maxLength").is_none(), "enums are bounded already");
        assert!(schema["properties"]["quantity"].get("maxLength").is_none());
        assert!(!wire_schema().to_string().contains("maxItems"));
    }

    #[test]
    fn json_pointer_becomes_json_path() {
        assert_eq!(json_path(""), "$");
        assert_eq!(json_path("/lines/2/size_label"), "$.lines[2].size_label");
    }
}
