#!/usr/bin/env bash
# Builds release binaries from Cargo.lock into dist/, one per target, with
# SHA256SUMS beside them: dist/asasked-VERSION-TARGET[.exe].
#
# Usage: scripts/release-binaries.sh [TARGET...]
#   default: the host target. Another target needs its standard library
#   (`rustup target add TARGET`) and a linker for it (for example
#   `cargo zigbuild` or the platform's own toolchain); a target that cannot
#   be built stops the script, naming it. Each binary is also packed as a
#   Claude Desktop bundle when its target is the host (scripts/pack-mcpb.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
host=$(rustc -vV | sed -n 's/^host: //p')
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=("$host")
mkdir -p dist

for target in "${targets[@]}"; do
  echo "== $target"
  if ! cargo build --release --locked --target "$target"; then
    echo "release-binaries: $target did not build (rustup target add $target; a linker for it)" >&2
    exit 1
  fi
  suffix=""
  [[ "$target" == *windows* ]] && suffix=".exe"
  out="dist/asasked-$version-$target$suffix"
  cp "target/$target/release/asasked$suffix" "$out"
  if [[ "$target" == "$host" ]]; then
    bash scripts/pack-mcpb.sh "$out"
  fi
done
(cd dist && sha256sum asasked-"$version"-* > SHA256SUMS && cat SHA256SUMS)
