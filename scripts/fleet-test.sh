#!/usr/bin/env bash
# The fleet test (crates/lackpy-service/tests/fleet/fleet.py): three
# `lackpy mcp serve --http` replicas behind haproxy, sharing a PostgreSQL
# run store, through a rolling restart and a killed replica. Installs
# haproxy (Debian) when it is missing and the Prometheus client library
# (pinned, for its text-format parser) in a venv under the target
# directory. Needs LACKPY_TEST_PG_URL (scripts/start-test-postgres.sh) and
# a built `lackpy` (default target/debug/lackpy).
#
#   bash scripts/fleet-test.sh [LACKPY]
set -euo pipefail
cd "$(dirname "$0")/.."

PROMETHEUS_CLIENT_VERSION=0.21.1

log() { printf '%s\n' "$*" >&2; }

if ! command -v haproxy >/dev/null 2>&1 && [[ ! -x /usr/sbin/haproxy ]]; then
    if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; then
        log "installing haproxy (apt-get)"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >&2 || {
            apt-get update -qq >&2
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >&2
        }
    fi
fi
haproxy="$(command -v haproxy || echo /usr/sbin/haproxy)"
[[ -x "$haproxy" ]] || { log "fleet-test: haproxy not found"; exit 1; }
"$haproxy" -v | head -1 >&2

[[ -n "${LACKPY_TEST_PG_URL:-}" ]] || { log "fleet-test: LACKPY_TEST_PG_URL is not set (scripts/start-test-postgres.sh)"; exit 1; }

target="${CARGO_TARGET_DIR:-$PWD/target}"
lackpy="${1:-$target/debug/lackpy}"
[[ -x "$lackpy" ]] || { log "fleet-test: $lackpy is not built (cargo build -p lackpy-service)"; exit 1; }

venv="$target/fleet-venv"
[[ -x "$venv/bin/python" ]] || python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check \
    "prometheus-client==$PROMETHEUS_CLIENT_VERSION"

test_server="$target/debug/examples/mcp_test_server"
[[ -x "$test_server" ]] || { log "fleet-test: $test_server is not built (cargo build -p lackpy-test-support --examples)"; exit 1; }

"$venv/bin/python" crates/lackpy-service/tests/fleet/fleet.py "$lackpy" "$haproxy" "$test_server"
