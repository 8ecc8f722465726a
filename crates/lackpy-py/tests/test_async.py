"""Async tools and run_async: the caller's loop, no deadlock, cancellation."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from conftest import LONG
from lackpy_rs import Service


@pytest.mark.asyncio
async def test_async_tools_are_awaited_on_the_callers_loop(svc: Service) -> None:
    loops = []

    @svc.tool(grade=(1, 0))
    async def fetch_title(url: str) -> str:
        """The title of a page."""
        loops.append(asyncio.get_running_loop())
        await asyncio.sleep(0.001)
        return url.upper()

    r = await svc.run_async("[fetch_title(u) for u in urls]", params={"urls": ["a", "b"]})
    assert r.success, r.error
    assert r.output == ["A", "B"]
    assert loops == [asyncio.get_running_loop()] * 2


@pytest.mark.asyncio
async def test_a_sync_program_calling_an_async_tool_does_not_deadlock_one_loop_thread(
    svc: Service,
) -> None:
    # The seed's deadlock: the program waits for a coroutine that needs the
    # very loop the caller awaits on. One loop thread; no other loop exists.
    threads = []

    @svc.tool
    async def on_loop(x: int) -> int:
        threads.append(threading.get_ident())
        await asyncio.sleep(0)
        return x * 2

    r = await asyncio.wait_for(
        svc.run_async("total = 0\nfor i in range(20):\n    total = total + on_loop(i)\ntotal"),
        timeout=30,
    )
    assert r.output == sum(i * 2 for i in range(20))
    assert set(threads) == {threading.get_ident()}


@pytest.mark.asyncio
async def test_the_loop_keeps_running_during_a_run(long_svc: Service) -> None:
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.005)

    t = asyncio.create_task(ticker())
    r = await long_svc.run_async(LONG, timeout_ms=400)
    t.cancel()
    assert r.error_type == "TimeoutError"
    assert ticks > 5


@pytest.mark.asyncio
async def test_cancelling_the_task_cancels_the_run(long_svc: Service) -> None:
    task = asyncio.create_task(long_svc.run_async(LONG))
    await asyncio.sleep(0.1)
    started = time.monotonic()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # The run stops within one step: the service is free for the next one
    # at once (the program itself would run for 60 s).
    r = await asyncio.wait_for(long_svc.run_async("1"), timeout=10)
    assert r.output == 1
    assert time.monotonic() - started < 10


@pytest.mark.asyncio
async def test_an_async_tools_exception_is_the_programs(svc: Service) -> None:
    @svc.tool
    async def fails() -> int:
        await asyncio.sleep(0)
        raise PermissionError("denied")

    r = await svc.run_async("fails()")
    assert r.error_type == "PermissionError" and r.error == "denied"


@pytest.mark.asyncio
async def test_an_async_tools_bad_value_is_a_type_error(svc: Service) -> None:
    @svc.tool
    async def odd():
        return object()

    r = await svc.run_async("odd()")
    assert r.error_type == "TypeError" and "tool 'odd'" in r.error


@pytest.mark.asyncio
async def test_run_async_raises_config_errors(svc: Service) -> None:
    from lackpy_rs import ConfigError

    with pytest.raises(ConfigError):
        await svc.run_async("1", tools=["nope"])
    with pytest.raises(TypeError):
        await svc.run_async(3)  # type: ignore[arg-type]


def test_a_blocking_run_awaits_async_tools_on_a_background_loop(svc: Service) -> None:
    @svc.tool
    async def later(x: int) -> int:
        await asyncio.sleep(0.001)
        return x + 1

    assert svc.run("later(1) + later(2)").output == 5


@pytest.mark.asyncio
async def test_a_timed_out_run_cancels_its_async_tool(svc: Service) -> None:
    cancelled = asyncio.Event()

    @svc.tool
    async def hang() -> int:
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return 1

    r = await svc.run_async("hang()", timeout_ms=100)
    assert r.error_type == "TimeoutError"
    await asyncio.wait_for(cancelled.wait(), timeout=10)
