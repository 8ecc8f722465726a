# lackpy-rs Python tool worker: one long-lived process per workspace.
#
# Protocol, one JSON object per line:
#   request   {"id": n, "module": m, "function": f, "args": [...], "kwargs": {...},
#              "max_bytes": n}
#   response  {"id": n, "ok": true, "result": v}
#          or {"id": n, "ok": false, "type": "ValueError", "message": "..."}
# Tuples, sets and dicts with non-string keys travel tagged:
#   {"$tuple": [...]}, {"$set": [...]}, {"$dict": [[k, v], ...]}.
# The protocol owns the original stdout; file descriptor 1 is pointed at
# stderr so a print() in a tool can never corrupt it. Nothing a tool returns
# may end the worker: a result that is not UTF-8 text (a lone surrogate) or
# is larger than max_bytes is the call's error.
import sys

# `python3 -c` puts the working directory (the workspace) first on sys.path:
# a json.py written there would run in place of the standard module. Drop it
# before anything else is imported; the workspace goes back at the end.
sys.path[:] = [p for p in sys.path if p not in ("", ".")]

import importlib  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402

TAGS = ("$tuple", "$set", "$dict")


def decode(d):
    if len(d) == 1:
        (k, v), = d.items()
        if k == "$tuple":
            return tuple(v)
        if k == "$set":
            return set(v)
        if k == "$dict":
            return {_hashable(a): b for a, b in v}
    return d


def _hashable(k):
    return tuple(_hashable(x) for x in k) if isinstance(k, list) else k


def encode(v):
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, list):
        return [encode(x) for x in v]
    if isinstance(v, tuple):
        return {"$tuple": [encode(x) for x in v]}
    if isinstance(v, (set, frozenset)):
        return {"$set": [encode(x) for x in v]}
    if isinstance(v, dict):
        if all(isinstance(k, str) and not k.startswith("$") for k in v):
            return {k: encode(x) for k, x in v.items()}
        return {"$dict": [[encode(k), encode(x)] for k, x in v.items()]}
    return str(v)


class ResultTooLarge(Exception):
    pass


def over(v, limit):
    """Whether v's JSON is surely longer than limit: a cheap lower bound,
    so a huge result is refused before it is copied into JSON text."""
    total = 0
    stack = [v]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            total += len(x) + 2
        elif isinstance(x, (list, tuple, set, frozenset)):
            total += 2
            stack.extend(x)
        elif isinstance(x, dict):
            total += 2
            stack.extend(x.keys())
            stack.extend(x.values())
        else:
            total += 1
        if total > limit:
            return True
    return False


def too_large(key, limit):
    return ResultTooLarge(
        f"python tool '{key[0]}.{key[1]}': result exceeds {limit} bytes as JSON "
        f"(max_output_bytes)")


MAX_MESSAGE = 65536


def error_line(rid, e):
    name = "ToolError" if isinstance(e, ResultTooLarge) else type(e).__name__
    try:
        message = str(e)
    except BaseException:
        message = "<exception message could not be written>"
    if len(message) > MAX_MESSAGE:
        message = message[:MAX_MESSAGE] + "..."
    text = json.dumps({"id": rid, "ok": False, "type": name, "message": message},
                      ensure_ascii=False)
    # A message holding a lone surrogate still travels (as an escape).
    return text.encode("utf-8", "backslashreplace")


def main():
    workspace = sys.argv[1]
    # Last, so a file written into the workspace cannot stand in for a
    # standard or installed module that a tool imports.
    sys.path.append(workspace)
    proto = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    functions = {}

    def send(data):
        proto.write(data + b"\n")
        proto.flush()

    send(json.dumps({"ready": True, "pid": os.getpid(), "version": sys.version.split()[0]}).encode())
    for line in sys.stdin:
        rid = None
        try:
            req = json.loads(line, object_hook=decode)
            rid = req.get("id")
            limit = req.get("max_bytes")
            key = (req["module"], req["function"])
            fn = functions.get(key)
            if fn is None:
                fn = getattr(importlib.import_module(key[0]), key[1])
                functions[key] = fn
            result = fn(*req.get("args", []), **req.get("kwargs", {}))
            if limit is not None and over(result, limit):
                raise too_large(key, limit)
            data = json.dumps({"id": rid, "ok": True, "result": encode(result)},
                              ensure_ascii=False).encode("utf-8")
            if limit is not None and len(data) > limit:
                raise too_large(key, limit)
        except BaseException as e:  # every failure is the call's answer
            data = error_line(rid, e)
        send(data)


main()
