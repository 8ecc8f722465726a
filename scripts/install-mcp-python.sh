#!/usr/bin/env bash
# Installs the official Python MCP SDK, one 1.x and one 2.x release, in two
# virtual environments under target/mcp-python/{v1,v2}, for the test that
# drives `lackpy mcp serve` with them; prints the variable the test reads.
#
#   bash scripts/install-mcp-python.sh            # install, print exports
#   eval "$(bash scripts/install-mcp-python.sh)"  # install and export
#
# Idempotent: a venv already holding its pinned release is kept.
set -euo pipefail

V1="1.30.0"
V2="2.3.0"

root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${LACKPY_MCP_PYTHON_DIR:-$root/target/mcp-python}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"

log() { printf '%s\n' "$*" >&2; }

command -v python3 >/dev/null 2>&1 || { log "install-mcp-python: 'python3' is required"; exit 1; }

for pair in "v1:$V1" "v2:$V2"; do
    name="${pair%%:*}"
    version="${pair#*:}"
    venv="$dir/$name"
    have="$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))' 2>/dev/null || true)"
    if [[ "$have" == "$version" ]]; then
        log "mcp $version already installed in $venv"
        continue
    fi
    log "installing mcp==$version into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "mcp==$version" >&2
done

echo "export LACKPY_TEST_MCP_PYTHON_DIR='$dir'"
