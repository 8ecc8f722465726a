#!/usr/bin/env python3
"""Generates programs for the loops the evaluator walks in place and runs
each with CPython.

Usage: python3 gen_walk.py SEED PER_FAMILY

A `for` statement or comprehension over a dict, its keys, values or items,
over `enumerate` of a list or over `zip` of two lists, binds its target straight from the
container's storage, without an iterator call or a tuple per turn. These
families put those loops under everything that could tell: every target
shape (one name, two names, three names, starred, nested, a subscript), keys
that are equal across types (1, 1.0, True), NaN and -0.0 keys, counts that
start at the i64 limits (and so overflow into a big int mid-loop), bodies and
conditions that mutate the container (values replaced, grown, shrunk,
cleared; not a key removed and another added, whose outcome hangs on
CPython's table layout),
rebind the loop's source, raise (the line must match) or stop half way and
leave their targets behind; and lambdas called per item (defaults, closures
over comprehension variables, wrong argument counts) and methods called on
the wrong type or with the wrong arguments; subscripts of names by
constants and names (read in place), with every container and index kind;
and methods called on a name holding a str (read in place) or not, with
constant and name arguments of every kind.

Prints one JSON list of cases (see gen_common.py).
"""
import gen_common
from gen_common import pick

BIG = 9223372036854775807
DICTS = ["{'a': 1, 'b': 2, 'c': 3}", '{}', "{1: 'i', 1.5: 'f', True: 'b', -0.0: 'z'}",
         "{-0.0: 1, 2: float('nan'), (1, 2): [3], None: -0.0}",
         f"{{'big': {BIG}, 'neg': {-BIG - 1}, 'x': {BIG + 1}}}", "{i: i * i for i in range(12)}",
         "dict.fromkeys('hello')", "{'k' + str(i): i % 3 == 0 for i in range(7)}"]
LISTS = ['[1, 2, 3]', '[]', "['x', True, 1.5, None]", f'[{BIG}, {-BIG - 1}, 0]',
         "[float('nan'), -0.0, 0]", '[(1, 2), (3, 4)]', "list('abcde')", 'list(range(9))']
STARTS = ['', ', 1', ', -3', f', {BIG - 1}', f', {BIG}', ', True', f', {-BIG - 1}', f', {BIG + 5}']


def view(rnd):
    return pick(rnd, 'd', 'd.keys()', 'd.values()', 'd.items()', 'd.items()')


def target(rnd, src):
    if src == 'd.items()':
        return pick(rnd, 'k, v', 'k, v', '(k, v)', '[k, v]', 'k', 'k, *v', 'k, (v, w)', 'k, k',
                    'k, v, w')
    return pick(rnd, 'k', 'k', 'k', 'k, v', '*k, v')


def names_of(t):
    return [n for n in 'kvw' if n in t]


def fam_dict_for(rnd):
    src = view(rnd)
    t = target(rnd, src)
    names = names_of(t)
    body = pick(rnd, f"out.append([{', '.join(names)}])", f"out.append({names[0]})",
                f"out.append(str({names[-1]}))", f"out.append({names[0]} == {names[0]})",
                f"if {names[-1]}:\n        out.append({names[0]})",
                f"out.append({names[0]})\n    if len(out) > 2:\n        break_here = out[9]",
                f"out.append({names[-1]})\n    d['new'] = 1",
                f"out.append({names[-1]})\n    d.pop({names[0]}, None)",
                f"out.append({names[0]})\n    d.clear()",
                f"out.append({names[0]})\n    d[{names[0]}] = 'same size'",
                f"out.append({names[0]})\n    d = {{}}")
    tail = pick(rnd, 'out', f"[out, {names[0]}]", '[out, d]', 'len(out)')
    return f"d = {rnd.choice(DICTS)}\nout = []\nfor {t} in {src}:\n    {body}\n{tail}"


def fam_dict_comp(rnd):
    src = view(rnd)
    t = target(rnd, src)
    names = names_of(t)
    cond = pick(rnd, '', f' if {names[0]}', f' if not {names[-1]}', f" if str({names[0]}) != '1'",
                f' if {names[0]} == {names[0]}', f' if {names[-1]} in [1, 2, True]',
                f' if d.pop({names[0]}, 0) is not None', f' if {names[0]} % 2')
    elt = pick(rnd, f"[{', '.join(names)}]", names[0], f"({names[-1]}, {names[0]})",
               f"str({names[0]}) + str({names[-1]})", f"{names[-1]} * 2")
    body = gen_common.comp_shapes(rnd, elt, t, src, cond, names[0], names[-1])
    return f"d = {rnd.choice(DICTS)}\nk = 'outer'\nr = {body}\n{pick(rnd, 'r', '[r, k]', '[r, d]')}"


def fam_enumerate(rnd):
    xs = rnd.choice(LISTS)
    start = rnd.choice(STARTS)
    t = pick(rnd, 'i, x', 'i, x', '(i, x)', '[i, x]', 'i', 'i, (x, y)', 'i, *x', 'i, i')
    names = [n for n in 'ixy' if n in t]
    shape = rnd.random()
    if shape < .15:
        # An iterator object held by a name: the loop must advance it.
        stop = pick(rnd, '', f"\n    if {names[0]} == {names[0]}:\n        out.append(list(zip([0], e)))")
        return (f"xs = {xs}\ne = enumerate(xs{start})\nout = []\nfor {t} in e:\n    out.append({names[-1]}){stop}\n"
                f"[out, list(e), {names[0]}]")
    if shape < .55:
        body = pick(rnd, f"out.append([{', '.join(names)}])", f"out.append({names[0]})",
                    "out.append(i)\n    if len(xs) < 5:\n        xs.append(i)" if 'i' in names else "out.append(1)",
                    f"out.append({names[-1]})\n    if len(xs) < 6:\n        xs.append(len(xs))",
                    f"out.append({names[-1]})\n    xs.pop()",
                    f"out.append({names[-1]})\n    xs = [0]",
                    f"out.append({names[0]} + 1)",
                    f"out.append({names[-1]})\n    xs.clear()")
        prog = f"xs = {xs}\nout = []\nfor {t} in enumerate(xs{start}):\n    {body}"
        tail = pick(rnd, 'out', f"[out, {names[0]}]", '[out, xs]')
    else:
        cond = pick(rnd, '', f' if {names[0]}', f' if {names[-1]} != 1', f' if {names[0]} % 2')
        elt = pick(rnd, f"[{', '.join(names)}]", names[0], f"{names[-1]} * 2", f"({names[-1]}, {names[0]})")
        prog = f"xs = {xs}\nout = [{elt} for {t} in enumerate(xs{start}){cond}]"
        tail = pick(rnd, 'out', '[out, xs]', 'len(out)')
    return f"{prog}\n{tail}"


def fam_lambda(rnd):
    rows = pick(rnd, "[{'a': 2, 'b': 1}, {'a': 1, 'b': 2}, {'a': 2, 'b': 0}]",
                f"[{{'a': True, 'b': {BIG}}}, {{'a': 1, 'b': {-BIG - 1}}}, {{'a': 0, 'b': float('nan')}}]",
                "[{'a': 'x', 'b': -0.0}, {'a': 'y', 'b': 0}, {'a': 'x', 'b': None}]")
    key = pick(rnd, "lambda r: r['a']", "lambda r: (r['a'], r['b'])", "lambda r: -r['b']",
               "lambda r, k='b': r[k]", "lambda r: r.get('c')", "lambda *r: r[0]['a']",
               "lambda r: r['c']", "lambda r, s: r", "lambda: 1", "lambda r, *, k: r",
               "lambda r, k=n: r['b'] * k", "lambda r=None: r['a']", "lambda r: r['a'].upper()",
               "lambda r: [r[k] for k in r]", "lambda r: {k: n for k in r}['a']")
    call = pick(rnd, f"sorted(rows, key={key})", f"sorted(rows, key={key}, reverse=True)",
                f"max(rows, key={key})", f"min(rows, key={key})",
                f"[max(rows, key=lambda r: (r['a'], i)) for i in range({pick(rnd, '3', '-2', '0')})]",
                f"[sorted(rows, key=lambda r: (r['b'] == r['b'], i, r['a'])) for i in [n, -n]]",
                "[min(rows, key=lambda r: [r[k] for k in r if k != j]) for j in 'ab']",
                "sorted(rows, key=lambda r: r.get('b', n) if r['a'] else None)",
                "n.append(1)", "rows.upper()", "rows[0].keys(1)", "rows.nope", "rows[0].get()",
                "[r.items() for r in rows][0].nope", "len(rows).bit_length(1, 2)")
    return f"n = {pick(rnd, '2', 'True', '-1', str(BIG))}\nrows = {rows}\n{call}"


def fam_subscript(rnd):
    """`name[const]` and `name[name]`, read in place: every container kind
    and index kind, from module level, a comprehension and a lambda."""
    cont = pick(rnd, *DICTS[:6], *LISTS, "(1, 'two', 3.0)", "'h\u00e9llo'", 'range(2, 20, 3)',
                "b'bytes'", '5', 'None', "{1, 2}")
    key = pick(rnd, '0', '-1', '1', '2', 'True', 'False', '-0.0', '1.0', "'a'", "'big'", "(1, 2)",
               "[1]", 'None', str(BIG), str(-BIG - 1), str(BIG + 1), "float('nan')", '2.5', '-4')
    use = pick(rnd, 'c[k]', f'c[{key}]', '[c[k] for _ in range(2)]', f'[c[{key}] for _ in [0]]',
               'sorted([0, 1], key=lambda z: c[k])', '[[c[k] for _ in [0]] for j in [1]]',
               '[c[j] for j in [k, k]]', 'c[k] if k == k else 0', f'c[k] + c[{key}]', 'c[nope]',
               'str(c[k]) + str(len(c))')
    return f"c = {cont}\nk = {key}\nr = {use}\nr"


def fam_zip(rnd):
    """`zip` of two lists: equal and unequal lengths, strict, one list
    twice, lists grown or shrunk by the body, a zip object held by a name."""
    xs, ys = rnd.choice(LISTS), rnd.choice(LISTS)
    strict = pick(rnd, '', '', ', strict=True', ', strict=False')
    second = pick(rnd, 'ys', 'ys', 'xs')
    t = pick(rnd, 'x, y', 'x, y', '(x, y)', '[x, y]', 'x', 'x, *y', 'x, (y, z)', 'x, x', 'x, y, z')
    names = [n for n in 'xyz' if n in t]
    shape = rnd.random()
    if shape < .2:
        stop = pick(rnd, '', "\n    out.append(list(zip([0], z)))")
        return (f"xs = {xs}\nys = {ys}\nz = zip(xs, {second}{strict})\nout = []\nfor {t} in z:\n"
                f"    out.append({names[-1]}){stop}\n[out, list(z), {names[0]}]")
    if shape < .6:
        body = pick(rnd, f"out.append([{', '.join(names)}])", f"out.append({names[0]})",
                    f"out.append({names[-1]})\n    if len(xs) < 6:\n        xs.append(len(xs))",
                    f"out.append({names[-1]})\n    if len(ys) < 6:\n        ys.append(-1)",
                    f"out.append({names[-1]})\n    ys.pop()",
                    f"out.append({names[-1]})\n    xs.clear()",
                    f"out.append({names[0]})\n    xs = [0]",
                    f"out.append({names[0]} == {names[-1]})")
        prog = f"xs = {xs}\nys = {ys}\nout = []\nfor {t} in zip(xs, {second}{strict}):\n    {body}"
        tail = pick(rnd, 'out', f"[out, {names[0]}]", '[out, xs, ys]')
    else:
        cond = pick(rnd, '', f' if {names[0]}', f' if {names[-1]} != 1', f' if {names[0]} == {names[0]}')
        elt = pick(rnd, f"[{', '.join(names)}]", names[0], f"{names[-1]} * 2", f"({names[-1]}, {names[0]})")
        prog = f"xs = {xs}\nys = {ys}\nout = [{elt} for {t} in zip(xs, {second}{strict}){cond}]"
        tail = pick(rnd, 'out', '[out, xs]', 'sum([1 for x, y in zip(xs, ys)])')
    return f"{prog}\n{tail}"


def fam_str_method(rnd):
    """`name.method(args)` with the receiver a str (read in place) or not,
    arguments constants or names of every kind, methods str lacks."""
    recv = pick(rnd, "'a,b,,c'", "''", "'  Hello World  '", "'\u00e9t\u00e9'", "'x' * 5", "['a', 'b']",
                '5', 'None', "{'a': 1}")
    # (Not None, a list or a float: str methods' messages for those are
    # not CPython's yet, on every path.)
    arg = pick(rnd, "','", "''", "'b'", '2', '-1', 'True', "('a', 'b')", f'{BIG}', "'ab'", 'k')
    meth = pick(rnd, 'split', 'rsplit', 'find', 'rfind', 'index', 'count', 'startswith', 'endswith',
                'strip', 'lstrip', 'upper', 'lower', 'join', 'replace', 'partition', 'zfill', 'center',
                'ljust', 'isdigit', 'title', 'append', 'get', 'nope', 'format')
    # (Two arguments only as `x, 1`: which of two bad arguments a str method
    # reports is not always CPython's yet, on every path.)
    args = pick(rnd, '', arg, arg, f'{arg}, 1', f'{arg}, 1, 2', f'*[{arg}]', f'sep={arg}')
    use = pick(rnd, f's.{meth}({args})', f'[s.{meth}({args}) for _ in range(2)]',
               f'[[s.{meth}({args}) for _ in [0]] for j in [1]]', f'sorted([s], key=lambda t: s.{meth}({args}))')
    return f"s = {recv}\nk = {pick(rnd, repr(','), '1', '(1, 2)')}\nr = {use}\nr"


FAMILIES = [fam_dict_for, fam_dict_comp, fam_enumerate, fam_lambda, fam_subscript, fam_zip,
            fam_str_method]


if __name__ == "__main__":
    gen_common.main(FAMILIES, line=True)
