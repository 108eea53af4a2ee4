#!/usr/bin/env bash
# Packs the Claude Desktop bundle (MCPB): mcpb/manifest.json, with the
# version of Cargo.toml, plus one platform's binary in server/, zipped into
# dist/asasked-VERSION-OS-ARCH.mcpb (an .mcpb is a zip archive with
# manifest.json at its root).
#
# Usage: scripts/pack-mcpb.sh [BINARY]
#   BINARY: the asasked binary to ship (default: target/release/asasked,
#   built with `cargo build --release --locked` if missing); its platform
#   names the file (env OS, ARCH override `uname`).
# With the official `mcpb` CLI on PATH (npm @anthropic-ai/mcpb), the staged
# folder is also checked with `mcpb validate`; without it only the fields
# this script relies on are checked.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
binary="${1:-target/release/asasked}"
if [[ ! -x "$binary" && "$binary" == "target/release/asasked" ]]; then
  cargo build --release --locked
fi
[[ -x "$binary" ]] || { echo "pack-mcpb: no executable at $binary" >&2; exit 1; }
os="${OS:-$(uname -s | tr '[:upper:]' '[:lower:]')}"
arch="${ARCH:-$(uname -m)}"
name="server/asasked"
[[ "$binary" == *.exe ]] && name="server/asasked.exe"

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/server" dist
cp "$binary" "$stage/$name"
cp README.md "$stage/README.md"
python3 - "$root/mcpb/manifest.json" "$stage/manifest.json" "$version" <<'PY'
import json, sys
source, target, version = sys.argv[1:]
manifest = json.load(open(source))
manifest["version"] = version
for path in (("manifest_version",), ("name",), ("version",), ("description",), ("author", "name"),
             ("server", "type"), ("server", "entry_point"), ("server", "mcp_config", "command")):
    value = manifest
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    if not value:
        sys.exit(f"pack-mcpb: manifest.json: missing {'.'.join(path)}")
if manifest["server"]["type"] != "binary":
    sys.exit("pack-mcpb: manifest.json: server.type must be binary")
for key, option in manifest.get("user_config", {}).items():
    for field in ("type", "title", "description"):
        if field not in option:
            sys.exit(f"pack-mcpb: manifest.json: user_config.{key}.{field} is missing")
json.dump(manifest, open(target, "w"), indent=2)
PY
if command -v mcpb >/dev/null 2>&1; then
  mcpb validate "$stage/manifest.json"
fi
out="dist/asasked-$version-$os-$arch.mcpb"
python3 - "$stage" "$out" <<'PY'
import os, sys, zipfile
stage, out = sys.argv[1:]
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
    for folder, _, files in os.walk(stage):
        for file in sorted(files):
            path = os.path.join(folder, file)
            info = zipfile.ZipInfo.from_file(path, os.path.relpath(path, stage))
            info.compress_type = zipfile.ZIP_DEFLATED
            with open(path, "rb") as handle:
                archive.writestr(info, handle.read())
PY
sha256sum "$out"
