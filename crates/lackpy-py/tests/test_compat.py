"""lackpy_rs.compat: lackpy 0.15.1's documented usage, run as written
with only the import changed, and its public names and signatures."""

from __future__ import annotations

import asyncio
import inspect
from pathlib import Path

import pytest

from lackpy_rs.compat import (
    ArgSpec,
    ExecutionResult,
    LackpyService,
    ToolSpec,
    Trace,
    TraceEntry,
    ValidationResult,
)


@pytest.fixture
def in_ws(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "README.md").write_text("# hello\n")
    return tmp_path


def test_the_documented_quick_start(in_ws: Path) -> None:
    # lackpy's README, with `from lackpy.service import LackpyService`
    # replaced by the compat import.
    async def main():
        svc = LackpyService()
        result = await svc.delegate("read file README.md", profile=["read_file"])
        return result

    result = asyncio.run(main())
    assert result["output"] == "# hello\n"
    assert set(result) >= {
        "success", "program", "grade", "generation_tier", "generation_time_ms",
        "execution_time_ms", "total_time_ms", "trace", "files_read",
        "files_modified", "output", "error",
    }


def test_run_program_returns_lackpys_result_type(in_ws: Path) -> None:
    svc = LackpyService(workspace=in_ws)
    r = asyncio.run(svc.run_program("x = read_file('README.md')\nprint(len(x))", profile=["read_file"]))
    assert isinstance(r, ExecutionResult)
    assert r.success and r.output is None and r.stdout == "8\n"
    assert r.effective_output == "8"
    assert isinstance(r.trace, Trace)
    assert isinstance(r.trace.entries[0], TraceEntry)
    assert r.trace.entries[0].tool == "read_file"
    assert r.trace.files_read
    assert r.variables == {"x": "# hello\n"}
    bad = asyncio.run(svc.run_program("import os"))
    assert not bad.success and bad.error.startswith("Validation failed")
    with_params = asyncio.run(svc.run_program("n + 1", params={"n": 41}))
    assert with_params.output == 42
    svc.close()


def test_validate_returns_lackpys_validation_result(in_ws: Path) -> None:
    svc = LackpyService()
    v = svc.validate("data = read_file(path)", profile=["read_file"], param_names={"path"})
    assert isinstance(v, ValidationResult)
    assert v.valid and v.calls == ["read_file"] and v.variables == ["data"]
    assert not svc.validate("import os").valid
    assert not svc.validate("find_files('*')", profile=["read_file"]).valid
    svc.close()


def test_listings_and_spec(in_ws: Path) -> None:
    svc = LackpyService()
    tools = {t["name"]: t for t in svc.toolbox_list()}
    assert tools["read_file"]["provider"] == "builtin"
    assert {"description", "grade_w", "effects_ceiling"} <= set(tools["read_file"])
    assert "allowed_builtins" in svc.language_spec()
    assert svc.get_config()["workspace"] == str(in_ws)
    svc.close()
    svc.close()


def test_a_harness_resolver_serves_virtual_tools(in_ws: Path) -> None:
    (in_ws / ".lackpy").mkdir()
    (in_ws / ".lackpy" / "config.toml").write_text(
        '[[virtual_tools]]\nname = "ask_user"\ndescription = "Ask the human"\n'
        'args = [{ name = "question", type = "str" }]\nreturns = "str"\n'
        "grade_w = 0\neffects_ceiling = 0\n"
    )
    svc = LackpyService(harness_resolver=lambda name: (lambda question: "yes") if name == "ask_user" else None)
    r = asyncio.run(svc.run_program("ask_user('ok?')"))
    assert r.output == "yes"
    svc.close()


def test_what_is_not_covered_says_so(in_ws: Path) -> None:
    svc = LackpyService()
    with pytest.raises(NotImplementedError):
        svc.generate  # noqa: B018
    with pytest.raises(NotImplementedError):
        asyncio.run(svc.run_program("1", sandbox=object()))
    with pytest.raises(NotImplementedError):
        asyncio.run(svc.run_program("1", profile={"tools": []}))
    with pytest.raises(NotImplementedError):
        LackpyService(config=object())
    svc.close()


# lackpy 0.15.1's public signatures (parameter names in order), as its
# installed package reports them.
SIGNATURES = {
    "__init__": ["self", "workspace", "config", "harness_resolver"],
    "run_program": ["self", "program", "profile", "params", "sandbox", "rules", "extra_tools"],
    "delegate": [
        "self", "intent", "profile", "params", "sandbox", "rules", "_program_override",
        "mode", "interpreter", "extra_tools", "model", "temperature",
    ],
    "validate": ["self", "program", "profile", "rules", "param_names", "extra_tools"],
    "language_spec": ["self"],
    "toolbox_list": ["self"],
    "get_config": ["self"],
    "close": ["self"],
}


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_signatures_match_lackpy(name: str) -> None:
    params = list(inspect.signature(getattr(LackpyService, name)).parameters)
    assert params == SIGNATURES[name]


def test_async_methods_are_async() -> None:
    assert inspect.iscoroutinefunction(LackpyService.run_program)
    assert inspect.iscoroutinefunction(LackpyService.delegate)
    assert not inspect.iscoroutinefunction(LackpyService.validate)


def test_data_types_take_lackpys_fields() -> None:
    assert [f for f in inspect.signature(ExecutionResult).parameters] == [
        "success", "output", "stdout", "error", "trace", "variables"]
    assert [f for f in inspect.signature(TraceEntry).parameters] == [
        "step", "tool", "args", "result", "duration_ms", "success", "error"]
    assert list(inspect.signature(ArgSpec).parameters) == ["name", "type", "description"]
    assert list(inspect.signature(ToolSpec).parameters)[:8] == [
        "name", "provider", "provider_config", "description", "args", "returns",
        "grade_w", "effects_ceiling"]
