#!/bin/sh
# Installs lackpy 0.15.1 (the Python reference) with its MCP extra into
# target/lackpy-ref/venv, where the mcp_serve bench looks for `lackpy-mcp`.
# lackpy 0.15.1's server imports `mcp.server.fastmcp`, which the MCP SDK
# 2.x no longer has: the SDK is pinned below 2.
set -eu
root=$(cd "$(dirname "$0")/../../../.." && pwd)
dir="${CARGO_TARGET_DIR:-$root/target}/lackpy-ref"
python3 -m venv "$dir/venv"
"$dir/venv/bin/pip" install -q 'lackpy[mcp]==0.15.1' 'mcp[cli]<2'
echo "installed: $dir/venv/bin/lackpy-mcp"
