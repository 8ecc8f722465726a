#!/usr/bin/env python3
"""Time the reference front end on the inputs of benches/parse.rs.

Usage: python parse_validate.py   (in a venv with `pip install lackpy-lang==0.13.0`)

lackpy-lang's validate() calls CPython's ast.parse itself, so one call is
the reference's whole parse + validate. Prints microseconds per program for
the realistic 200-line program and for the whole corpus (sum over cases).
"""
import json
import os
import timeit

from lackpy.lang import validate

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..", "..")
TOOLS = {"read_file", "find_files", "write_file", "edit_file"}


def best_us(fn, number):
    return min(timeit.repeat(fn, number=number, repeat=5)) / number * 1e6


def main():
    with open(os.path.join(HERE, "..", "data", "realistic.lpy"), encoding="utf-8") as f:
        realistic = f.read()
    with open(os.path.join(ROOT, "tests", "conformance", "visible.jsonl"), encoding="utf-8") as f:
        cases = [json.loads(line) for line in f if line.strip()]
    programs = [(c["program"], TOOLS | set(c.get("params") or {})) for c in cases]

    us = best_us(lambda: validate(realistic, allowed_names=TOOLS), 200)
    print(f"reference parse+validate realistic-200-lines: {us:.1f} us")

    big = realistic * 85
    us = best_us(lambda: validate(big, allowed_names=TOOLS), 1)
    print(f"reference parse+validate realistic-x85 ({big.count(chr(10))} lines): {us / 1000:.1f} ms")

    def corpus():
        for src, names in programs:
            validate(src, allowed_names=names)

    us = best_us(corpus, 5)
    print(f"reference parse+validate corpus ({len(programs)} programs): {us:.1f} us total, "
          f"{us / len(programs):.2f} us/program")


if __name__ == "__main__":
    main()
