#!/usr/bin/env python3
"""Generates lackpy programs from a seed and runs each with CPython.

Usage: python3 cpython_run.py SEED COUNT

Prints one JSON list of {"program", "repr"} or {"program", "error"}
objects: the program's last line is an expression whose repr() is the
answer; an exception gives "ClassName: message". The programs stay inside
the language (no loops but `for` over calls/names, no imports, no defs) and
aim at the interpreter's fast paths: int accumulators near the i64 limits,
augmented assignment over mixed types, comprehensions over ranges, sum(),
calls with few arguments, dict lookups with constant keys.
"""
import json
import random
import sys

BIG = 9223372036854775807
VALS = ['0', '1', '-1', '7', str(BIG), str(-BIG - 1), str(BIG - 3), '2.5', '-0.0',
        "'a'", "'xy'", '[1]', '[2, 3]', 'True', 'None', '(1,)']
RANGES = ['range(5)', 'range(10, 0, -3)', 'range(-2, 3)', 'range(0)', 'range(1, 7, 2)']


def program(rnd):
    a, b = rnd.choice(VALS), rnd.choice(VALS)
    op = rnd.choice(['+', '-', '*', '//', '%'])
    r = rnd.choice(RANGES)
    step = rnd.choice(['2', 'i', '-1', str(BIG)])
    body = f"    t {op}= {b}" if rnd.random() < .5 else f"    t = t + {b}"
    summed = rnd.choice(['c', '[1, 2.5]', f'[{a}, {b}]', '[True, 2]', '[]', 'd[0]', 'c + [0.5]'])
    start = rnd.choice(['', ', 10', ', 0.5', ', ' + str(BIG)])
    sep = rnd.choice(['', "','", "',', 1", "None, 2"])
    return "\n".join([
        f"t = {a}",
        f"for i in range({rnd.choice([0, 3, 5])}):",
        body,
        f"c = [i * {step} for i in {r}]",
        f"d = [[i + j for j in {r}] for i in range(3)]",
        f"s = sum({summed}{start})",
        f"m = 'a,b,,c d'.split({sep})",
        "k = {'id': 1, 'score': 2}",
        "z = [k['score'], k.get('id'), k.get('nope', 5), 'abc'.replace('b', 'x', 1), max(c + [0]), min(1, 2)]",
        "[t, c, d, s, m, z]",
    ])


def main():
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    rnd = random.Random(seed)
    out = []
    for _ in range(count):
        src = program(rnd)
        body, last = src.rsplit("\n", 1)
        env = {}
        try:
            exec(body, env)
            out.append({"program": src, "repr": repr(eval(last, env))})
        except Exception as e:  # the program's own error is the answer
            out.append({"program": src, "error": f"{type(e).__name__}: {e}"})
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
