"""Ctrl-C during a blocking run.

A blocking run interprets on the caller's thread with the GIL released,
so Python's SIGINT handler cannot run until it returns. While a run goes
on the main thread, Python's C-level signal handler also writes the
signal's number to a wakeup socket (``signal.set_wakeup_fd``); a watcher
thread reading it cancels the run, which stops within one step. The
handler then runs as soon as the run returns: ``KeyboardInterrupt``.
"""

from __future__ import annotations

import signal
import socket
import threading
from typing import Any

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
            for handle in list(_runs):
                handle.cancel()


def _wakeup_fd() -> int:
    global _wakeup
    if _wakeup is not None:
        return _wakeup.fileno()
    with _lock:
        if _wakeup is None:
            reader, writer = socket.socketpair()
            writer.setblocking(False)
            threading.Thread(
                target=_watch, args=(reader,), name="lackpy-interrupts", daemon=True
            ).start()
            _wakeup = writer
        return _wakeup.fileno()


_MAIN = threading.main_thread().ident


def watch(handle: Any) -> Any:
    """Has Ctrl-C cancel the run of ``handle`` until :func:`unwatch` is
    given what this returned (on the main thread only: elsewhere there are
    no signals to watch; then it returns ``None``)."""
    if threading.get_ident() != _MAIN:
        return None
    try:
        previous = signal.set_wakeup_fd(_wakeup_fd(), warn_on_full_buffer=False)
    except ValueError:  # not the main interpreter
        return None
    _runs.add(handle)
    return (handle, previous)


def unwatch(token: Any) -> None:
    """Ends what :func:`watch` started."""
    if token is not None:
        _runs.discard(token[0])
        signal.set_wakeup_fd(token[1])
