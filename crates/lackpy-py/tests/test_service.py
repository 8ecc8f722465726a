"""The service API: runs, results, validation, listings, lifecycle."""

from __future__ import annotations

import json

import pytest

from lackpy_rs import ConfigError, ExecutionResult, Service


def test_a_run_gives_its_result_as_attributes_and_as_a_dict(svc: Service, ws) -> None:
    (ws / "notes.md").write_text("hello\n")
    r = svc.run("files = find_files('*.md')\nprint('found')\nlen(files)")
    assert isinstance(r, ExecutionResult)
    assert r.success
    assert r.output == 1
    assert r.stdout == "found\n"
    assert r.error is None and r.error_type is None
    assert [e["tool"] for e in r.trace] == ["find_files"]
    assert r.duration_ms >= 0
    d = r.to_dict()
    assert d["success"] is True and d["output"] == 1
    assert d["trace"][0]["result"] == ["notes.md"]
    assert json.loads(r.to_json())["output"] == 1
    assert "success=True" in repr(r)


def test_outputs_keep_their_python_types(svc: Service) -> None:
    r = svc.run("(1, {2}, {(3, 4): 'x'}, 12345678901234567890123456789, 1.5, None, True)")
    assert r.output == (1, {2}, {(3, 4): "x"}, 12345678901234567890123456789, 1.5, None, True)
    assert r.to_dict()["output"] == r.output


def test_files_read_are_reported(svc: Service, ws) -> None:
    (ws / "a.txt").write_text("abc")
    r = svc.run("len(read_file('a.txt'))")
    assert r.output == 3
    assert r.files_read == ["a.txt"] or r.files_read[0].endswith("a.txt")


def test_params_are_program_names(svc: Service) -> None:
    r = svc.run("n * 2 + len(xs)", params={"n": 3, "xs": [1, 2]})
    assert r.output == 8


def test_a_broken_program_is_a_result_not_an_exception(svc: Service) -> None:
    r = svc.run("import os")
    assert not r.success
    assert r.error_type == "ValidationError"
    r = svc.run("1 / 0")
    assert not r.success and r.error_type == "ZeroDivisionError"
    assert r.error_line == 1


def test_validate_lists_errors_without_running(svc: Service) -> None:
    ok = svc.validate("x = read_file('a')")
    assert ok["valid"] and ok["calls"] == ["read_file"] and ok["variables"] == ["x"]
    bad = svc.validate("import os")
    assert not bad["valid"] and bad["errors"]
    assert svc.validate("n + 1", params={"n": 1})["valid"]


def test_tools_and_spec(svc: Service) -> None:
    names = [t["name"] for t in svc.tools()]
    assert "read_file" in names and "find_files" in names
    spec = svc.spec()
    assert "allowed_builtins" in spec


def test_delegate_without_models_says_so(svc: Service) -> None:
    d = svc.delegate("count the words in notes.txt")
    assert set(d) >= {"success", "program", "error"}


def test_misconfiguration_raises_config_error(tmp_path) -> None:
    with pytest.raises(ConfigError, match="not a directory"):
        Service(tmp_path / "missing")
    (tmp_path / ".lackpy").mkdir()
    (tmp_path / ".lackpy" / "config.toml").write_text("[limits\n")
    with pytest.raises(ConfigError):
        Service(tmp_path)


def test_unknown_tool_or_profile_raises(svc: Service) -> None:
    with pytest.raises(ConfigError, match="unknown tool 'nope'"):
        svc.run("1", tools=["nope"])
    with pytest.raises(ConfigError, match="unknown profile"):
        svc.run("1", profile="nope")


def test_bad_inputs_are_type_errors(svc: Service) -> None:
    with pytest.raises(TypeError, match="program must be str, not 'int'"):
        svc.run(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="params keys must be str"):
        svc.run("1", params={1: 2})  # type: ignore[dict-item]
    with pytest.raises(TypeError, match="param 'x'.*'object'"):
        svc.run("x", params={"x": object()})
    with pytest.raises(TypeError, match="sequences of names"):
        svc.run("1", tools="read_file")


def test_close_is_idempotent_and_a_context_manager(ws) -> None:
    s = Service(ws)
    assert not s.closed
    s.close()
    s.close()
    assert s.closed
    with pytest.raises(ConfigError, match="closed"):
        s.run("1")
    with Service(ws) as s2:
        assert s2.run("1").output == 1
    assert s2.closed


def test_limits_end_a_run_as_a_result(svc: Service, long_svc: Service, tmp_path) -> None:
    from conftest import LONG, write_config

    r = long_svc.run(LONG, timeout_ms=100)
    assert not r.success and r.error_type == "TimeoutError"
    r = svc.run("x = 'a' * 10000000000")
    assert not r.success and r.error_type == "MemoryError"
    write_config(tmp_path, "[limits]\nmax_steps = 1000\n")
    with Service(tmp_path) as small:
        r = small.run("n = 0\nfor i in range(1000000000):\n    n = n + 1")
    assert not r.success and r.error_type == "StepLimitError"
