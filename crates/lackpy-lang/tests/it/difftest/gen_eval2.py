#!/usr/bin/env python3
"""Generates programs for the evaluator's statement and chain paths and runs
each with CPython.

Usage: python3 gen_eval2.py SEED PER_FAMILY

Families: chains of `+` (collected while their operands are strings, then
added one by one) over every kind of operand, with operands that raise
after a type error (the order of evaluation and the first error must hold),
chains split over lines, long and non-ASCII chains, chains that grow a name;
unpacking assignment of every shape into every target kind, with every
count error; augmented assignment on every target kind; lambda calls with
keyword, default, star and double-star arguments; mixed bool, int and float
arithmetic at the i64 and 2**64 edges. An error's type, message and line
must match.

Prints one JSON list of cases (see gen_common.py).
"""

from gen_common import pick

MAX = 9223372036854775807
MIN = -9223372036854775808

STRS = ["'ab'", "''", "'é'", "'日本'", "'x' * 30", "'-'", "'\\n'", "'a😀'", 'w', 'u', 'str(i)', 'str(n)',
        "'q' * 25"]
OTHERS = ['1', '0', '-1', '2.5', 'True', 'False', 'None', '[1]', '(2,)', 'n', 'f', str(MAX), str(2 ** 64),
          "b'x'", '[]']
BOMBS = ['(1 // 0)', 'nope', '[][1]', "int('z')", '{}["k"]']


def operand(rnd, strs=.75):
    r = rnd.random()
    if r < strs:
        return rnd.choice(STRS)
    if strs > .8:
        return rnd.choice(OTHERS)
    if r < .97:
        return rnd.choice(OTHERS)
    return rnd.choice(BOMBS)


def chain(rnd, lo=3, hi=12, strs=.75):
    if rnd.random() < .55:
        strs = 1.0
    parts = [operand(rnd, strs) for _ in range(rnd.randint(lo, hi))]
    if rnd.random() < .2:
        # A chain over several lines: each step's error has the line of its `+`.
        return '(' + ' +\n    '.join(parts) + ')'
    if rnd.random() < .1:
        # Parentheses on the right: a separate addition inside the chain.
        k = rnd.randint(1, len(parts) - 1)
        return ' + '.join(parts[:k]) + ' + (' + ' + '.join(parts[k:]) + ')'
    return ' + '.join(parts)


def fam_chain(rnd):
    """`a + b + c …` over strings, numbers, sequences and raising operands,
    as values, in comprehensions and lambdas, and growing a name."""
    lines = [f'w = {pick(rnd, "{!r}".format("wörd"), "{!r}".format("w"), "{!r}".format(""), "7")}',
             f'u = {pick(rnd, "{!r}".format("u" * 40), "{!r}".format("ü"), "[3]", "2")}',
             f'n = {pick(rnd, "3", "-4", str(MAX), "2.5", "True")}', 'f = 1.5', 'i = 0']
    shape = rnd.random()
    if shape < .4:
        for k in range(rnd.randint(1, 2)):
            lines.append(f'r{k} = {chain(rnd)}')
        lines.append('[' + ', '.join(f'r{k}' for k in range(len(lines) - 5)) + ']')
        return '\n'.join(lines)
    if shape < .6:
        lines.append('s = w')
        body = pick(rnd, f's = s + {chain(rnd, 2, 4)}', f's = {chain(rnd, 2, 4)} + s[:7]',
                    f's += {chain(rnd, 2, 4)}', f's = s + w + str(i) + s[-3:]')
        lines.append(f'for i in range({rnd.randint(0, 5)}):\n    {body}')
        lines.append('[s, len(s)]')
        return '\n'.join(lines)
    if shape < .8:
        lines.append(f'r = [{chain(rnd, 3, 9, .85).replace("str(i)", "str(x)")} for x in range(3)]')
        lines.append('r')
        return '\n'.join(lines)
    lines.append(f"xs = ['b', 'a', {pick(rnd, repr('c'), '1', repr('dé'))}]")
    lines.append(f'r = sorted(xs, key=lambda x, y="t": {chain(rnd, 3, 9, .85).replace("str(i)", "x")} + y)')
    lines.append('r')
    return '\n'.join(lines)


TARGETS = ['a, b', 'a, b, c', 'a, *b', '*a, b', 'a, *b, c', '[a, b]', 'a, (b, c)', '(a, b), c',
           'l[0], l[1]', 'd["k"], a', 'a, d[b]', 'l[1:], a', '[a, [b, *c]]', 'a,', '*a,', 'a, b, c, d, e',
           'a, *b, c, d']
VALUES = ['(1, 2)', '(1, 2, 3)', '[1, 2]', '[1, 2, 3]', "'xy'", "'xyz'", 'range(2)', 'range(5)', '(1,)', '()',
          '[]', "{'p': 1, 'q': 2}", '5', 'None', '((1, 2), 3)', '(1, (2, 3))', "'a,b'.split(',')",
          "'a b c d e'.split()", 'tuple(range(5))', 'list(range(4))', 'v', 'v2', '(v, v2)', "[[1, 2], 'ab']",
          'zip([1], [2])', "enumerate('ab')", "reversed('hey')", '1.5',
          "{'k': 1}.items()", "zip('ab', 'cd')"]


def fitting(rnd, t):
    """A value with as many items as the (flat) target `t` has parts, or
    one more for a starred target."""
    n = t.count(',') + 1 - t.endswith(',') + rnd.randint(0, 2) * ('*' in t)
    items = [pick(rnd, '1', "'s'", '[2]', '(3, 4)', '2.5', 'None') for _ in range(n)]
    return pick(rnd, f'({", ".join(items)},)', f'[{", ".join(items)}]', f'range({n})', repr('xyzwvut'[:n]),
                f"'{' '.join('abcdefg'[:n])}'.split()", f'tuple(range({n}))')


def fam_unpack(rnd):
    """Unpacking of every shape into names, items, slices and nested
    targets; tuples short and long, unique and shared lists, strings,
    ranges, dicts, iterators; every count and type error."""
    lines = ['l = [0, 0, 0]', 'd = {}', "v = (7, 8, 9)", f"v2 = {pick(rnd, '[4, 5]', repr('mn'), '(6,)')}",
             'a = b = c = 0']
    for _ in range(rnd.randint(1, 3)):
        t, val = rnd.choice(TARGETS), rnd.choice(VALUES)
        if rnd.random() < .6:
            val = fitting(rnd, t)
        stmt = pick(rnd, f'{t} = {val}', f'{t} = {val}', f'x = {t} = {val}', f'{t} = y = {val}')
        if rnd.random() < .25:
            stmt = f'vals = [{val}, {rnd.choice(VALUES)}]\nfor {t} in vals:\n    l.append(a)'
        lines.append(stmt)
    lines.append(pick(rnd, 'a, b = b, a', 'l[0], a = a, l[0]', 'c = 1'))
    lines.append('[a, b, c, l, d, v, v2]')
    return '\n'.join(lines)


AUG_OPS = ['+', '-', '*', '/', '//', '%']
AUG_TARGETS = ['x', 'l[0]', 'l[-1]', 'l[i]', 'd["k"]', 'd[i]', 'l[1:]', 'l[::2]', 'l[:0]', 'm[0]',
               't[0]', 's[0]', 'nope', 'd["missing"]', 'l[9]']
AUG_VALUES = ['1', '-2', '2.5', 'True', 'False', "'ab'", '[1]', '(1,)', str(MAX), str(2 ** 64), '0', '0.0',
              'None', 'x', 'l[0]', "float('nan')", '-0.0']


def fam_augassign(rnd):
    """`target op= value` on names, list items and slices, dict items,
    attributes and immutables: every operator and kind of value, with the
    target read once and errors on their line."""
    start = pick(rnd, '3', '2.5', 'True', "'s'", '[1]', str(MAX), str(-(2 ** 64)), '-0.0')
    lines = [f'x = {start}', f'l = [{pick(rnd, "1, 2, 3", "2.5, 1, True", "[1], [2], [3]", "1, 2, 3, 4, 5")}]',
             f'd = {{"k": {pick(rnd, "1", "1.5", repr("k"), "[0]", str(MAX))}, 1: 2}}', 'i = 1', "m = {'a': 1}",
             't = (1, 2)', "s = 'str'"]
    for _ in range(rnd.randint(1, 3)):
        target = rnd.choice(AUG_TARGETS) if rnd.random() < .2 else rnd.choice(AUG_TARGETS[:6])
        value = rnd.choice(AUG_VALUES) if rnd.random() < .25 else rnd.choice(AUG_VALUES[:5])
        stmt = f'{target} {rnd.choice(AUG_OPS)}= {value}'
        if rnd.random() < .2:
            stmt = f'for i in range(3):\n    {stmt}'
        lines.append(stmt)
    lines.append('[x, l, d, i]')
    return '\n'.join(lines)


CALLS = ['sorted(xs)', 'sorted(xs, reverse=True)', 'sorted(xs, key=abs, reverse=False)', 'sorted(*[xs])',
         'sorted(xs, **{"reverse": True})', 'sorted(xs, reverse=1)', 'sorted(xs, key=None)', 'sorted(xs, rev=True)',
         'sorted()', 'sorted(xs, xs)', 'max(xs, default=0)', 'max([], default=-1)', 'max(*xs)', 'max(xs, key=abs)',
         'min(xs, key=lambda v: -v)', 'min([])', 'min(1, 2, key=abs, default=3)', 'round(2.675, 2)',
         'round(2.5)', 'round(number=2.5, ndigits=0)', 'int("ff", 16)', 'int("ff", base=16)',
         'int("10", **{"base": 2})', 'int(x="3")', 'enumerate(xs, start=5)', 'enumerate(xs, 1)', 'list(*[xs])',
         'dict(a=1, b=2)', 'dict([(1, 2)], c=3)', 'dict(**{"z": 0})', 'range(*[1, 9, 3])', 'range(stop=3)',
         'sum(xs, start=10)', 'sum(xs, 0.5)', 'sum(*[xs])', '"a,b,c".split(",", maxsplit=1)',
         '"a,b,c".split(sep=",")', '"a b".split(maxsplit=0)', '"abc".replace("b", "x", count=1)',
         '"abc".replace("b", "x", 1)', '"x".center(5, fillchar="-")', '"x".center(*[5, "*"])',
         '"x".ljust(width=3)', '"-".join(*[["a", "b"]])', 'xs.index(3, 0)', 'xs.count(*[1])', 'len(*[xs])',
         'len(xs, xs)', 'abs(*[-2])', 'str(5, base=2)', 'zip(xs, xs, strict=True)', 'zip(xs, [1], strict=True)',
         'isinstance(1, int)', 'isinstance(obj=1, class_or_tuple=int)']


def fam_calls(rnd):
    """Builtins and methods called with positional, keyword, default, `*`
    and `**` arguments: bindings and every argument error."""
    lines = [f'xs = [{pick(rnd, "3, -1, 2", "1.5, -2, True", "", "3")}]']
    out = []
    for k in range(rnd.randint(1, 3)):
        call = rnd.choice(CALLS)
        lines.append(f'r{k} = {call}' if 'zip' not in call and 'enumerate' not in call else f'r{k} = list({call})')
        out.append(f'r{k}')
    lines.append(f"[{', '.join(out)}]")
    return '\n'.join(lines)


NUMS = ['True', 'False', '0', '1', '-1', str(MAX), str(MIN), str(MAX - 1), str(MIN + 1), str(2 ** 63),
        str(2 ** 64), str(2 ** 64 - 1), str(-(2 ** 64)), '0.5', '-0.0', "float('inf')", "float('nan')", '1e308',
        '3', '7']


def fam_mixed(rnd):
    """Bools, ints at the i64 and 2**64 edges and floats mixed in chains of
    `+` and other operators, as values and accumulators."""
    lines = [f'p = {rnd.choice(NUMS)}', f'q = {rnd.choice(NUMS)}', f'z = {rnd.choice(NUMS)}', 'out = []']
    for _ in range(rnd.randint(1, 4)):
        ops = [rnd.choice(['+', '+', '+', '-', '*', '//', '%']) for _ in range(rnd.randint(2, 5))]
        terms = [rnd.choice(['p', 'q', 'z'] + NUMS) for _ in range(len(ops) + 1)]
        expr = terms[0] + ''.join(f' {o} {t}' for o, t in zip(ops, terms[1:]))
        stmt = pick(rnd, f'out.append({expr})', f'p = {expr}', f'q += {expr}', f'out.append(({expr}) == p)')
        lines.append(pick(rnd, stmt, f'for k in range(3):\n    {stmt}'))
    lines.append('[p, q, z, out]')
    return '\n'.join(lines)


FAMILIES = [fam_chain, fam_unpack, fam_augassign, fam_calls, fam_mixed]


if __name__ == "__main__":
    import gen_common

    gen_common.main(FAMILIES, run=gen_common.run_with_line)
