"""Type stubs of the extension module ``lackpy_rs._native``."""

from typing import Any, Callable

class ConfigError(Exception):
    """Misconfiguration or misuse: a bad workspace or config file, an
    unknown tool or profile, bad params. A failed program is a result."""

class ExecutionResult:
    """The result of one run (a failed program is a result too)."""

    @property
    def success(self) -> bool: ...
    @property
    def output(self) -> Any: ...
    @property
    def output_repr(self) -> str | None: ...
    @property
    def stdout(self) -> str: ...
    @property
    def effective_output(self) -> Any: ...
    @property
    def error(self) -> str | None: ...
    @property
    def error_type(self) -> str | None: ...
    @property
    def error_line(self) -> int | None: ...
    @property
    def error_column(self) -> int | None: ...
    @property
    def trace(self) -> list[dict[str, Any]]: ...
    @property
    def variables(self) -> dict[str, Any]: ...
    @property
    def grade(self) -> tuple[int, int]: ...
    @property
    def files_read(self) -> list[str]: ...
    @property
    def files_modified(self) -> list[str]: ...
    @property
    def duration_ms(self) -> float: ...
    @property
    def paused(self) -> dict[str, Any] | None: ...
    def to_dict(self) -> dict[str, Any]: ...
    def to_json(self) -> str: ...

class RunHandle:
    """Cancels a run (started by :meth:`NativeService.start`, or given to
    :meth:`NativeService.run`)."""

    def __init__(self) -> None: ...
    def cancel(self) -> None: ...

class NativeService:
    """The native half of :class:`lackpy_rs.Service`."""

    def __init__(
        self,
        workspace: str,
        harness: Callable[[str], Any] | None = None,
        max_concurrent_runs: int | None = None,
        approver: Callable[[dict[str, Any]], Any] | None = None,
    ) -> None: ...
    def register(
        self,
        name: str,
        func: Callable[..., Any],
        description: str,
        args: list[dict[str, Any]],
        returns: str,
        grade: tuple[int, int],
        is_async: bool,
    ) -> None: ...
    def run(
        self,
        program: str,
        params: dict[str, Any] | None = None,
        timeout_ms: int | None = None,
        tools: list[str] | None = None,
        profile: str | None = None,
        rules: list[str] | None = None,
        handle: RunHandle | None = None,
    ) -> ExecutionResult: ...
    def start(
        self,
        program: str,
        event_loop: Any,
        callback: Callable[[bool, Any], None],
        params: dict[str, Any] | None = None,
        timeout_ms: int | None = None,
        tools: list[str] | None = None,
        profile: str | None = None,
        rules: list[str] | None = None,
    ) -> RunHandle: ...
    def validate(
        self,
        program: str,
        params: dict[str, Any] | None = None,
        tools: list[str] | None = None,
        profile: str | None = None,
        rules: list[str] | None = None,
    ) -> dict[str, Any]: ...
    def tools(self) -> list[dict[str, Any]]: ...
    def spec(self) -> dict[str, Any]: ...
    def delegate(
        self,
        intent: str,
        params: dict[str, Any] | None = None,
        timeout_ms: int | None = None,
        tools: list[str] | None = None,
        profile: str | None = None,
        rules: list[str] | None = None,
    ) -> dict[str, Any]: ...
    def close(self) -> None: ...
    @property
    def closed(self) -> bool: ...
