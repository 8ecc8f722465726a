#!/usr/bin/env bash
# Installs the pinned third-party MCP servers the lackpy-mcp-client interop
# tests talk to, under target/mcp-test-servers/ (never `npx -y` or `uvx` at
# test time), and prints the variables the tests read.
#
#   bash scripts/install-mcp-test-servers.sh            # install, print exports
#   eval "$(bash scripts/install-mcp-test-servers.sh)"  # install and export
#
# Idempotent: a server already installed at its pinned version is kept.
# Progress goes to stderr, the `export` lines to stdout.
set -euo pipefail

EVERYTHING_PKG="@modelcontextprotocol/server-everything"
EVERYTHING_VERSION="2026.8.31"
TIME_PKG="mcp-server-time"
TIME_VERSION="2026.10.19"

root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${LACKPY_MCP_TEST_SERVERS_DIR:-$root/target/mcp-test-servers}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"

log() { printf '%s\n' "$*" >&2; }

need() {
    if ! command -v "$1" >/dev/null 2>&1; then
        log "install-mcp-test-servers: '$1' is required but not on PATH"
        exit 1
    fi
}

# --- server-everything (npm, stdio) -----------------------------------------
need node
need npm
npm_dir="$dir/npm"
everything_js="$npm_dir/node_modules/$EVERYTHING_PKG/dist/index.js"
installed_version() {
    node -e 'try { process.stdout.write(require(process.argv[1]).version) } catch (e) {}' \
        "$npm_dir/node_modules/$EVERYTHING_PKG/package.json"
}
if [[ -f "$everything_js" && "$(installed_version)" == "$EVERYTHING_VERSION" ]]; then
    log "server-everything $EVERYTHING_VERSION already installed"
else
    log "installing $EVERYTHING_PKG@$EVERYTHING_VERSION into $npm_dir"
    mkdir -p "$npm_dir"
    # A private package.json keeps npm from walking up into the workspace.
    [[ -f "$npm_dir/package.json" ]] || echo '{"name":"lackpy-mcp-test-servers","private":true}' >"$npm_dir/package.json"
    npm install --prefix "$npm_dir" --no-audit --no-fund --loglevel=error \
        --save-exact "$EVERYTHING_PKG@$EVERYTHING_VERSION" >&2
fi
if [[ ! -f "$everything_js" ]]; then
    # Newer layouts may move the entry point; fall back to the package's bin.
    bin_rel="$(node -e 'const p=require(process.argv[1]); const b=p.bin; process.stdout.write(typeof b==="string"?b:Object.values(b||{})[0]||"")' \
        "$npm_dir/node_modules/$EVERYTHING_PKG/package.json")"
    everything_js="$npm_dir/node_modules/$EVERYTHING_PKG/$bin_rel"
fi
[[ -f "$everything_js" ]] || { log "server-everything entry point not found"; exit 1; }
everything_cmd="$dir/bin/server-everything"
mkdir -p "$dir/bin"
# A launcher that execs node, so the server is the process we spawn (no
# wrapper left holding the pipes). `stdio` is the transport argument.
cat >"$everything_cmd.tmp" <<EOF
#!/bin/sh
exec "$(command -v node)" "$everything_js" stdio "\$@"
EOF
chmod +x "$everything_cmd.tmp"
mv "$everything_cmd.tmp" "$everything_cmd"

# --- mcp-server-time (PyPI, stdio, the newer protocol) ----------------------
need python3
venv="$dir/venv"
time_bin="$venv/bin/mcp-server-time"
time_installed() {
    # `sed` reads everything (a `grep -q` would SIGPIPE pip under pipefail).
    "$venv/bin/python" -m pip show "$TIME_PKG" 2>/dev/null | sed -n 's/^Version: //p'
}
if [[ -x "$time_bin" && "$(time_installed)" == "$TIME_VERSION" ]]; then
    log "mcp-server-time $TIME_VERSION already installed"
else
    log "installing $TIME_PKG==$TIME_VERSION into $venv"
    [[ -x "$venv/bin/python" ]] || python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        "$TIME_PKG==$TIME_VERSION" >&2
fi
[[ -x "$time_bin" ]] || { log "mcp-server-time was not installed"; exit 1; }

echo "export LACKPY_TEST_EVERYTHING_CMD=$everything_cmd"
echo "export LACKPY_TEST_TIME_CMD=$time_bin"
