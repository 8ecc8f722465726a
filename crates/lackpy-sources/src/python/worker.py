# lackpy-rs Python tool worker: one long-lived process per workspace.
#
# Protocol, one JSON object per line:
#   request   {"id": n, "module": m, "function": f, "args": [...], "kwargs": {...}}
#   response  {"id": n, "ok": true, "result": v}
#          or {"id": n, "ok": false, "type": "ValueError", "message": "..."}
# Tuples, sets and dicts with non-string keys travel tagged:
#   {"$tuple": [...]}, {"$set": [...]}, {"$dict": [[k, v], ...]}.
# The protocol owns the original stdout; file descriptor 1 is pointed at
# stderr so a print() in a tool can never corrupt it.
import importlib
import json
import os
import sys

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


def main():
    workspace = sys.argv[1]
    sys.path.insert(0, workspace)
    proto = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    functions = {}

    def send(obj):
        proto.write(json.dumps(obj, ensure_ascii=False) + "\n")
        proto.flush()

    send({"ready": True, "pid": os.getpid(), "version": sys.version.split()[0]})
    for line in sys.stdin:
        rid = None
        try:
            req = json.loads(line, object_hook=decode)
            rid = req.get("id")
            key = (req["module"], req["function"])
            fn = functions.get(key)
            if fn is None:
                fn = getattr(importlib.import_module(key[0]), key[1])
                functions[key] = fn
            result = fn(*req.get("args", []), **req.get("kwargs", {}))
            text = json.dumps({"id": rid, "ok": True, "result": encode(result)}, ensure_ascii=False)
        except BaseException as e:  # every failure is the call's answer
            text = json.dumps({"id": rid, "ok": False, "type": type(e).__name__, "message": str(e)},
                              ensure_ascii=False)
        proto.write(text + "\n")
        proto.flush()


main()
