"""The event loop that runs async tools for runs that have none.

A blocking ``Service.run`` has no event loop of its own, so an async tool
it calls runs here: one daemon thread per process, started on first use.
"""

from __future__ import annotations

import asyncio
import threading

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None


def background_loop() -> asyncio.AbstractEventLoop:
    """The background loop, started on first use."""
    global _loop
    with _lock:
        if _loop is None or _loop.is_closed():
            loop = asyncio.new_event_loop()
            thread = threading.Thread(
                target=loop.run_forever, name="lackpy-async-tools", daemon=True
            )
            thread.start()
            _loop = loop
        return _loop
