//! The bearer tokens of HTTP principals: `tokens.json` in the data folder,
//! written by `asasked tokens add|revoke`, read by a running `serve --http`.
//!
//! A token is 256 random bits; the file keeps only its SHA-256 (a secret of
//! that size needs no slow hash: nothing can be guessed from the digest), the
//! principal it stands for, and when it was added and revoked. A token is
//! shown once, when it is added. Writers take `tokens.lock` (`flock`), read
//! the file, and replace it by a fsynced temporary renamed over it, so two
//! concurrent `tokens add` both land and a reader never sees half a file. A
//! running server looks at the file's identity (inode, length, mtime) on
//! every request and reads it again when it changed: a revoked token is
//! refused from the next request on, without a restart.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::rand::{SecureRandom, SystemRandom};
use serde::{Deserialize, Serialize};

use super::Principal;

/// The token file inside the data folder.
pub const TOKEN_FILE: &str = "tokens.json";
/// The lock writers of the token file take.
const LOCK_FILE: &str = "tokens.lock";
/// What every token starts with, so a leaked one is recognisable in logs and
/// secret scanners.
pub const TOKEN_PREFIX: &str = "asasked_";

/// One token as the file keeps it: never the token itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenEntry {
    /// The token's public id, for `tokens revoke`.
    pub id: String,
    pub principal: Principal,
    /// `sha256:` and the hex SHA-256 of the token.
    pub sha256: String,
    pub added_at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revoked_at: Option<String>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TokenList {
    tokens: Vec<TokenEntry>,
}

/// The token file's failures.
#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    #[error("token file {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("token file {path} is not a token list: {message}")]
    Malformed { path: PathBuf, message: String },
    #[error("the system random generator failed")]
    Random,
    #[error("no token {0:?} in the token file (`asasked tokens list` shows the ids)")]
    UnknownId(String),
}

/// The token file of a data folder.
#[derive(Debug, Clone)]
pub struct TokenFile {
    folder: PathBuf,
}

impl TokenFile {
    pub fn in_folder(data_dir: &Path) -> TokenFile {
        TokenFile { folder: data_dir.to_owned() }
    }

    pub fn path(&self) -> PathBuf {
        self.folder.join(TOKEN_FILE)
    }

    /// Whether the file exists: then HTTP callers must present a token.
    pub fn exists(&self) -> bool {
        self.path().exists()
    }

    /// Every token, revoked ones included, in the order they were added.
    pub fn list(&self) -> Result<Vec<TokenEntry>, TokenError> {
        Ok(read(&self.path())?.tokens)
    }

    /// Adds a token for `principal` and returns its entry and the token,
    /// which is not kept anywhere.
    pub fn add(&self, principal: Principal, added_at: &str) -> Result<(TokenEntry, String), TokenError> {
        let mut secret = [0u8; 32];
        let mut id = [0u8; 6];
        let random = SystemRandom::new();
        random.fill(&mut secret).map_err(|_| TokenError::Random)?;
        random.fill(&mut id).map_err(|_| TokenError::Random)?;
        let token = format!("{TOKEN_PREFIX}{}", URL_SAFE_NO_PAD.encode(secret));
        let entry = TokenEntry {
            id: format!("tok_{}", hex::encode(id)),
            principal,
            sha256: crate::digest::sha256(token.as_bytes()),
            added_at: added_at.to_owned(),
            revoked_at: None,
        };
        self.update(|list| {
            list.tokens.push(entry.clone());
            Ok(())
        })?;
        Ok((entry, token))
    }

    /// Revokes the token `id` (again: a no-op keeping the first time).
    pub fn revoke(&self, id: &str, revoked_at: &str) -> Result<TokenEntry, TokenError> {
        let mut revoked = None;
        self.update(|list| {
            let entry = list
                .tokens
                .iter_mut()
                .find(|entry| entry.id == id)
                .ok_or_else(|| TokenError::UnknownId(id.to_owned()))?;
            entry.revoked_at.get_or_insert_with(|| revoked_at.to_owned());
            revoked = Some(entry.clone());
            Ok(())
        })?;
        revoked.ok_or_else(|| TokenError::UnknownId(id.to_owned()))
    }

    /// Reads, changes and replaces the file under the writers' lock.
    fn update(&self, change: impl FnOnce(&mut TokenList) -> Result<(), TokenError>) -> Result<(), TokenError> {
        let io = |path: &Path| {
            let path = path.to_owned();
            move |source| TokenError::Io { path, source }
        };
        fs::DirBuilder::new().recursive(true).create(&self.folder).map_err(io(&self.folder))?;
        let lock_path = self.folder.join(LOCK_FILE);
        let lock = OpenOptions::new().create(true).append(true).mode(0o600).open(&lock_path).map_err(io(&lock_path))?;
        lock.lock().map_err(io(&lock_path))?;
        let path = self.path();
        let mut list = read(&path)?;
        change(&mut list)?;
        let mut text = serde_json::to_vec_pretty(&list)
            .map_err(|error| TokenError::Malformed { path: path.clone(), message: error.to_string() })?;
        text.push(b'\n');
        let temporary = self.folder.join(format!("{TOKEN_FILE}.tmp"));
        let mut file = OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(true)
            .mode(0o600)
            .open(&temporary)
            .map_err(io(&temporary))?;
        file.write_all(&text).map_err(io(&temporary))?;
        file.sync_all().map_err(io(&temporary))?;
        fs::rename(&temporary, &path).map_err(io(&path))?;
        File::open(&self.folder).and_then(|folder| folder.sync_all()).map_err(io(&self.folder))?;
        drop(lock);
        Ok(())
    }
}

fn read(path: &Path) -> Result<TokenList, TokenError> {
    match fs::read(path) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map_err(|error| TokenError::Malformed { path: path.to_owned(), message: error.to_string() }),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(TokenList::default()),
        Err(source) => Err(TokenError::Io { path: path.to_owned(), source }),
    }
}

/// Who a bearer token stands for, as a running server asks: the one
/// `ASASKED_HTTP_TOKEN` (the local principal) and the token file's live
/// tokens, read again whenever the file changes.
#[derive(Debug)]
pub struct Bearers {
    local_token: Option<String>,
    file: Option<TokenFile>,
    cache: Mutex<Cached>,
}

#[derive(Debug, Default)]
struct Cached {
    /// Inode, length and mtime (ns) of the file last read; `None` before the
    /// first read or when it did not exist.
    identity: Option<(u64, u64, i128)>,
    /// `(sha256, principal)` of the tokens not revoked.
    live: Vec<(String, Principal)>,
}

/// How a request's bearer token was judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Admission {
    /// No token is configured: every caller is the local principal (the
    /// server listens on loopback only, `mcp::check_bind`).
    Open,
    /// The token is a live one, of this principal.
    Principal(Principal),
    /// No token, an unknown one, or a revoked one.
    Refused,
}

impl Bearers {
    /// `local_token`: `ASASKED_HTTP_TOKEN`; `file`: the data folder's token
    /// file (tokens may be added while the server runs).
    pub fn new(local_token: Option<String>, file: Option<TokenFile>) -> Bearers {
        Bearers { local_token: local_token.filter(|token| !token.is_empty()), file, cache: Mutex::default() }
    }

    /// Whether any token is configured now (an environment token, or a
    /// token file, even one whose tokens are all revoked).
    pub fn required(&self) -> bool {
        self.local_token.is_some() || self.file.as_ref().is_some_and(TokenFile::exists)
    }

    /// Judges the `Authorization` header's value (`Bearer <token>`).
    /// Every live token is compared, each without an early exit, so the
    /// time taken does not reveal which part of which token matched.
    pub fn admit(&self, authorization: Option<&[u8]>) -> Admission {
        if !self.required() {
            return Admission::Open;
        }
        let Some(presented) = authorization.and_then(|value| value.strip_prefix(b"Bearer ")) else {
            return Admission::Refused;
        };
        let mut found = None;
        if let Some(local) = &self.local_token
            && constant_time_equal(presented, local.as_bytes())
        {
            found = Some(Principal::Local);
        }
        let digest = crate::digest::sha256(presented);
        for (sha256, principal) in self.live() {
            if constant_time_equal(digest.as_bytes(), sha256.as_bytes()) && found.is_none() {
                found = Some(principal);
            }
        }
        found.map_or(Admission::Refused, Admission::Principal)
    }

    /// The live tokens, read again if the file changed since the last look.
    /// A file that cannot be read admits no file token (fail closed) and is
    /// logged.
    fn live(&self) -> Vec<(String, Principal)> {
        let Some(file) = &self.file else { return Vec::new() };
        let path = file.path();
        let identity = fs::metadata(&path).ok().map(|metadata| {
            let modified = i128::from(metadata.mtime()) * 1_000_000_000 + i128::from(metadata.mtime_nsec());
            (metadata.ino(), metadata.len(), modified)
        });
        let mut cache = self.cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if cache.identity != identity || identity.is_none() {
            cache.live = match read(&path) {
                Ok(list) => list
                    .tokens
                    .into_iter()
                    .filter(|entry| entry.revoked_at.is_none())
                    .map(|entry| (entry.sha256, entry.principal))
                    .collect(),
                Err(error) => {
                    tracing::error!(%error, "the token file cannot be read: refusing its tokens");
                    Vec::new()
                }
            };
            cache.identity = identity;
        }
        cache.live.clone()
    }
}

/// Compares without an early exit, so response time does not reveal how much
/// of the token was right.
pub fn constant_time_equal(left: &[u8], right: &[u8]) -> bool {
    left.len() == right.len() && left.iter().zip(right).fold(0u8, |difference, (a, b)| difference | (a ^ b)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bearer(token: &str) -> Vec<u8> {
        format!("Bearer {token}").into_bytes()
    }

    #[test]
    fn tokens_are_stored_hashed_and_revoked_ones_refused_without_a_restart() {
        let folder = tempfile::tempdir().unwrap();
        let file = TokenFile::in_folder(folder.path());
        let bearers = Bearers::new(None, Some(file.clone()));
        assert_eq!(bearers.admit(None), Admission::Open, "no token configured: open (loopback only)");

        let shop = Principal::named("shop").unwrap();
        let (entry, token) = file.add(shop.clone(), "2026-12-03T00:00:00Z").unwrap();
        assert!(token.starts_with(TOKEN_PREFIX));
        let stored = fs::read_to_string(file.path()).unwrap();
        assert!(!stored.contains(&token[TOKEN_PREFIX.len()..]), "the token itself is never stored");
        assert!(stored.contains(&crate::digest::sha256(token.as_bytes())));

        let (_, other_token) = file.add(Principal::named("other").unwrap(), "2026-12-03T00:00:01Z").unwrap();
        assert_eq!(bearers.admit(Some(&bearer(&token))), Admission::Principal(shop));
        assert_eq!(
            bearers.admit(Some(&bearer(&other_token))),
            Admission::Principal(Principal::named("other").unwrap())
        );
        assert_eq!(bearers.admit(Some(&bearer("asasked_wrong"))), Admission::Refused);
        assert_eq!(bearers.admit(None), Admission::Refused);
        assert_eq!(bearers.admit(Some(token.as_bytes())), Admission::Refused, "without `Bearer `");

        let revoked = file.revoke(&entry.id, "2026-12-03T01:00:00Z").unwrap();
        assert_eq!(revoked.revoked_at.as_deref(), Some("2026-12-03T01:00:00Z"));
        assert_eq!(bearers.admit(Some(&bearer(&token))), Admission::Refused, "revoked: refused at once");
        assert!(bearers.admit(Some(&bearer(&other_token))) != Admission::Refused);
        assert_eq!(file.list().unwrap().len(), 2, "a revoked token stays listed");
        assert!(matches!(file.revoke("tok_nope", "t"), Err(TokenError::UnknownId(_))));
    }

    #[test]
    fn the_environment_token_is_the_local_principal() {
        let folder = tempfile::tempdir().unwrap();
        let file = TokenFile::in_folder(folder.path());
        let bearers = Bearers::new(Some("secret".into()), Some(file.clone()));
        assert_eq!(bearers.admit(Some(&bearer("secret"))), Admission::Principal(Principal::Local));
        assert_eq!(bearers.admit(Some(&bearer("secreT"))), Admission::Refused);
        let (_, token) = file.add(Principal::named("shop").unwrap(), "t").unwrap();
        assert_eq!(bearers.admit(Some(&bearer(&token))), Admission::Principal(Principal::named("shop").unwrap()));
        assert_eq!(bearers.admit(Some(&bearer("secret"))), Admission::Principal(Principal::Local));
    }

    #[test]
    fn concurrent_adds_all_land() {
        let folder = tempfile::tempdir().unwrap();
        let file = TokenFile::in_folder(folder.path());
        std::thread::scope(|scope| {
            for index in 0..8 {
                let file = file.clone();
                scope.spawn(move || file.add(Principal::named(&format!("p{index}")).unwrap(), "t").unwrap());
            }
        });
        assert_eq!(file.list().unwrap().len(), 8);
    }
}
