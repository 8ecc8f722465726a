"""`Service(ws, approver=fn)`: the calls the workspace's policy gates are
decided by a Python function, sync or async; True runs the call, False
makes it raise PermissionError, None pauses the run; a broken approver
denies."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from lackpy_rs import Service

from conftest import write_config

GATED = '[policy]\napprove_tools = ["shout"]\n'


def make(ws: Path, approver: Any) -> Service:
    write_config(ws, GATED)
    svc = Service(ws, approver=approver)

    @svc.tool(grade=(0, 0))
    def shout(text: str) -> str:
        """Upper-cases text."""
        return text.upper()

    @svc.tool(grade=(0, 0))
    def quiet(text: str) -> str:
        """Lower-cases text."""
        return text.lower()

    return svc


def test_a_sync_approver_sees_the_call_and_decides(ws: Path) -> None:
    seen: list[dict[str, Any]] = []

    def approve(request: dict[str, Any]) -> bool:
        seen.append(request)
        return request["args"]["text"] != "no"

    with make(ws, approve) as svc:
        r = svc.run("a = shout('hi')\nb = quiet('LOW')\n[a, b]")
        assert r.success, r.error
        assert r.output == ["HI", "low"]
        assert len(seen) == 1, "only the gated tool is asked about"
        req = seen[0]
        assert req["tool"] == "shout"
        assert req["args"] == {"text": "hi"}
        assert req["call"] == "shout(text='hi')"
        assert req["grade"] == (0, 0)
        assert "approve_tools" in req["rule"]
        assert req["step"] == 0
        assert r.trace[0]["approval"] == "api"

        denied = svc.run("shout('no')")
        assert not denied.success
        assert denied.error_type == "PermissionError"
        assert "not approved" in (denied.error or "")


def test_none_pauses_the_run(ws: Path) -> None:
    with make(ws, lambda request: None) as svc:
        r = svc.run("shout('later')")
        assert not r.success
        assert r.error_type == "ApprovalRequired"
        assert r.paused is not None


def test_an_async_approver_is_awaited_on_the_callers_loop(ws: Path) -> None:
    loops: list[Any] = []

    async def approve(request: dict[str, Any]) -> bool:
        loops.append(asyncio.get_running_loop())
        await asyncio.sleep(0.01)
        return True

    async def main() -> Any:
        with make(ws, approve) as svc:
            r = await svc.run_async("shout('hi')")
            return r, asyncio.get_running_loop()

    r, loop = asyncio.run(main())
    assert r.success, r.error
    assert r.output == "HI"
    assert loops == [loop]


def test_an_async_approver_works_for_a_blocking_run(ws: Path) -> None:
    async def approve(request: dict[str, Any]) -> bool:
        return False

    with make(ws, approve) as svc:
        r = svc.run("shout('x')")
        assert r.error_type == "PermissionError"


def test_a_broken_approver_denies(ws: Path, capfd: Any) -> None:
    def boom(request: dict[str, Any]) -> bool:
        raise RuntimeError("approver exploded")

    with make(ws, boom) as svc:
        r = svc.run("shout('x')")
        assert r.error_type == "PermissionError"
    assert "approver exploded" in capfd.readouterr().err

    with make(ws, lambda request: "yes") as svc:
        r = svc.run("shout('x')")
        assert r.error_type == "PermissionError"
    assert "must answer True, False or None" in capfd.readouterr().err


def test_without_an_approver_a_gated_call_pauses(ws: Path) -> None:
    with make(ws, None) as svc:
        r = svc.run("quiet('A')")
        assert r.success
        r = svc.run("shout('a')")
        assert r.error_type == "ApprovalRequired"


def test_a_delegated_program_asks_the_same_approver(ws: Path) -> None:
    (ws / ".lackpy" / "templates").mkdir(parents=True, exist_ok=True)
    (ws / ".lackpy" / "templates" / "shout.tmpl").write_text(
        '---\npattern: "shout {text}"\n---\nshout(\'{text}\')\n'
    )
    seen: list[dict[str, Any]] = []

    def approve(request: dict[str, Any]) -> bool:
        seen.append(request)
        return request["args"]["text"] != "no"

    with make(ws, approve) as svc:
        d = svc.delegate("shout hello", tools=["shout"])
        assert d["success"], d
        assert d["generation_tier"] == "templates"
        assert d["output"] == "HELLO"
        assert [r["tool"] for r in seen] == ["shout"]
        assert d["trace"][0]["approval"] == "api"

        denied = svc.delegate("shout no", tools=["shout"])
        assert not denied["success"]
        assert "not approved" in denied["error"]
        assert denied.get("paused") is None


def test_a_delegated_program_pauses_without_an_approver(ws: Path) -> None:
    (ws / ".lackpy" / "templates").mkdir(parents=True, exist_ok=True)
    (ws / ".lackpy" / "templates" / "shout.tmpl").write_text(
        '---\npattern: "shout {text}"\n---\nshout(\'{text}\')\n'
    )
    with make(ws, None) as svc:
        d = svc.delegate("shout later", tools=["shout"])
        assert not d["success"]
        assert d["paused"]["tool"] == "shout"
        assert "needs approval" in d["error"]
