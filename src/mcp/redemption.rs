//! Redemption over HTTP (issue 30 §2): the merchant's three calls beside
//! `/mcp`, and the Agentic Action Profile documents that describe them.
//!
//! - `POST /v1/redemptions` (`Idempotency-Key`, body `{receipt, cart}`):
//!   200 with the recorded outcome, `succeeded` or `failed` with a reason
//!   (`already_redeemed`, `superseded`, `expired`, `cart_changed`, …). The
//!   same key and body give the same answer again. The same key with another
//!   body is refused with 422, as the IETF Idempotency-Key draft (§2.7)
//!   prescribes, not 409: the draft keeps 409 for "the first request with
//!   this key is still being processed", which a merchant must tell apart
//!   (retry later) from a reused key (a bug on its side); here the first
//!   request is recorded atomically, so 409 is never needed.
//! - `GET /v1/redemptions/{requestId}`: the profile's status response, 200
//!   for a recorded outcome; 404 with `status: unknown` for a request id this
//!   principal never used (nothing was recorded: no payment may rely on it).
//! - `GET /v1/verdicts/{recordId}`: the verdict's state (`redeemed`,
//!   `superseded`, `unredeemed`) and the request that redeemed it, to the
//!   principal it was checked for or the one that redeemed it; 404 to anyone
//!   else.
//! - `GET /agentic.json` and `GET /openapi.json`: public, like the JWKS.
//!
//! The calls sit behind the bearer check (each answer is the caller's
//! principal's) but not behind `/mcp`'s JSON-RPC guards.

use std::sync::Arc;
use std::time::Duration;

use axum::Extension;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use serde_json::{Value, json};

use crate::principal::Principal;
use crate::redeem::{RETENTION_SECONDS, RedeemError, Redeemer};

/// Where the redemption requests go.
pub const REDEMPTIONS_PATH: &str = "/v1/redemptions";
/// Where a verdict's state is read.
pub const VERDICTS_PATH: &str = "/v1/verdicts";
/// The profile (Agentic Action Profile 0.1, §2).
pub const PROFILE_PATH: &str = "/agentic.json";
/// The OpenAPI 3.1 document the profile points to.
pub const OPENAPI_PATH: &str = "/openapi.json";
/// The profile's action id.
pub const ACTION_ID: &str = "redeem-verdict";
/// The header carrying the request id.
pub const IDEMPOTENCY_KEY: &str = "idempotency-key";

#[derive(Clone)]
struct Shared {
    redeemer: Redeemer,
    body_read_timeout: Duration,
    max_body_bytes: usize,
}

/// The redemption routes (to be put behind the bearer check), reading a
/// body of at most `max_body_bytes` within `body_read_timeout` (`http`'s
/// limits, passed in so that this file does not import it).
pub fn routes(redeemer: Redeemer, body_read_timeout: Duration, max_body_bytes: usize) -> axum::Router {
    let shared = Shared { redeemer, body_read_timeout, max_body_bytes };
    axum::Router::new()
        .route(REDEMPTIONS_PATH, axum::routing::post(redeem))
        .route(&format!("{REDEMPTIONS_PATH}/{{request_id}}"), axum::routing::get(status))
        .route(&format!("{VERDICTS_PATH}/{{record_id}}"), axum::routing::get(verdict))
        .with_state(Arc::new(shared))
}

/// The public documents (outside the bearer check).
pub fn documents() -> axum::Router {
    axum::Router::new()
        .route(PROFILE_PATH, axum::routing::get(|headers: HeaderMap| async move { profile_response(&headers) }))
        .route(OPENAPI_PATH, axum::routing::get(|| async { axum::Json(openapi()) }))
}

fn error(status: StatusCode, code: &str, message: &str) -> Response {
    (status, axum::Json(json!({"error": code, "message": message}))).into_response()
}

async fn redeem(
    State(shared): State<Arc<Shared>>,
    Extension(principal): Extension<Principal>,
    request: Request,
) -> Response {
    let Some(key) = request.headers().get(IDEMPOTENCY_KEY).and_then(|value| value.to_str().ok()).map(str::to_owned)
    else {
        return error(StatusCode::BAD_REQUEST, "idempotency_key_missing", "the Idempotency-Key header is required");
    };
    let body = match read_body(request.into_body(), shared.body_read_timeout, shared.max_body_bytes).await {
        Ok(body) => body,
        Err(response) => return response,
    };
    match shared.redeemer.redeem(&principal, &key, &body).await {
        Ok(outcome) => (StatusCode::OK, axum::Json(outcome.status_view())).into_response(),
        Err(RedeemError::Key(message)) => {
            error(StatusCode::BAD_REQUEST, "idempotency_key_malformed", &format!("Idempotency-Key: {message}"))
        }
        Err(RedeemError::Invalid(message)) => {
            error(StatusCode::BAD_REQUEST, "invalid_argument", &format!("invalid argument {message}"))
        }
        Err(refused @ RedeemError::KeyReused(..)) => {
            error(StatusCode::UNPROCESSABLE_ENTITY, "idempotency_key_reused", &refused.to_string())
        }
        Err(failure) => {
            tracing::error!(error = %failure, "a redemption could not be recorded");
            error(
                StatusCode::SERVICE_UNAVAILABLE,
                "unavailable",
                "the outcome could not be recorded: take no payment; ask GET /v1/redemptions/{requestId} or retry with the same Idempotency-Key",
            )
        }
    }
}

async fn status(
    State(shared): State<Arc<Shared>>,
    Extension(principal): Extension<Principal>,
    Path(request_id): Path<String>,
) -> Response {
    match shared.redeemer.request(&principal, &request_id).await {
        Ok(Some(outcome)) => (StatusCode::OK, axum::Json(outcome.status_view())).into_response(),
        Ok(None) => (
            StatusCode::NOT_FOUND,
            axum::Json(json!({"request_id": request_id, "status": "unknown", "resource_id": null})),
        )
            .into_response(),
        Err(failure) => {
            tracing::error!(error = %failure, "a redemption status could not be read");
            error(StatusCode::SERVICE_UNAVAILABLE, "unavailable", "the ledger could not be read; ask again")
        }
    }
}

async fn verdict(
    State(shared): State<Arc<Shared>>,
    Extension(principal): Extension<Principal>,
    Path(record_id): Path<String>,
) -> Response {
    match shared.redeemer.verdict(&principal, &record_id).await {
        Ok(Some(view)) => (StatusCode::OK, axum::Json(view)).into_response(),
        Ok(None) => error(StatusCode::NOT_FOUND, "not_found", &format!("no verdict {record_id:?}")),
        Err(failure) => {
            tracing::error!(error = %failure, "a verdict could not be read");
            error(StatusCode::SERVICE_UNAVAILABLE, "unavailable", "the evidence could not be read; ask again")
        }
    }
}

/// Reads the whole body within `timeout` and `max_bytes`.
async fn read_body(body: axum::body::Body, timeout: Duration, max_bytes: usize) -> Result<Vec<u8>, Response> {
    let read = async {
        let mut stream = body.into_data_stream();
        let mut collected = Vec::new();
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.map_err(|_| StatusCode::BAD_REQUEST)?;
            if collected.len() + chunk.len() > max_bytes {
                return Err(StatusCode::PAYLOAD_TOO_LARGE);
            }
            collected.extend_from_slice(&chunk);
        }
        Ok(collected)
    };
    match tokio::time::timeout(timeout, read).await {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(status)) => Err(error(status, "body", "the request body could not be read whole")),
        Err(_) => Err(error(StatusCode::REQUEST_TIMEOUT, "body", "the request body did not arrive in time")),
    }
}

/// The profile for the origin a client reached: `http` for loopback names
/// (the profile's local development rule), `https` for any other (a server
/// reached under a public name sits behind a TLS terminator). A Host header
/// that is not a plain host name is refused.
fn profile_response(headers: &HeaderMap) -> Response {
    let host = headers.get(header::HOST).and_then(|value| value.to_str().ok()).unwrap_or_default();
    let plain = !host.is_empty()
        && host.len() <= 200
        && host.bytes().all(|byte| byte.is_ascii_alphanumeric() || b".-:[]".contains(&byte));
    if !plain {
        return error(StatusCode::BAD_REQUEST, "host", "the Host header is not a host name");
    }
    let name = host
        .rsplit_once(':')
        .filter(|(_, port)| port.bytes().all(|b| b.is_ascii_digit()))
        .map_or(host, |(name, _)| name);
    let scheme = if ["localhost", "127.0.0.1", "[::1]"].contains(&name) { "http" } else { "https" };
    axum::Json(profile(&format!("{scheme}://{host}"))).into_response()
}

/// The Agentic Action Profile of redemption for `origin`.
pub fn profile(origin: &str) -> Value {
    json!({
        "agentic": "0.1.0-draft",
        "origin": origin,
        "actions": [{
            "id": ACTION_ID,
            "description": "Redeem a proceed verdict of asasked once, before taking the payment it allows.",
            "openapi": OPENAPI_PATH,
            "submit": "redeemVerdict",
            "status": "getRedemptionStatus",
            "verify": "getVerdict",
            "request": {"header": "Idempotency-Key", "scope": "principal-action", "retentionSeconds": RETENTION_SECONDS},
            "bindings": {"statusRequestId": "requestId", "verifyResourceId": "recordId"},
            "evidence": {
                "resourceIdPointer": "/id",
                "requestIdPointer": "/request_id",
                "statePointer": "/state",
                "successValues": ["redeemed"],
                "inputBindings": [{"inputPointer": "/receipt", "resourcePointer": "/receipt"}]
            },
            "recovery": {"maxChecks": 3, "checkDelayMs": 100, "timeoutMs": 3000, "retry": "never-automatically"}
        }]
    })
}

/// The OpenAPI 3.1 document of the three calls.
pub fn openapi() -> Value {
    let outcome = json!({
        "type": "object",
        "required": ["request_id", "status", "resource_id"],
        "properties": {
            "request_id": {"type": "string"},
            "status": {"type": "string", "enum": ["succeeded", "failed", "pending", "unknown"]},
            "resource_id": {"type": ["string", "null"]},
            "reason": {"type": ["string", "null"], "enum": [
                "already_redeemed", "superseded", "expired", "cart_changed", "unknown_key", "bad_signature",
                "malformed", "record_not_found", null
            ]},
            "record_id": {"type": ["string", "null"]},
            "recorded_at": {"type": "string", "format": "date-time"}
        }
    });
    let problem = json!({
        "type": "object", "required": ["error", "message"],
        "properties": {"error": {"type": "string"}, "message": {"type": "string"}}
    });
    let bearer = json!([{"bearer": []}]);
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "asasked verdict redemption",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "A proceed verdict's receipt is redeemed at most once before a payment is taken."
        },
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": {"Outcome": outcome, "Problem": problem}
        },
        "paths": {
            REDEMPTIONS_PATH: {
                "post": {
                    "operationId": "redeemVerdict",
                    "summary": "Redeem a verdict's receipt for this cart, at most once",
                    "security": bearer,
                    "parameters": [{
                        "name": "Idempotency-Key", "in": "header", "required": true,
                        "schema": {"type": "string", "minLength": 1, "maxLength": crate::redeem::MAX_KEY_BYTES}
                    }],
                    "requestBody": {"required": true, "content": {"application/json": {"schema": {
                        "type": "object", "required": ["receipt", "cart"], "additionalProperties": false,
                        "properties": {
                            "receipt": {"type": "string", "description": "The verdict_token (receipt) of a proceed"},
                            "cart": {"description": "The cart about to be paid, in any shape check_order accepts"},
                            "today": {"type": "string", "description": "The today the check was made with, if given"}
                        }
                    }}}},
                    "responses": {
                        "200": {"description": "The recorded outcome (the same for every replay of the key and body)",
                                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Outcome"}}}},
                        "400": {"description": "No or malformed key, or a body that is not a redemption request",
                                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
                        "401": {"description": "Missing, wrong or revoked bearer token"},
                        "422": {"description": "The key was used before with another body",
                                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
                        "503": {"description": "Nothing could be recorded: take no payment; ask the status",
                                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}
                    }
                }
            },
            format!("{REDEMPTIONS_PATH}/{{requestId}}"): {
                "get": {
                    "operationId": "getRedemptionStatus",
                    "summary": "The outcome recorded for a request id",
                    "security": bearer,
                    "parameters": [{"name": "requestId", "in": "path", "required": true, "schema": {"type": "string"}}],
                    "responses": {
                        "200": {"description": "The recorded outcome",
                                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Outcome"}}}},
                        "404": {"description": "No outcome recorded for this id (status unknown)"}
                    }
                }
            },
            format!("{VERDICTS_PATH}/{{recordId}}"): {
                "get": {
                    "operationId": "getVerdict",
                    "summary": "A verdict's state and the request that redeemed it",
                    "security": bearer,
                    "parameters": [{"name": "recordId", "in": "path", "required": true, "schema": {"type": "string"}}],
                    "responses": {
                        "200": {"description": "The verdict", "content": {"application/json": {"schema": {
                            "type": "object",
                            "required": ["id", "state", "decision", "request_id", "receipt"],
                            "properties": {
                                "id": {"type": "string"},
                                "state": {"type": "string", "enum": ["redeemed", "superseded", "unredeemed"]},
                                "decision": {"type": "string", "enum": ["proceed", "ask"]},
                                "request_id": {"type": ["string", "null"]},
                                "receipt": {"type": ["string", "null"]},
                                "redeemed_at": {"type": ["string", "null"]},
                                "superseded_by": {"type": ["string", "null"]},
                                "expires_at": {"type": "string", "format": "date-time"}
                            }
                        }}}},
                        "404": {"description": "No such verdict for this principal"}
                    }
                }
            }
        }
    })
}
