"""Python functions as tools: specs from signatures, answers, errors."""

from __future__ import annotations

import math
from typing import Optional

import pytest

from lackpy_rs import Service


def listing(svc: Service, name: str) -> dict:
    return next(t for t in svc.tools() if t["name"] == name)


def test_a_tool_spec_comes_from_signature_hints_and_docstring(svc: Service) -> None:
    @svc.tool(grade=(0, 0))
    def word_count(text: str, sep: Optional[str] = None, *rest: int, **kw: int) -> int:
        """Counts the words in a text.

        More words that are not the description.
        """
        return len(text.split(sep))

    t = listing(svc, "word_count")
    spec = t["candidates"][0] if "candidates" in t else t
    text = str(t)
    assert "Counts the words in a text." in text
    assert "More words" not in text
    assert "'text'" in text and "'sep'" in text and "'rest'" not in text
    assert svc.run("word_count('a b c')").output == 3
    assert svc.run("word_count('a,b', sep=',')").output == 2
    assert spec is not None


def test_the_decorator_returns_the_function_and_takes_a_name(svc: Service) -> None:
    def f(x: int) -> int:
        return x + 1

    assert svc.tool(f) is f
    assert svc.tool(name="inc", grade=(0, 0))(f) is f
    assert svc.run("f(1) + inc(2)").output == 5


def test_the_grade_is_the_tools(svc: Service) -> None:
    @svc.tool(grade=(1, 0))
    def g() -> int:
        return 1

    assert svc.run("g()", tools=["g"]).grade == (1, 0)
    with pytest.raises(ValueError, match="grade"):
        svc.tool(grade=(4, 0))(lambda: 1)


def test_a_tools_exception_is_the_programs(svc: Service) -> None:
    @svc.tool
    def boom(x: int) -> int:
        raise KeyError(f"no {x}")

    r = svc.run("boom(1)")
    assert not r.success
    assert r.error_type == "KeyError"
    assert "no 1" in r.error
    assert r.trace[0]["success"] is False


def test_arguments_and_results_cross_as_python_values(svc: Service) -> None:
    seen = []

    @svc.tool
    def echo(v, *, k=None):
        seen.append((v, k))
        return v

    r = svc.run("echo((1, 2), k={'a': [None, True]})")
    assert r.output == (1, 2)
    assert seen == [((1, 2), {"a": [None, True]})]
    assert svc.run("echo(1208925819614629174706176)").output == 2**80


@pytest.mark.parametrize(
    "value, kind",
    [(object(), "object"), (b"bytes", "bytes"), ([1, object()], "object"), ({1: print}, "builtin_function_or_method")],
)
def test_a_value_that_is_not_data_is_a_type_error_naming_the_tool(
    svc: Service, value: object, kind: str
) -> None:
    @svc.tool
    def odd():
        return value

    r = svc.run("odd()")
    assert not r.success
    assert r.error_type == "TypeError"
    assert "tool 'odd'" in r.error and f"'{kind}'" in r.error


def test_sets_tuples_and_nan_are_lackpy_values(svc: Service) -> None:
    @svc.tool
    def values():
        return [{1, 2}, frozenset([3]), (4,), math.nan, math.inf]

    r = svc.run("v = values()\n[len(v[0]), len(v[1]), v[2], v[3] != v[3], v[4] > 10]")
    assert r.success, r.error
    assert r.output == [2, 1, (4,), True, True]


def test_a_self_holding_value_is_refused(svc: Service) -> None:
    loop: list = []
    loop.append(loop)

    @svc.tool
    def cyclic():
        return loop

    r = svc.run("cyclic()")
    assert r.error_type == "TypeError" and "nests more than" in r.error


def test_a_tool_registered_later_wins_its_name(svc: Service) -> None:
    svc.tool(name="read_file")(lambda path: "mine")
    assert svc.run("read_file('x')").output == "mine"


def test_unknown_names_in_a_program_fail_validation(svc: Service) -> None:
    r = svc.run("no_such_tool(1)")
    assert not r.success and r.error_type == "ValidationError"
