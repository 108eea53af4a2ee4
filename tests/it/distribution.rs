//! What MCP users install from (issue 31 §5) stays in step with the crate:
//! `server.json` (the MCP Registry entry) and `mcpb/manifest.json` (the
//! Claude Desktop bundle) name this crate, its version, its tools and the
//! flags and variables the binary reads, and the README carries the
//! registry's `mcp-name:` line that proves the crate is this server's.

use std::path::Path;

use asasked::mcp::{BRIEF_TOOL_NAME, TOOL_NAME, VERIFY_TOOL_NAME};
use serde_json::Value;

fn read_json(path: &str) -> Value {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|error| panic!("{path}: {error}"))
}

#[test]
fn the_registry_entry_names_this_crate_and_the_readme_claims_it() {
    let server = read_json("server.json");
    assert_eq!(server["version"], env!("CARGO_PKG_VERSION"));
    let package = &server["packages"][0];
    assert_eq!(package["registryType"], "cargo");
    assert_eq!(package["identifier"], env!("CARGO_PKG_NAME"));
    assert_eq!(package["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(package["transport"]["type"], "stdio");
    assert_eq!(package["packageArguments"][0]["value"], "serve");
    // The registry checks ownership of a crate by this line in its README.
    let name = server["name"].as_str().unwrap();
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    assert!(readme.contains(&format!("mcp-name: {name}")), "README.md lacks `mcp-name: {name}`");
    // At most 100 characters, as the schema requires.
    assert!(server["description"].as_str().unwrap().chars().count() <= 100);
}

#[test]
fn the_desktop_bundle_runs_serve_with_its_settings_and_lists_the_tools() {
    let manifest = read_json("mcpb/manifest.json");
    assert_eq!(manifest["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(manifest["server"]["type"], "binary");
    let config = &manifest["server"]["mcp_config"];
    assert_eq!(config["args"], serde_json::json!(["serve", "--data-dir", "${user_config.data_dir}"]));
    for (variable, setting) in [("ANTHROPIC_API_KEY", "anthropic_api_key"), ("OPENAI_API_KEY", "openai_api_key")] {
        assert_eq!(config["env"][variable], format!("${{user_config.{setting}}}"));
        assert_eq!(manifest["user_config"][setting]["sensitive"], true, "{setting}");
    }
    let mut tools: Vec<&str> =
        manifest["tools"].as_array().unwrap().iter().map(|tool| tool["name"].as_str().unwrap()).collect();
    tools.sort_unstable();
    let mut served = vec![BRIEF_TOOL_NAME, TOOL_NAME, VERIFY_TOOL_NAME];
    served.sort_unstable();
    assert_eq!(tools, served);
}
