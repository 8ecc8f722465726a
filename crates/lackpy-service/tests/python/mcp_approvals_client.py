"""Approval gates of lackpy mcp serve driven by the official Python MCP SDK.

Usage: python mcp_approvals_client.py LACKPY WORKSPACE (stdio | http URL) (ask | pause)

The workspace's `send` tool needs approval; `note` does not. Prints one
JSON object of what the server answered (the Rust test checks it, and the
files the tools wrote):

* ask: the client answers elicitation (`approve` accepts with approve=true,
  `refuse` accepts with approve=false, `decline` declines, `silent` never
  answers within the server's approval timeout, which pauses the run and
  cancels the elicitation; its late yes changes nothing). Each run's result, every elicitation's message and schema,
  how many were cancelled, and the negotiated protocol version.
* pause: no elicitation capability: a run pauses, list_runs shows it,
  resume_run approves it; a second run pauses and resume_run refuses it.
"""

import json
import sys

import anyio
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client

# Longer than the workspace's approval_timeout_ms.
SILENT_SECONDS = 6


def field(obj, camel, snake):
    """A model field under 1.x's camelCase or 2.x's snake_case name."""
    return getattr(obj, snake) if hasattr(obj, snake) else getattr(obj, camel)


def structured(result):
    assert not field(result, "isError", "is_error"), result
    text = json.loads(result.content[0].text)
    content = field(result, "structuredContent", "structured_content")
    assert text == content, (text, content)
    return content


class Asker:
    """The elicitation callback: answers as `mode` says, records what it saw."""

    def __init__(self):
        self.mode = "approve"
        self.asked = []
        self.cancelled = 0

    async def __call__(self, context, params):
        self.asked.append(
            {
                "message": params.message,
                "schema": field(params, "requestedSchema", "requested_schema"),
            }
        )
        if self.mode == "silent":
            # Past the server's approval timeout, then a yes that comes too
            # late. (1.x runs this callback in its receive loop, so nothing
            # else is read meanwhile; 2.x hears the server's cancel.)
            try:
                await anyio.sleep(SILENT_SECONDS)
            except anyio.get_cancelled_exc_class():
                self.cancelled += 1
                raise
        if self.mode in ("approve", "silent"):
            return types.ElicitResult(action="accept", content={"approve": True})
        if self.mode == "refuse":
            return types.ElicitResult(action="accept", content={"approve": False})
        return types.ElicitResult(action="decline")


async def ask(session, asker):
    out = {}
    for mode, program in [
        ("approve", "note(text='before')\nsend(text='approved')"),
        ("decline", "send(text='declined')"),
        ("refuse", "send(text='refused')"),
        ("silent", "send(text='silent')"),
    ]:
        asker.mode = mode
        out[mode] = structured(await session.call_tool("run_program", {"program": program}))
    # The cancel of the silent elicitation may come after the run's answer.
    with anyio.move_on_after(2):
        while asker.cancelled == 0:
            await anyio.sleep(0.05)
    out["asked"] = [
        {"message": a["message"], "schema": json.loads(json.dumps(a["schema"], default=lambda o: o.model_dump()))}
        for a in asker.asked
    ]
    out["cancelled"] = asker.cancelled
    return out


async def pause(session, _asker):
    out = {}
    paused = structured(await session.call_tool("run_program", {"program": "note(text='before')\nsend(text='resumed')"}))
    out["paused"] = paused
    run_id = paused["paused"]["run_id"]
    out["listed"] = structured(await session.call_tool("list_runs", {}))
    out["resumed"] = structured(await session.call_tool("resume_run", {"run_id": run_id, "approve": True}))
    out["listed_after"] = structured(await session.call_tool("list_runs", {}))
    again = structured(await session.call_tool("run_program", {"program": "send(text='denied')"}))
    out["denied"] = structured(
        await session.call_tool("resume_run", {"run_id": again["paused"]["run_id"], "approve": False})
    )
    unknown = await session.call_tool("resume_run", {"run_id": "r0000000000000000", "approve": True})
    out["unknown"] = {
        "isError": bool(field(unknown, "isError", "is_error")),
        "text": unknown.content[0].text,
    }
    return out


async def main():
    lackpy, workspace, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    scenario = sys.argv[-1]
    asker = Asker()
    callback = asker if scenario == "ask" else None
    steps = ask if scenario == "ask" else pause

    async def exercise(session):
        init = await session.initialize()
        out = await steps(session, asker)
        out["protocol"] = field(init, "protocolVersion", "protocol_version")
        return out

    if mode == "stdio":
        params = StdioServerParameters(command=lackpy, args=["mcp", "serve", "--workspace", workspace])
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write, elicitation_callback=callback) as session:
                out = await exercise(session)
    else:
        from mcp.client import streamable_http

        connect = getattr(streamable_http, "streamable_http_client", None) or streamable_http.streamablehttp_client
        async with connect(sys.argv[4]) as streams:
            async with ClientSession(streams[0], streams[1], elicitation_callback=callback) as session:
                out = await exercise(session)
    print(json.dumps(out))


anyio.run(main)
