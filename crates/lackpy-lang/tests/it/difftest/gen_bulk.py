#!/usr/bin/env python3
"""Generates programs for the bulk collection paths (list(), tuple(),
sorted(), sum() and friends draining an iterable) and runs each with CPython.

Usage: python3 gen_bulk.py SEED PER_FAMILY

Families: draining each source kind (ranges with any step and bounds near
the i64 limits, reversed lists/tuples/ranges/dicts, enumerate with any
start, zip of one to five iterables, strict zip, dict views, shared
iterator objects drained twice or after a partial step), and draining a
reversed list that was shrunk or grown after the iterator was made. Values
mix bool and int, ints at the i64 limits and floats.

Prints one JSON list of {"program", "repr"} or {"program", "error"}: the
last line of each program is an expression whose repr() is the answer; an
exception gives "ClassName: message".
"""
import json
import random
import sys

BIG = 9223372036854775807
SEQS = ['[1, 2, 3]', '[True, False, 2]', "'abc'", '[]', 'range(4)', f'[{BIG}, {-BIG - 1}, 0]',
        '[1.5, -0.0, 2]', "['x', 'y']", '(7, 8, 9, 10)', '[[1, 2], [3, 4]]', '()',
        '(1,)', 'range(10, -3, -4)', "{'a': 1, 'b': 2}"]
RANGES = ['range(5)', 'range(0)', 'range(3, 17, 4)', 'range(10, -10, -3)', f'range({BIG - 3}, {BIG})',
          f'range({-BIG - 1}, {-BIG + 2})', f'range({-BIG - 1}, {BIG}, {BIG})', 'range(-2, 2)',
          f'range({BIG}, {-BIG - 1}, {-BIG})']


def source(rnd):
    a, b = rnd.choice(SEQS), rnd.choice(SEQS)
    return rnd.choice([
        rnd.choice(RANGES), f'reversed({a if not a.startswith("{") and a != chr(39) + "abc" + chr(39) else "[1, 2]"})',
        f'reversed({rnd.choice(RANGES)})', f'enumerate({a})',
        f'enumerate({a}, {rnd.choice(["1", "-3", str(BIG - 1), "True", str(BIG)])})',
        f'zip({a})', f'zip({a}, {b})', f'zip({a}, {b}, {rnd.choice(SEQS)})',
        f'zip({a}, {b}, {a}, {b}, {a})', f'zip({a}, {b}, strict=True)', 'zip()',
        'd.items()', 'd.values()', 'd.keys()', 'reversed(d)', 'reversed(d.items())',
        f'enumerate(zip({a}, {b}))', f'zip(enumerate({a}), reversed({rnd.choice(RANGES)}))',
    ])


def fam_drain(rnd):
    lines = [f"d = {rnd.choice(['{}', '{1: 2, 3: 4}', '{True: 1.5, 0: None, 9: (1, 2)}'])}"]
    src = source(rnd)
    consumer = rnd.choice(['list(%s)', 'tuple(%s)', 'sorted(%s, key=str)', 'len(list(%s))',
                           '[p for p in %s]', '[str(p) for p in %s]', 'dict(enumerate(%s))'])
    lines.append(f"r = {consumer % src}")
    lines.append("r")
    return "\n".join(lines)


def fam_shared(rnd):
    src = source(rnd)
    lines = ["d = {1: 'a', 2: 'b', 3: 'c'}", f"it = {src}"]
    if rnd.random() < 0.5:
        lines.append("first = list(zip([0], it))")
    else:
        lines.append("first = None")
    lines.append(f"a = {rnd.choice(['list(it)', 'tuple(it)', 'sorted(it, key=str)'])}")
    lines.append("b = list(it)")
    lines.append("[first, a, b]")
    return "\n".join(lines)


def fam_mutated(rnd):
    seq = rnd.choice(['[1, 2, 3, 4, 5]', '[]', '[(1, 2), (3, 4)]', f'[{BIG}, True, 2.5]'])
    lines = [f"xs = {seq}", "it = reversed(xs)"]
    lines.append(rnd.choice(['xs.pop()', 'xs.append(9)', 'xs.clear()', 'xs.insert(0, -1)', 'xs[:2] = []',
                             'x = list(zip([0], it))', 'xs.extend([7, 8])']))
    lines.append(f"r = {rnd.choice(['list(it)', 'tuple(it)', 'len(list(it))'])}")
    lines.append("[r, list(it)]")
    return "\n".join(lines)


FAMILIES = [fam_drain, fam_shared, fam_mutated]


def run_one(src):
    body, last = src.rsplit("\n", 1)
    env = {}
    try:
        exec(body, env)
        return {"program": src, "repr": repr(eval(last, env))}
    except Exception as e:  # the program's own error is the answer
        return {"program": src, "error": f"{type(e).__name__}: {e}"}


def main():
    seed, per_family = int(sys.argv[1]), int(sys.argv[2])
    out = []
    for i, fam in enumerate(FAMILIES):
        rnd = random.Random(seed * 100 + i + 1)
        for _ in range(per_family):
            case = run_one(fam(rnd))
            case["family"] = fam.__name__[4:]
            out.append(case)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
