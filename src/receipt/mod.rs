//! Signed verdicts (issue 15): a `proceed` a merchant or gateway can check
//! without trusting the agent that carries it.
//!
//! A receipt is a compact JWS (RFC 7515) signed with Ed25519 (`alg: EdDSA`,
//! RFC 8037) whose claims bind the sealed record (`record_id`), the exact cart
//! (`subject_digest`), the request and answers (`mandate_digest`), an expiry
//! and a random nonce. Anyone holding the public key (served as a JWKS)
//! verifies it; [`verify`] answers valid, expired, cart changed, unknown key,
//! bad signature or malformed, each its own variant. Single use is the
//! verifier's job: it keeps the nonces it has accepted until their `exp`.
//!
//! ring does the signing (already in the build through rustls, maintained,
//! constant-time Ed25519), base64 the encoding; JWS compact form is small
//! enough to write here rather than take a JWT crate with algorithms we must
//! then forbid.

pub mod keys;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{DateTime, Utc};
use ring::signature::{ED25519, UnparsedPublicKey};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use keys::{Jwk, Jwks, KeyError, KeyRing};

/// The JWS `typ` of a receipt, so a token minted for something else never
/// passes as one.
pub const TOKEN_TYPE: &str = "asasked-verdict+jws";

/// The issuer claim.
pub const ISSUER: &str = "asasked";

/// What a receipt says. Times are Unix seconds (JWT `iat`/`exp`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Claims {
    pub iss: String,
    /// The sealed evidence record of the check (guard.md §8).
    pub record_id: String,
    /// The digest of the resolved cart that was checked.
    pub subject_digest: String,
    /// The digest of the request, answers and today the cart was checked against.
    pub mandate_digest: String,
    /// Always `proceed`: only a `proceed` is signed.
    pub decision: String,
    pub iat: i64,
    pub exp: i64,
    /// 128 random bits, hex: a verifier that accepts each nonce once makes
    /// the receipt single-use.
    pub nonce: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    alg: String,
    typ: String,
    kid: String,
}

/// What verifying a receipt found. Only [`Verification::Valid`] lets a payment
/// through.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum Verification {
    Valid {
        claims: Claims,
    },
    /// Signed by us, but past its `exp`.
    Expired {
        /// RFC 3339 on the wire.
        #[serde(serialize_with = "crate::acf::wire_time::serialize")]
        #[schemars(with = "String")]
        expired_at: DateTime<Utc>,
        claims: Claims,
    },
    /// Signed by us and fresh, but for another cart than the one presented.
    CartChanged {
        receipt_cart: String,
        presented_cart: String,
    },
    /// No key with this id in the key set: another issuer, or a retired key.
    UnknownKey {
        kid: String,
    },
    /// The signature does not match the header and claims: altered, or
    /// signed by another key under our key id.
    BadSignature,
    /// Not a receipt at all; the reason names the part.
    Malformed {
        reason: String,
    },
}

impl Verification {
    /// The one-word answer (`valid`, `expired`, `cart_changed`, ...).
    pub fn result(&self) -> &'static str {
        match self {
            Verification::Valid { .. } => "valid",
            Verification::Expired { .. } => "expired",
            Verification::CartChanged { .. } => "cart_changed",
            Verification::UnknownKey { .. } => "unknown_key",
            Verification::BadSignature => "bad_signature",
            Verification::Malformed { .. } => "malformed",
        }
    }
}

/// What a receipt is issued for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subject<'a> {
    pub record_id: &'a str,
    pub subject_digest: &'a str,
    pub mandate_digest: &'a str,
}

/// Signs a receipt for `subject`, valid from `now` until `expires_at` (the
/// verdict's own `expires_at`), with the key ring's current key.
pub fn issue(
    ring: &KeyRing,
    subject: &Subject<'_>,
    now: DateTime<Utc>,
    expires_at: DateTime<Utc>,
) -> Result<String, KeyError> {
    let key = ring.current()?;
    let claims = Claims {
        iss: ISSUER.to_owned(),
        record_id: subject.record_id.to_owned(),
        subject_digest: subject.subject_digest.to_owned(),
        mandate_digest: subject.mandate_digest.to_owned(),
        decision: "proceed".to_owned(),
        iat: now.timestamp(),
        exp: expires_at.timestamp(),
        nonce: keys::nonce()?,
    };
    let header = Header { alg: "EdDSA".to_owned(), typ: TOKEN_TYPE.to_owned(), kid: key.kid().to_owned() };
    let signing_input = format!("{}.{}", encode_json(&header), encode_json(&claims));
    let signature = key.sign(signing_input.as_bytes());
    Ok(format!("{signing_input}.{}", URL_SAFE_NO_PAD.encode(signature)))
}

fn encode_json<T: Serialize>(value: &T) -> String {
    // Serializing these plain structs cannot fail.
    URL_SAFE_NO_PAD.encode(serde_json::to_vec(value).unwrap_or_default())
}

/// Verifies `token` with the public keys `keys`, at `now`, for the cart whose
/// digest is `cart_digest` (None: the cart is not checked, only the
/// signature and expiry).
pub fn verify(token: &str, keys: &Jwks, now: DateTime<Utc>, cart_digest: Option<&str>) -> Verification {
    let malformed = |reason: &str| Verification::Malformed { reason: reason.to_owned() };
    let parts: Vec<&str> = token.trim().split('.').collect();
    let [header_part, claims_part, signature_part] = parts[..] else {
        return malformed("a receipt has three dot-separated parts");
    };
    let Some(header) = decode_json::<Header>(header_part) else {
        return malformed("the header is not base64url JSON with alg, typ and kid");
    };
    if header.alg != "EdDSA" {
        return malformed(&format!("header.alg is {:?}; only EdDSA is accepted", header.alg));
    }
    if header.typ != TOKEN_TYPE {
        return malformed(&format!("header.typ is {:?}, not {TOKEN_TYPE:?}", header.typ));
    }
    let Some(public_key) = keys.public_key(&header.kid) else {
        return Verification::UnknownKey { kid: header.kid };
    };
    let Ok(signature) = URL_SAFE_NO_PAD.decode(signature_part) else {
        return malformed("the signature is not base64url");
    };
    let signing_input = &token.trim()[..header_part.len() + 1 + claims_part.len()];
    if UnparsedPublicKey::new(&ED25519, public_key).verify(signing_input.as_bytes(), &signature).is_err() {
        return Verification::BadSignature;
    }
    // Signed by us: from here on the claims are ours, so a claim that does
    // not decode is a bug in an older issuer, still reported, never trusted.
    let Some(claims) = decode_json::<Claims>(claims_part) else {
        return malformed("the claims are not a receipt's claims");
    };
    if claims.iss != ISSUER || claims.decision != "proceed" {
        return malformed("the claims are not a proceed issued by asasked");
    }
    if now.timestamp() >= claims.exp {
        let expired_at = DateTime::from_timestamp(claims.exp, 0).unwrap_or(DateTime::<Utc>::MIN_UTC);
        return Verification::Expired { expired_at, claims };
    }
    if let Some(presented) = cart_digest
        && presented != claims.subject_digest
    {
        return Verification::CartChanged { receipt_cart: claims.subject_digest, presented_cart: presented.to_owned() };
    }
    Verification::Valid { claims }
}

fn decode_json<T: for<'de> Deserialize<'de>>(part: &str) -> Option<T> {
    let bytes = URL_SAFE_NO_PAD.decode(part).ok()?;
    serde_json::from_slice(&bytes).ok()
}

#[cfg(test)]
mod tests;
