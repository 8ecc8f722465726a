"""Ctrl-C during a blocking run.

A blocking run interprets on the caller's thread with the GIL released,
so Python's SIGINT handler cannot run until it returns. While a run goes
on the main thread, Python's C-level signal handler also writes the
signal's number to a wakeup socket (``signal.set_wakeup_fd``); a watcher
thread reading it cancels the run, which stops within one step. The
handler then runs as soon as the run returns: ``KeyboardInterrupt``.
"""

from __future__ import annotations

import contextlib
import signal
import socket
import threading
from typing import Any, Iterator

_lock = threading.Lock()
_wakeup: socket.socket | None = None
_runs: set[Any] = set()


def _watch(sock: socket.socket) -> None:
    while True:
        try:
            data = sock.recv(256)
        except OSError:
            return
        if not data:
            return
        if signal.SIGINT in data:
            with _lock:
                for handle in list(_runs):
                    handle.cancel()


def _wakeup_fd() -> int:
    global _wakeup
    with _lock:
        if _wakeup is None:
            reader, writer = socket.socketpair()
            writer.setblocking(False)
            threading.Thread(
                target=_watch, args=(reader,), name="lackpy-interrupts", daemon=True
            ).start()
            _wakeup = writer
        return _wakeup.fileno()


@contextlib.contextmanager
def cancelled_by_ctrl_c(handle: Any) -> Iterator[None]:
    """Within it, Ctrl-C cancels the run of ``handle`` (on the main
    thread; elsewhere there are no signals to watch)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    try:
        previous = signal.set_wakeup_fd(_wakeup_fd(), warn_on_full_buffer=False)
    except ValueError:  # not the main interpreter
        yield
        return
    with _lock:
        _runs.add(handle)
    try:
        yield
    finally:
        with _lock:
            _runs.discard(handle)
        signal.set_wakeup_fd(previous)
