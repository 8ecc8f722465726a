#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster for the run store tests (the ones
# #[ignore]d with "needs PostgreSQL"): initdb in a temporary directory,
# listening on a free loopback port, trust authentication, and prints the
# variables the tests read.
#
#   eval "$(bash scripts/start-test-postgres.sh)"   # start and export
#   bash scripts/stop-test-postgres.sh              # stop it and delete it
#
# PostgreSQL comes from the system (Debian: `apt-get install postgresql`;
# the script installs it when it is missing and it runs as root). As root
# the cluster runs as the `postgres` user, which PostgreSQL requires.
# Progress goes to stderr, the `export` lines to stdout.
set -euo pipefail

log() { printf '%s\n' "$*" >&2; }

find_bin() {
    if command -v initdb >/dev/null 2>&1; then
        dirname "$(command -v initdb)"
        return
    fi
    # Debian keeps the server binaries off PATH.
    local d
    d="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)"
    [[ -n "$d" && -x "$d/initdb" ]] && echo "$d"
}

bin="$(find_bin || true)"
if [[ -z "$bin" ]]; then
    if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; then
        log "installing postgresql (apt-get)"
        apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
        bin="$(find_bin || true)"
    fi
fi
[[ -n "$bin" ]] || { log "start-test-postgres: PostgreSQL (initdb) not found"; exit 1; }

dir="$(mktemp -d /tmp/lackpy-test-pg.XXXXXX)"
run_as=()
if [[ "$(id -u)" == 0 ]]; then
    # The server refuses to run as root.
    chown postgres: "$dir"
    run_as=(runuser -u postgres --)
fi
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"

log "initdb in $dir"
"${run_as[@]}" "$bin/initdb" -D "$dir/data" -U postgres --auth=trust \
    --no-instructions -E UTF8 >&2
log "starting PostgreSQL on 127.0.0.1:$port"
"${run_as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$dir -c max_connections=200" \
    start >&2

echo "export LACKPY_TEST_PG_URL=postgres://postgres@127.0.0.1:$port/postgres"
echo "export LACKPY_TEST_PG_DIR=$dir"
