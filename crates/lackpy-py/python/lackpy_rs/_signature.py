"""A Python function's tool spec: arguments from its signature and type
hints, description from its docstring."""

from __future__ import annotations

import inspect
import json
import types
import typing
from typing import Any, Callable

_SIMPLE = {str: "str", int: "int", float: "float", bool: "bool", dict: "dict",
           list: "list", tuple: "tuple", set: "set", type(None): "None"}


def type_name(hint: Any) -> str:
    """The display type lackpy prompts use for a type hint (``Any`` when
    there is no plain name for it)."""
    if hint is inspect.Parameter.empty or hint is Any:
        return "Any"
    if hint in _SIMPLE:
        return _SIMPLE[hint]
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1:
            return type_name(rest[0])
        return "Any"
    if origin in _SIMPLE and args:
        inner = ", ".join(type_name(a) for a in args if a is not Ellipsis)
        return f"{_SIMPLE[origin]}[{inner}]"
    if origin in _SIMPLE:
        return _SIMPLE[origin]
    return "Any"


def description(func: Callable[..., Any]) -> str:
    """The docstring's first paragraph on one line (empty without one)."""
    doc = inspect.getdoc(func) or ""
    first = doc.strip().split("\n\n", 1)[0]
    return " ".join(first.split())


def arg_specs(func: Callable[..., Any]) -> tuple[list[dict[str, Any]], str]:
    """The arguments a program may pass (``*args``/``**kwargs`` are not
    declared) and the display type of the result."""
    sig = inspect.signature(func)
    try:
        hints = typing.get_type_hints(func)
    except Exception:  # unresolvable forward references: no types
        hints = {}
    args = []
    for p in sig.parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        spec: dict[str, Any] = {
            "name": p.name,
            "type": type_name(hints.get(p.name, p.annotation)),
            "required": p.default is p.empty,
        }
        if p.default is not p.empty:
            try:
                spec["default_json"] = json.dumps(p.default)
            except (TypeError, ValueError):
                pass
        args.append(spec)
    returns = type_name(hints.get("return", sig.return_annotation))
    return args, returns
