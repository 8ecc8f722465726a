#!/usr/bin/env python3
"""Time CPython running the interpreter benchmark programs.

Usage: python3 interp.py [repeat] < programs.json
  programs.json: [[name, source], ...]  (benches/interp.rs writes it)

Each program is compiled once and exec'd in a fresh globals dict per
iteration (what lackpy's reference runner does with a program's text);
the dict is dropped inside the timed region, as our run drops its values.
A `noop` tool that returns its argument stands in for a host tool.
Prints one JSON object: {name: best seconds of `repeat` runs}.
"""
import json
import sys
import time


def noop(x):
    return x


def best_seconds(code, repeat):
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        env = {"noop": noop}
        exec(code, env)
        del env
        best = min(best, time.perf_counter() - start)
    return best


def main():
    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    programs = json.load(sys.stdin)
    out = {}
    for name, src in programs:
        code = compile(src, "<program>", "exec")
        exec(code, {"noop": noop})  # warm up
        out[name] = best_seconds(code, repeat)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
