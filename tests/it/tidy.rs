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
//! - No two files of `src/` import each other, directly or through others
//!   (issue 27 §3): the file-level import graph has no cycle, but for a
//!   temporary allow-list that may only shrink.
//! - `extract` imports neither `providers`, `sandbox` nor `extractors`;
//!   `anyhow` is named only in `src/main.rs`; sentences for the person are
//!   written only in `messages` (a heuristic, with its exceptions listed).
//! - The parser's and the word layer's code holds rules, not word lists
//!   (issue 27 §1): no `matches!` in `src/extract/` or `src/words/` names
//!   more than four words; a longer list is a mark in an
//!   `extractors/words/` class, reviewed as data.

use std::collections::{BTreeMap, BTreeSet};
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

    imports_and_cycles_are_seen();
    conventions_are_seen();
    sentences_are_seen();
}

/// A small crate as `(file, text)` pairs.
fn crate_of(files: &[(&str, &str)]) -> Vec<(String, String)> {
    files.iter().map(|(file, text)| (file.to_string(), text.to_string())).collect()
}

fn imports_and_cycles_are_seen() {
    let lib = ("src/lib.rs", "pub mod a;\npub mod z;\n");
    let parent = ("src/a/mod.rs", "mod b;\nmod c;\npub use c::Reexported;\npub struct Shared;\n");
    let plain = [lib, parent, ("src/z.rs", "pub fn f() {}\n")];
    let edges_of = |extra: &[(&str, &str)]| {
        let files: Vec<_> = plain.iter().chain(extra).copied().collect();
        import_graph(&crate_of(&files))
    };
    let pairs = |edges: &[Edge]| {
        let mut pairs: Vec<_> = edges.iter().map(|e| format!("{} -> {}", e.from, e.to)).collect();
        pairs.sort();
        pairs.dedup();
        pairs
    };

    // Each form of path is resolved to the file that defines its item.
    for (b_text, to) in [
        ("use super::c::Item;", "src/a/c.rs"),
        ("use crate::a::{c::{self, Item}, Shared};", "src/a/c.rs"),
        ("fn g() { crate::z::f(); }", "src/z.rs"),
        ("use super::super::z;", "src/z.rs"),
        ("use super::Reexported;", "src/a/c.rs"),
        ("fn g() -> crate::a::Reexported { todo!() }", "src/a/c.rs"),
    ] {
        let edges = edges_of(&[("src/a/b.rs", b_text), ("src/a/c.rs", "pub struct Item;")]);
        assert_eq!(pairs(&edges), vec![format!("src/a/b.rs -> {to}"), "src/a/mod.rs -> src/a/c.rs".into()], "{b_text}");
    }
    // Not imports: a parent's `mod b;`, a child's use of what its parent
    // defines, `super` inside a file's own `mod tests`, paths in comments,
    // strings and other crates.
    let quiet = "use super::Shared;\nuse std::fmt;\n// crate::z::f\nconst S: &str = \"crate::z::f\";\n\
                 #[cfg(test)]\nmod tests {\n    use super::*;\n}\n";
    let edges = edges_of(&[("src/a/b.rs", quiet), ("src/a/c.rs", "")]);
    assert_eq!(pairs(&edges), vec!["src/a/mod.rs -> src/a/c.rs".to_string()]);

    // A circle, directly or through a third file, is named with its files.
    let circle = edges_of(&[("src/a/b.rs", "use super::c::Item;"), ("src/a/c.rs", "pub fn h() { crate::a::b::g(); }")]);
    let found = cycle_violations(&circle, &[]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("src/a/b.rs, src/a/c.rs"), "{}", found[0]);
    let through = edges_of(&[
        ("src/a/b.rs", "use super::c::Item;"),
        ("src/a/c.rs", "use crate::z::f;"),
        ("src/z.rs", "use crate::a::Reexported;"),
    ]);
    assert_eq!(cycle_violations(&through, &[]).len(), 1);
    let acyclic = edges_of(&[("src/a/b.rs", "use super::c::Item;"), ("src/a/c.rs", "use crate::z::f;")]);
    assert!(cycle_violations(&acyclic, &[]).is_empty());
    // The allow-list holds a cycle exactly: listed, it passes; grown, it
    // fails; gone, its entry fails.
    let listed: &[&str] = &["src/a/b.rs", "src/a/c.rs"];
    assert!(cycle_violations(&circle, &[listed]).is_empty());
    let grown: &[&str] = &["src/a/b.rs", "src/a/c.rs", "src/z.rs"];
    assert_eq!(cycle_violations(&circle, &[grown]).len(), 2, "an unlisted cycle and a stale entry");
    assert_eq!(cycle_violations(&acyclic, &[listed]).len(), 1, "a stale entry");
}

fn conventions_are_seen() {
    let lib = ("src/lib.rs", "pub mod extract;\npub mod providers;\npub mod sandbox;\n");
    let bad = crate_of(&[lib, ("src/extract/mod.rs", "use crate::providers::Client;\n"), ("src/providers.rs", "")]);
    assert_eq!(extract_violations(&import_graph(&bad)).len(), 1);
    let inline =
        crate_of(&[lib, ("src/extract/mod.rs", "fn f() { crate::sandbox::run(); }\n"), ("src/sandbox.rs", "")]);
    assert_eq!(extract_violations(&import_graph(&inline)).len(), 1);
    let upward = crate_of(&[
        lib,
        ("src/extract/mod.rs", "// not crate::providers\n"),
        ("src/providers.rs", "use crate::extract::X;"),
    ]);
    assert!(extract_violations(&import_graph(&upward)).is_empty());

    assert_eq!(anyhow_violations("src/cli/mod.rs", "use anyhow::Context;\n").len(), 1);
    assert_eq!(anyhow_violations("src/service/mod.rs", "fn f() -> anyhow::Result<()> { Ok(()) }\n").len(), 1);
    assert!(anyhow_violations("src/main.rs", "use anyhow::Context;\n").is_empty());
    assert!(anyhow_violations("src/lib.rs", "// unlike anyhow\nconst S: &str = \"anyhow\";\n").is_empty());
    assert_eq!(
        allocator_violations("src/lib.rs", "#[global_allocator]\nstatic A: mimalloc::MiMalloc = mimalloc::MiMalloc;\n")
            .len(),
        2
    );
    assert!(allocator_violations("src/main.rs", "#[global_allocator]\n").is_empty());
    assert!(allocator_violations("src/lib.rs", "// not mimalloc here\n").is_empty());
}

fn sentences_are_seen() {
    for sentence in
        ["Your size is not in stock.", "Is this the colour you asked for?", "Размер не совпадает.", "не позднее {date}"]
    {
        assert!(reads_as_sentence(sentence), "{sentence}");
    }
    for not_one in [
        "по возможности",
        "\\b(?:заметка)\\s+(?:{addressee})",
        "SELECT seq FROM head.",
        "invalid reply: empty.",
        "Rounds { .. }",
        "A pre-checkout guard",
    ] {
        assert!(!reads_as_sentence(not_one), "{not_one}");
    }
    let lib = ("src/lib.rs", "pub mod messages;\npub mod service;\n");
    let service = |text: &str| crate_of(&[lib, ("src/service.rs", text)]);
    let bad = "fn f() -> String { \"The cart is over budget.\".into() }";
    assert_eq!(sentence_violations(&service(bad), &[]).len(), 1);
    let continued = "const S: &str = \"Paid by\\\n    card. Thank you\";";
    assert_eq!(sentence_violations(&service(continued), &[]).len(), 1);
    for quiet in [
        "#[cfg(test)]\nmod tests {\n    const S: &str = \"The cart is over budget.\";\n}",
        "fn f() { tracing::warn!(\"The log ended in a torn line.\"); }",
        "#[derive(thiserror::Error)]\nenum E {\n    #[error(\"The store is locked.\")]\n    Locked,\n}",
        "fn f() { x.expect(\"The index is never poisoned.\"); }",
        "/// The cart is over budget.\nfn f() {}",
    ] {
        assert!(sentence_violations(&service(quiet), &[]).is_empty(), "{quiet}");
    }
    let in_messages = crate_of(&[lib, ("src/messages/en.rs", "const S: &str = \"The cart is over budget.\";")]);
    assert!(sentence_violations(&in_messages, &[]).is_empty());
    let test_file = crate_of(&[lib, ("src/service.rs", "#[cfg(test)]\nmod tests;\n"), ("src/service/tests.rs", bad)]);
    assert!(sentence_violations(&test_file, &[]).is_empty());
    let allowed = [("src/service.rs", "The cart is", "a reason")];
    assert!(sentence_violations(&service(bad), &allowed).is_empty());
    assert_eq!(sentence_violations(&service("fn f() {}"), &allowed).len(), 1, "a stale entry");
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

// ---------------------------------------------------------------------------
// The file-level import graph: no circle between files.

/// A source text with comments removed and string literals emptied, so a
/// path written in prose or in a message never counts; newlines are kept so
/// offsets still give line numbers. The literals come back separately.
struct Scanned {
    code: String,
    literals: Vec<Literal>,
}

/// One string literal: where it stood in `Scanned::code` (the offset of its
/// emptied `""`), its line, and its text as written (escapes not decoded).
struct Literal {
    at: usize,
    line: usize,
    text: String,
}

fn scan(text: &str) -> Scanned {
    let chars: Vec<char> = text.chars().collect();
    let mut code = String::with_capacity(text.len());
    let mut literals = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    while i < chars.len() {
        let c = chars[i];
        if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        code.push('\n');
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if c == '"'
            || (matches!(c, 'r' | 'b' | 'c') && !is_ident_char(prev_char(&code)) && starts_literal(&chars[i..]))
        {
            // `"…"`, `r#"…"#`, `b"…"`, `br"…"`, `c"…"`.
            let mut raw = false;
            while chars[i] != '"' && chars[i] != '#' {
                raw |= chars[i] == 'r';
                i += 1;
            }
            let mut hashes = 0;
            while chars[i] == '#' {
                hashes += 1;
                i += 1;
            }
            i += 1; // the opening quote
            let start_line = line;
            let mut literal = String::new();
            while i < chars.len() {
                let d = chars[i];
                if d == '\\' && !raw {
                    literal.push(d);
                    literal.push(at(i + 1));
                    if at(i + 1) == '\n' {
                        line += 1;
                    }
                    i += 2;
                    continue;
                }
                if d == '"' && (0..hashes).all(|k| at(i + 1 + k) == '#') {
                    i += 1 + hashes;
                    break;
                }
                if d == '\n' {
                    line += 1;
                }
                literal.push(d);
                i += 1;
            }
            literals.push(Literal { at: code.len(), line: start_line, text: literal });
            code.push_str("\"\"");
            // Keep the lines the literal spanned, for later line numbers.
            for _ in start_line..line {
                code.push('\n');
            }
        } else if c == '\'' {
            // A char literal (`'x'`, `'\n'`, `'\u{1F600}'`) or a lifetime (`'a`).
            if at(i + 1) == '\\' {
                i += 2;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
                code.push_str("' '");
            } else if at(i + 2) == '\'' {
                i += 3;
                code.push_str("' '");
            } else {
                code.push(c);
                i += 1;
            }
        } else {
            if c == '\n' {
                line += 1;
            }
            code.push(c);
            i += 1;
        }
    }
    Scanned { code, literals }
}

fn prev_char(code: &str) -> char {
    code.chars().next_back().unwrap_or(' ')
}

/// Whether a prefixed string literal (`r"`, `r#"`, `b"`, `br"`, `c"`) starts here.
fn starts_literal(rest: &[char]) -> bool {
    let mut i = 0;
    if matches!(rest.first(), Some('b' | 'c')) {
        i += 1;
    }
    if rest.get(i) == Some(&'r') {
        i += 1;
        while rest.get(i) == Some(&'#') {
            i += 1;
        }
    }
    i > 0 && rest.get(i) == Some(&'"')
}

fn line_at(code: &str, offset: usize) -> usize {
    code[..offset].matches('\n').count() + 1
}

/// A module path, from the crate root: `["evidence", "store"]`.
type ModulePath = Vec<String>;

/// The module a file is: `src/lib.rs` is the root, `src/a.rs` and
/// `src/a/mod.rs` are `a`, `src/a/b.rs` is `a::b`.
fn module_of(file: &str) -> ModulePath {
    let stem = file.trim_start_matches("src/").trim_end_matches(".rs");
    let stem = stem.strip_suffix("/mod").unwrap_or(stem);
    if stem == "lib" { Vec::new() } else { stem.split('/').map(str::to_string).collect() }
}

/// One path a file names that may lead into the crate, where it stands, and
/// whether it is a `pub use` (a re-export, by which other files reach on).
struct NamedPath {
    line: usize,
    path: Vec<String>,
    /// The module the path is relative to (the file's, or an inline `mod` in it).
    scope: ModulePath,
    /// For a `pub use`: the name it exports (the alias, or the last segment).
    exports: Option<String>,
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn ident_at(code: &str, at: usize) -> &str {
    let end = code[at..].bytes().position(|b| !is_ident_byte(b)).map_or(code.len(), |n| at + n);
    &code[at..end]
}

/// The paths of one `use` tree (`super::{a, b::{self, C as D}, *}`), each
/// with the name it binds (`None` for a glob).
fn use_tree_paths(tree: &str) -> Vec<(Vec<String>, Option<String>)> {
    let mut tokens = Vec::new();
    let mut rest = tree.trim();
    while !rest.is_empty() {
        let token_len = if rest.starts_with("::") {
            2
        } else if rest.starts_with(['{', '}', ',', '*']) {
            1
        } else {
            rest.bytes().position(|b| !is_ident_byte(b) && b != b'$').unwrap_or(rest.len()).max(1)
        };
        tokens.push(&rest[..token_len]);
        rest = rest[token_len..].trim_start();
    }
    let mut out = Vec::new();
    let mut at = 0;
    use_tree(&tokens, &mut at, Vec::new(), &mut out);
    out
}

fn use_tree(tokens: &[&str], at: &mut usize, prefix: Vec<String>, out: &mut Vec<(Vec<String>, Option<String>)>) {
    let mut path = prefix;
    while let Some(&token) = tokens.get(*at) {
        match token {
            "::" => *at += 1,
            "{" => {
                *at += 1;
                while tokens.get(*at).is_some_and(|t| *t != "}") {
                    use_tree(tokens, at, path.clone(), out);
                    if tokens.get(*at) == Some(&",") {
                        *at += 1;
                    }
                }
                *at += 1;
                return;
            }
            "*" => {
                *at += 1;
                out.push((path, None));
                return;
            }
            "," | "}" => break,
            "as" => {
                *at += 1;
                let alias = tokens.get(*at).map(|t| t.to_string());
                *at += 1;
                out.push((path, alias.filter(|a| a != "_")));
                return;
            }
            ident => {
                *at += 1;
                // `{self}` in a group names the group's prefix itself.
                if ident != "self" || path.is_empty() {
                    path.push(ident.to_string());
                }
            }
        }
    }
    let name = path.last().cloned();
    if !path.is_empty() {
        out.push((path, name));
    }
}

/// Every path in `code` (comments and strings already gone) that starts
/// with `crate`, `super`, `self` or a child module's name: `use` trees and
/// inline paths such as `crate::digest::hex(…)`. Inline `mod x { … }` blocks
/// are tracked, so `super::` in a `mod tests` names the file's own module.
fn named_paths(file_module: &[String], modules: &BTreeSet<ModulePath>, code: &str) -> Vec<NamedPath> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut pending_mod: Option<String> = None;
    let scope = |inline: &[(String, usize)]| -> ModulePath {
        file_module.iter().cloned().chain(inline.iter().map(|(name, _)| name.clone())).collect()
    };
    let leads_in = |scope: &ModulePath, first: &str| {
        matches!(first, "crate" | "$crate" | "super" | "self")
            || modules.contains(&scope.iter().cloned().chain([first.to_string()]).collect::<Vec<_>>())
    };
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'{' => {
                depth += 1;
                if let Some(name) = pending_mod.take() {
                    inline.push((name, depth));
                }
            }
            b'}' => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            b';' => pending_mod = None,
            _ => {}
        }
        let starts_word = (is_ident_byte(b) || b == b'$') && (i == 0 || !is_ident_byte(bytes[i - 1]));
        if !starts_word {
            i += 1;
            continue;
        }
        let word = if b == b'$' { format!("${}", ident_at(code, i + 1)) } else { ident_at(code, i).to_string() };
        let after = i + word.len();
        if word == "mod" {
            let name_at = after + code[after..].len() - code[after..].trim_start().len();
            pending_mod = Some(ident_at(code, name_at).to_string());
            i = name_at;
            continue;
        }
        if word == "use" && code[after..].starts_with(char::is_whitespace) {
            let end = code[after..].find(';').map_or(code.len(), |n| after + n);
            let statement_start = code[..i].rfind([';', '{', '}', ']']).map_or(0, |n| n + 1);
            let public = code[statement_start..i].trim_start().starts_with("pub");
            let line = line_at(code, i);
            let here = scope(&inline);
            for (path, name) in use_tree_paths(&code[after..end]) {
                if leads_in(&here, &path[0]) {
                    let exports = if public { name } else { None };
                    out.push(NamedPath { line, path, scope: here.clone(), exports });
                }
            }
            i = end;
            continue;
        }
        let continues_path = i >= 2 && &code[i - 2..i] == "::";
        if code[after..].starts_with("::") && !continues_path {
            let mut path = vec![word];
            let mut end = after;
            while code[end..].starts_with("::") {
                let next = ident_at(code, end + 2);
                if next.is_empty() {
                    break;
                }
                path.push(next.to_string());
                end += 2 + next.len();
            }
            let here = scope(&inline);
            if leads_in(&here, &path[0]) {
                out.push(NamedPath { line: line_at(code, i), path, scope: here, exports: None });
            }
            i = end;
            continue;
        }
        i = after;
    }
    out
}

/// A path made absolute from the module it is written in; `None` for a path
/// into another crate.
fn absolute(scope: &[String], path: &[String]) -> Option<ModulePath> {
    let mut base: ModulePath = scope.to_vec();
    let mut rest = path;
    match rest.first()?.as_str() {
        "crate" | "$crate" => {
            base.clear();
            rest = &rest[1..];
        }
        "self" => rest = &rest[1..],
        _ => {}
    }
    while rest.first().is_some_and(|s| s == "super") {
        base.pop()?;
        rest = &rest[1..];
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// One import edge between two files.
struct Edge {
    from: String,
    to: String,
    line: usize,
}

/// The file-level import graph of a crate given as `(file, text)` pairs
/// (`src/…` paths; `src/main.rs` is the binary's crate and is left out).
/// A path goes to the file of its longest module prefix: `crate::a::b::Item`
/// is `a/b.rs` when `b` is a file, `a/mod.rs` (or `a.rs`) when `Item` is
/// declared there. A parent's `mod child;` is not an import; a `pub use` is,
/// and a path through one is followed to the file that defines the item.
/// A file's use of what an ancestor module's own file defines (a child's
/// `use super::StoreError`) is not counted: without that rule every
/// `mod.rs` that re-exports a child which uses the module's error type
/// would be a cycle, and the conventional layout of a module could not pass.
fn import_graph(files: &[(String, String)]) -> Vec<Edge> {
    let files: Vec<_> = files.iter().filter(|(file, _)| file != "src/main.rs").collect();
    let file_of: BTreeMap<ModulePath, &str> = files.iter().map(|(file, _)| (module_of(file), file.as_str())).collect();
    let modules: BTreeSet<ModulePath> = file_of.keys().cloned().collect();
    let named: Vec<(&str, Vec<NamedPath>)> = files
        .iter()
        .map(|(file, text)| (file.as_str(), named_paths(&module_of(file), &modules, &scan(text).code)))
        .collect();
    // What each module re-exports: (module, name) → the absolute path.
    let mut reexports: BTreeMap<(ModulePath, String), ModulePath> = BTreeMap::new();
    for (file, paths) in &named {
        for path in paths {
            if let (Some(name), Some(target)) = (&path.exports, absolute(&path.scope, &path.path)) {
                reexports.insert((module_of(file), name.clone()), target);
            }
        }
    }
    let mut edges = Vec::new();
    for (file, paths) in &named {
        let own = module_of(file);
        for named in paths {
            let Some(mut path) = absolute(&named.scope, &named.path) else { continue };
            // Follow re-exports to the file that defines the item (a few
            // hops at most; the bound stops a re-export naming itself).
            let mut module_len = 0;
            for _ in 0..8 {
                module_len =
                    (0..=path.len()).rev().find(|&n| file_of.contains_key(&path[..n])).expect("the root is lib.rs");
                let Some(item) = path.get(module_len) else { break };
                let Some(target) = reexports.get(&(path[..module_len].to_vec(), item.clone())) else { break };
                path = target.iter().chain(&path[module_len + 1..]).cloned().collect();
            }
            let module = &path[..module_len];
            // What an ancestor module's own file defines is the shared
            // namespace its children are written in: a child using its
            // parent's error type is not a circle with the parent.
            let ancestor = module.len() < own.len() && own.starts_with(module);
            let target = file_of[module];
            if target != *file && !ancestor {
                edges.push(Edge { from: file.to_string(), to: target.to_string(), line: named.line });
            }
        }
    }
    edges
}

/// The import cycles: each strongly connected set of two or more files, with
/// the edges inside it, sorted so the report and the allow-list are stable.
fn import_cycles(edges: &[Edge]) -> Vec<(Vec<String>, Vec<String>)> {
    let mut next: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for edge in edges {
        next.entry(&edge.from).or_default().insert(&edge.to);
    }
    let reach = |start: &str| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![start];
        while let Some(file) = stack.pop() {
            for &to in next.get(file).into_iter().flatten() {
                if seen.insert(to) {
                    stack.push(to);
                }
            }
        }
        seen
    };
    let reachable: BTreeMap<&str, BTreeSet<&str>> = next.keys().map(|&file| (file, reach(file))).collect();
    let mut cycles: BTreeSet<Vec<String>> = BTreeSet::new();
    for (&file, reached) in &reachable {
        if !reached.contains(file) {
            continue;
        }
        let members: Vec<String> = reached
            .iter()
            .filter(|&&other| reachable.get(other).is_some_and(|back| back.contains(file)))
            .map(|s| s.to_string())
            .collect();
        cycles.insert(members);
    }
    cycles
        .into_iter()
        .map(|members| {
            let mut inside: Vec<String> = edges
                .iter()
                .filter(|e| members.contains(&e.from) && members.contains(&e.to))
                .map(|e| format!("{}:{} -> {}", e.from, e.line, e.to))
                .collect();
            inside.dedup();
            (members, inside)
        })
        .collect()
}

fn source_files() -> Vec<(String, String)> {
    let mut paths = Vec::new();
    rust_files(&src(), &mut paths);
    paths.iter().map(|p| (relative(p), fs::read_to_string(p).unwrap())).collect()
}

/// Import cycles allowed while they are being dissolved: none. The rules
/// extractor's word checks (`clause ↔ colour ↔ size ↔ requirement`) were the
/// last, until their words moved into `words` (issue 27). Each entry would be
/// one strongly connected set of files, exactly as the checker finds it; the
/// test below fails when an entry no longer exists, so the list only shrinks.
const TEMPORARILY_ALLOWED_CYCLES: [&[&str]; 0] = [];

/// Cycles in `edges` not on the allow-list, and allow-list entries that no
/// longer exist, as messages naming the files.
fn cycle_violations(edges: &[Edge], allowed: &[&[&str]]) -> Vec<String> {
    let cycles = import_cycles(edges);
    let mut out = Vec::new();
    for (members, inside) in &cycles {
        if !allowed.iter().any(|entry| entry.iter().eq(members.iter())) {
            out.push(format!("import cycle between {}:\n  {}", members.join(", "), inside.join("\n  ")));
        }
    }
    for entry in allowed {
        if !cycles.iter().any(|(members, _)| entry.iter().eq(members.iter())) {
            out.push(format!(
                "the allowed cycle {} no longer exists as listed: shrink the allow-list",
                entry.join(", ")
            ));
        }
    }
    out
}

#[test]
fn no_two_source_files_import_each_other_even_through_others() {
    let files = source_files();
    let edges = import_graph(&files);
    // The graph is the crate's, not an empty one: the checker sees the
    // well-known arrows.
    assert!(files.len() > 100 && edges.len() > 500, "{} files, {} edges", files.len(), edges.len());
    let sees = |from: &str, to: &str| edges.iter().any(|e| e.from == from && e.to == to);
    assert!(sees("src/decision.rs", "src/checks/mod.rs"), "the graph misses decision -> checks");
    assert!(sees("src/service/mod.rs", "src/decision.rs"), "the graph misses service -> decision");
    let violations = cycle_violations(&edges, &TEMPORARILY_ALLOWED_CYCLES);
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

// ---------------------------------------------------------------------------
// Person-facing sentences live in `messages`.

/// The byte ranges of `code` under `#[cfg(test)]`: the item after the
/// attribute, to its `;` or its matching `}`.
fn test_only_ranges(code: &str) -> Vec<std::ops::Range<usize>> {
    let mut ranges = Vec::new();
    for (at, attribute) in code.match_indices("#[cfg(test)]") {
        let after = at + attribute.len();
        let Some(open) = code[after..].find(['{', ';']).map(|n| after + n) else { continue };
        if code.as_bytes()[open] == b';' {
            ranges.push(at..open + 1);
            continue;
        }
        let mut depth = 0usize;
        let mut end = code.len();
        for (offset, b) in code.bytes().enumerate().skip(open) {
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = offset + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        ranges.push(at..end);
    }
    ranges
}

/// The macro or attribute a literal at `at` is an argument of: the name
/// before the innermost unclosed `(`, with its `!` (`warn!`, `format!`) or
/// its `#[` (`#[error`), or `None` outside any call.
fn enclosing_call(code: &str, at: usize) -> Option<String> {
    let before = code[..call_open(code, at)?].trim_end();
    let name_start = before
        .rfind(|c: char| !(is_ident_char(c) || c == '!' || c == ':' || c == '#' || c == '['))
        .map_or(0, |n| n + 1);
    Some(before[name_start..].to_string())
}

/// The offset of the innermost unclosed `(` before `at`, within its
/// statement: the call or macro a literal at `at` is an argument of.
fn call_open(code: &str, at: usize) -> Option<usize> {
    let bytes = code.as_bytes();
    let mut depth = 0usize;
    let mut open = None;
    for i in (0..at).rev() {
        match bytes[i] {
            b')' | b']' | b'}' => depth += 1,
            b'(' | b'[' | b'{' if depth > 0 => depth -= 1,
            b'(' => {
                open = Some(i);
                break;
            }
            b'{' | b';' => break,
            _ => {}
        }
    }
    open
}

// ---------------------------------------------------------------------------
// Conventions the layering rests on.

/// Whether `file` belongs to module `module` (`src/a.rs` or `src/a/…`).
fn in_module(file: &str, module: &str) -> bool {
    file == format!("src/{module}.rs") || file.starts_with(&format!("src/{module}/"))
}

/// The parsing half of `extract` is below the clients and the tools: it
/// names neither the HTTP providers, nor the sandbox, nor the registry of
/// extractors that builds them (`extractors`).
const EXTRACT_MUST_NOT_IMPORT: [&str; 3] = ["providers", "sandbox", "extractors"];

fn extract_violations(edges: &[Edge]) -> Vec<String> {
    edges
        .iter()
        .filter(|edge| in_module(&edge.from, "extract"))
        .filter_map(|edge| {
            let module = EXTRACT_MUST_NOT_IMPORT.iter().find(|module| in_module(&edge.to, module))?;
            Some(format!("{}:{}: `extract` imports `{module}` ({})", edge.from, edge.line, edge.to))
        })
        .collect()
}

#[test]
fn extract_imports_neither_providers_nor_sandbox_nor_extractors() {
    let edges = import_graph(&source_files());
    assert!(edges.iter().any(|e| in_module(&e.from, "extract")), "no import from src/extract/ found");
    let violations = extract_violations(&edges);
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

/// The lines of code (not comments or strings) outside `src/main.rs` that
/// `found` flags, each named with `why`: what only the binary may do.
fn outside_main(file: &str, text: &str, found: impl Fn(&str) -> bool, why: &str) -> Vec<String> {
    if file == "src/main.rs" {
        return Vec::new();
    }
    let code = scan(text).code;
    code.lines()
        .enumerate()
        .filter(|(_, line)| found(line))
        .map(|(index, _)| format!("{file}:{}: {why}", index + 1))
        .collect()
}

/// `anyhow` outside `src/main.rs`.
fn anyhow_violations(file: &str, text: &str) -> Vec<String> {
    let why = "`anyhow` outside src/main.rs (library errors are thiserror enums)";
    outside_main(file, text, |line| names(line, "anyhow"), why)
}

/// An allocator chosen outside `src/main.rs`: the library's users choose
/// their own, and `asasked` chooses mimalloc in its binary.
fn allocator_violations(file: &str, text: &str) -> Vec<String> {
    let why = "an allocator outside src/main.rs (the library sets none)";
    outside_main(file, text, |line| line.contains("global_allocator") || names(line, "mimalloc"), why)
}

/// No source file but `src/main.rs` has what `violations` finds, and
/// `src/main.rs` still has it (`in_main` over its code), so that the rule
/// is not checking something that is gone.
fn assert_only_in_main(violations: fn(&str, &str) -> Vec<String>, in_main: impl Fn(&str) -> bool, gone: &str) {
    let files = source_files();
    let found: Vec<String> = files.iter().flat_map(|(file, text)| violations(file, text)).collect();
    assert!(found.is_empty(), "{}", found.join("\n"));
    let main = files.iter().find(|(file, _)| file == "src/main.rs").expect("src/main.rs");
    assert!(in_main(&scan(&main.1).code), "{gone}; update this test");
}

#[test]
fn only_the_binary_chooses_the_allocator() {
    let sets_one = |code: &str| code.contains("#[global_allocator]");
    assert_only_in_main(allocator_violations, sets_one, "src/main.rs sets no allocator");
}

#[test]
fn anyhow_is_named_only_in_main() {
    assert_only_in_main(anyhow_violations, |code| names(code, "anyhow"), "src/main.rs no longer names anyhow");
}

/// Calls whose string arguments are for developers, not the person: the
/// log macros, `thiserror`'s `#[error(…)]` (lowercase by STYLE.md §2) and
/// the invariant messages of `expect` and `panic!`.
const DEVELOPER_CALLS: [&str; 10] =
    ["trace!", "debug!", "info!", "warn!", "error!", "event!", "#[error", "expect", "panic!", "unreachable!"];

/// Literals outside `messages` that are sentences on purpose, each for
/// someone other than the person: (file, how the literal starts, why).
/// The test fails when an entry no longer matches a literal, so the list
/// cannot go stale.
const SENTENCES_NOT_FOR_THE_PERSON: [(&str, &str, &str); 13] = [
    ("src/mcp/tool.rs", "Call this BEFORE paying", "the check tool's description, read by the agent"),
    ("src/mcp/redemption.rs", "Redeem a proceed verdict", "the Agentic profile's action description, read by a client"),
    ("src/mcp/redemption.rs", "A proceed verdict's receipt", "the OpenAPI document's description, read by a developer"),
    ("src/mcp/tool.rs", "Call this when you START", "the brief tool's description, read by the agent"),
    ("src/mcp/tool.rs", "For a merchant or payment gateway", "the receipt tool's description, read by the agent"),
    ("src/mcp/tool.rs", "Pay for an order through", "the payment tool's description, read by the agent"),
    ("src/extract/prompt.rs", "Today is {}.", "the extraction prompt, read by the model"),
    ("src/facts.rs", "A fact field name", "the facts schema's description, read by the model"),
    ("src/providers/anthropic.rs", "Record the intent facts", "the forced tool's description, read by the model"),
    ("src/providers/anthropic.rs", "Only one {TOOL_NAME} call", "a tool result, read by the model"),
    ("src/providers/mod.rs", "Your output does not match", "the schema feedback turn, read by the model"),
    ("src/sandbox/replay.rs", "Extractors `{}`, seed", "the replay report's footer, read by the developer"),
    ("src/sandbox/compare.rs", "Accuracy per field", "the comparison report's legend, read by the developer"),
];

/// A literal's text as it reads: escaped newlines and `\` line breaks
/// become single spaces.
fn as_read(literal: &str) -> String {
    let spaced = literal.replace("\\n", " ").replace("\\\n", " ").replace('\n', " ");
    spaced.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn is_cyrillic(c: char) -> bool {
    matches!(c, 'а'..='я' | 'А'..='Я' | 'ё' | 'Ё')
}

/// Whether a literal reads as a sentence for a person, in English or
/// Russian: it starts with a capitalised word (an upper-case letter, then a
/// lower-case one: not `SELECT`, not `FAIL`), has at least three words, and
/// ends a sentence (`.`, `?`, `!` or `…` at its end, or before a space and
/// another capitalised word). A Russian fragment with a `{}` placeholder is
/// one too: outside `messages` it can only be words being composed for
/// someone. Lower-case vocabulary ("по возможности") and identifiers are not.
fn reads_as_sentence(text: &str) -> bool {
    let first_word = text.split_whitespace().next().unwrap_or_default();
    let capitalised = first_word.chars().next().is_some_and(char::is_uppercase)
        && first_word.chars().skip(1).all(|c| !c.is_uppercase());
    let words = text.split_whitespace().filter(|word| word.chars().any(char::is_alphabetic)).count();
    let ends = text.ends_with(['.', '?', '!', '…'])
        || text.char_indices().any(|(at, c)| {
            matches!(c, '.' | '?' | '!')
                && text[at + 1..].starts_with(' ')
                && text[at + 2..].chars().next().is_some_and(char::is_uppercase)
        });
    // A regular expression's `{name}` is a pattern being built, not words.
    let pattern = ["(?:", "\\b", "\\s", "\\w"].iter().any(|syntax| text.contains(syntax));
    let composed_russian = text.chars().any(is_cyrillic) && text.contains('{') && !pattern;
    (capitalised && words >= 3 && ends) || composed_russian
}

/// The module paths compiled only for tests: `#[cfg(test)] mod NAME;`.
fn test_only_modules(files: &[(String, String)]) -> BTreeSet<ModulePath> {
    let mut modules = BTreeSet::new();
    for (file, text) in files {
        let code = scan(text).code;
        for range in test_only_ranges(&code) {
            let item = code[range].trim_start_matches("#[cfg(test)]").trim();
            if let Some(name) = item.strip_prefix("mod ").and_then(|rest| rest.strip_suffix(';')) {
                modules.insert(module_of(file).into_iter().chain([name.trim().to_string()]).collect());
            }
        }
    }
    modules
}

/// The sentences in one non-test file outside `messages`, as
/// `(line, text as read)`.
fn sentences(text: &str) -> Vec<(usize, String)> {
    let scanned = scan(text);
    let tests = test_only_ranges(&scanned.code);
    scanned
        .literals
        .iter()
        .filter(|literal| !tests.iter().any(|range| range.contains(&literal.at)))
        .filter(|literal| {
            let call = enclosing_call(&scanned.code, literal.at).unwrap_or_default();
            !DEVELOPER_CALLS.iter().any(|developer| call.ends_with(developer))
        })
        .map(|literal| (literal.line, as_read(&literal.text)))
        .filter(|(_, text)| reads_as_sentence(text))
        .collect()
}

/// Sentences outside `messages` not on `allowed`, and allow-list entries
/// that match nothing.
fn sentence_violations(files: &[(String, String)], allowed: &[(&str, &str, &str)]) -> Vec<String> {
    let test_only = test_only_modules(files);
    let mut used = vec![false; allowed.len()];
    let mut out = Vec::new();
    for (file, text) in files {
        let module = module_of(file);
        if in_module(file, "messages") || test_only.iter().any(|test| module.starts_with(test)) {
            continue;
        }
        for (line, sentence) in sentences(text) {
            match allowed.iter().position(|(in_file, start, _)| in_file == file && sentence.starts_with(start)) {
                Some(entry) => used[entry] = true,
                None => out.push(format!("{file}:{line}: a sentence outside src/messages/: {sentence:?}")),
            }
        }
    }
    for ((file, start, _), used) in allowed.iter().zip(used) {
        if !used {
            out.push(format!("allow-list entry {file} {start:?} matches no sentence: remove it"));
        }
    }
    out
}

#[test]
fn sentences_for_the_person_are_written_only_in_messages() {
    let files = source_files();
    let violations = sentence_violations(&files, &SENTENCES_NOT_FOR_THE_PERSON);
    assert!(violations.is_empty(), "{}", violations.join("\n"));
    // The heuristic recognises the sentences it guards: most of what
    // `messages` writes in each language reads as a sentence to it.
    for language in ["src/messages/en.rs", "src/messages/ru.rs"] {
        let (_, text) = files.iter().find(|(file, _)| file == language).expect("a messages file");
        let found = sentences(text).len();
        assert!(found >= 10, "only {found} sentences recognised in {language}: the heuristic has gone blind");
    }
}

// ---------------------------------------------------------------------------
// Word lists are data, not code.

/// The most words one `matches!` of the parser or the word layer may name.
/// Up to four is a rule's own grammar ("a" | "an", "or" | "или", "color" |
/// "colour" | "цвет" | "цвета"); a longer alternation is a list a reviewer
/// extends, so it belongs in a class file under `extractors/words/` as a
/// mark. Punctuation does not count: it is syntax.
const MOST_WORDS_IN_A_MATCH: usize = 4;

/// Longer alternations that stay in code, each with its reason: the file
/// and the first word of the list.
const WORD_MATCHES_ALLOWED: [(&str, &str, &str); 1] = [(
    "src/words/size.rs",
    "S",
    "matched on the token's own text, capitals only (\"одну черную M\"): no folded word a class could look up",
)];

/// `matches!` calls in `files` (under `src/extract/` and `src/words/`, test
/// code skipped) naming more than `MOST_WORDS_IN_A_MATCH` words and not on
/// `allowed`, and allow-list entries no call matches.
fn word_match_violations(files: &[(String, String)], allowed: &[(&str, &str, &str)]) -> Vec<String> {
    let mut used = vec![false; allowed.len()];
    let mut out = Vec::new();
    for (file, text) in files {
        if !(file.starts_with("src/extract/") || file.starts_with("src/words/")) {
            continue;
        }
        let scanned = scan(text);
        let test_only = test_only_ranges(&scanned.code);
        let mut calls: BTreeMap<usize, Vec<&Literal>> = BTreeMap::new();
        for literal in &scanned.literals {
            if test_only.iter().any(|range| range.contains(&literal.at))
                || !literal.text.chars().any(char::is_alphabetic)
                || enclosing_call(&scanned.code, literal.at).as_deref() != Some("matches!")
            {
                continue;
            }
            if let Some(open) = call_open(&scanned.code, literal.at) {
                calls.entry(open).or_default().push(literal);
            }
        }
        for words in calls.values().filter(|words| words.len() > MOST_WORDS_IN_A_MATCH) {
            let first = words[0].text.as_str();
            match allowed.iter().position(|(in_file, start, _)| in_file == file && *start == first) {
                Some(entry) => used[entry] = true,
                None => out.push(format!(
                    "{file}:{}: a matches! of {} words ({first:?} …): make it a mark in an extractors/words/ class",
                    words[0].line,
                    words.len()
                )),
            }
        }
    }
    for ((file, start, _), used) in allowed.iter().zip(used) {
        if !used {
            out.push(format!("allow-list entry {file} {start:?} matches no long word list: remove it"));
        }
    }
    out
}

#[test]
fn word_lists_in_the_parser_are_data() {
    let violations = word_match_violations(&source_files(), &WORD_MATCHES_ALLOWED);
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

/// Phrase arrays (`&[&["for"], &["compatible", "with"], …]`, what the
/// `Request` look-arounds take) in `files` under `src/extract/` and
/// `src/words/`, test code skipped, holding more than
/// `MOST_WORDS_IN_A_MATCH` phrases: such a list is a class file's mark,
/// read with `phrase_list!`, as a long `matches!` is.
fn phrase_array_violations(files: &[(String, String)]) -> Vec<String> {
    let mut out = Vec::new();
    for (file, text) in files {
        if !(file.starts_with("src/extract/") || file.starts_with("src/words/")) {
            continue;
        }
        let scanned = scan(text);
        let code = scanned.code.as_str();
        let test_only = test_only_ranges(code);
        for (open, _) in code.match_indices("&[") {
            // An array of arrays: the next thing inside is another `&[`.
            if !code[open + 2..].trim_start().starts_with("&[") || test_only.iter().any(|range| range.contains(&open)) {
                continue;
            }
            let (mut depth, mut phrases, mut close) = (0usize, 0usize, code.len());
            for (offset, byte) in code.bytes().enumerate().skip(open + 1) {
                match byte {
                    b'[' => depth += 1,
                    b']' => {
                        depth -= 1;
                        if depth == 1 {
                            phrases += 1;
                        }
                        if depth == 0 {
                            close = offset;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            if phrases > MOST_WORDS_IN_A_MATCH && code[open..close].contains("\"\"") {
                let line = code[..open].matches('\n').count() + 1;
                out.push(format!(
                    "{file}:{line}: a phrase array of {phrases} phrases: make it a mark in an extractors/words/ class (phrase_list!)"
                ));
            }
        }
    }
    out
}

#[test]
fn phrase_lists_in_the_parser_are_data() {
    let violations = phrase_array_violations(&source_files());
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

#[test]
fn the_phrase_array_checker_rejects_what_it_is_meant_to() {
    let file = |text: &str| vec![("src/words/x.rs".to_owned(), text.to_owned())];
    let long = "fn f(r: &Request) -> bool {\n    r.preceded_by(0, 2, &[\n        &[\"a\"],\n        // why\n        \
                &[\"b\", \"c\"],\n        &[\"d\"],\n        &[\"e\"],\n        &[\"f\"],\n    ])\n}\n";
    assert_eq!(
        phrase_array_violations(&file(long)),
        ["src/words/x.rs:2: a phrase array of 5 phrases: make it a mark in an extractors/words/ class (phrase_list!)"]
    );
    // Four phrases, arrays of numbers, flat word arrays and test code pass.
    let fine = "fn f(r: &Request) -> bool { r.followed_by(0, 2, &[&[\"a\"], &[\"b\"], &[\"c\", \"d\"], &[\"e\"]]) }\n\
                const N: &[&[u8]] = &[&[1], &[2], &[3], &[4], &[5]];\n\
                fn g() { let v = [\"a\", \"b\", \"c\", \"d\", \"e\"]; }\n\
                #[cfg(test)]\nmod tests { fn h(r: &Request) -> bool { r.phrase_at_any(&[&[\"a\"], &[\"b\"], &[\"c\"], &[\"d\"], &[\"e\"]]) } }\n";
    assert!(phrase_array_violations(&file(fine)).is_empty(), "{:?}", phrase_array_violations(&file(fine)));
    // Outside the parser and the word layer, nothing is checked.
    let elsewhere = vec![("src/service/x.rs".to_owned(), long.to_owned())];
    assert!(phrase_array_violations(&elsewhere).is_empty());
}

#[test]
fn the_word_list_checker_rejects_what_it_is_meant_to() {
    let file = |text: &str| vec![("src/extract/rules/x.rs".to_owned(), text.to_owned())];
    let long = "fn f(w: &str) -> bool { matches!(w, \"a\" | \"b\" | \"c\" | \"d\" | \"e\") }\n";
    assert_eq!(word_match_violations(&file(long), &[]).len(), 1);
    // Four words, punctuation, test code and other calls pass.
    let fine = "fn f(w: &str) -> bool { matches!(w, \"a\" | \"b\" | \"c\" | \"d\" | \",\" | \".\") }\n\
                fn g() { let v = [\"a\", \"b\", \"c\", \"d\", \"e\"]; }\n\
                #[cfg(test)]\nmod tests { fn h(w: &str) -> bool { matches!(w, \"a\" | \"b\" | \"c\" | \"d\" | \"e\") } }\n";
    assert!(word_match_violations(&file(fine), &[]).is_empty());
    // Outside the parser and the word layer, nothing is checked.
    let elsewhere = vec![("src/service/x.rs".to_owned(), long.to_owned())];
    assert!(word_match_violations(&elsewhere, &[]).is_empty());
    // The allow-list holds an entry exactly, and a stale one is reported.
    let allowed = [("src/extract/rules/x.rs", "a", "a reason")];
    assert!(word_match_violations(&file(long), &allowed).is_empty());
    assert_eq!(word_match_violations(&file(fine), &allowed).len(), 1, "a stale entry");
}
