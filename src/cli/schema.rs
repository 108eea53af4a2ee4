//! `asasked schema`: the facts JSON Schema extractors are held to.

use std::io::Write;

use super::{CommandError, Outcome};

/// Prints `extractors/facts.schema.json` as the binary embeds it.
pub fn schema(out: &mut impl Write) -> Result<Outcome, CommandError> {
    write!(out, "{}", crate::extract::schema::facts_schema_text())?;
    Ok(Outcome::Clear)
}
