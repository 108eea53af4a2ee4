//! Runs tests/python/test_mcp_client.py and tests/python/test_protocols.py:
//! the official Python MCP SDK, a client this project did not write, drives
//! the built `asasked serve` over stdio and Streamable HTTP, with its
//! elicitation callback answering the forms of `check_order` (accept,
//! decline, the person's words), and with every commerce protocol shape.
//!
//! Needs .venv-mcp (scripts/setup-python-mcp.sh), so the tests are
//! `#[ignore]`d: `cargo test --locked` counts them as ignored, and
//! `cargo test --locked -- --ignored` (a step of `.ci/run`) runs them. Run
//! without the venv, they fail saying how to make it.

use std::path::Path;
use std::process::Command;

/// Why the tests of this file are ignored by a plain `cargo test`.
const NEEDS_VENV: &str =
    "needs the Python MCP SDK: run scripts/setup-python-mcp.sh, then cargo test --locked -- --ignored (or .ci/run)";

/// Runs one script of tests/python with the SDK's venv and the built
/// binary; its stdout. A missing venv is a failure: these tests run only
/// when asked for (`--ignored`), and then they must not pass doing nothing.
fn run_python(script: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = root.join(".venv-mcp/bin/python");
    assert!(python.exists(), "the Python MCP client is not installed ({} is missing): {NEEDS_VENV}", python.display());
    let output = Command::new(&python)
        .arg(root.join("tests/python").join(script))
        .env("ASASKED_BIN", env!("CARGO_BIN_EXE_asasked"))
        .current_dir(root)
        .output()
        .expect("run python");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    println!("{stdout}");
    assert!(output.status.success(), "the Python client failed:\n{stdout}\n{stderr}");
    stdout
}

#[test]
#[ignore = "needs the Python MCP SDK: run scripts/setup-python-mcp.sh, then cargo test --locked -- --ignored (or .ci/run)"]
fn the_python_mcp_sdk_drives_the_server_over_stdio_and_http() {
    let stdout = run_python("test_mcp_client.py");
    assert!(stdout.contains("4 transport scenarios passed, 0 failures"), "{stdout}");
    // Issue 14: the SDK's elicitation callback answers the form over both
    // transports on the 2025-11-25 handshake.
    for transport in ["stdio", "http"] {
        assert!(stdout.contains(&format!("ok: elicitation over {transport} (legacy)")), "{stdout}");
    }
    // Issue 31: the SDK closed its legacy HTTP session with DELETE and logged
    // no "Session termination failed" (the script fails its scenario if so).
    assert!(stdout.contains("ok: session DELETE over http (legacy), no termination warning"), "{stdout}");
    // Issue 31: three stdio servers and a `check` share one data dir.
    assert!(stdout.contains("ok: three stdio servers and a check on one data dir"), "{stdout}");
}

/// Issue 15: the Python SDK sends every commerce protocol shape of
/// tests/protocols/ to `check_order` over stdio and HTTP, verifies each
/// receipt with `verify_verdict`, and sends bad input
/// (tests/python/test_protocols.py).
#[test]
#[ignore = "needs the Python MCP SDK: run scripts/setup-python-mcp.sh, then cargo test --locked -- --ignored (or .ci/run)"]
fn the_python_mcp_sdk_checks_every_protocol_shape() {
    let stdout = run_python("test_protocols.py");
    assert!(stdout.contains("8 protocol shape checks passed, 0 failures"), "{stdout}");
    for transport in ["stdio", "http"] {
        assert!(stdout.contains(&format!("ok: bad input over {transport}")), "{stdout}");
    }
}
