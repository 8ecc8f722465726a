"""Virtual tools resolved by a Python harness at call time."""

from __future__ import annotations

import asyncio

import pytest

from conftest import write_config
from lackpy_rs import Service

CONFIG = """
[[virtual_tools]]
name = "shout"
description = "Upper-cases a text"
args = [{ name = "text", type = "str" }]
returns = "str"
grade_w = 0
effects_ceiling = 0
"""


def test_the_harness_supplies_virtual_tools_at_call_time(ws) -> None:
    write_config(ws, CONFIG)
    callables = {"shout": lambda text: text.upper()}
    with Service(ws, harness=lambda name: callables.get(name)) as svc:
        assert svc.run("shout('hi')").output == "HI"
        callables.clear()
        r = svc.run("shout('hi')")
        assert not r.success


def test_an_async_harness_callable_is_awaited(ws) -> None:
    write_config(ws, CONFIG)

    async def shout(text: str) -> str:
        await asyncio.sleep(0)
        return text + "!"

    with Service(ws, harness=lambda name: shout if name == "shout" else None) as svc:
        assert svc.run("shout('hi')").output == "hi!"


def test_a_failing_harness_offers_nothing(ws) -> None:
    write_config(ws, CONFIG)

    def harness(name: str):
        raise RuntimeError("harness down")

    with Service(ws, harness=harness) as svc:
        r = svc.run("shout('x')")
        assert not r.success
