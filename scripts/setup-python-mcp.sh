#!/usr/bin/env bash
# Creates .venv-mcp with the official Python MCP SDK (PyPI `mcp` 2.x), the
# third-party client tests/python/test_mcp_client.py drives `asasked serve` with.
# Idempotent: an existing venv with the right version is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=.venv-mcp
MCP_VERSION="${MCP_VERSION:-2.3.0}"
if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c "import mcp, importlib.metadata as m; assert m.version('mcp') == '$MCP_VERSION'" 2>/dev/null; then
  echo "$VENV already has mcp $MCP_VERSION"
  exit 0
fi
python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet --disable-pip-version-check "mcp==$MCP_VERSION"
"$VENV/bin/python" -c "import importlib.metadata as m; print('mcp', m.version('mcp'), 'installed in $VENV')"
