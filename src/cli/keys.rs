//! `asasked keys`: the public keys receipts are verified with, as a JWKS
//! (what a merchant or gateway pins), and `--rotate` to start signing with a
//! new key. The private keys never leave `<data dir>/keys/`.

use std::io::Write;

use super::args::KeysArguments;
use super::{CommandError, Outcome, default_data_dir};
use crate::receipt::KeyRing;

/// The key folder of a data dir.
pub const KEY_FOLDER: &str = "keys";

pub fn keys(arguments: &KeysArguments, out: &mut impl Write) -> Result<Outcome, CommandError> {
    let folder = arguments.data_dir.clone().unwrap_or_else(default_data_dir).join(KEY_FOLDER);
    let mut ring = KeyRing::open_or_create(&folder)?;
    if arguments.rotate {
        let kid = ring.rotate()?;
        eprintln!("asasked: receipts are now signed with key {kid}; older keys stay in the JWKS");
    }
    serde_json::to_writer_pretty(&mut *out, &ring.jwks())?;
    writeln!(out)?;
    Ok(Outcome::Clear)
}
