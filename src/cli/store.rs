//! `asasked store migrate | import`: setting up the PostgreSQL store that
//! several instances share (`crate::pg`).

use std::io::Write;

use super::args::{StoreArguments, StoreCommand};
use super::evidence::print_verify;
use super::{CommandError, DATABASE_URL_VARIABLE, Outcome, StoreChoice, runtime};
use crate::evidence;

/// Runs one store subcommand against the `--store` database.
pub fn store(
    arguments: &StoreArguments,
    env: &dyn Fn(&str) -> Option<String>,
    out: &mut impl Write,
) -> Result<Outcome, CommandError> {
    let StoreChoice::Postgres(url) = StoreChoice::resolve(arguments.store.as_ref(), env)? else {
        return Err(CommandError::NoDatabase(DATABASE_URL_VARIABLE));
    };
    let store = crate::pg::PgStore::new(&url)?;
    let location = evidence::RecordStore::location(&store);
    let runtime = runtime()?;
    match &arguments.command {
        StoreCommand::Migrate => {
            let applied = runtime.block_on(store.migrate())?;
            for (version, name) in &applied {
                writeln!(out, "applied migration {version}: {name}")?;
            }
            writeln!(out, "{location}: schema version {}", crate::pg::schema_version())?;
            Ok(Outcome::Clear)
        }
        StoreCommand::Import { data_dir } => {
            if !data_dir.is_dir() {
                return Err(CommandError::NoDataDir(data_dir.clone()));
            }
            let path = data_dir.join(evidence::LOG_FILE);
            let bytes =
                std::fs::read(&path).map_err(|source| evidence::StoreError::Io { path: path.clone(), source })?;
            runtime.block_on(store.check_schema())?;
            let report =
                runtime.block_on(store.import(&bytes))?.map_err(|refused| CommandError::Import(Box::new(refused)))?;
            writeln!(out, "imported {} into {location}", path.display())?;
            print_verify(out, &report)?;
            Ok(Outcome::Clear)
        }
    }
}
