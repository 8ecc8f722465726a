"""lackpy-rs embedded in Python.

A :class:`Service` validates and runs lackpy programs (a tiny restricted
Python) in Rust, with the GIL released; the programs' only powers are
tools: the workspace's configured tools and MCP servers, and Python
functions registered with :meth:`Service.tool`, sync or async.

    >>> from lackpy_rs import Service
    >>> svc = Service(".")
    >>> svc.run("1 + 2").output
    3
"""

from __future__ import annotations

import asyncio
import inspect
import os
from typing import Any, Awaitable, Callable, Mapping, Sequence, TypeVar

from . import _interrupt
from ._native import ConfigError, ExecutionResult, NativeService, RunHandle
from ._signature import arg_specs
from ._signature import description as _doc_description

__all__ = ["Service", "ExecutionResult", "ConfigError"]

F = TypeVar("F", bound=Callable[..., Any])


class Service:
    """A lackpy service for one workspace.

    Args:
        workspace: The workspace root: files and processes live there and
            its ``.lackpy/config.toml`` is loaded. MCP servers are started
            and discovered now.
        harness: Resolves virtual tools (``[virtual_tools]`` in the
            config) at call time: a tool name to a callable, or ``None``
            when the harness does not offer it now.
        max_concurrent_runs: At most this many programs run at once.
        approver: Decides each call the workspace's ``[policy]`` gates.
            Called (or, when ``async``, awaited on the run's event loop)
            with a dict: ``tool``, ``args``, ``call`` (the call in one
            line), ``grade`` (``(w, d)``), ``provenance``, ``rule``,
            ``step``, ``run_id``. ``True`` runs the call, ``False`` makes
            it raise ``PermissionError`` in the program, ``None`` pauses
            the run (``error_type`` ``ApprovalRequired``). An approver
            that raises or answers anything else denies the call. Without
            one, a gated call pauses the run.

    Raises:
        ConfigError: The workspace or its config is wrong.
    """

    def __init__(
        self,
        workspace: str | os.PathLike[str] = ".",
        *,
        harness: Callable[[str], Callable[..., Any] | None] | None = None,
        max_concurrent_runs: int | None = None,
        approver: Callable[[dict[str, Any]], Any] | None = None,
    ) -> None:
        self._native = NativeService(
            os.fspath(workspace), harness, max_concurrent_runs, approver
        )

    def tool(
        self,
        func: F | None = None,
        *,
        name: str | None = None,
        grade: tuple[int, int] = (3, 3),
        description: str | None = None,
    ) -> Any:
        """Registers a Python function as a tool; use as ``@svc.tool`` or
        ``@svc.tool(grade=(w, d))``.

        The arguments come from the function's signature and type hints,
        the description from its docstring's first paragraph. An ``async``
        function is awaited on the event loop of the ``run_async`` that
        calls it (on a background loop for ``run``). A registered tool
        wins over any other tool of its name.

        Args:
            name: The name programs call (default: the function's name).
            grade: ``(w, d)``: world coupling and effects ceiling, each
                0..3; the default is the worst case, ``(3, 3)``.
            description: Overrides the docstring's.
        """

        def register(f: F) -> F:
            args, returns = arg_specs(f)
            self._native.register(
                name or f.__name__,
                f,
                description if description is not None else _describe(f),
                args,
                returns,
                tuple(grade),
                inspect.iscoroutinefunction(f),
            )
            return f

        if func is not None:
            return register(func)
        return register

    def run(
        self,
        program: str,
        *,
        params: Mapping[str, Any] | None = None,
        timeout_ms: int | None = None,
        tools: Sequence[str] | None = None,
        profile: str | None = None,
        rules: Sequence[str] | None = None,
    ) -> ExecutionResult:
        """Validates and runs ``program``, blocking until it ends (Ctrl-C
        cancels it and raises ``KeyboardInterrupt``). Other Python threads
        keep running meanwhile.

        A program that fails to validate or run gives a result with
        ``success`` false; misconfiguration (an unknown tool, profile or
        rule) raises :class:`ConfigError`. ``rules`` are extra validation
        rules by name (``no_loops``, ...).
        """
        handle = RunHandle()
        watching = _interrupt.watch(handle)
        try:
            return self._native.run(
                program,
                _params(params),
                timeout_ms,
                _names(tools),
                profile,
                _names(rules),
                handle,
            )
        finally:
            _interrupt.unwatch(watching)

    async def run_async(
        self,
        program: str,
        *,
        params: Mapping[str, Any] | None = None,
        timeout_ms: int | None = None,
        tools: Sequence[str] | None = None,
        profile: str | None = None,
        rules: Sequence[str] | None = None,
    ) -> ExecutionResult:
        """:meth:`run` without blocking the event loop: async tools are
        awaited on this loop; cancelling the awaiting task cancels the
        run."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[ExecutionResult] = loop.create_future()

        def settle(ok: bool, value: Any) -> None:
            loop.call_soon_threadsafe(_settle, future, ok, value)

        handle = self._native.start(
            program,
            loop,
            settle,
            _params(params),
            timeout_ms,
            _names(tools),
            profile,
            _names(rules),
        )
        try:
            return await future
        except asyncio.CancelledError:
            handle.cancel()
            raise

    def validate(
        self,
        program: str,
        *,
        params: Mapping[str, Any] | None = None,
        tools: Sequence[str] | None = None,
        profile: str | None = None,
        rules: Sequence[str] | None = None,
    ) -> dict[str, Any]:
        """Validates ``program`` without running it: ``{"valid", "errors",
        "diagnostics", "calls", "variables"}``."""
        return self._native.validate(
            program, _params(params), _names(tools), profile, _names(rules)
        )

    def tools(self) -> list[dict[str, Any]]:
        """Every tool as ``lackpy tools --json`` lists it (name, grade,
        availability, provenance, policy)."""
        return self._native.tools()

    def spec(self) -> dict[str, Any]:
        """The language spec: what programs may contain."""
        return self._native.spec()

    def delegate(
        self,
        intent: str,
        *,
        params: Mapping[str, Any] | None = None,
        timeout_ms: int | None = None,
        tools: Sequence[str] | None = None,
        profile: str | None = None,
        rules: Sequence[str] | None = None,
    ) -> dict[str, Any]:
        """Has the configured tiers (templates, rules, models) write a
        program for ``intent`` and runs it; the dict ``lackpy delegate
        --json`` prints. The program's gated calls go to the service's
        ``approver``, as a run's do."""
        return self._native.delegate(
            intent, _params(params), timeout_ms, _names(tools), profile, _names(rules)
        )

    def close(self) -> None:
        """Stops the MCP servers and workers; idempotent."""
        self._native.close()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._native.closed

    def __enter__(self) -> Service:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _describe(f: Callable[..., Any]) -> str:
    return _doc_description(f)


def _params(params: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if params is None or isinstance(params, dict):
        return params
    return dict(params)


def _names(tools: Sequence[str] | None) -> list[str] | None:
    if tools is None:
        return None
    if isinstance(tools, str):
        raise TypeError("tools and rules are sequences of names, not a str")
    return list(tools)


def _settle(future: asyncio.Future[Any], ok: bool, value: Any) -> None:
    if future.done():
        return
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)
