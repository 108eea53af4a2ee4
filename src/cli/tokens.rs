//! `asasked tokens add|list|revoke`: the bearer tokens of HTTP principals,
//! kept hashed in `<data dir>/tokens.json` (see [`crate::principal::tokens`]).
//! A running `serve --http` on that data folder sees every change at its
//! next request.

use std::io::Write;

use super::args::{TokensArguments, TokensCommand};
use super::{CommandError, Outcome, default_data_dir};
use crate::principal::Principal;
use crate::principal::tokens::{TokenEntry, TokenFile};

pub fn tokens(arguments: &TokensArguments, now: &str, out: &mut impl Write) -> Result<Outcome, CommandError> {
    let file = TokenFile::in_folder(&arguments.data_dir.clone().unwrap_or_else(default_data_dir));
    match &arguments.command {
        TokensCommand::Add { principal } => {
            let principal = Principal::named(principal).map_err(|error| CommandError::Principal(error.to_string()))?;
            let (entry, token) = file.add(principal, now)?;
            eprintln!(
                "asasked: token {} added for principal {}; it is shown once, here (the file keeps its SHA-256)",
                entry.id, entry.principal
            );
            writeln!(out, "{token}")?;
        }
        TokensCommand::List => {
            for entry in file.list()? {
                writeln!(out, "{}", line(&entry))?;
            }
        }
        TokensCommand::Revoke { id } => {
            let entry = file.revoke(id, now)?;
            writeln!(out, "{}", line(&entry))?;
        }
    }
    Ok(Outcome::Clear)
}

/// One token as `list` shows it: id, principal, added, and revoked or live.
fn line(entry: &TokenEntry) -> String {
    let state = entry.revoked_at.as_ref().map_or_else(|| "live".to_owned(), |at| format!("revoked {at}"));
    format!("{}\t{}\tadded {}\t{state}", entry.id, entry.principal, entry.added_at)
}
