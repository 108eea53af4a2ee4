//! The signing keys of receipts: Ed25519 key pairs in `<data dir>/keys/`,
//! one PKCS#8 file per key (mode 0600), and `current` naming the key that
//! signs. Rotating adds a key and makes it current; older keys stay in the
//! JWKS so receipts they signed still verify until removed by hand.

use std::fs;
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::rand::{SecureRandom, SystemRandom};
use ring::signature::{Ed25519KeyPair, KeyPair};
use serde::{Deserialize, Serialize};

use crate::digest;

#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("key folder {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("key file {path} is not an Ed25519 PKCS#8 key")]
    Invalid { path: PathBuf },
    #[error("key folder {path}: `current` names {kid:?}, which has no key file")]
    MissingCurrent { path: PathBuf, kid: String },
    #[error("key folder {path} holds no key (`asasked keys` creates one)")]
    NoKeys { path: PathBuf },
    #[error("the system random source failed")]
    Random,
    #[error("key file {path} holds {actual} bytes; a request-state secret has {expected}")]
    BadSecret { path: PathBuf, actual: usize, expected: usize },
}

/// One signing key.
pub struct SigningKey {
    kid: String,
    pair: Ed25519KeyPair,
}

impl SigningKey {
    pub fn kid(&self) -> &str {
        &self.kid
    }

    pub fn sign(&self, message: &[u8]) -> Vec<u8> {
        self.pair.sign(message).as_ref().to_vec()
    }

    fn public_jwk(&self) -> Jwk {
        Jwk {
            kty: "OKP".to_owned(),
            crv: "Ed25519".to_owned(),
            x: URL_SAFE_NO_PAD.encode(self.pair.public_key().as_ref()),
            kid: self.kid.clone(),
            alg: "EdDSA".to_owned(),
            key_use: "sig".to_owned(),
        }
    }
}

/// A public key as a JWK (RFC 8037: `kty: OKP`, `crv: Ed25519`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Jwk {
    pub kty: String,
    pub crv: String,
    pub x: String,
    pub kid: String,
    pub alg: String,
    #[serde(rename = "use")]
    pub key_use: String,
}

/// A JWK Set: what `/.well-known/jwks.json` and `asasked keys` publish.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Jwks {
    pub keys: Vec<Jwk>,
}

impl Jwks {
    /// The raw 32-byte public key with id `kid`, if the set has an Ed25519 one.
    pub fn public_key(&self, kid: &str) -> Option<Vec<u8>> {
        let jwk = self.keys.iter().find(|key| key.kid == kid && key.kty == "OKP" && key.crv == "Ed25519")?;
        let bytes = URL_SAFE_NO_PAD.decode(&jwk.x).ok()?;
        (bytes.len() == 32).then_some(bytes)
    }
}

/// The keys in one folder.
pub struct KeyRing {
    folder: PathBuf,
    keys: Vec<SigningKey>,
    current: String,
}

const CURRENT: &str = "current";
const SUFFIX: &str = ".ed25519.pk8";

impl KeyRing {
    /// Opens the key folder, creating it and a first key if there is none.
    pub fn open_or_create(folder: &Path) -> Result<KeyRing, KeyError> {
        let io = |source| KeyError::Io { path: folder.to_owned(), source };
        // Only the owner may list the folder, as only they may read a key.
        fs::DirBuilder::new().recursive(true).mode(0o700).create(folder).map_err(io)?;
        // Several processes may start at once on a fresh data folder (issue
        // 31: every MCP client window starts its own server): one creates
        // the first key while the others wait, then read it.
        let _lock = lock(folder)?;
        let mut ring = KeyRing::load(folder)?;
        if ring.keys.is_empty() {
            ring.rotate_locked()?;
        }
        Ok(ring)
    }

    /// Opens a key folder that must already hold keys (a verifier never
    /// creates one: no keys means nothing it signed can be valid).
    pub fn open_existing(folder: &Path) -> Result<KeyRing, KeyError> {
        let ring = KeyRing::load(folder)?;
        if ring.keys.is_empty() {
            return Err(KeyError::NoKeys { path: folder.to_owned() });
        }
        Ok(ring)
    }

    fn load(folder: &Path) -> Result<KeyRing, KeyError> {
        let io = |source| KeyError::Io { path: folder.to_owned(), source };
        let mut files: Vec<PathBuf> = fs::read_dir(folder)
            .map_err(io)?
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| path.file_name().and_then(|name| name.to_str()).is_some_and(|name| name.ends_with(SUFFIX)))
            .collect();
        files.sort();
        let mut keys = Vec::new();
        for path in files {
            let bytes = fs::read(&path).map_err(|source| KeyError::Io { path: path.clone(), source })?;
            let pair = Ed25519KeyPair::from_pkcs8(&bytes).map_err(|_| KeyError::Invalid { path: path.clone() })?;
            keys.push(SigningKey { kid: kid_of(&pair), pair });
        }
        let current = match fs::read_to_string(folder.join(CURRENT)) {
            Ok(text) => text.trim().to_owned(),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(source) => return Err(KeyError::Io { path: folder.join(CURRENT), source }),
        };
        if !keys.is_empty() && !keys.iter().any(|key| key.kid == current) {
            return Err(KeyError::MissingCurrent { path: folder.to_owned(), kid: current });
        }
        Ok(KeyRing { folder: folder.to_owned(), keys, current })
    }

    /// Adds a new key and makes it the one that signs; returns its id.
    pub fn rotate(&mut self) -> Result<String, KeyError> {
        let _lock = lock(&self.folder)?;
        self.rotate_locked()
    }

    /// [`KeyRing::rotate`], the folder's lock held.
    fn rotate_locked(&mut self) -> Result<String, KeyError> {
        let random = SystemRandom::new();
        let document = Ed25519KeyPair::generate_pkcs8(&random).map_err(|_| KeyError::Random)?;
        let pair = Ed25519KeyPair::from_pkcs8(document.as_ref()).map_err(|_| KeyError::Random)?;
        let kid = kid_of(&pair);
        // Written whole under a temporary name, so a reader never sees part
        // of a key.
        let path = self.folder.join(format!("{kid}{SUFFIX}"));
        let temporary = self.folder.join(format!("{kid}.tmp"));
        write_private(&temporary, document.as_ref())?;
        fs::rename(&temporary, &path).map_err(|source| KeyError::Io { path: path.clone(), source })?;
        // The new key is on disk before `current` names it; `current` is
        // replaced by a rename, so a crash leaves the old or the new name.
        let temporary = self.folder.join(format!("{CURRENT}.tmp"));
        write_private(&temporary, kid.as_bytes())?;
        fs::rename(&temporary, self.folder.join(CURRENT))
            .map_err(|source| KeyError::Io { path: self.folder.join(CURRENT), source })?;
        self.keys.push(SigningKey { kid: kid.clone(), pair });
        self.current = kid.clone();
        Ok(kid)
    }

    /// The key that signs new receipts.
    pub fn current(&self) -> Result<&SigningKey, KeyError> {
        self.keys
            .iter()
            .find(|key| key.kid == self.current)
            .ok_or_else(|| KeyError::MissingCurrent { path: self.folder.clone(), kid: self.current.clone() })
    }

    /// Every public key, current first.
    pub fn jwks(&self) -> Jwks {
        let mut keys: Vec<Jwk> = self.keys.iter().map(SigningKey::public_jwk).collect();
        keys.sort_by_key(|key| key.kid != self.current);
        Jwks { keys }
    }
}

/// A key id: the first 16 hex digits of the public key's SHA-256.
fn kid_of(pair: &Ed25519KeyPair) -> String {
    let full = digest::sha256(pair.public_key().as_ref());
    full.trim_start_matches("sha256:").chars().take(16).collect()
}

/// The key folder's lock (an exclusive `flock` on `.lock`, released when
/// the returned file closes): key and secret creation take turns across
/// processes.
fn lock(folder: &Path) -> Result<fs::File, KeyError> {
    let path = folder.join(".lock");
    let io = |source| KeyError::Io { path: path.clone(), source };
    let file = fs::OpenOptions::new().write(true).create(true).truncate(false).mode(0o600).open(&path).map_err(io)?;
    file.lock().map_err(io)?;
    Ok(file)
}

fn write_private(path: &Path, bytes: &[u8]) -> Result<(), KeyError> {
    let io = |source| KeyError::Io { path: path.to_owned(), source };
    let mut file = fs::OpenOptions::new().write(true).create(true).truncate(true).mode(0o600).open(path).map_err(io)?;
    file.write_all(bytes).map_err(io)?;
    file.sync_all().map_err(io)
}

/// The file of the secret that seals MCP `requestState` values.
pub const STATE_SECRET: &str = "request-state.secret";
/// Its length: 256 bits, as HMAC-SHA-256 wants.
const STATE_SECRET_LEN: usize = 32;

/// The secret that seals the `requestState` of a 2026-07-28 elicitation
/// round (see `mcp::elicit`): read from `folder`, or drawn and written (0600)
/// on first use. Instances behind one address must share it, as they share
/// the receipt keys, so a retry may land on any of them.
pub fn state_secret(folder: &Path) -> Result<Vec<u8>, KeyError> {
    let io = |source| KeyError::Io { path: folder.to_owned(), source };
    fs::DirBuilder::new().recursive(true).mode(0o700).create(folder).map_err(io)?;
    let path = folder.join(STATE_SECRET);
    let _lock = lock(folder)?;
    match fs::read(&path) {
        Ok(bytes) if bytes.len() == STATE_SECRET_LEN => Ok(bytes),
        Ok(bytes) => Err(KeyError::BadSecret { path, actual: bytes.len(), expected: STATE_SECRET_LEN }),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            let mut bytes = vec![0u8; STATE_SECRET_LEN];
            SystemRandom::new().fill(&mut bytes).map_err(|_| KeyError::Random)?;
            // Written under a temporary name and renamed, so a crash never
            // leaves a short secret that every later start would refuse.
            let temporary = folder.join(format!("{STATE_SECRET}.tmp"));
            write_private(&temporary, &bytes)?;
            fs::rename(&temporary, &path).map_err(|source| KeyError::Io { path: path.clone(), source })?;
            Ok(bytes)
        }
        Err(source) => Err(KeyError::Io { path, source }),
    }
}

/// 128 random bits as hex.
pub fn nonce() -> Result<String, KeyError> {
    let mut bytes = [0u8; 16];
    SystemRandom::new().fill(&mut bytes).map_err(|_| KeyError::Random)?;
    Ok(hex::encode(bytes))
}
