//! A publisher's Agentic Action Profile (`agentic.json`, §2–§4) and the
//! OpenAPI 3.1 document its action points to, fetched, validated and bound
//! into the three URLs and the evidence rules the wrapper follows.
//!
//! The profile is validated against the profile's own JSON Schema, pinned
//! here (`schemas/agentic-0.1.schema.json`: a client must never fetch the
//! schema a publisher names, §2), then against the binding rules the schema
//! cannot state: the profile's origin is the origin it was fetched from (a
//! profile grants itself no authority over another origin), its operations
//! resolve exactly once, submit is a POST with a required `Idempotency-Key`
//! header and a JSON body, status and verify are GETs with one inline path
//! parameter each, named as the bindings say, and no path or server
//! override points anywhere else. Every refusal names its JSONPath.
//!
//! The snapshot (profile and OpenAPI document, as fetched) is what a payment
//! request is bound to: its digest is saved with the request before
//! anything is sent, and a later fetch that digests otherwise is a changed
//! profile, which the wrapper refuses (§2: "a running request must remain
//! bound to its saved profile and OpenAPI snapshot").

use std::sync::LazyLock;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::transport::{DOCUMENT_TIMEOUT, MAX_ANSWER_BYTES, MAX_OPENAPI_BYTES, Transport, TransportError};
use crate::digest;

/// The profile's JSON Schema (Apache-2.0, see `schemas/README.md`).
pub const PROFILE_SCHEMA: &str = include_str!("schemas/agentic-0.1.schema.json");
/// The receipt's JSON Schema (Apache-2.0, see `schemas/README.md`).
pub const RECEIPT_SCHEMA: &str = include_str!("schemas/receipt-0.1.schema.json");
/// The only profile version this client speaks.
pub const VERSION: &str = "0.1.0-draft";

/// The most schema violations one refusal lists.
const MAX_REPORTED_ERRORS: usize = 20;

/// The compiled profile schema. It is a pinned constant a test compiles, so
/// the error is kept only so that a broken build refuses every profile
/// rather than panicking.
static PROFILE_VALIDATOR: LazyLock<Result<jsonschema::Validator, String>> = LazyLock::new(|| {
    serde_json::from_str::<Value>(PROFILE_SCHEMA)
        .map_err(|error| error.to_string())
        .and_then(|schema| jsonschema::draft202012::new(&schema).map_err(|error| error.to_string()))
});

/// Why a profile cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    #[error("profile {url}: {message}")]
    Url { url: String, message: String },
    #[error("{url}: {source}")]
    Fetch { url: String, source: TransportError },
    #[error("{url}: {message}")]
    Invalid { url: String, message: String },
}

/// The profile and the OpenAPI document of one action, as fetched.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// Where the profile was fetched from.
    pub profile_url: String,
    pub profile: Value,
    pub openapi: Value,
}

/// The evidence rules of an action (§3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Evidence {
    pub resource_id_pointer: String,
    pub request_id_pointer: String,
    pub state_pointer: String,
    pub success_values: Vec<String>,
    pub input_bindings: Vec<InputBinding>,
}

/// One input value the resource must carry unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct InputBinding {
    pub input_pointer: String,
    pub resource_pointer: String,
}

/// The recovery bounds of an action (§3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Recovery {
    pub max_checks: u32,
    pub check_delay_ms: u64,
    pub timeout_ms: u64,
}

impl Recovery {
    pub fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms)
    }
}

/// A path with one `{parameter}`, as a URL to fill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    before: String,
    after: String,
}

impl Template {
    /// The URL with `value` percent-encoded in the parameter's place (§4).
    pub fn url(&self, value: &str) -> String {
        format!("{}{}{}", self.before, percent_encode(value), self.after)
    }
}

/// An action of a validated profile, bound to its OpenAPI operations.
#[derive(Debug, Clone, PartialEq)]
pub struct Action {
    pub origin: String,
    pub id: String,
    pub submit_url: String,
    pub status: Template,
    pub verify: Template,
    pub retention_seconds: u64,
    pub evidence: Evidence,
    pub recovery: Recovery,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ProfileDocument {
    origin: String,
    actions: Vec<ActionDocument>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ActionDocument {
    id: String,
    openapi: String,
    submit: String,
    status: String,
    verify: String,
    request: RequestDocument,
    bindings: Bindings,
    evidence: Evidence,
    recovery: Recovery,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RequestDocument {
    retention_seconds: u64,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Bindings {
    status_request_id: String,
    verify_resource_id: String,
}

impl Snapshot {
    /// Fetches the profile at `profile_url` and the OpenAPI document of its
    /// action `action_id`, and validates both (see [`Snapshot::action`]).
    pub async fn fetch(transport: &Transport, profile_url: &str, action_id: &str) -> Result<Snapshot, ProfileError> {
        let origin = origin_of(profile_url)?;
        let profile = fetch_document(transport, profile_url, MAX_ANSWER_BYTES).await?;
        let (document, action) = parse(profile_url, &profile, action_id)?;
        if document.origin != origin {
            return Err(invalid(
                profile_url,
                format!("$.origin: {:?} is not the origin the profile was fetched from ({origin})", document.origin),
            ));
        }
        let openapi_url = format!("{origin}{}", action.openapi);
        let openapi = fetch_document(transport, &openapi_url, MAX_OPENAPI_BYTES).await?;
        let snapshot = Snapshot { profile_url: profile_url.to_owned(), profile, openapi };
        snapshot.action(action_id)?;
        Ok(snapshot)
    }

    /// The digest a request is bound to: the profile and the OpenAPI
    /// document, canonically.
    pub fn digest(&self) -> String {
        digest::of_value(&json!({"profile": self.profile, "openapi": self.openapi}))
    }

    /// The action `action_id`, validated and bound to its operations.
    pub fn action(&self, action_id: &str) -> Result<Action, ProfileError> {
        let url = self.profile_url.as_str();
        let (document, action) = parse(url, &self.profile, action_id)?;
        let openapi_url = format!("{}{}", document.origin, action.openapi);
        let operations = Operations::of(&openapi_url, &self.openapi)?;
        let names = [&action.submit, &action.status, &action.verify];
        if names[0] == names[1] || names[0] == names[2] || names[1] == names[2] {
            return Err(invalid(url, "$.actions: submit, status and verify must be three distinct operations"));
        }
        let submit = operations.find(&action.submit, "post")?;
        if submit.path.contains('{') {
            return Err(invalid(&openapi_url, format!("{}: submit takes no path parameter", submit.at)));
        }
        submit.require_idempotency_key()?;
        submit.require_json_body()?;
        let status = operations.find(&action.status, "get")?;
        let verify = operations.find(&action.verify, "get")?;
        Ok(Action {
            submit_url: format!("{}{}", document.origin, submit.path),
            status: status.template(&document.origin, &action.bindings.status_request_id)?,
            verify: verify.template(&document.origin, &action.bindings.verify_resource_id)?,
            origin: document.origin,
            id: action.id,
            retention_seconds: action.request.retention_seconds,
            evidence: action.evidence,
            recovery: action.recovery,
        })
    }
}

/// The profile validated against the pinned schema, and the action asked for.
fn parse(url: &str, profile: &Value, action_id: &str) -> Result<(ProfileDocument, ActionDocument), ProfileError> {
    let validator = PROFILE_VALIDATOR
        .as_ref()
        .map_err(|error| invalid(url, format!("the pinned profile schema does not compile: {error}")))?;
    let violations: Vec<String> = validator
        .iter_errors(profile)
        .take(MAX_REPORTED_ERRORS)
        .map(|error| format!("{}: {error}", crate::extract::schema::json_path(&error.instance_path().to_string())))
        .collect();
    if !violations.is_empty() {
        return Err(invalid(url, format!("not a valid Agentic Action Profile {VERSION}: {}", violations.join("; "))));
    }
    let mut document: ProfileDocument =
        serde_json::from_value(profile.clone()).map_err(|error| invalid(url, format!("$: {error}")))?;
    let known: Vec<String> = document.actions.iter().map(|action| action.id.clone()).collect();
    let mut unique = known.clone();
    unique.sort();
    unique.dedup();
    if unique.len() != known.len() {
        return Err(invalid(url, "$.actions: two actions share an id"));
    }
    let Some(position) = document.actions.iter().position(|action| action.id == action_id) else {
        return Err(invalid(url, format!("$.actions: no action {action_id:?} (the profile has {})", known.join(", "))));
    };
    let action = document.actions.swap_remove(position);
    let index = known.iter().position(|id| id == action_id).unwrap_or(position);
    if !plain_path(&action.openapi) {
        return Err(invalid(
            url,
            format!("$.actions[{index}].openapi: {:?} is not a plain root-relative path", action.openapi),
        ));
    }
    for (name, pointer) in [
        ("resourceIdPointer", &action.evidence.resource_id_pointer),
        ("requestIdPointer", &action.evidence.request_id_pointer),
        ("statePointer", &action.evidence.state_pointer),
    ] {
        if pointer.is_empty() {
            return Err(invalid(url, format!("$.actions[{index}].evidence.{name}: empty")));
        }
    }
    Ok((document, action))
}

/// The canonical origin of a profile URL: `https://host[:port]`, or `http`
/// for local development on `localhost`, `127.0.0.1` or `[::1]` (§2); no
/// credentials, query or fragment.
pub fn origin_of(profile_url: &str) -> Result<String, ProfileError> {
    let refuse = |message: &str| ProfileError::Url { url: profile_url.to_owned(), message: message.to_owned() };
    let parsed = reqwest::Url::parse(profile_url).map_err(|error| refuse(&error.to_string()))?;
    let local = matches!(parsed.host_str(), Some("localhost" | "127.0.0.1" | "[::1]"));
    match parsed.scheme() {
        "https" => {}
        "http" if local => {}
        "http" => return Err(refuse("http is allowed only on localhost, 127.0.0.1 or [::1]; use https")),
        _ => return Err(refuse("not an https URL")),
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(refuse("a URL with credentials is refused"));
    }
    if parsed.query().is_some() || parsed.fragment().is_some() {
        return Err(refuse("a URL with a query or fragment is refused"));
    }
    Ok(parsed.origin().ascii_serialization())
}

async fn fetch_document(transport: &Transport, url: &str, max_bytes: usize) -> Result<Value, ProfileError> {
    let answer = transport
        .get(url, DOCUMENT_TIMEOUT, max_bytes)
        .await
        .map_err(|source| ProfileError::Fetch { url: url.to_owned(), source })?;
    if answer.status != 200 {
        return Err(ProfileError::Fetch { url: url.to_owned(), source: TransportError::Status(answer.status) });
    }
    if !answer.body.is_object() {
        return Err(invalid(url, "$: not a JSON object"));
    }
    Ok(answer.body)
}

/// The operations of an OpenAPI document, by operation id.
struct Operations<'a> {
    url: &'a str,
    found: Vec<Operation<'a>>,
}

/// One operation and where it is.
struct Operation<'a> {
    url: &'a str,
    /// Its JSONPath in the document.
    at: String,
    id: &'a str,
    method: &'static str,
    path: &'a str,
    object: &'a serde_json::Map<String, Value>,
    /// Whether its path item sets parameters or servers of its own.
    path_overrides: bool,
}

const METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

impl<'a> Operations<'a> {
    fn of(url: &'a str, document: &'a Value) -> Result<Operations<'a>, ProfileError> {
        let version = document.get("openapi").and_then(Value::as_str).unwrap_or_default();
        if !version.starts_with("3.1.") {
            return Err(invalid(url, format!("$.openapi: {version:?} is not OpenAPI 3.1")));
        }
        if document.get("servers").is_some() {
            return Err(invalid(url, "$.servers: server overrides are not supported (the profile's origin is)"));
        }
        let Some(paths) = document.get("paths").and_then(Value::as_object) else {
            return Err(invalid(url, "$.paths: missing"));
        };
        let mut found = Vec::new();
        for (path, item) in paths {
            let Some(item) = item.as_object() else { continue };
            let path_overrides = item.contains_key("parameters") || item.contains_key("servers");
            for method in METHODS {
                let Some(object) = item.get(method).and_then(Value::as_object) else { continue };
                let Some(id) = object.get("operationId").and_then(Value::as_str) else { continue };
                let at = format!("$.paths[{path:?}].{method}");
                found.push(Operation { url, at, id, method, path, object, path_overrides });
            }
        }
        Ok(Operations { url, found })
    }

    /// The operation `id`, which must be unique and use `method`.
    fn find(&self, id: &str, method: &str) -> Result<&Operation<'a>, ProfileError> {
        let mut matching = self.found.iter().filter(|operation| operation.id == id);
        let Some(operation) = matching.next() else {
            return Err(invalid(self.url, format!("$.paths: no operation {id:?}")));
        };
        if matching.next().is_some() {
            return Err(invalid(self.url, format!("$.paths: operation {id:?} is defined more than once")));
        }
        if operation.method != method {
            return Err(invalid(
                self.url,
                format!("{}: operation {id:?} must be a {}", operation.at, method.to_uppercase()),
            ));
        }
        if !plain_path(operation.path.replace(['{', '}'], "").as_str()) {
            return Err(invalid(
                self.url,
                format!("{}: {:?} is not a plain root-relative path", operation.at, operation.path),
            ));
        }
        if operation.path_overrides {
            return Err(invalid(
                self.url,
                format!("$.paths[{:?}]: path-level parameters and servers are not supported", operation.path),
            ));
        }
        if operation.object.contains_key("servers") {
            return Err(invalid(self.url, format!("{}.servers: server overrides are not supported", operation.at)));
        }
        Ok(operation)
    }
}

impl Operation<'_> {
    /// The inline parameters (a `$ref` is unsupported, §4).
    fn parameters(&self) -> Result<Vec<&serde_json::Map<String, Value>>, ProfileError> {
        let Some(list) = self.object.get("parameters") else { return Ok(Vec::new()) };
        let Some(list) = list.as_array() else {
            return Err(invalid(self.url, format!("{}.parameters: not a list", self.at)));
        };
        list.iter()
            .enumerate()
            .map(|(index, parameter)| match parameter.as_object() {
                Some(object) if !object.contains_key("$ref") => Ok(object),
                _ => Err(invalid(
                    self.url,
                    format!("{}.parameters[{index}]: only inline parameters are supported", self.at),
                )),
            })
            .collect()
    }

    fn require_idempotency_key(&self) -> Result<(), ProfileError> {
        let parameters = self.parameters()?;
        let key = parameters.iter().find(|parameter| {
            parameter.get("in").and_then(Value::as_str) == Some("header")
                && parameter
                    .get("name")
                    .and_then(Value::as_str)
                    .is_some_and(|name| name.eq_ignore_ascii_case("Idempotency-Key"))
        });
        match key {
            Some(parameter) if parameter.get("required") == Some(&Value::Bool(true)) => {}
            _ => {
                return Err(invalid(
                    self.url,
                    format!("{}.parameters: a required Idempotency-Key header is missing", self.at),
                ));
            }
        }
        if parameters.iter().any(|parameter| parameter.get("in").and_then(Value::as_str) == Some("path")) {
            return Err(invalid(self.url, format!("{}.parameters: submit takes no path parameter", self.at)));
        }
        Ok(())
    }

    fn require_json_body(&self) -> Result<(), ProfileError> {
        let json_body = self
            .object
            .get("requestBody")
            .and_then(|body| body.get("content"))
            .and_then(|content| content.get("application/json"))
            .is_some();
        if !json_body {
            return Err(invalid(self.url, format!("{}.requestBody: an application/json body is required", self.at)));
        }
        Ok(())
    }

    /// The URL template of a read with exactly one path parameter, `name`.
    fn template(&self, origin: &str, name: &str) -> Result<Template, ProfileError> {
        let placeholder = format!("{{{name}}}");
        let (Some(start), 1, 1) =
            (self.path.find(&placeholder), self.path.matches('{').count(), self.path.matches('}').count())
        else {
            return Err(invalid(
                self.url,
                format!("{}: the path must have exactly one placeholder, {placeholder}", self.at),
            ));
        };
        let declared = self.parameters()?.iter().any(|parameter| {
            parameter.get("in").and_then(Value::as_str) == Some("path")
                && parameter.get("name").and_then(Value::as_str) == Some(name)
                && parameter.get("required") == Some(&Value::Bool(true))
        });
        if !declared {
            return Err(invalid(self.url, format!("{}.parameters: no required path parameter {name:?}", self.at)));
        }
        Ok(Template {
            before: format!("{origin}{}", &self.path[..start]),
            after: self.path[start + placeholder.len()..].to_owned(),
        })
    }
}

/// A root-relative path without traversal, escapes, query, fragment,
/// backslash or network-path reference (§2).
fn plain_path(path: &str) -> bool {
    path.starts_with('/')
        && !path.starts_with("//")
        && !path.contains(['\\', '?', '#', '%'])
        && !path.split('/').any(|segment| segment == "." || segment == "..")
        && path.bytes().all(|byte| byte.is_ascii_graphic())
}

/// Percent-encodes all but the unreserved characters (RFC 3986 §2.3).
fn percent_encode(value: &str) -> String {
    let mut encoded = String::with_capacity(value.len());
    for byte in value.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            encoded.push(byte as char);
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    encoded
}

fn invalid(url: &str, message: impl Into<String>) -> ProfileError {
    ProfileError::Invalid { url: url.to_owned(), message: message.into() }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example profile of the repository the schema comes from, with
    /// the reference ticket service's operations (its shapes, not its text).
    fn snapshot() -> Snapshot {
        let profile = json!({
            "agentic": VERSION,
            "origin": "https://support.example",
            "actions": [{
                "id": "create-ticket",
                "description": "Create a support ticket and verify the original result.",
                "openapi": "/openapi.json",
                "submit": "createTicket",
                "status": "getRequestStatus",
                "verify": "getTicket",
                "request": {"header": "Idempotency-Key", "scope": "principal-action", "retentionSeconds": 86400},
                "bindings": {"statusRequestId": "requestId", "verifyResourceId": "ticketId"},
                "evidence": {
                    "resourceIdPointer": "/id", "requestIdPointer": "/request_id", "statePointer": "/status",
                    "successValues": ["open", "closed"],
                    "inputBindings": [{"inputPointer": "/subject", "resourcePointer": "/subject"}]
                },
                "recovery": {"maxChecks": 3, "checkDelayMs": 100, "timeoutMs": 3000, "retry": "never-automatically"}
            }]
        });
        let path_parameter =
            |name: &str| json!([{"name": name, "in": "path", "required": true, "schema": {"type": "string"}}]);
        let openapi = json!({
            "openapi": "3.1.0",
            "info": {"title": "tickets", "version": "0.1.0"},
            "paths": {
                "/tickets": {"post": {
                    "operationId": "createTicket",
                    "parameters": [{"name": "Idempotency-Key", "in": "header", "required": true, "schema": {"type": "string"}}],
                    "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object"}}}},
                    "responses": {}
                }},
                "/requests/{requestId}": {"get": {"operationId": "getRequestStatus", "parameters": path_parameter("requestId"), "responses": {}}},
                "/tickets/{ticketId}": {"get": {"operationId": "getTicket", "parameters": path_parameter("ticketId"), "responses": {}}}
            }
        });
        Snapshot { profile_url: "https://support.example/agentic.json".into(), profile, openapi }
    }

    #[test]
    fn the_pinned_schemas_compile() {
        assert!(PROFILE_VALIDATOR.is_ok(), "{:?}", PROFILE_VALIDATOR.as_ref().err());
        let receipt: Value = serde_json::from_str(RECEIPT_SCHEMA).unwrap();
        assert!(jsonschema::draft202012::new(&receipt).is_ok());
    }

    #[test]
    fn the_example_profile_binds_to_its_three_operations() {
        let action = snapshot().action("create-ticket").unwrap();
        assert_eq!(action.submit_url, "https://support.example/tickets");
        assert_eq!(action.status.url("pay_1/a b"), "https://support.example/requests/pay_1%2Fa%20b");
        assert_eq!(action.verify.url("T-1"), "https://support.example/tickets/T-1");
        assert_eq!(action.recovery, Recovery { max_checks: 3, check_delay_ms: 100, timeout_ms: 3000 });
        assert_eq!(action.retention_seconds, 86400);
    }

    #[test]
    fn a_broken_profile_or_binding_is_refused_naming_its_path() {
        let refused = |change: &dyn Fn(&mut Snapshot)| {
            let mut snapshot = snapshot();
            change(&mut snapshot);
            snapshot.action("create-ticket").unwrap_err().to_string()
        };
        let message = refused(&|s| s.profile["actions"][0]["recovery"]["retry"] = json!("always"));
        assert!(message.contains("$.actions[0].recovery.retry"), "{message}");
        let message = refused(&|s| s.profile["extra"] = json!(1));
        assert!(message.contains("not a valid Agentic Action Profile"), "{message}");
        let message = refused(&|s| s.profile["actions"][0]["verify"] = json!("createTicket"));
        assert!(message.contains("three distinct operations"), "{message}");
        let message = refused(&|s| s.openapi["paths"]["/tickets"]["post"]["parameters"] = json!([]));
        assert!(message.contains("Idempotency-Key"), "{message}");
        let message =
            refused(&|s| s.openapi["paths"]["/requests/{requestId}"]["get"]["parameters"][0]["name"] = json!("id"));
        assert!(message.contains("no required path parameter \"requestId\""), "{message}");
        let message = refused(&|s| s.openapi["servers"] = json!([{"url": "https://elsewhere.example"}]));
        assert!(message.contains("$.servers"), "{message}");
        let message = refused(&|s| s.openapi["paths"]["/tickets"]["get"] = json!({"operationId": "createTicket"}));
        assert!(message.contains("more than once"), "{message}");
        assert!(snapshot().action("refund").unwrap_err().to_string().contains("no action \"refund\""));
    }

    #[test]
    fn only_https_or_local_http_origins_without_credentials_are_accepted() {
        assert_eq!(origin_of("https://shop.example/agentic.json").unwrap(), "https://shop.example");
        assert_eq!(origin_of("http://127.0.0.1:8080/agentic.json").unwrap(), "http://127.0.0.1:8080");
        for refused in [
            "http://shop.example/agentic.json",
            "https://user:pw@shop.example/agentic.json",
            "https://shop.example/agentic.json?x=1",
            "ftp://shop.example/agentic.json",
        ] {
            assert!(origin_of(refused).is_err(), "{refused}");
        }
    }

    #[test]
    fn the_snapshot_digest_changes_with_either_document() {
        let first = snapshot();
        let mut changed = snapshot();
        changed.openapi["info"]["version"] = json!("0.2.0");
        assert_ne!(first.digest(), changed.digest());
        assert_eq!(first.digest(), snapshot().digest());
    }
}
