#!/usr/bin/env python3
"""Generates programs for the evaluator's numeric fast paths and runs each
with CPython.

Usage: python3 gen_eval.py SEED PER_FAMILY

The resolver lowers `a op b` (+ - * / // %) and single comparisons whose
operands are names and number constants, a few levels deep, to trees read
in place; augmented assignment to a name has its own number paths. These
families put every kind of value in those operand positions: ints at and
past the i64 limits, bools, floats (NaN, infinities, -0.0), big ints,
strings, lists and None; as globals, constants and lambda or comprehension
locals; in value and condition contexts; with division and modulo by zero.
An error's type, message and line must match.

Prints one JSON list of cases (see gen_common.py).
"""

from gen_common import pick

MAX = 9223372036854775807
MIN = -9223372036854775808
INTS = ['0', '1', '-1', '7', '-7', '3', '2', str(MAX), str(MIN), str(MAX - 1), '4611686018427387904',
        '9007199254740992', '9007199254740993', '-9007199254740993', '3037000500', '-3037000499']
FLOATS = ['0.0', '-0.0', '1.5', '-2.5', "float('nan')", "float('inf')", "-float('inf')", '1e300',
          '0.1', '9007199254740993.0', '2.0']
OTHER = ['True', 'False', str(MAX + 1), str(MIN - 1), str(2 ** 70), str(-(2 ** 64)), 'None']
# Not numbers: the general path's type errors, comparisons and concatenation
# (kept out of trees that multiply, where a huge repeat count would run out
# of memory).
SEQS = ["'ab'", "''", '[1]', '(1, 2)', "'7'"]
OPS = ['+', '-', '*', '/', '//', '%']
CMPS = ['==', '!=', '<', '<=', '>', '>=']


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


FAMILIES = [fam_binop, fam_compare, fam_locals, fam_augassign, fam_edges, fam_big, fam_bigfresh]


if __name__ == "__main__":
    import gen_common

    gen_common.main(FAMILIES, run=gen_common.run_with_line)
