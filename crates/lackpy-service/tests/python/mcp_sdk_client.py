"""lackpy mcp serve driven by the official Python MCP SDK.

Usage: python mcp_sdk_client.py LACKPY WORKSPACE (stdio | http URL)

Lists tools, runs programs, validates, reads resources, cancels a long run
(the next call must find the only run place free again: the workspace's
config allows one run and no queue), and checks that structuredContent
equals the JSON text. Prints "ok" and exits 0, or raises.
"""

import json
import sys

import anyio
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client

NAMES = [
    "run_program",
    "validate",
    "delegate",
    "generate",
    "list_tools",
    "language_spec",
    "status",
    "resume_run",
    "list_runs",
]
LONG = "x = 0\nfor i in range(10000000000):\n    x = i\nx"


def field(obj, camel, snake):
    """A model field under 1.x's camelCase or 2.x's snake_case name."""
    return getattr(obj, snake) if hasattr(obj, snake) else getattr(obj, camel)


def structured(result):
    assert not field(result, "isError", "is_error"), result
    text = json.loads(result.content[0].text)
    content = field(result, "structuredContent", "structured_content")
    assert text == content, (text, content)
    return content


async def exercise(session):
    await session.initialize()
    tools = (await session.list_tools()).tools
    assert [t.name for t in tools] == NAMES, [t.name for t in tools]
    assert all(field(t, "outputSchema", "output_schema") for t in tools)
    r = structured(await session.call_tool("run_program", {"program": "a = [1, 2]\nprint('hi')\nsum(a) + n", "params": {"n": 10}}))
    assert r["success"] is True and r["output"] == 13 and r["stdout"] == "hi\n", r
    r = structured(await session.call_tool("run_program", {"program": "import os"}))
    assert r["success"] is False and r["error_type"] == "ValidationError", r
    v = structured(await session.call_tool("validate", {"program": "x = len('a')"}))
    assert v["valid"] is True and v["variables"] == ["x"], v
    bad = await session.call_tool("run_program", {})
    assert field(bad, "isError", "is_error"), bad
    uris = [str(r.uri) for r in (await session.list_resources()).resources]
    assert uris == ["lackpy://language-spec", "lackpy://toolbox", "lackpy://config"], uris
    for uri in uris:
        contents = (await session.read_resource(uri)).contents
        json.loads(contents[0].text)

    # Cancel a long run. 2.x sends `notifications/cancelled` itself when the
    # caller gives up; 1.x does not, so the test sends it (the request's id
    # is the session's next one).
    request_id = getattr(session, "_request_id", None)
    with anyio.move_on_after(1.0):
        async with anyio.create_task_group() as tg:

            async def cancel_soon():
                await anyio.sleep(0.3)
                if request_id is None:
                    tg.cancel_scope.cancel()
                    return
                await session.send_notification(
                    types.ClientNotification(
                        types.CancelledNotification(
                            params=types.CancelledNotificationParams(requestId=request_id, reason="test")
                        )
                    )
                )

            tg.start_soon(cancel_soon)
            await session.call_tool("run_program", {"program": LONG, "timeout_ms": 20000})
            raise AssertionError("a cancelled run answered")
    # The only run place is free again (a run still going would answer Busy).
    for _ in range(100):
        r = structured(await session.call_tool("run_program", {"program": "'after'"}))
        if r.get("error_type") != "Busy":
            break
        await anyio.sleep(0.02)
    assert r["output"] == "after", r


async def main():
    lackpy, workspace, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    if mode == "stdio":
        params = StdioServerParameters(command=lackpy, args=["mcp", "serve", "--workspace", workspace])
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await exercise(session)
    else:
        from mcp.client import streamable_http

        connect = getattr(streamable_http, "streamable_http_client", None) or streamable_http.streamablehttp_client
        async with connect(sys.argv[4]) as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                await exercise(session)
    print("ok")


anyio.run(main)
