#!/usr/bin/env bash
# Stops the cluster scripts/start-test-postgres.sh started (named by
# LACKPY_TEST_PG_DIR, or the first argument) and deletes it.
set -euo pipefail

dir="${1:-${LACKPY_TEST_PG_DIR:-}}"
[[ -n "$dir" && -d "$dir/data" ]] || { echo "stop-test-postgres: no cluster at '$dir'" >&2; exit 0; }
bin="$(dirname "$(command -v pg_ctl 2>/dev/null || ls -d /usr/lib/postgresql/*/bin/pg_ctl | sort -V | tail -1)")"
run_as=()
[[ "$(id -u)" == 0 ]] && run_as=(runuser -u postgres --)
"${run_as[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >&2 || true
rm -rf "$dir"
