#!/usr/bin/env python3
"""Generates programs for the interpreter's loop fast paths and runs each
with CPython.

Usage: python3 gen_loop.py SEED PER_FAMILY

Families: loop targets bound part by part (enumerate, zip of two to four
iterables, dict items, lists of tuples; wrong lengths, nested targets,
targets that are not names), comprehensions over the same with conditions
and nested clauses, mutation during iteration, shared iterator objects,
lambda calls as key functions (defaults, captures, wrong argument counts)
and the container methods called per item (grouping, counting). Values mix
bool and int, ints at the i64 limits and floats.

Prints one JSON list of {"program", "repr"} or {"program", "error"}: the
last line of each program is an expression whose repr() is the answer; an
exception gives "ClassName: message".
"""
import re

import gen_common
from gen_common import pick

BIG = 9223372036854775807
SEQS = ['[1, 2, 3]', '[True, False, 2]', "'abc'", '[]', 'range(4)', f'[{BIG}, {-BIG - 1}, 0]',
        '[1.5, -0.0, 2]', "['x', 'y']", '(7, 8, 9, 10)', '[[1, 2], [3, 4]]', '[(1, 2), (3, 4), (5, 6)]',
        '[(1, 2, 3), (4, 5)]', "['ab', 'cd', 'e']", '[[1], [2, 3, 4]]']
DICTS = ["{'a': 1, 'b': 2}", '{}', "{1: 'one', 2: 'two', 3: 'three'}", '{True: 1, 2: False}',
         f"{{'big': {BIG}, 'neg': {-BIG - 1}}}"]


def src_pairs(rnd):
    """An iterable whose items are meant to be unpacked into two names."""
    a, b = rnd.choice(SEQS), rnd.choice(SEQS)
    return pick(rnd, f'enumerate({a})', f'enumerate({a}, {pick(rnd, "1", "-3", str(BIG - 1), "True")})',
                f'zip({a}, {b})', 'd.items()', a, f'zip({a})', f'zip({a}, {b}, {rnd.choice(SEQS)})',
                f'list(d.items())', f'zip({a}, {b}, strict=True)', 'enumerate(d)', 'd.values()')


def target(rnd):
    return pick(rnd, 'p, q', 'p, q', '(p, q)', '[p, q]', 'p, q, r', 'p', 'p, *q', '*p, q',
                'p, (q, r)', 'p, p')


def fam_for_unpack(rnd):
    lines = [f"d = {rnd.choice(DICTS)}", "out = []"]
    for _ in range(rnd.randint(1, 3)):
        t = target(rnd)
        names = [n for n in 'pqr' if n in t]
        body = pick(rnd, f"out.append([{', '.join(names)}])", f"out.append({names[0]})",
                    f"out.append(str({names[-1]}) + '!')")
        src = src_pairs(rnd)
        if not re.match(r'^[a-z_.]+\(', src):
            # A for statement iterates over a call or a name.
            lines.append(f"src = {src}")
            src = "src"
        lines.append(f"for {t} in {src}:\n    {body}")
    lines.append(pick(rnd, "out", "[out, p]", "[out, len(out)]"))
    return "\n".join(lines)


def fam_comp_unpack(rnd):
    t = target(rnd)
    names = [n for n in 'pqr' if n in t]
    cond = pick(rnd, '', f' if {names[0]}', f' if not {names[-1]}', f" if str({names[0]}) != '1'",
                f' if {names[0]} == {names[0]}', f' if {names[-1]} in [1, 2, True]')
    elt = pick(rnd, f"[{', '.join(names)}]", names[0], f"({names[-1]}, {names[0]})",
               f"str({names[0]}) + str({names[-1]})")
    src = src_pairs(rnd)
    body = gen_common.comp_shapes(rnd, elt, t, src, cond, names[0], names[-1])
    agg = pick(rnd, 'r', 'any(r)', 'all(r)', 'len(r)', '[r, p]' if 'p' in names else 'r')
    return f"d = {rnd.choice(DICTS)}\np = 'outer'\nr = {body}\n{agg}"


def fam_mutation(rnd):
    return pick(
        rnd,
        "d = {'a': 1, 'b': 2}\nfor k, v in d.items():\n    d[k + k] = v\nd",
        "d = {'a': 1, 'b': 2}\nfor k, v in d.items():\n    d[k] = v + 1\nd",
        "d = {'a': 1, 'b': 2}\nr = [d.pop(k) for k, v in d.items()]\nr",
        "s = {1, 2}\nfor x in s:\n    s.add(x + 10)\ns",
        f"xs = [1, 2, 3]\nfor i, x in enumerate(xs):\n    if i < {rnd.randint(1, 5)}:\n        xs.append(x * 2)\nxs",
        "xs = [(1, 2), (3, 4)]\nfor a, b in xs:\n    if len(xs) < 5:\n        xs.append((b, a))\nxs",
        "xs = [1, 2, 3, 4]\nfor i, x in enumerate(xs):\n    xs.pop()\n[xs, i, x]",
        "xs = [1, 2]\nys = [3, 4, 5]\nfor a, b in zip(xs, ys):\n    xs.append(b)\n[xs, a, b]",
        f"z = zip({rnd.choice(SEQS)}, {rnd.choice(SEQS)})\nr = [a for a, b in z]\n[r, list(z)]",
        f"e = enumerate({rnd.choice(SEQS)})\nfirst = [i for i, v in e if i > 0]\n[first, list(e)]",
        f"z = zip({rnd.choice(SEQS)}, {rnd.choice(SEQS)}, strict=True)\n[(b, a) for a, b in z]",
        "d = {'a': 1}\nv = d.items()\nout = []\nfor k, x in v:\n    out.append((k, x))\nfor k, x in v:\n    out.append(x)\nout",
        f"xs = {rnd.choice(SEQS)}\nout = []\nfor i, x in enumerate(xs):\n    out.append(i)\n    xs = [0]\n[out, xs]",
    )


def fam_lambda(rnd):
    rows = pick(rnd, "[{'a': 2, 'b': 1}, {'a': 1, 'b': 2}, {'a': 2, 'b': 0}, {'a': 1, 'b': 2}]",
                f"[{{'a': True, 'b': {BIG}}}, {{'a': 1, 'b': {-BIG - 1}}}, {{'a': 0, 'b': 1.5}}]",
                "[{'a': 'x', 'b': 3}, {'a': 'y', 'b': 3}, {'a': 'x', 'b': 1}]")
    key = pick(rnd, "lambda r: r['a']", "lambda r: (r['a'], r['b'])", "lambda r: -r['b']",
               "lambda r, k='b': r[k]", "lambda r: r.get('c', 0)", "lambda *r: r[0]['a']",
               "lambda r: r['c']", "lambda r, s: r", "lambda: 1", "lambda r, *, k: r",
               "lambda r, k=n: r['b'] * k", "lambda r=None: r['a']")
    call = pick(rnd, f"sorted(rows, key={key})", f"sorted(rows, key={key}, reverse=True)",
                f"max(rows, key={key})", f"min(rows, key={key})",
                f"[max(rows, key=lambda r: r['b'] * i) for i in range({pick(rnd, '3', '-2', '0')})]",
                f"[sorted(rows, key=lambda r: (r['a'], i)) for i in [n, -n]]",
                "sorted(rows, key=lambda r: [r[k] for k in ['b', 'a']])",
                "sorted(rows, key=lambda r: [r[k] * n for k in r if k != 'a'])",
                f"min([r['b'] for r in rows], key=lambda v: (v > 1, v), default=n)")
    return f"n = {pick(rnd, '2', 'True', '-1', str(BIG))}\nrows = {rows}\n{call}"


def fam_methods(rnd):
    words = pick(rnd, "['a', 'b', 'a', 'c', 'b', 'a']", "[1, True, 1.0, 2, 'x']", "[]",
                 f"[{BIG}, {BIG}, 0, False]", "[(1, 2), (1, 2), (2, 1)]")
    ops = pick(
        rnd,
        "g = {}\nfor i, w in enumerate(ws):\n    g.setdefault(w, []).append(i)\ng",
        "c = {}\nfor w in ws:\n    c[w] = c.get(w, 0) + 1\nc",
        "c = {}\nfor w in ws:\n    if w in c:\n        c[w].append(1)\n    else:\n        c[w] = [1]\nc",
        "s = set()\nfor w in ws:\n    s.add(w)\nsorted(s, key=str)",
        "xs = list(ws)\nxs.extend(ws)\nxs.insert(1, 'i')\n[xs.pop(), xs.pop(0), xs.count(ws[0] if ws else 0), xs]",
        "xs = ws.copy()\nxs.reverse()\n[xs, xs.index(ws[-1]) if ws else -1]",
        "xs = list(ws)\n[xs.pop() for _ in range(len(xs) + 1)]",
        "d = dict.fromkeys(ws, 0)\nd.update(a=1)\n[d.pop('a'), d.pop('zz', 'dflt'), list(d.keys()), list(d.values())]",
        "s = set(ws)\n[sorted(s.union([1, 'q']), key=str), sorted(s.intersection(ws), key=str), sorted(s.difference([1]), key=str)]",
        "xs = list(ws)\n[xs[::2], xs[::-1], xs[1:-1:2], xs[-2:], xs[5:1:-2]]",
        "t = tuple(ws)\n[t[::-2], t[:2], t.index(ws[0]) if ws else 0, t.count(1)]",
        "xs = list(ws)\nxs.index('nope')",
        # Int sets (their order is CPython's, hash for hash), with removals
        # leaving dummies, and the set itself as an operand.
        "d = {w: i for i, w in enumerate(ws)}\ne = dict(d)\ne['new'] = 1\nf = d.copy()\nf.update(d)\ng = {}\ng.update(e)\n[e, f, g, list(dict(e).items()), d]",
        "d = dict.fromkeys(range(30))\nfor i in range(0, 30, 4):\n    d.pop(i)\ne = dict(d)\nf = d.copy()\ne[100] = 1\n[list(e), list(f), f == d]",
        "s = set(range(40))\nfor i in range(0, 40, 3):\n    s.discard(i)\n[list(s.difference(range(10))), list(s.intersection(range(5, 50, 2))), list(s.union([99, 1]))]",
        "s = set(range(64))\ns.remove(7)\n[list(s.difference()), list(s.intersection()), list(s.difference(s)), list(s.intersection(s, [1, 2]))]",
        "s = {1, 2, 3, 40, 100}\nt = set(range(2, 200))\n[list(t.difference(s)), list(s.difference(t, [1])), list(t.intersection(s)), s.difference(t, kw=1)]",
        "s = set(range(20))\ns.intersection_update(range(5, 15), [6, 7, 8, 30])\ns.difference_update([7])\n[list(s), list(s.symmetric_difference(range(3, 10)))]",
        "d = {}\nd.setdefault()",
        "xs = []\nxs.append(1, 2)",
    )
    return f"ws = {words}\n{ops}"


FAMILIES = [fam_for_unpack, fam_comp_unpack, fam_mutation, fam_lambda, fam_methods]


if __name__ == "__main__":
    gen_common.main(FAMILIES)
