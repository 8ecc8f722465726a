#!/bin/sh
# lackpy as the client under test of the official MCP conformance suite:
#   mcp-conformance client --command "sh client.sh" --scenario S
# The suite starts its scenario's server and runs this with the server's URL
# as the last argument and the scenario in MCP_CONFORMANCE_SCENARIO. We write
# a workspace whose config names that server, and run a lackpy program that
# calls the scenario's tool through it. LACKPY_BIN is the lackpy binary.
set -eu
for url; do :; done
: "${url:?the server URL is the last argument}"
: "${LACKPY_BIN:?set LACKPY_BIN to the lackpy binary}"
ws=$(mktemp -d)
trap 'rm -rf "$ws"' EXIT
mkdir -p "$ws/.lackpy"
printf '[mcp_servers.conf]\nurl = "%s"\n' "$url" >"$ws/.lackpy/config.toml"
case "${MCP_CONFORMANCE_SCENARIO:-}" in
    tools_call) prog='print(add_numbers(2, 3))' ;;
    sse-retry) prog='print(test_reconnection())' ;;
    # The handshake itself is the test: lackpy connects at start.
    *) prog='print("connected")' ;;
esac
printf '%s\n' "$prog" >"$ws/p.lpy"
"$LACKPY_BIN" -v run "$ws/p.lpy" --workspace "$ws"
