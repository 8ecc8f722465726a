#!/usr/bin/env python3
"""Generates programs for the exact int arithmetic (the general operator
path and the numeric tree over ints of any size) and runs each with CPython.

Usage: python3 gen_arith2.py SEED PER_FAMILY

Families: expression trees of `+ - * // %` over names, constants and list
items holding ints on both sides of the i64 and u64 edges, big ints of
either sign, bools and floats (NaN, infinities, -0.0); loops that update a
big int with small ones (`v = v * 3 + big // (i + 1)`, `acc += v % m`), the
name reused, shared and rebound; floor division and modulo of every sign
and size with zero divisors (False among them); int and float mixes where
the int is too large for a float; augmented assignment on names, list items
and dict values. An error's type, message and line must match.

Prints one JSON list of cases (see gen_common.py).
"""

from gen_common import pick

MAX = 2 ** 63 - 1
MIN = -2 ** 63
EDGE = [str(MAX), str(MIN), str(MAX - 1), str(MIN + 1), str(2 ** 63), str(-2 ** 63 - 1), str(2 ** 64),
        str(-2 ** 64), str(2 ** 64 - 1), str(2 ** 64 + 1), str(2 ** 32), str(2 ** 32 - 1), str(-2 ** 32)]
BIG = [str(2 ** 200 + 12345), str(-(2 ** 130) - 7), str(3 ** 90), str(-(3 ** 41)), str(10 ** 30),
       str(2 ** 127), str(-(2 ** 128))]
SMALL = ['0', '1', '-1', '2', '3', '-3', '7', '-7', '13', '1000003', '-1000003', 'True', 'False']
FLOATS = ['1.5', '-0.0', '0.0', "float('nan')", "float('inf')", "-float('inf')", '1e308', '-2.5']
OPS = ['+', '-', '*', '//', '%']


def value(rnd):
    r = rnd.random()
    if r < .3:
        return rnd.choice(EDGE)
    if r < .6:
        return rnd.choice(BIG)
    if r < .9:
        return rnd.choice(SMALL)
    return rnd.choice(FLOATS)


def leaf(rnd):
    return pick(rnd, 'a', 'b', 'c', 'd', 'xs[0]', 'xs[i]', 'xs[-1]', value(rnd), 'i', 'i + 1')


def tree(rnd, depth):
    if depth == 0 or rnd.random() < .25:
        return leaf(rnd)
    op = rnd.choice(OPS if rnd.random() < .93 else OPS + ['/'])
    return f'({tree(rnd, depth - 1)} {op} {tree(rnd, depth - 1)})'


def bindings(rnd):
    return [f'a = {value(rnd)}', f'b = {value(rnd)}', f'c = {rnd.choice(BIG + EDGE)}',
            f'd = {rnd.choice(SMALL)}', f'xs = [{value(rnd)}, {value(rnd)}, {value(rnd)}]', 'i = 1']


def fam_tree(rnd):
    """Nested arithmetic over big, edge, small, bool and float operands,
    evaluated once and in a loop."""
    lines = bindings(rnd) + ['out = []']
    for _ in range(rnd.randint(1, 4)):
        e = tree(rnd, rnd.randint(1, 4))
        if rnd.random() < .5:
            lines.append(f'out.append({e})')
        else:
            lines.append(f'for i in range({rnd.randint(0, 3)}):\n    out.append({e})')
    lines.append('out')
    return '\n'.join(lines)


def fam_update(rnd):
    """A big int updated with small ones in a loop, as in a checksum or a
    recurrence: the name rebound, read twice, shared with a list."""
    big = rnd.choice(BIG + EDGE)
    m = pick(rnd, '1000003', '7', '-13', str(2 ** 40 + 15), '3', str(2 ** 64 + 13), 'True')
    k = pick(rnd, '3', '-3', '1', '0', str(MAX), 'True')
    dv = pick(rnd, '7', '-7', '2', str(2 ** 33), '1', '-1', str(2 ** 70))
    body = [
        f'v = v * {k} + big // (i + {pick(rnd, "1", "2", "-9")})',
        f'acc += v % {m}',
        f'v = v // {dv} + big',
        f'v = {pick(rnd, "v - big", "big - v", "v + v", "v * v % big", "(v + i) * (i - 3)", "v % big")}',
        'keep.append(v)',
        f'acc -= v // {m}',
        'v = v + 0',
    ]
    rnd.shuffle(body)
    body = body[:rnd.randint(2, len(body))]
    prog = [f'big = {big}', f'v = {rnd.choice(BIG + EDGE + SMALL)}', 'acc = 0', 'keep = []',
            f'for i in range({rnd.randint(1, 12)}):\n    ' + '\n    '.join(body),
            pick(rnd, '[acc, v]', '[acc, v, keep]', '[v % 1000000007, keep[-1:]]', '[acc, str(v)[:40]]')]
    return '\n'.join(prog)


def fam_divide(rnd):
    """`//` and `%` of every sign and size, with zero divisors."""
    xs = EDGE + BIG + SMALL
    lines = []
    for _ in range(rnd.randint(1, 5)):
        x, y = rnd.choice(xs), rnd.choice(xs + ['0', 'False', '-0'])
        op = rnd.choice(['//', '%', '//', '%', '/'])
        lines.append(pick(rnd, f'r = {x} {op} {y}', f'x = {x}\ny = {y}\nr = x {op} y',
                          f'x = {x}\nr = (x {op} {y}) + x', f'x = [{x}]\nr = x[0] {op} {y}'))
        lines.append('out.append(r)')
    return 'out = []\n' + '\n'.join(lines) + '\nout'


def fam_mixed(rnd):
    """Ints of any size with floats and bools: conversions that overflow,
    NaN, infinities and -0.0."""
    lines = ['out = []']
    for _ in range(rnd.randint(1, 5)):
        x = rnd.choice(BIG + EDGE + [str(10 ** 400), str(-10 ** 309)])
        y = rnd.choice(FLOATS + ['True', 'False'])
        op = rnd.choice(OPS + ['/'])
        lines.append(pick(rnd, f'out.append({x} {op} {y})', f'out.append({y} {op} {x})',
                          f'f = {y}\nn = {x}\nout.append(n {op} f)', f'f = {y}\nn = {x}\nout.append(f {op} n + 1)'))
    lines.append('out')
    return '\n'.join(lines)


def fam_augmented(rnd):
    """`op=` on a name, a list item and a dict value holding big ints."""
    x, y = rnd.choice(BIG + EDGE), rnd.choice(BIG + EDGE + SMALL + ['1.5'])
    op = rnd.choice(OPS)
    lines = [f'n = {x}', f'xs = [{x}, 1]', f"d = {{'k': {x}}}", pick(rnd, 'alias = n', 'alias = 0')]
    for _ in range(rnd.randint(1, 3)):
        lines.append(pick(rnd, f'n {op}= {y}', f'xs[0] {op}= {y}', f"d['k'] {op}= {y}", f'n {op}= n',
                          f'xs[0] {op}= xs[0]', f'n = n {op} {y}', f'n = n + {y}', f'n += {y}',
                          f'for i in range({rnd.randint(1, 6)}):\n    n {rnd.choice(OPS)}= {pick(rnd, y, "i", "i - 2", "n")}\n'
                          f'    n = n + {pick(rnd, "i", y, "n // 3")}'))
    lines.append(pick(rnd, '[n, xs, d, alias]', '[n == alias, n - alias]', '[str(n)[:30], xs[0] % 97]'))
    return '\n'.join(lines)


FAMILIES = [fam_tree, fam_update, fam_divide, fam_mixed, fam_augmented]

if __name__ == "__main__":
    import gen_common

    gen_common.main(FAMILIES, run=gen_common.run_with_line)
