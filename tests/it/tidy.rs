//! Tidy tests (rust-analyzer's habit): the layering ARCHITECTURE.md promises,
//! checked on the source text so a change that breaks it fails here, not in
//! review.
//!
//! - rmcp, axum and hyper are named only under `src/mcp/`: the protocol is
//!   one module's business, and the core stays usable without a server.
//! - The core (`normalize`, `words`, `facts`, `cart`, `messages`, `finding`, `checks`,
//!   `lines`, `decision`) imports only modules below it in that order, and touches no
//!   file system, environment, clock, network, process or async runtime: the
//!   decision is a function of facts, cart and today (guard.md §6).

use std::fs;
use std::path::{Path, PathBuf};

/// The core modules, lowest first: each may import only those before it.
const CORE: [&str; 9] = ["normalize", "words", "facts", "cart", "messages", "finding", "checks", "lines", "decision"];

/// Paths a core module must not name: I/O, the environment, the clock, the
/// network, processes, the async runtime and the HTTP/model clients.
const IMPURE: [&str; 14] = [
    "std::fs",
    "fs::",
    "std::env",
    "env::var",
    "std::net",
    "std::process",
    "Utc::now",
    "Local::now",
    "SystemTime",
    "Instant::now",
    "tokio",
    "reqwest",
    "std::thread",
    "File::",
];

/// Crates only the server module may name.
const SERVER_CRATES: [&str; 4] = ["rmcp", "axum", "hyper", "hyper_util"];

fn src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The files of module `name` (`src/name.rs` and/or `src/name/**`).
fn module_files(name: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let file = src().join(format!("{name}.rs"));
    if file.is_file() {
        files.push(file);
    }
    let dir = src().join(name);
    if dir.is_dir() {
        rust_files(&dir, &mut files);
    }
    assert!(!files.is_empty(), "module {name} has no source under src/");
    files
}

/// Source lines with comments removed (line comments and doc comments), so
/// prose such as "hyperbole" or "the file system" never counts.
fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter_map(|(i, line)| {
        let code = match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        };
        (!code.trim().is_empty()).then_some((i + 1, code))
    })
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Whether `code` names `path` as a whole identifier path (not as part of a
/// longer word: `hyper` in `hyperbole` does not count).
fn names(code: &str, path: &str) -> bool {
    code.match_indices(path).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + path.len()..].chars().next();
        let starts_word = !before.is_some_and(is_ident_char);
        let ends_word = path.ends_with(':') || !after.is_some_and(is_ident_char);
        starts_word && ends_word
    })
}

/// The crate modules a source text imports through `crate::NAME`.
fn crate_imports(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (line, code) in code_lines(text) {
        for (at, _) in code.match_indices("crate::") {
            let name: String = code[at + "crate::".len()..].chars().take_while(|&c| is_ident_char(c)).collect();
            if !name.is_empty() {
                found.push((line, name));
            }
        }
        // `use crate::{a, b}` names several modules at once.
        // Only the names at the group's top level are modules.
        if let Some(at) = code.find("crate::{") {
            let mut depth = 0usize;
            let mut word = String::new();
            let mut at_item_start = true;
            for c in code[at + "crate::{".len()..].chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => at_item_start = true,
                    c if is_ident_char(c) && depth == 0 && at_item_start => word.push(c),
                    _ => {
                        if !word.is_empty() {
                            found.push((line, std::mem::take(&mut word)));
                            at_item_start = false;
                        }
                    }
                }
            }
            if !word.is_empty() {
                found.push((line, word));
            }
        }
    }
    found
}

/// Violations of the core rules in one file of core module `module`.
fn core_violations(module: &str, file: &str, text: &str) -> Vec<String> {
    let rank = CORE.iter().position(|m| *m == module).expect("a core module");
    let allowed = &CORE[..rank];
    let mut out = Vec::new();
    for (line, name) in crate_imports(text) {
        if name != module && !allowed.contains(&name.as_str()) {
            out.push(format!("{file}:{line}: core module `{module}` imports `crate::{name}`, which is not below it"));
        }
    }
    for (line, code) in code_lines(text) {
        // One report a line: `std::fs::read` is one fault, not two.
        let named = IMPURE.iter().chain(SERVER_CRATES.iter()).find(|path| names(code, path));
        if let Some(path) = named {
            out.push(format!("{file}:{line}: core module `{module}` names `{path}`"));
        }
    }
    out
}

/// Violations of the server rule in one file outside `src/mcp/`.
fn server_violations(file: &str, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (line, code) in code_lines(text) {
        for krate in SERVER_CRATES {
            if names(code, &format!("{krate}::")) || names(code, &format!("use {krate}")) {
                out.push(format!("{file}:{line}: `{krate}` outside src/mcp/"));
            }
        }
    }
    out
}

fn relative(path: &Path) -> String {
    path.strip_prefix(src().parent().unwrap()).unwrap().display().to_string()
}

#[test]
fn the_core_imports_only_what_is_below_it_and_touches_no_io_clock_or_runtime() {
    let mut violations = Vec::new();
    for module in CORE {
        for path in module_files(module) {
            let text = fs::read_to_string(&path).unwrap();
            violations.extend(core_violations(module, &relative(&path), &text));
        }
    }
    assert!(violations.is_empty(), "the core's layering is broken:\n{}", violations.join("\n"));
}

#[test]
fn only_the_server_module_names_rmcp_axum_or_hyper() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mcp = src().join("mcp");
    let mut checked = 0;
    let mut violations = Vec::new();
    for path in files.iter().filter(|p| !p.starts_with(&mcp)) {
        let text = fs::read_to_string(path).unwrap();
        violations.extend(server_violations(&relative(path), &text));
        checked += 1;
    }
    assert!(checked > 50, "only {checked} source files found outside src/mcp/");
    assert!(violations.is_empty(), "server crates leak:\n{}", violations.join("\n"));
    // The rule is about a module that exists and does name them.
    let server: String = module_files("mcp").iter().map(|p| fs::read_to_string(p).unwrap()).collect();
    assert!(names(&server, "rmcp::"), "src/mcp/ no longer names rmcp; update this test");
}

/// The checkers above can fail: each rule rejects a source that breaks it and
/// accepts prose that only looks like it.
#[test]
fn the_tidy_checkers_reject_what_they_are_meant_to() {
    let upward = "use crate::decision::Verdict;\nfn f() {}\n";
    assert_eq!(core_violations("cart", "cart.rs", upward).len(), 1);
    let grouped = "use crate::{facts::{Facts, FieldName}, lines::assign};\n";
    let found = core_violations("checks", "checks/mod.rs", grouped);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("crate::lines"));
    let downward = "use crate::facts::Facts;\nuse crate::normalize::fold;\n";
    assert!(core_violations("cart", "cart.rs", downward).is_empty());

    for impure in [
        "let s = std::fs::read_to_string(p);",
        "let now = chrono::Utc::now();",
        "let k = std::env::var(\"KEY\");",
        "tokio::spawn(async {});",
        "let t = Instant::now();",
    ] {
        assert_eq!(core_violations("decision", "decision.rs", impure).len(), 1, "{impure}");
    }
    let prose = "// reads the file system via std::fs and Utc::now, never here\nlet hyperbole = 1;\n";
    assert!(core_violations("decision", "decision.rs", prose).is_empty());

    assert_eq!(server_violations("service/mod.rs", "use rmcp::model::Tool;").len(), 1);
    assert_eq!(server_violations("cli/serve.rs", "let r = axum::Router::new();").len(), 1);
    assert!(server_violations("sandbox/noisy.rs", "let hyperbole = \"hyper\";").is_empty());
}

/// The database driver stays behind `crate::pg`, as rmcp stays behind `mcp`:
/// the rest of the crate sees `RecordStore` and `SharedFacts` only.
const DATABASE_CRATES: [&str; 2] = ["tokio_postgres", "deadpool_postgres"];

#[test]
fn only_the_pg_module_names_the_database_driver() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let pg = src().join("pg");
    let mut violations = Vec::new();
    for path in files.iter().filter(|p| !p.starts_with(&pg)) {
        for (line, code) in code_lines(&fs::read_to_string(path).unwrap()) {
            for krate in DATABASE_CRATES {
                if names(code, &format!("{krate}::")) || names(code, &format!("use {krate}")) {
                    violations.push(format!("{}:{line}: `{krate}` outside src/pg/", relative(path)));
                }
            }
        }
    }
    assert!(violations.is_empty(), "the database driver leaks:\n{}", violations.join("\n"));
    let pg_source: String = module_files("pg").iter().map(|p| fs::read_to_string(p).unwrap()).collect();
    assert!(names(&pg_source, "tokio_postgres::"), "src/pg/ no longer names tokio_postgres; update this test");
}
