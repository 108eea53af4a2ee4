//! Who a call is made for (issue 30 §3): the principal every record, attempt
//! chain, facts-cache entry and redemption belongs to.
//!
//! Over stdio and from the CLI, and over HTTP with no token or with the one
//! token of `ASASKED_HTTP_TOKEN`, a call is the [`Principal::Local`]
//! principal: the one every record sealed before principals existed belongs
//! to, so an existing data folder and an existing single-token set-up keep
//! working unchanged. Over HTTP with tokens added by `asasked tokens add`
//! ([`tokens`]), each token is a named principal's, and a named principal
//! sees only its own records: another's `previous_record_id` is "not found".
//!
//! This module owns the principal's name and the token file; it knows no
//! transport (the `mcp` module puts the principal of a request into it) and
//! reads no environment.

pub mod tokens;

use std::fmt;

use serde::{Deserialize, Serialize};

/// The longest principal name accepted.
pub const MAX_NAME_BYTES: usize = 64;
/// The name the local principal is shown by (never a named principal's).
pub const LOCAL: &str = "local";

/// Who a call is made for.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Principal {
    /// Stdio, the CLI, and HTTP without per-principal tokens.
    #[default]
    Local,
    /// A principal of the token file, by its name.
    Named(String),
}

/// Why a principal name was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error("a principal name is 1 to {MAX_NAME_BYTES} characters of a-z, 0-9, '-' and '_'; got {0:?}")]
    Malformed(String),
    #[error("{LOCAL:?} is the local principal's name (stdio, the CLI and ASASKED_HTTP_TOKEN): choose another")]
    Reserved,
}

impl Principal {
    /// A named principal, refusing a malformed or reserved name.
    pub fn named(name: &str) -> Result<Principal, NameError> {
        let well_formed = !name.is_empty()
            && name.len() <= MAX_NAME_BYTES
            && name
                .bytes()
                .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-' || byte == b'_');
        if !well_formed {
            return Err(NameError::Malformed(name.to_owned()));
        }
        if name == LOCAL {
            return Err(NameError::Reserved);
        }
        Ok(Principal::Named(name.to_owned()))
    }

    /// The name a sealed record or a redemption stores: none for the local
    /// principal, so that records sealed before principals existed, which
    /// store none, are the local principal's.
    pub fn stored(&self) -> Option<&str> {
        match self {
            Principal::Local => None,
            Principal::Named(name) => Some(name),
        }
    }

    /// The principal a stored name (or its absence) stands for.
    pub fn from_stored(stored: Option<&str>) -> Principal {
        match stored {
            None => Principal::Local,
            Some(name) => Principal::Named(name.to_owned()),
        }
    }

    /// Whether something stored under `stored` is this principal's.
    pub fn owns(&self, stored: Option<&str>) -> bool {
        self.stored() == stored
    }
}

impl fmt::Display for Principal {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.stored().unwrap_or(LOCAL))
    }
}

impl Serialize for Principal {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Principal {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Principal, D::Error> {
        let name = String::deserialize(deserializer)?;
        if name == LOCAL { Ok(Principal::Local) } else { Principal::named(&name).map_err(serde::de::Error::custom) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked_and_local_is_stored_as_nothing() {
        assert_eq!(Principal::named("shop-a_1").unwrap().stored(), Some("shop-a_1"));
        assert_eq!(Principal::named("local"), Err(NameError::Reserved));
        for bad in ["", "Shop", "a b", "ä", &"x".repeat(MAX_NAME_BYTES + 1)] {
            assert!(matches!(Principal::named(bad), Err(NameError::Malformed(_))), "{bad:?}");
        }
        assert_eq!(Principal::Local.stored(), None);
        assert!(Principal::Local.owns(None));
        assert!(!Principal::Local.owns(Some("shop")));
        let shop = Principal::named("shop").unwrap();
        assert!(shop.owns(Some("shop")) && !shop.owns(None) && !shop.owns(Some("other")));
        assert_eq!(Principal::from_stored(Some("shop")), shop);
        assert_eq!(serde_json::to_string(&Principal::Local).unwrap(), "\"local\"");
        assert_eq!(serde_json::from_str::<Principal>("\"shop\"").unwrap(), shop);
    }
}
