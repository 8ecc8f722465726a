"""A `lackpy mcp serve --http --stateless` server driven by the official
Python MCP SDK: the handshake and calls work without a session.

Usage: python mcp_stateless_client.py URL

Prints "ok" and exits 0, or raises.
"""

import json
import sys

import anyio
from mcp import ClientSession
from mcp.client import streamable_http


async def main():
    connect = getattr(streamable_http, "streamable_http_client", None) or streamable_http.streamablehttp_client
    async with connect(sys.argv[1]) as streams:
        # 1.x yields (read, write, get_session_id); 2.x may yield fewer.
        session_id = streams[2] if len(streams) > 2 else None
        async with ClientSession(streams[0], streams[1]) as session:
            await session.initialize()
            for n in range(3):
                r = await session.call_tool("run_program", {"program": "n * 2", "params": {"n": n}})
                content = json.loads(r.content[0].text)
                assert content["success"] is True and content["output"] == n * 2, content
            if session_id is not None:
                assert session_id() is None, session_id()
    print("ok")


anyio.run(main)
