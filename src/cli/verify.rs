//! `asasked verify TOKEN`: what a merchant or payment gateway runs before it
//! takes a payment: is this receipt ours, fresh, and for exactly this cart?
//! It needs only the public keys (`--jwks`, as `asasked keys` prints them),
//! or the data dir's key folder on the machine that signs.

use std::io::Write;

use serde_json::Value;

use super::args::VerifyArguments;
use super::keys::KEY_FOLDER;
use super::{CatalogChoice, CommandError, Outcome, default_data_dir, read_flag_json};
use crate::receipt::{self, Jwks, KeyRing, Verification};

/// Prints the verification as JSON; clear only when the receipt is valid.
pub fn verify(arguments: &VerifyArguments, out: &mut impl Write) -> Result<Outcome, CommandError> {
    let keys: Jwks = match &arguments.jwks {
        Some(path) => read_flag_json("--jwks", path)?,
        None => {
            let folder = arguments.data_dir.clone().unwrap_or_else(default_data_dir).join(KEY_FOLDER);
            KeyRing::open_existing(&folder)?.jwks()
        }
    };
    let cart_digest = match &arguments.cart {
        Some(path) => {
            let cart: Value = read_flag_json("--cart", path)?;
            let catalog = match CatalogChoice::parse(&arguments.catalog) {
                CatalogChoice::Embedded => Some(crate::catalog::Catalog::embedded().map_err(super::SetupError::from)?),
                CatalogChoice::Directory(path) => {
                    Some(crate::catalog::Catalog::load_dir(&path).map_err(super::SetupError::from)?)
                }
                CatalogChoice::None => None,
            };
            let today = crate::service::input::today_of(arguments.today.as_deref(), || chrono::Utc::now().date_naive())
                .map_err(CommandError::InvalidArgument)?;
            let digest = crate::service::input::cart_digest(&cart, catalog.as_ref(), today)
                .map_err(CommandError::InvalidArgument)?;
            Some(digest)
        }
        None => None,
    };
    let verification = receipt::verify(&arguments.token, &keys, chrono::Utc::now(), cart_digest.as_deref());
    serde_json::to_writer_pretty(&mut *out, &verification)?;
    writeln!(out)?;
    Ok(match verification {
        Verification::Valid { .. } => Outcome::Clear,
        _ => Outcome::Flagged,
    })
}
