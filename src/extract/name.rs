//! Extractor names as people write them in `--extractors a,b` and
//! `--pair a,b`, parsed once into [`ExtractorName`] by one `match`.
//!
//! This module only reads names; it builds nothing and knows no provider or
//! dataset, so every module may depend on it. Building an extractor from a
//! name is `crate::extractors`' job, the one place that may know them all.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use serde::{Serialize, Serializer};

/// The embedded offline parser.
pub const RULES: &str = super::rules::NAME;
/// The sandbox extractor that returns a labelled task's gold facts.
pub const GOLD: &str = "gold";
/// `noisy:SEED:RATE`: gold facts with seeded errors (the sandbox).
pub const NOISY_PREFIX: &str = "noisy:";
/// `replay:DIR`: outputs recorded earlier with `--record`.
pub const REPLAY_PREFIX: &str = "replay:";
/// `fixed:PATH`: the facts in one JSON file, for every request (tests).
pub const FIXED_PREFIX: &str = "fixed:";

/// One extractor, as named.
#[derive(Debug, Clone, PartialEq)]
pub enum ExtractorName {
    /// `rules`.
    Rules,
    /// `gold`; it needs a labelled dataset, so only the sandbox builds it.
    Gold,
    /// `noisy:SEED:RATE`; like `gold`, sandbox only. `written` keeps the name
    /// as typed, so `noisy:1:0.20` is found again in reports under that name.
    Noisy { seed: u64, rate: f64, written: String },
    /// `replay:DIR`.
    Replay(PathBuf),
    /// `fixed:PATH`.
    Fixed(PathBuf),
    /// Any other name: a `[extractors.NAME]` table of `extractors.toml`.
    /// Whether the table exists is known only once the config is read.
    Configured(String),
}

/// A name or list of names that cannot mean an extractor.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error("no extractor names given")]
    Empty,
    #[error("bad extractor name {name:?}: {problem}")]
    Bad { name: String, problem: NameProblem },
}

/// What is wrong with a name that starts like a known kind.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameProblem {
    #[error("expected noisy:SEED:RATE")]
    NoisyShape,
    #[error("seed {0:?} is not a whole number")]
    Seed(String),
    #[error("rate {0:?} is not a number")]
    Rate(String),
    #[error("rate {0} is outside 0..1")]
    RateRange(String),
    #[error("replay needs a folder: replay:DIR")]
    ReplayFolder,
    #[error("fixed needs a file: fixed:PATH")]
    FixedFile,
}

impl ExtractorName {
    /// Parses one name, trimmed. Prefixed kinds are recognised by their
    /// prefix, so a malformed `noisy:…` is an error here rather than an
    /// unknown table later.
    pub fn parse(text: &str) -> Result<ExtractorName, NameError> {
        let name = text.trim();
        let bad = |problem| NameError::Bad { name: name.to_owned(), problem };
        let (kind, rest) = name.split_once(':').map_or((name, None), |(kind, rest)| (kind, Some(rest)));
        match (kind, rest) {
            ("", None) => Err(NameError::Empty),
            (RULES, None) => Ok(ExtractorName::Rules),
            (GOLD, None) => Ok(ExtractorName::Gold),
            ("noisy", Some(rest)) => {
                let (seed_text, rate_text) = rest.split_once(':').ok_or_else(|| bad(NameProblem::NoisyShape))?;
                let seed = seed_text.parse().map_err(|_| bad(NameProblem::Seed(seed_text.to_owned())))?;
                let rate: f64 = rate_text.parse().map_err(|_| bad(NameProblem::Rate(rate_text.to_owned())))?;
                if !(0.0..=1.0).contains(&rate) {
                    return Err(bad(NameProblem::RateRange(rate.to_string())));
                }
                Ok(ExtractorName::Noisy { seed, rate, written: name.to_owned() })
            }
            ("replay", Some("")) => Err(bad(NameProblem::ReplayFolder)),
            ("replay", Some(directory)) => Ok(ExtractorName::Replay(PathBuf::from(directory))),
            ("fixed", Some("")) => Err(bad(NameProblem::FixedFile)),
            ("fixed", Some(path)) => Ok(ExtractorName::Fixed(PathBuf::from(path))),
            _ => Ok(ExtractorName::Configured(name.to_owned())),
        }
    }

    /// Whether this extractor sends the request to a model outside the
    /// process (the MCP tool's `openWorldHint`): only configured providers,
    /// local servers included, do.
    pub fn is_hosted(&self) -> bool {
        matches!(self, ExtractorName::Configured(_))
    }
}

/// `"gold, noisy:1:0.2"` → `[Gold, Noisy{…}]`: the one splitter of name
/// lists. Entries are trimmed and empty ones dropped (`rules,` is `rules`);
/// a list with no name at all is an error.
pub fn parse_list(text: &str) -> Result<Vec<ExtractorName>, NameError> {
    let names: Vec<ExtractorName> =
        text.split(',').filter(|name| !name.trim().is_empty()).map(ExtractorName::parse).collect::<Result<_, _>>()?;
    if names.is_empty() {
        return Err(NameError::Empty);
    }
    Ok(names)
}

impl FromStr for ExtractorName {
    type Err = NameError;

    fn from_str(text: &str) -> Result<ExtractorName, NameError> {
        ExtractorName::parse(text)
    }
}

/// The name as written (trimmed); it is also the built extractor's name.
impl fmt::Display for ExtractorName {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExtractorName::Rules => formatter.write_str(RULES),
            ExtractorName::Gold => formatter.write_str(GOLD),
            ExtractorName::Noisy { written, .. } => formatter.write_str(written),
            ExtractorName::Replay(directory) => write!(formatter, "{REPLAY_PREFIX}{}", directory.display()),
            ExtractorName::Fixed(path) => write!(formatter, "{FIXED_PREFIX}{}", path.display()),
            ExtractorName::Configured(name) => formatter.write_str(name),
        }
    }
}

/// Reports carry names as the strings people wrote.
impl Serialize for ExtractorName {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> ExtractorName {
        ExtractorName::parse(text).unwrap()
    }

    fn problem(text: &str) -> NameProblem {
        match ExtractorName::parse(text) {
            Err(NameError::Bad { problem, .. }) => problem,
            other => panic!("{text:?}: {other:?}"),
        }
    }

    #[test]
    fn every_kind_parses_and_writes_back() {
        assert_eq!(parsed(" rules "), ExtractorName::Rules);
        assert_eq!(parsed("gold"), ExtractorName::Gold);
        assert_eq!(parsed("noisy:1:0.20"), ExtractorName::Noisy { seed: 1, rate: 0.2, written: "noisy:1:0.20".into() });
        assert_eq!(parsed("replay:recordings/claude"), ExtractorName::Replay("recordings/claude".into()));
        assert_eq!(parsed("fixed:/tmp/facts.json"), ExtractorName::Fixed("/tmp/facts.json".into()));
        assert_eq!(parsed("claude"), ExtractorName::Configured("claude".into()));
        assert_eq!(parsed("noisyx"), ExtractorName::Configured("noisyx".into()));
        assert_eq!(parsed("noisy"), ExtractorName::Configured("noisy".into()));
        for text in ["rules", "gold", "noisy:1:0.20", "replay:a/b", "fixed:f.json", "local"] {
            assert_eq!(parsed(text).to_string(), text);
        }
        assert!(parsed("claude").is_hosted() && !parsed("rules").is_hosted() && !parsed("replay:d").is_hosted());
    }

    #[test]
    fn malformed_names_say_what_is_wrong() {
        assert_eq!(problem("noisy:1"), NameProblem::NoisyShape);
        assert_eq!(problem("noisy:x:0.2"), NameProblem::Seed("x".into()));
        assert_eq!(problem("noisy:1:y"), NameProblem::Rate("y".into()));
        assert_eq!(problem("noisy:1:2"), NameProblem::RateRange("2".into()));
        assert_eq!(problem("replay:"), NameProblem::ReplayFolder);
        assert_eq!(problem("fixed:"), NameProblem::FixedFile);
        let error = ExtractorName::parse("noisy:x:0.2").unwrap_err().to_string();
        assert_eq!(error, "bad extractor name \"noisy:x:0.2\": seed \"x\" is not a whole number");
        assert_eq!(ExtractorName::parse(" "), Err(NameError::Empty));
    }

    #[test]
    fn lists_split_on_commas_and_drop_empty_entries() {
        assert_eq!(parse_list("gold, noisy:1:0.2").unwrap().len(), 2);
        assert_eq!(parse_list("rules,").unwrap(), [ExtractorName::Rules]);
        assert_eq!(parse_list(" , "), Err(NameError::Empty));
        assert!(matches!(parse_list("gold,noisy:1"), Err(NameError::Bad { .. })));
    }
}
