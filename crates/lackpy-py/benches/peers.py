"""lackpy-rs beside its peers, in-process from Python: a trivial run, a
program calling a Python tool 1,000 times, and two CPU-bound programs.

    python crates/lackpy-py/benches/peers.py [--quick]

Needs lackpy-rs installed (`pip install crates/lackpy-py`, a release
build); the peers are optional (`pip install pydantic-monty==1.4.0
lackpy==0.15.1`) and a missing one is left out of the table. Each cell is
the median of several samples; on a loaded machine, repeat and compare
runs of the same session only.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Callable

TRIVIAL = "1 + 2"
TOOL_LOOP = "total = 0\nfor i in range(1000):\n    total = total + inc(i)\ntotal"
BARE_LOOP = "total = 0\nfor i in range(1000):\n    total = total + (i + 1)\ntotal"
CPU_ARITH = "total = 0\nfor i in range(100000):\n    total = total + i * i % 7\ntotal"
CPU_STR = (
    "words = []\nfor i in range(20000):\n    words.append(str(i))\n"
    "s = ','.join(words)\nparts = s.split(',')\nlen(parts) + len(s)"
)
VIRTUAL_INC = """
[[virtual_tools]]
name = "inc"
description = "Adds one"
args = [{ name = "x", type = "int" }]
returns = "int"
grade_w = 0
effects_ceiling = 0
"""


def inc(x: int) -> int:
    return x + 1


def median_us(run: Callable[[], object], samples: int, batch: int = 1) -> float:
    run()  # warm up
    times = []
    for _ in range(samples):
        t = time.perf_counter_ns()
        for _ in range(batch):
            run()
        times.append((time.perf_counter_ns() - t) / batch / 1000)
    return statistics.median(times)


def bench_lackpy_rs(ws: Path, samples: int) -> dict[str, float]:
    from lackpy_rs import Service

    svc = Service(ws)
    svc.tool(grade=(0, 0))(inc)
    for program in (TRIVIAL, TOOL_LOOP, CPU_ARITH, CPU_STR):
        r = svc.run(program)
        assert r.success, (program, r.error)
    out = {
        "trivial": median_us(lambda: svc.run(TRIVIAL), samples, batch=200),
        "tool": median_us(lambda: svc.run(TOOL_LOOP), samples),
        "bare": median_us(lambda: svc.run(BARE_LOOP), samples),
        "arith": median_us(lambda: svc.run(CPU_ARITH), samples),
        "str": median_us(lambda: svc.run(CPU_STR), samples),
    }
    svc.close()
    return out


def bench_monty(samples: int) -> dict[str, float]:
    import pydantic_monty as pm

    # Every external call is a suspension; a checkout allows 1,000 unless told.
    limits = {"max_suspensions": 1_000_000_000}
    with pm.Monty() as monty, monty.checkout(limits=limits) as s:
        lookup = {"inc": inc}
        assert s.feed_run(TOOL_LOOP, external_lookup=lookup) == 500500
        return {
            "trivial": median_us(lambda: s.feed_run(TRIVIAL), samples, batch=200),
            "tool": median_us(lambda: s.feed_run(TOOL_LOOP, external_lookup=lookup), samples),
            "bare": median_us(lambda: s.feed_run(BARE_LOOP), samples),
            "arith": median_us(lambda: s.feed_run(CPU_ARITH), samples),
            "str": median_us(lambda: s.feed_run(CPU_STR), samples),
        }


def bench_lackpy(ws: Path, samples: int) -> dict[str, float]:
    from lackpy.service import LackpyService

    (ws / ".lackpy").mkdir(exist_ok=True)
    (ws / ".lackpy" / "config.toml").write_text(VIRTUAL_INC)
    svc = LackpyService(workspace=ws, harness_resolver=lambda n: inc if n == "inc" else None)
    loop = asyncio.new_event_loop()

    def run(program: str) -> Callable[[], object]:
        def go() -> object:
            r = loop.run_until_complete(svc.run_program(program, profile=["inc"]))
            assert r.success, r.error
            return r

        return go

    out = {
        "trivial": median_us(run(TRIVIAL), samples, batch=20),
        "tool": median_us(run(TOOL_LOOP), samples),
        "bare": median_us(run(BARE_LOOP), samples),
        "arith": median_us(run(CPU_ARITH), max(3, samples // 3)),
        "str": median_us(run(CPU_STR), max(3, samples // 3)),
    }
    svc.close()
    loop.close()
    return out


def fmt(us: float) -> str:
    if us >= 10_000:
        return f"{us / 1000:.0f} ms"
    if us >= 1000:
        return f"{us / 1000:.1f} ms"
    return f"{us:.1f} µs"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="few samples (a smoke run)")
    args = ap.parse_args()
    samples = 3 if args.quick else 15
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as d:
        results["lackpy-rs"] = bench_lackpy_rs(Path(d), samples)
    for name, bench in (("pydantic-monty 1.4.0", bench_monty), ("lackpy 0.15.1", None)):
        try:
            if bench is None:
                with tempfile.TemporaryDirectory() as d:
                    results[name] = bench_lackpy(Path(d), samples)
            else:
                results[name] = bench(samples)
        except ImportError as e:
            print(f"({name} left out: {e})")
    names = list(results)
    print("| | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    rows = [
        ("trivial run (`1 + 2`)", lambda r: fmt(r["trivial"])),
        ("1,000 calls to a Python tool", lambda r: fmt(r["tool"])),
        ("  per call, over the same loop without calls", lambda r: fmt((r["tool"] - r["bare"]) / 1000)),
        ("CPU: 100,000 iterations of arithmetic", lambda r: fmt(r["arith"])),
        ("CPU: 20,000 str/list operations, join, split", lambda r: fmt(r["str"])),
    ]
    for label, cell in rows:
        print(f"| {label} | " + " | ".join(cell(results[n]) for n in names) + " |")


if __name__ == "__main__":
    main()
