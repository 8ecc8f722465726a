"""lackpy 0.15.1's embedding API, served by lackpy-rs.

Replacing ``from lackpy.service import LackpyService`` with
``from lackpy_rs.compat import LackpyService`` is enough for the usage
lackpy documents: the same class, method names, parameters and result
types. What differs is listed in the package README; everything that
belongs to lackpy's own Python runtime (sandboxes, interpreters,
kibitzer, lackeys, templates on disk) raises ``NotImplementedError``.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from . import ConfigError, Service

__all__ = [
    "ArgSpec",
    "ExecutionResult",
    "LackpyService",
    "ToolSpec",
    "Trace",
    "TraceEntry",
    "ValidationResult",
]


@dataclass
class TraceEntry:
    """One tool call of a run."""

    step: int
    tool: str
    args: dict[str, Any]
    result: Any
    duration_ms: float
    success: bool
    error: str | None = None


@dataclass
class Trace:
    """A run's tool calls and the files its tools read and wrote."""

    entries: list[TraceEntry] = field(default_factory=list)
    files_read: list[str] = field(default_factory=list)
    files_modified: list[str] = field(default_factory=list)


@dataclass
class ExecutionResult:
    """The result of running a program (a failed program is one too)."""

    success: bool
    output: Any = None
    stdout: str = ""
    error: str | None = None
    trace: Trace = field(default_factory=Trace)
    variables: dict[str, Any] = field(default_factory=dict)

    @property
    def effective_output(self) -> Any:
        """``output`` when the program ended with a value, else what it
        printed (stripped), else ``None``."""
        if self.output is not None:
            return self.output
        return self.stdout.strip() or None


@dataclass
class ValidationResult:
    """Whether a program passed validation, and what it calls and assigns."""

    valid: bool
    errors: list[str] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)
    variables: list[str] = field(default_factory=list)


@dataclass
class ArgSpec:
    """A tool argument, as data."""

    name: str
    type: str = "Any"
    description: str = ""


@dataclass
class ToolSpec:
    """A tool's spec, as data."""

    name: str
    provider: str
    provider_config: dict[str, Any] = field(default_factory=dict)
    description: str = ""
    args: list[ArgSpec] = field(default_factory=list)
    returns: str = "Any"
    grade_w: int = 3
    effects_ceiling: int = 3
    examples: list[dict] = field(default_factory=list)
    docs: str | None = None
    effect_kind: str | None = None
    path_arg: str | None = None
    path_index: int | None = None


def _unsupported(what: str) -> NotImplementedError:
    return NotImplementedError(f"lackpy_rs.compat: {what} is not supported (see the README)")


def _namespace(profile: Any, extra_tools: list[str] | None) -> dict[str, Any]:
    """lackpy's ``profile`` (a name or a tool list) and ``extra_tools`` as
    lackpy-rs's ``profile``/``tools``."""
    if profile is None:
        if extra_tools:
            raise _unsupported("extra_tools without a tool list")
        return {}
    if isinstance(profile, str):
        if extra_tools:
            raise _unsupported("extra_tools beside a named profile")
        return {"profile": profile}
    if isinstance(profile, (list, tuple)):
        return {"tools": [*profile, *(extra_tools or [])]}
    raise _unsupported(f"a profile given as {type(profile).__name__}")


def _result(r: Any) -> ExecutionResult:
    entries = [
        TraceEntry(
            step=e["step"],
            tool=e["tool"],
            args=e["args"],
            result=e["result"],
            duration_ms=e["duration_ms"],
            success=e["success"],
            error=e.get("error"),
        )
        for e in r.trace
    ]
    return ExecutionResult(
        success=r.success,
        output=r.output,
        stdout=r.stdout,
        error=r.error,
        trace=Trace(entries, list(r.files_read), list(r.files_modified)),
        variables=r.variables,
    )


class LackpyService:
    """lackpy's service class over a lackpy-rs :class:`~lackpy_rs.Service`.

    Args:
        workspace: The workspace root (default: the current directory).
        config: Must be ``None``: the workspace's ``.lackpy/config.toml``
            is read (lackpy-rs's format).
        harness_resolver: Resolves virtual tools at call time: a name to
            a callable or ``None``.
    """

    def __init__(
        self,
        workspace: Path | None = None,
        config: Any = None,
        harness_resolver: Any = None,
    ) -> None:
        if config is not None:
            raise _unsupported("a config object (the workspace's config file is read)")
        root = os.fspath(workspace) if workspace is not None else os.getcwd()
        self._svc = Service(root, harness=harness_resolver)
        self._workspace = Path(root)

    @property
    def service(self) -> Service:
        """The lackpy-rs service underneath (for ``tool`` and the rest of
        lackpy-rs's API)."""
        return self._svc

    async def run_program(
        self,
        program: str,
        profile: Any = None,
        params: dict[str, Any] | None = None,
        sandbox: Any = None,
        rules: list | None = None,
        extra_tools: list[str] | None = None,
    ) -> ExecutionResult:
        """Validates and runs ``program``; a failed validation or run is a
        failed result."""
        if sandbox is not None:
            raise _unsupported("sandbox")
        r = await self._svc.run_async(
            program, params=params, rules=rules, **_namespace(profile, extra_tools)
        )
        return _result(r)

    async def delegate(
        self,
        intent: str,
        profile: Any = None,
        params: dict[str, Any] | None = None,
        sandbox: Any = None,
        rules: list | None = None,
        _program_override: str | None = None,
        mode: str | None = None,
        interpreter: Any = None,
        extra_tools: list[str] | None = None,
        model: str | None = None,
        temperature: float | None = None,
    ) -> dict[str, Any]:
        """Has the configured tiers write a program for ``intent`` and runs
        it: a dict with ``success``, ``program``, ``grade``,
        ``generation_tier``, the times, ``trace``, ``files_read``,
        ``files_modified``, ``output`` and ``error``.

        Raises:
            RuntimeError: No tier produced a program.
        """
        for name, value in (
            ("sandbox", sandbox),
            ("mode", mode),
            ("interpreter", interpreter),
            ("model", model),
            ("temperature", temperature),
        ):
            if value is not None:
                raise _unsupported(name)
        ns = _namespace(profile, extra_tools)
        if _program_override is not None:
            r = await self._svc.run_async(_program_override, params=params, rules=rules, **ns)
            return {
                "success": r.success,
                "program": _program_override,
                "output": r.effective_output,
                "error": r.error,
                "trace": r.trace,
                "files_read": r.files_read,
                "files_modified": r.files_modified,
            }
        d = await asyncio.to_thread(self._svc.delegate, intent, params=params, rules=rules, **ns)
        if d.get("program") is None:
            raise RuntimeError(d.get("error") or "no tier produced a program")
        return d

    def validate(
        self,
        program: str,
        profile: Any = None,
        rules: list | None = None,
        param_names: set[str] | None = None,
        extra_tools: list[str] | None = None,
    ) -> ValidationResult:
        """Validates ``program`` against the profile's tools (and
        ``param_names``) without running it."""
        params = {name: None for name in (param_names or ())}
        v = self._svc.validate(
            program, params=params, rules=rules, **_namespace(profile, extra_tools)
        )
        return ValidationResult(v["valid"], v["errors"], v["calls"], v["variables"])

    def language_spec(self) -> dict[str, Any]:
        """The language spec as structured data."""
        return self._svc.spec()

    def toolbox_list(self) -> list[dict[str, Any]]:
        """Every tool: ``name``, ``provider``, ``description``,
        ``grade_w`` and ``effects_ceiling`` (plus lackpy-rs's fields)."""
        out = []
        for t in self._svc.tools():
            winner = _winner(t)
            grade = winner.get("grade") or t.get("grade") or {}
            out.append(
                {
                    **t,
                    "name": t["name"],
                    "provider": winner.get("provider", t.get("provider")),
                    "description": winner.get("description", t.get("description", "")),
                    "grade_w": grade.get("w", 3),
                    "effects_ceiling": grade.get("d", 3),
                }
            )
        return out

    def get_config(self) -> dict[str, Any]:
        """A serializable snapshot of the workspace and its tools."""
        return {
            "workspace": str(self._workspace),
            "tools": [t["name"] for t in self._svc.tools()],
        }

    def close(self) -> None:
        """Releases the service's resources; idempotent."""
        self._svc.close()

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name in _NOT_COVERED:
            raise _unsupported(f"LackpyService.{name}")
        raise AttributeError(name)


_NOT_COVERED = frozenset(
    {
        "create",
        "create_lackey",
        "run_lackey",
        "parse_lackey",
        "profile_create",
        "profile_list",
        "profile_info",
        "generate",
        "docs_index",
        "resolve_doc",
        "provider_list",
    }
)


def _winner(listing: dict[str, Any]) -> dict[str, Any]:
    candidates = listing.get("candidates") or []
    at = listing.get("winner")
    if isinstance(at, int) and 0 <= at < len(candidates):
        return candidates[at]
    return listing


# Kept importable for code that catches it.
ConfigError = ConfigError
