#!/usr/bin/env python3
"""Generates programs for arithmetic and comparison on numbers and runs
each with CPython.

The resolver lowers `a op b` (+ - * / // %) and single comparisons whose
operands are names and number constants, a few levels deep, to trees read
in place; augmented assignment has its own number paths; ints of any size
use exact arithmetic. These families put every kind of value in those
operand positions: ints at and past the i64 and u64 limits, big ints of
either sign, bools, floats (NaN, infinities, -0.0), strings, lists and
None; as globals, constants and lambda or comprehension locals; in value
and condition contexts; with division and modulo by zero. Expression
trees over names, constants and list items; loops that update a big int
with small ones, the name reused, shared and rebound; floor division and
modulo of every sign and size; int and float mixes where the int is too
large for a float; big results from shared operands and unique
temporaries; chains of mixed operators as values and accumulators; and
augmented assignment on every target kind (names, list items and slices,
dict items, immutables) with every operator. An error's type, message and
line must match.

Usage: python3 gen_arith.py SEED PER_FAMILY

Prints one JSON list of cases (see gen_common.py).
"""
import gen_common
from gen_common import pick, stream

MAX = 9223372036854775807
MIN = -9223372036854775808
INTS = ['0', '1', '-1', '7', '-7', '3', '2', str(MAX), str(MIN), str(MAX - 1), '4611686018427387904',
        '9007199254740992', '9007199254740993', '-9007199254740993', '3037000500', '-3037000499']
FLOATS = ['0.0', '-0.0', '1.5', '-2.5', "float('nan')", "float('inf')", "-float('inf')", '1e300',
          '0.1', '9007199254740993.0', '2.0']
OTHER = ['True', 'False', str(MAX + 1), str(MIN - 1), str(2 ** 70), str(-(2 ** 64)), 'None']
OPS = ['+', '-', '*', '/', '//', '%']


def value(rnd):
    r = rnd.random()
    if r < .5:
        return rnd.choice(INTS)
    if r < .75:
        return rnd.choice(FLOATS)
    return rnd.choice(OTHER)


def number(rnd):
    """Mostly numbers, sometimes anything."""
    return value(rnd) if rnd.random() < .15 else rnd.choice(INTS + FLOATS + ['True', 'False'])


INDEXES = ['0', '1', '-1', '2', '-3', '5', 'True', 'False', str(MAX), str(MIN), '1.0', 'a', 'x']


def leaf(rnd, names):
    """A name, an item of the list `l` or tuple `t`, or a literal (negative
    literals in parentheses)."""
    if names and rnd.random() < .6:
        return rnd.choice(names)
    if rnd.random() < .25:
        i = rnd.choice(INDEXES)
        if i in ('a', 'x') and i not in names:
            i = '0'
        return f"{pick(rnd, 'l', 't')}[{i}]"
    v = number(rnd)
    return f'({v})' if v.startswith('-') else v


def tree(rnd, names, depth):
    if depth == 0 or rnd.random() < .3:
        return leaf(rnd, names)
    return f'({tree(rnd, names, depth - 1)} {rnd.choice(OPS)} {tree(rnd, names, depth - 1)})'


def globals_for(rnd, names, pool=number):
    seq = ', '.join(number(rnd) for _ in range(rnd.randint(0, 4)))
    return [f'{n} = {pool(rnd)}' for n in names] + [f'l = [{seq}]', f't = ({seq}{"," if seq else ""})']


@stream(1)
def fam_binop(rnd):
    """Arithmetic on globals and literals, each result a line of its own."""
    names = ['a', 'b', 'c']
    lines = globals_for(rnd, names)
    out = []
    for i in range(rnd.randint(1, 4)):
        lines.append(f'r{i} = {tree(rnd, names, rnd.randint(1, 3) if rnd.random() < .85 else 6)}')
        out.append(f'r{i}')
    lines.append(f"[{', '.join(out)}]")
    return '\n'.join(lines)


# Not numbers: the general path's type errors, comparisons and concatenation
# (kept out of trees that multiply, where a huge repeat count would run out
# of memory).
SEQS = ["'ab'", "''", '[1]', '(1, 2)', "'7'"]


CMPS = ['==', '!=', '<', '<=', '>', '>=']


@stream(2)
def fam_compare(rnd):
    """Single comparisons as values, as if/while-free conditions and in
    comprehension filters."""
    names = ['a', 'b', 'c']
    lines = globals_for(rnd, names)
    if rnd.random() < .2:
        lines[0] = f'a = {rnd.choice(SEQS)}'
    lhs, rhs = tree(rnd, names, rnd.randint(0, 2)), tree(rnd, names, rnd.randint(0, 2))
    op = rnd.choice(CMPS)
    shape = rnd.random()
    if shape < .3:
        lines.append(f'r = {lhs} {op} {rhs}')
    elif shape < .5:
        lines.append(f'if {lhs} {op} {rhs}:\n    r = 1\nelse:\n    r = 2')
    elif shape < .65:
        lines.append(f"r = 'y' if {lhs} {op} {rhs} and {rhs} {rnd.choice(CMPS)} {lhs} else 'n'")
    elif shape < .8:
        lines.append(f"r = not ({lhs} {op} {rhs})")
    else:
        xs = ', '.join(number(rnd) for _ in range(rnd.randint(0, 5)))
        elt = tree(rnd, ['x', 'a'], 1)
        cond = f'{tree(rnd, ["x", "a"], 1)} {op} {tree(rnd, ["x", "b"], 1)}'
        lines.append(f'r = [{elt} for x in [{xs}] if {cond}]')
    lines.append('r')
    return '\n'.join(lines)


@stream(3)
def fam_locals(rnd):
    """The same trees over comprehension and lambda locals (frame slots),
    with captured and enclosing names beside them."""
    xs = ', '.join(number(rnd) for _ in range(rnd.randint(0, 6)))
    body = tree(rnd, ['x', 'y', 'g'], rnd.randint(1, 4))
    lines = [f'g = {number(rnd)}', f'xs = [{xs}]'] + globals_for(rnd, [])
    shape = rnd.random()
    if shape < .35:
        lines.append(f'r = [{body} for x in xs for y in [{number(rnd)}, g]]')
    elif shape < .55:
        lines.append(f'r = {{str(x): {body} for x in xs for y in xs[:2]}}')
    elif shape < .75:
        lines.append(f'r = sorted(xs, key=lambda x, y={number(rnd)}: [{body}, x])')
    elif shape < .9:
        lines.append(f'r = [[{body} for y in range(-2, 3)] for x in xs]')
    else:
        lines.append(f'r = sorted(xs, key=lambda x: {tree(rnd, ["x"], 2)})')
    lines.append('r')
    return '\n'.join(lines)


@stream(5)
def fam_edges(rnd):
    """i64 limits crossed mid-expression, big ints coming back into range,
    and errors on a later line of a longer program."""
    e = rnd.choice([str(MAX), str(MIN), '4611686018427387904', '3037000500', '-3037000500'])
    lines = [f'm = {e}', f'n = {rnd.choice(INTS)}', f'z = {pick(rnd, "0", "0.0", "False", "1")}']
    for i in range(rnd.randint(2, 5)):
        lines.append(pick(rnd, f't{i} = (m + n) - n', f't{i} = m * 2 // 2', f't{i} = (m - 1) + 1 - m',
                          f't{i} = -m - 1', f't{i} = m % (n + z)', f't{i} = n // z', f't{i} = m / z',
                          f't{i} = (m * m) % 1000003', f't{i} = m // -1', f't{i} = m % -1',
                          f't{i} = [m + x for x in [0, 1, -1]]', f't{i} = m == m + 0.0',
                          f't{i} = m < m + 1', f't{i} = (m + 1) - 1 == m', f't{i} = n % z',
                          f't{i} = z - m', f't{i} = m * z + n'))
    lines.append(f"[{', '.join(l.split(' = ')[0] for l in lines[3:])}]")
    return '\n'.join(lines)


BIGS = [str(2 ** 70), str(-(2 ** 70)), str(MAX + 1), str(MIN - 1), str(3 ** 80), str(-(5 ** 60) + 1)]
SMALLS = ['0', '1', '-1', '3', '-7', '1000003', str(MAX), str(MIN), 'True', 'False']


@stream(6)
def fam_big(rnd):
    """Big ints through chains of temporaries (updated in place when held
    by nothing else) with names aliasing them, results falling back into
    the i64 range, and big % small / big // small of every sign."""
    lines = [f'a = {rnd.choice(BIGS)}', 'alias = a', f's = {rnd.choice(SMALLS)}', f'b = {rnd.choice(BIGS)}',
             'out = []']
    for _ in range(rnd.randint(1, 4)):
        stmt = pick(rnd, 'a = a * 3 + b // (s + 2)', 'a = a // 7 + b', 'a = (a + s) - a',
                    'a = a * s - a * s + 1', 'a = (a - b) + (b - a)', 'out.append(a % (s + 1000003))',
                    'out.append(a % (s - 1000003))', 'out.append(a // (s - 2))', 'out.append((a * a) % b)',
                    'a += b', 'a -= a', 'a *= s', 'a = -a + a - b', 'out.append([a + 0, a - 0, 0 - a])',
                    'a = a % s', 'a = a // s', 'out.append(a % 2 == 0)', 'out.append(a > b)',
                    'out.append(a + 1 == b)', 'out.append(a * 1.0)', 'out.append(a / 3)')
        lines.append(pick(rnd, stmt, f'for i in range(3):\n    {stmt}'))
    lines.append('[a, alias, b, out]')
    return '\n'.join(lines)


EDGE_BIGS = [str(2 ** 63), str(-(2 ** 63) - 1), str(2 ** 64), str(-(2 ** 64)), str(2 ** 64 - 1),
             str(2 ** 64 + 1), str(2 ** 127), str(-(2 ** 128) + 3), str(7 ** 200), str(-(3 ** 300))]
EDGE_SMALLS = ['1', '-1', '2', '-2', '7', '-7', '1000003', '-1000003', str(MAX), str(MIN), str(MIN + 1),
               '4294967295', '4294967296', '-4294967296', 'True', 'False', '0']


@stream(7)
def fam_bigfresh(rnd):
    """Big results built from shared operands (copies into recycled digit
    buffers of other sizes) and from unique temporaries (in place): every
    order of small and big operand, floor division by a small int of every
    sign (unique and shared dividends), ints at the 2**63 and 2**64 edges,
    bools, floats and results falling back into the i64 range."""
    lines = [f'p = {rnd.choice(EDGE_BIGS)}', f'q = {rnd.choice(EDGE_BIGS)}', f's = {rnd.choice(EDGE_SMALLS)}',
             'keep = p', 'out = []']
    for _ in range(rnd.randint(2, 6)):
        stmt = pick(rnd, 'out.append(s - p)', 'out.append(s + p)', 'out.append(s * p)', 'out.append(p - s)',
                    'out.append(p * s + q)', 'out.append(p // s)', 'out.append((p + 0) // s)',
                    'out.append((p * 3) // s)', 'out.append(p // (s - 3))', 'out.append((q - p) // s)',
                    'out.append(p % s)', 'out.append((p + q) % s)', 'p = p // s + q', 'p = s - p * s',
                    'q = q * 5 // (s + 9)', 'p = (p * 2 + q) // -3', 'q = q // 1000003 * 1000003 - q',
                    'out.append(p * 1.5 - s)', 'out.append(p + True)', 'out.append(False - q)',
                    'out.append([p // k for k in (1, -1, 2, -2, 7, -7)])', 'p, q = q, p + s',
                    'out.append(p == q + 0)', 'out.append(p - p + s)')
        lines.append(pick(rnd, stmt, f'for i in range(4):\n    {stmt}\n    s = s * -1 + i'))
    lines.append('[p, q, s, keep, out]')
    return '\n'.join(lines)


EDGE = [str(MAX), str(MIN), str(MAX - 1), str(MIN + 1), str(2 ** 63), str(-2 ** 63 - 1), str(2 ** 64),
        str(-2 ** 64), str(2 ** 64 - 1), str(2 ** 64 + 1), str(2 ** 32), str(2 ** 32 - 1), str(-2 ** 32)]
BIG = [str(2 ** 200 + 12345), str(-(2 ** 130) - 7), str(3 ** 90), str(-(3 ** 41)), str(10 ** 30),
       str(2 ** 127), str(-(2 ** 128))]
SMALL = ['0', '1', '-1', '2', '3', '-3', '7', '-7', '13', '1000003', '-1000003', 'True', 'False']
EXACT_FLOATS = ['1.5', '-0.0', '0.0', "float('nan')", "float('inf')", "-float('inf')", '1e308', '-2.5']
EXACT_OPS = ['+', '-', '*', '//', '%']


def exact_value(rnd):
    r = rnd.random()
    if r < .3:
        return rnd.choice(EDGE)
    if r < .6:
        return rnd.choice(BIG)
    if r < .9:
        return rnd.choice(SMALL)
    return rnd.choice(EXACT_FLOATS)


def exact_leaf(rnd):
    return pick(rnd, 'a', 'b', 'c', 'd', 'xs[0]', 'xs[i]', 'xs[-1]', exact_value(rnd), 'i', 'i + 1')


def exact_tree(rnd, depth):
    if depth == 0 or rnd.random() < .25:
        return exact_leaf(rnd)
    op = rnd.choice(EXACT_OPS if rnd.random() < .93 else EXACT_OPS + ['/'])
    return f'({exact_tree(rnd, depth - 1)} {op} {exact_tree(rnd, depth - 1)})'


def bindings(rnd):
    return [f'a = {exact_value(rnd)}', f'b = {exact_value(rnd)}', f'c = {rnd.choice(BIG + EDGE)}',
            f'd = {rnd.choice(SMALL)}', f'xs = [{exact_value(rnd)}, {exact_value(rnd)}, {exact_value(rnd)}]', 'i = 1']


@stream(1)
def fam_int_tree(rnd):
    """Nested arithmetic over big, edge, small, bool and float operands,
    evaluated once and in a loop."""
    lines = bindings(rnd) + ['out = []']
    for _ in range(rnd.randint(1, 4)):
        e = exact_tree(rnd, rnd.randint(1, 4))
        if rnd.random() < .5:
            lines.append(f'out.append({e})')
        else:
            lines.append(f'for i in range({rnd.randint(0, 3)}):\n    out.append({e})')
    lines.append('out')
    return '\n'.join(lines)


@stream(2)
def fam_int_update(rnd):
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


@stream(3)
def fam_int_divide(rnd):
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


@stream(4)
def fam_int_float(rnd):
    """Ints of any size with floats and bools: conversions that overflow,
    NaN, infinities and -0.0."""
    lines = ['out = []']
    for _ in range(rnd.randint(1, 5)):
        x = rnd.choice(BIG + EDGE + [str(10 ** 400), str(-10 ** 309)])
        y = rnd.choice(EXACT_FLOATS + ['True', 'False'])
        op = rnd.choice(EXACT_OPS + ['/'])
        lines.append(pick(rnd, f'out.append({x} {op} {y})', f'out.append({y} {op} {x})',
                          f'f = {y}\nn = {x}\nout.append(n {op} f)', f'f = {y}\nn = {x}\nout.append(f {op} n + 1)'))
    lines.append('out')
    return '\n'.join(lines)


NUMS = ['True', 'False', '0', '1', '-1', str(MAX), str(MIN), str(MAX - 1), str(MIN + 1), str(2 ** 63),
        str(2 ** 64), str(2 ** 64 - 1), str(-(2 ** 64)), '0.5', '-0.0', "float('inf')", "float('nan')", '1e308',
        '3', '7']


@stream(5)
def fam_mixed_chains(rnd):
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


@stream(4)
def fam_augassign(rnd):
    """Augmented and `name = name op x` assignments to globals in loops:
    int, float and bool accumulators meeting every kind of operand."""
    start = value(rnd) if rnd.random() < .3 else number(rnd)
    lines = [f'acc = {start}', f'k = {number(rnd)}']
    xs = ', '.join(number(rnd) for _ in range(rnd.randint(0, 5)))
    lines.append(f'xs = [{xs}]')
    for _ in range(rnd.randint(1, 3)):
        op = rnd.choice(OPS)
        rhs = tree(rnd, ['v', 'k'], rnd.randint(0, 2))
        stmt = pick(rnd, f'acc {op}= {rhs}', f'acc = acc {op} {rhs}', f'acc += {rhs}', f'acc = acc + {rhs}',
                    f'k {op}= v', f'acc += {rnd.choice(SEQS)}')
        lines.append(f'for v in xs:\n    {stmt}')
    lines.append('[acc, k]')
    return '\n'.join(lines)


@stream(5)
def fam_augassign_big(rnd):
    """`op=` on a name, a list item and a dict value holding big ints."""
    x, y = rnd.choice(BIG + EDGE), rnd.choice(BIG + EDGE + SMALL + ['1.5'])
    op = rnd.choice(EXACT_OPS)
    lines = [f'n = {x}', f'xs = [{x}, 1]', f"d = {{'k': {x}}}", pick(rnd, 'alias = n', 'alias = 0')]
    for _ in range(rnd.randint(1, 3)):
        lines.append(pick(rnd, f'n {op}= {y}', f'xs[0] {op}= {y}', f"d['k'] {op}= {y}", f'n {op}= n',
                          f'xs[0] {op}= xs[0]', f'n = n {op} {y}', f'n = n + {y}', f'n += {y}',
                          f'for i in range({rnd.randint(1, 6)}):\n    n {rnd.choice(EXACT_OPS)}= {pick(rnd, y, "i", "i - 2", "n")}\n'
                          f'    n = n + {pick(rnd, "i", y, "n // 3")}'))
    lines.append(pick(rnd, '[n, xs, d, alias]', '[n == alias, n - alias]', '[str(n)[:30], xs[0] % 97]'))
    return '\n'.join(lines)


AUG_OPS = ['+', '-', '*', '/', '//', '%']
AUG_TARGETS = ['x', 'l[0]', 'l[-1]', 'l[i]', 'd["k"]', 'd[i]', 'l[1:]', 'l[::2]', 'l[:0]', 'm[0]',
               't[0]', 's[0]', 'nope', 'd["missing"]', 'l[9]']
AUG_VALUES = ['1', '-2', '2.5', 'True', 'False', "'ab'", '[1]', '(1,)', str(MAX), str(2 ** 64), '0', '0.0',
              'None', 'x', 'l[0]', "float('nan')", '-0.0']


@stream(3)
def fam_augassign_targets(rnd):
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


FAMILIES = [fam_binop, fam_compare, fam_locals, fam_edges, fam_big, fam_bigfresh, fam_int_tree,
            fam_int_update, fam_int_divide, fam_int_float, fam_mixed_chains, fam_augassign,
            fam_augassign_big, fam_augassign_targets]

if __name__ == "__main__":
    gen_common.main(FAMILIES, line=True)
