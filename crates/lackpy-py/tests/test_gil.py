"""The interpreter runs with the GIL released; Ctrl-C cancels a run."""

from __future__ import annotations

import _thread
import threading
import time

import pytest

from conftest import LONG
from lackpy_rs import Service


def test_another_python_thread_makes_progress_during_a_run(long_svc: Service) -> None:
    count = 0
    stop = threading.Event()

    def spin() -> None:
        nonlocal count
        while not stop.is_set():
            count += 1

    t = threading.Thread(target=spin)
    t.start()
    try:
        before = count
        r = long_svc.run(LONG, timeout_ms=300)
        during = count - before
    finally:
        stop.set()
        t.join()
    assert r.error_type == "TimeoutError"
    # Held for 300 ms, the GIL would let the thread run not at all.
    assert during > 10_000


def test_a_python_tool_runs_while_other_threads_wait_for_the_gil(svc: Service) -> None:
    @svc.tool
    def who() -> str:
        return threading.current_thread().name

    assert isinstance(svc.run("who()").output, str)


def test_keyboard_interrupt_cancels_a_blocking_run(long_svc: Service) -> None:
    timer = threading.Timer(0.2, _thread.interrupt_main)
    timer.start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        long_svc.run(LONG)
    # The program would run for 60 s; it stopped within a step of Ctrl-C.
    assert time.monotonic() - started < 10
    assert long_svc.run("1").output == 1


def test_a_real_sigint_cancels_a_blocking_run(long_svc: Service) -> None:
    import os
    import signal

    timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        long_svc.run(LONG)
    assert time.monotonic() - started < 10


def test_a_run_on_another_thread_runs_there(svc: Service) -> None:
    seen = []

    @svc.tool
    def where() -> int:
        seen.append(threading.get_ident())
        return 1

    out = []
    t = threading.Thread(target=lambda: out.append(svc.run("where() + where()").output))
    t.start()
    t.join()
    assert out == [2]
    assert seen == [t.ident, t.ident]
