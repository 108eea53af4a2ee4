//! The JSON Schema subsets that the hosted providers' strict modes accept,
//! as a check: [`check`] walks a schema and names every keyword or shape
//! outside one provider's documented subset.
//!
//! The facts schema is sent to both providers with `strict: true`; a schema
//! outside a subset is refused by that provider with a 400 on every check,
//! so a unit test walks `extractors/facts.schema.json` with both modes, and
//! the fake provider servers of the integration tests refuse what the real
//! ones would. This module is pure: no I/O.
//!
//! Sources, as found with the project's search index in November 2026 (the
//! providers' own sites were not fetched; `shared/ECOSYSTEM.md` summarises
//! the same pages, and the secondary sources that quote them are named):
//! - OpenAI, "Structured Outputs", section "Supported schemas"
//!   (platform.openai.com/docs/guides/structured-outputs#supported-schemas):
//!   the root is an object and not `anyOf`; every property is listed in
//!   `required` (optional fields are unions with `null`);
//!   `additionalProperties: false` on every object; supported are `anyOf`,
//!   `$defs`/`$ref` (recursion allowed), `enum`, `const`, strings with
//!   `pattern` and `format`, numbers with `minimum`/`maximum`/
//!   `exclusiveMinimum`/`exclusiveMaximum`/`multipleOf`, arrays with
//!   `minItems`/`maxItems`; not supported: `allOf`, `not`, `if`/`then`/`else`,
//!   `dependentRequired`, `dependentSchemas`, `patternProperties`; at most
//!   5000 properties, 10 levels of nesting and 1000 enum values (as
//!   summarised in ECOSYSTEM.md and the 19h gist on OpenAI-compliant
//!   schemas, which lists `minLength`/`maxLength` as unsupported). Its 400
//!   reply on `oneOf` ("'oneOf' is not permitted") and `default` ("'default'
//!   is not permitted") is quoted in community.openai.com thread 932422 and
//!   zenn.dev/nicopin.
//! - Anthropic, "Structured outputs", section "JSON Schema limitations"
//!   (platform.claude.com/docs/en/build-with-claude/structured-outputs,
//!   through the hex.pm LangSchema Anthropic converter and the cskiro
//!   "schema-limitations" reference that quote it), which covers strict
//!   tool use (`tools[].strict`) as well: supported are
//!   the basic types, `enum` of primitives, `const`, `anyOf`, `allOf`
//!   (without `$ref`), local `$ref`/`$defs`/`definitions`, `required`,
//!   `additionalProperties: false` (mandatory), the formats listed in
//!   [`ANTHROPIC_FORMATS`], simple `pattern`s (no backreferences,
//!   lookaround or word boundaries) and `minItems` of 0 or 1; not supported:
//!   recursive schemas, `minimum`/`maximum`/`multipleOf`,
//!   `minLength`/`maxLength`, other array bounds, external `$ref`. The
//!   page's per-request limits (at most 16 parameters with `anyOf` or a
//!   type array, at most 24 optional parameters, across all strict schemas)
//!   are as summarised by the hex.pm LangSchema converter, whose reference
//!   is that page.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde_json::{Map, Value};

/// Whose strict mode a schema is checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StrictMode {
    /// OpenAI Structured Outputs (`response_format.json_schema.strict`).
    OpenAi,
    /// Anthropic structured outputs and strict tool use (`tools[].strict`).
    Anthropic,
}

impl fmt::Display for StrictMode {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(match self {
            StrictMode::OpenAi => "openai",
            StrictMode::Anthropic => "anthropic",
        })
    }
}

/// One place where a schema leaves a strict subset.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct Violation {
    /// Where, as a path into the schema (`$.properties.soft.items`).
    pub path: String,
    pub message: String,
}

/// Annotations, allowed anywhere by both.
const ANNOTATIONS: [&str; 2] = ["description", "title"];
/// Structure keywords both accept.
const COMMON: [&str; 10] =
    ["type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "$ref", "$defs"];
const OPENAI_EXTRA: [&str; 10] = [
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "definitions",
];
const ANTHROPIC_EXTRA: [&str; 5] = ["pattern", "format", "minItems", "allOf", "definitions"];

/// The string formats OpenAI lists.
pub const OPENAI_FORMATS: [&str; 9] =
    ["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"];
/// The string formats Anthropic lists.
pub const ANTHROPIC_FORMATS: [&str; 10] =
    ["date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"];

const TYPES: [&str; 7] = ["object", "array", "string", "number", "integer", "boolean", "null"];

const OPENAI_MAX_PROPERTIES: usize = 5000;
const OPENAI_MAX_DEPTH: usize = 10;
const OPENAI_MAX_ENUM_VALUES: usize = 1000;
const ANTHROPIC_MAX_UNION_PARAMETERS: usize = 16;
const ANTHROPIC_MAX_OPTIONAL_PARAMETERS: usize = 24;

/// Every violation of `mode`'s subset in `schema`, in walk order; empty if
/// the schema is inside it. `$schema` is accepted at the root only (the
/// checked-in file carries it; [`super::schema::wire_schema`] removes it).
pub fn check(schema: &Value, mode: StrictMode) -> Vec<Violation> {
    let mut walker = Walker { mode, root: schema, violations: vec![], counts: Counts::default() };
    match schema {
        Value::Object(map) => {
            if map.get("type") != Some(&Value::String("object".into())) {
                walker.violation("$", "the root must be a schema of type object");
            }
            if map.contains_key("anyOf") {
                walker.violation("$", "the root must not be anyOf");
            }
            walker.visit(schema, "$", true);
        }
        _ => walker.violation("$", "the root must be a JSON object"),
    }
    walker.limits();
    walker.violations
}

#[derive(Default)]
struct Counts {
    properties: usize,
    enum_values: usize,
    /// Subschemas holding `anyOf` or a type array.
    unions: usize,
    /// Properties missing from `required`.
    optional: usize,
}

struct Walker<'a> {
    mode: StrictMode,
    root: &'a Value,
    violations: Vec<Violation>,
    counts: Counts,
}

impl Walker<'_> {
    fn violation(&mut self, path: &str, message: impl Into<String>) {
        self.violations.push(Violation { path: path.to_owned(), message: message.into() });
    }

    fn allowed(&self, keyword: &str) -> bool {
        let extra: &[&str] = match self.mode {
            StrictMode::OpenAi => &OPENAI_EXTRA,
            StrictMode::Anthropic => &ANTHROPIC_EXTRA,
        };
        ANNOTATIONS.contains(&keyword) || COMMON.contains(&keyword) || extra.contains(&keyword)
    }

    fn visit(&mut self, schema: &Value, path: &str, is_root: bool) {
        let Value::Object(map) = schema else {
            // `true`/`false` schemas say nothing a decoder can use.
            self.violation(path, "a subschema must be an object");
            return;
        };
        for keyword in map.keys() {
            if !(self.allowed(keyword) || (is_root && keyword == "$schema")) {
                self.violation(path, format!("keyword {keyword:?} is outside the {} strict subset", self.mode));
            }
        }
        self.check_type(map, path);
        self.check_object(map, path);
        self.check_values(map, path);
        self.children(map, path);
    }

    fn check_type(&mut self, map: &Map<String, Value>, path: &str) {
        match map.get("type") {
            None | Some(Value::String(_)) => {}
            Some(Value::Array(types)) if types.len() > 1 => self.counts.unions += 1,
            Some(Value::Array(_)) => {}
            Some(_) => self.violation(path, "type must be a string or a list of strings"),
        }
        let types: Vec<&Value> = match map.get("type") {
            Some(Value::Array(types)) => types.iter().collect(),
            Some(single) => vec![single],
            None => vec![],
        };
        for name in types {
            if !name.as_str().is_some_and(|name| TYPES.contains(&name)) {
                self.violation(path, format!("unknown type {name}"));
            }
        }
        if map.contains_key("anyOf") {
            self.counts.unions += 1;
        }
    }

    /// Objects: every property required, no other properties.
    fn check_object(&mut self, map: &Map<String, Value>, path: &str) {
        let is_object = map.get("type").is_some_and(|kind| match kind {
            Value::String(single) => single == "object",
            Value::Array(types) => types.iter().any(|entry| entry == "object"),
            _ => false,
        });
        if !(is_object || map.contains_key("properties")) {
            return;
        }
        if map.get("additionalProperties") != Some(&Value::Bool(false)) {
            self.violation(path, "an object needs additionalProperties: false");
        }
        let Some(Value::Object(properties)) = map.get("properties") else {
            self.violation(path, "an object needs properties");
            return;
        };
        self.counts.properties += properties.len();
        let required: BTreeSet<&str> = match map.get("required") {
            Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
            _ => BTreeSet::new(),
        };
        for name in properties.keys() {
            if !required.contains(name.as_str()) {
                self.counts.optional += 1;
                if self.mode == StrictMode::OpenAi {
                    self.violation(path, format!("property {name:?} is not in required (use a union with null)"));
                }
            }
        }
        for name in &required {
            if !properties.contains_key(*name) {
                self.violation(path, format!("required names {name:?}, which is not a property"));
            }
        }
    }

    /// Keyword values: enums of primitives, local references, formats,
    /// simple patterns, Anthropic's array bounds.
    fn check_values(&mut self, map: &Map<String, Value>, path: &str) {
        if let Some(values) = map.get("enum") {
            match values {
                Value::Array(values) => {
                    self.counts.enum_values += values.len();
                    if values.iter().any(|value| matches!(value, Value::Array(_) | Value::Object(_))) {
                        self.violation(path, "enum values must be strings, numbers, booleans or null");
                    }
                }
                _ => self.violation(path, "enum must be a list"),
            }
        }
        if let Some(reference) = map.get("$ref") {
            match reference.as_str() {
                Some(target) if resolve(self.root, target).is_some() => {}
                Some(target) => self.violation(path, format!("$ref {target:?} is not a local definition")),
                None => self.violation(path, "$ref must be a string"),
            }
        }
        if let Some(format) = map.get("format") {
            let known: &[&str] = match self.mode {
                StrictMode::OpenAi => &OPENAI_FORMATS,
                StrictMode::Anthropic => &ANTHROPIC_FORMATS,
            };
            if !format.as_str().is_some_and(|format| known.contains(&format)) {
                self.violation(path, format!("format {format} is not supported"));
            }
        }
        if let Some(pattern) = map.get("pattern") {
            match pattern.as_str() {
                Some(pattern) if self.mode == StrictMode::Anthropic => {
                    if let Some(construct) = complex_regex(pattern) {
                        self.violation(path, format!("pattern uses {construct}, which is not a simple pattern"));
                    }
                }
                Some(_) => {}
                None => self.violation(path, "pattern must be a string"),
            }
        }
        if self.mode == StrictMode::Anthropic
            && let Some(minimum) = map.get("minItems")
            && !(minimum == 0 || minimum == 1)
        {
            self.violation(path, format!("minItems {minimum}: only 0 or 1 are supported"));
        }
        if self.mode == StrictMode::Anthropic
            && let Some(Value::Array(parts)) = map.get("allOf")
            && parts.iter().any(|part| part.get("$ref").is_some())
        {
            self.violation(path, "allOf with $ref is not supported");
        }
    }

    fn children(&mut self, map: &Map<String, Value>, path: &str) {
        for keyword in ["properties", "$defs", "definitions"] {
            if let Some(Value::Object(children)) = map.get(keyword) {
                for (name, child) in children {
                    self.visit(child, &format!("{path}.{keyword}.{name}"), false);
                }
            }
        }
        for keyword in ["anyOf", "allOf"] {
            if let Some(Value::Array(children)) = map.get(keyword) {
                for (index, child) in children.iter().enumerate() {
                    self.visit(child, &format!("{path}.{keyword}[{index}]"), false);
                }
            }
        }
        if let Some(items) = map.get("items") {
            self.visit(items, &format!("{path}.items"), false);
        }
    }

    /// Whole-schema limits, after the walk.
    fn limits(&mut self) {
        match self.mode {
            StrictMode::OpenAi => {
                if self.counts.properties > OPENAI_MAX_PROPERTIES {
                    self.violation(
                        "$",
                        format!("{} properties, above {OPENAI_MAX_PROPERTIES}", self.counts.properties),
                    );
                }
                if self.counts.enum_values > OPENAI_MAX_ENUM_VALUES {
                    let count = self.counts.enum_values;
                    self.violation("$", format!("{count} enum values, above {OPENAI_MAX_ENUM_VALUES}"));
                }
                let depth = nesting(self.root, self.root, &mut vec![]);
                if depth > OPENAI_MAX_DEPTH {
                    self.violation("$", format!("{depth} levels of nesting, above {OPENAI_MAX_DEPTH}"));
                }
            }
            StrictMode::Anthropic => {
                if let Some(cycle) = recursion(self.root) {
                    self.violation("$", format!("recursive schema: {cycle}"));
                }
                if self.counts.unions > ANTHROPIC_MAX_UNION_PARAMETERS {
                    let count = self.counts.unions;
                    self.violation(
                        "$",
                        format!(
                            "{count} parameters with anyOf or a type array, above {ANTHROPIC_MAX_UNION_PARAMETERS}"
                        ),
                    );
                }
                if self.counts.optional > ANTHROPIC_MAX_OPTIONAL_PARAMETERS {
                    let count = self.counts.optional;
                    self.violation(
                        "$",
                        format!("{count} optional parameters, above {ANTHROPIC_MAX_OPTIONAL_PARAMETERS}"),
                    );
                }
            }
        }
    }
}

/// The first regular-expression construct outside the simple subset:
/// backreferences, lookaround and word boundaries.
fn complex_regex(pattern: &str) -> Option<&'static str> {
    const CONSTRUCTS: [(&str, &str); 7] = [
        ("(?=", "a lookahead"),
        ("(?!", "a negative lookahead"),
        ("(?<=", "a lookbehind"),
        ("(?<!", "a negative lookbehind"),
        ("\\k<", "a named backreference"),
        ("\\b", "a word boundary"),
        ("\\B", "a word boundary"),
    ];
    if let Some((_, name)) = CONSTRUCTS.iter().find(|(text, _)| pattern.contains(text)) {
        return Some(name);
    }
    let bytes = pattern.as_bytes();
    bytes
        .windows(2)
        .any(|pair| pair[0] == b'\\' && pair[1].is_ascii_digit() && pair[1] != b'0')
        .then_some("a backreference")
}

/// The subschema a local `$ref` (`#`, `#/$defs/NAME`) points at.
fn resolve<'a>(root: &'a Value, target: &str) -> Option<&'a Value> {
    let pointer = target.strip_prefix('#')?;
    root.pointer(pointer)
}

/// Every `$ref` target below `schema`, without following them.
fn references(schema: &Value, found: &mut BTreeSet<String>) {
    match schema {
        Value::Object(map) => {
            for (key, value) in map {
                match (key.as_str(), value) {
                    ("$ref", Value::String(target)) => {
                        found.insert(target.clone());
                    }
                    // Definitions are reached through references only.
                    ("$defs" | "definitions", _) => {}
                    _ => references(value, found),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| references(item, found)),
        _ => {}
    }
}

/// A reference cycle reachable from the root, as `#/$defs/A → #/$defs/B → …`.
fn recursion(root: &Value) -> Option<String> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut pending = vec!["#".to_owned()];
    while let Some(target) = pending.pop() {
        if graph.contains_key(&target) {
            continue;
        }
        let mut found = BTreeSet::new();
        if let Some(schema) = resolve(root, &target) {
            references(schema, &mut found);
        }
        pending.extend(found.iter().cloned());
        graph.insert(target, found);
    }
    fn visit(node: &str, graph: &BTreeMap<String, BTreeSet<String>>, stack: &mut Vec<String>) -> Option<String> {
        if let Some(start) = stack.iter().position(|entry| entry == node) {
            let mut cycle = stack[start..].to_vec();
            cycle.push(node.to_owned());
            return Some(cycle.join(" → "));
        }
        stack.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, stack) {
                return Some(cycle);
            }
        }
        stack.pop();
        None
    }
    visit("#", &graph, &mut vec![])
}

/// The deepest chain of object properties, following references (a
/// reference already on the chain, recursion, adds nothing more).
fn nesting(schema: &Value, root: &Value, chain: &mut Vec<String>) -> usize {
    let Value::Object(map) = schema else { return 0 };
    let mut deepest = 0;
    if let Some(Value::Object(properties)) = map.get("properties") {
        for child in properties.values() {
            deepest = deepest.max(1 + nesting(child, root, chain));
        }
    }
    for keyword in ["anyOf", "allOf"] {
        if let Some(Value::Array(children)) = map.get(keyword) {
            for child in children {
                deepest = deepest.max(nesting(child, root, chain));
            }
        }
    }
    if let Some(items) = map.get("items") {
        deepest = deepest.max(nesting(items, root, chain));
    }
    if let Some(Value::String(target)) = map.get("$ref")
        && !chain.contains(target)
        && let Some(definition) = resolve(root, target)
    {
        chain.push(target.clone());
        deepest = deepest.max(nesting(definition, root, chain));
        chain.pop();
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::schema::{bound_lengths, wire_schema};
    use serde_json::json;

    const CHECKED_IN: &str = include_str!("../../extractors/facts.schema.json");
    const BOTH: [StrictMode; 2] = [StrictMode::OpenAi, StrictMode::Anthropic];

    fn messages(schema: &Value, mode: StrictMode) -> Vec<String> {
        check(schema, mode).iter().map(Violation::to_string).collect()
    }

    #[test]
    fn the_checked_in_schema_is_inside_both_strict_subsets() {
        let checked_in: Value = serde_json::from_str(CHECKED_IN).expect("extractors/facts.schema.json is json");
        for mode in BOTH {
            assert_eq!(messages(&checked_in, mode), Vec::<String>::new(), "{mode}: extractors/facts.schema.json");
            assert_eq!(messages(&wire_schema(), mode), Vec::<String>::new(), "{mode}: the schema sent");
        }
    }

    /// A small schema inside both subsets, to break one rule at a time.
    fn minimal() -> Value {
        json!({
            "type": "object",
            "properties": {
                "name": { "type": ["string", "null"] },
                "tags": { "type": "array", "items": { "type": "string", "enum": ["a", "b"] } },
            },
            "required": ["name", "tags"],
            "additionalProperties": false,
        })
    }

    #[test]
    fn the_walker_rejects_what_each_provider_rejects() {
        for mode in BOTH {
            assert!(check(&minimal(), mode).is_empty(), "{mode}");
        }
        // (change, rejected by OpenAI, rejected by Anthropic)
        type Change = Box<dyn Fn(&mut Value)>;
        let cases: Vec<(&str, Change, bool, bool)> = vec![
            ("minimum", Box::new(|schema| schema["properties"]["name"]["minimum"] = json!(0)), false, true),
            ("maxLength", Box::new(|schema| schema["properties"]["name"]["maxLength"] = json!(8)), true, true),
            ("minItems 2", Box::new(|schema| schema["properties"]["tags"]["minItems"] = json!(2)), false, true),
            ("minItems 1", Box::new(|schema| schema["properties"]["tags"]["minItems"] = json!(1)), false, false),
            (
                "allOf",
                Box::new(|schema| schema["properties"]["name"]["allOf"] = json!([{"type": "string"}])),
                true,
                false,
            ),
            ("not", Box::new(|schema| schema["properties"]["name"]["not"] = json!({"type": "null"})), true, true),
            ("if", Box::new(|schema| schema["if"] = json!({"required": ["name"]})), true, true),
            ("oneOf", Box::new(|schema| schema["properties"]["name"]["oneOf"] = json!([])), true, true),
            ("default", Box::new(|schema| schema["properties"]["name"]["default"] = json!(null)), true, true),
            ("an optional property", Box::new(|schema| schema["required"] = json!(["tags"])), true, false),
            (
                "open object",
                Box::new(|schema| schema.as_object_mut().unwrap().remove("additionalProperties").map(drop).unwrap()),
                true,
                true,
            ),
            ("lookahead", Box::new(|schema| schema["properties"]["name"]["pattern"] = json!("^(?=a)a+$")), false, true),
            (
                "backreference",
                Box::new(|schema| schema["properties"]["name"]["pattern"] = json!("^(a)\\1$")),
                false,
                true,
            ),
            ("root anyOf", Box::new(|schema| schema["anyOf"] = json!([{"type": "object"}])), true, true),
            (
                "external $ref",
                Box::new(|schema| schema["properties"]["name"] = json!({"$ref": "https://x/y.json"})),
                true,
                true,
            ),
            (
                "recursion",
                Box::new(|schema| {
                    schema["$defs"] = json!({"Node": {
                        "type": "object",
                        "properties": { "next": { "anyOf": [{ "$ref": "#/$defs/Node" }, { "type": "null" }] } },
                        "required": ["next"],
                        "additionalProperties": false,
                    }});
                    schema["properties"]["name"] = json!({ "$ref": "#/$defs/Node" });
                }),
                false,
                true,
            ),
        ];
        for (name, change, openai, anthropic) in cases {
            let mut schema = minimal();
            change(&mut schema);
            for (mode, rejected) in [(StrictMode::OpenAi, openai), (StrictMode::Anthropic, anthropic)] {
                let found = messages(&schema, mode);
                assert_eq!(!found.is_empty(), rejected, "{name} under {mode}: {found:?}");
            }
        }
    }

    #[test]
    fn violations_name_the_place_and_the_keyword() {
        let mut schema = minimal();
        schema["properties"]["tags"]["items"]["maxLength"] = json!(3);
        assert_eq!(
            messages(&schema, StrictMode::Anthropic),
            ["$.properties.tags.items: keyword \"maxLength\" is outside the anthropic strict subset"]
        );
    }

    #[test]
    fn anthropic_limits_unions_across_the_schema() {
        let mut schema = minimal();
        for index in 0..17 {
            schema["properties"][format!("field{index}")] = json!({ "type": ["integer", "null"] });
            schema["required"].as_array_mut().unwrap().push(json!(format!("field{index}")));
        }
        assert!(check(&schema, StrictMode::OpenAi).is_empty());
        let found = messages(&schema, StrictMode::Anthropic);
        assert_eq!(found, ["$: 18 parameters with anyOf or a type array, above 16"]);
    }

    #[test]
    fn length_bounds_for_local_servers_leave_the_hosted_subsets() {
        // They are opt-in per extractor for that reason (schema::bound_lengths).
        let mut schema = wire_schema();
        bound_lengths(&mut schema, Some(4), Some(64));
        for mode in BOTH {
            assert!(!check(&schema, mode).is_empty(), "{mode}");
        }
    }
}
