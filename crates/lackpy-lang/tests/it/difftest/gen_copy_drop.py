#!/usr/bin/env python3
"""Generates programs that copy and drop containers of mixed items and runs
each with CPython.

Families: copies of mixed lists and tuples (ints at the i64 limits, bools,
floats with NaN and -0.0, strs, big ints, None, nested lists, tuples and
dicts) by copy(), list(), tuple(), [:], strided slices of every step sign,
reversed(), + and *, then mutation of the copy's nested items to show what
is shared (`is` on every item); rebinding or clearing lists whose items are
shared elsewhere or nested deeply (what survives must be intact); tuples of
one to five items (also type and builtin objects) dropped while their items
live on elsewhere, and chains of nested one-, two- and three-tuples tens of
thousands deep (dropping them must not recurse); long lists of plain values
(None, bools, ints, floats, `int`, `len`) with one item that owns something
at a block edge, dropped, copied, reversed and sliced, the shared item
checked afterwards.

Usage: python3 gen_copy_drop.py SEED PER_FAMILY

Prints one JSON list of cases (see gen_common.py).
"""
import gen_common
from gen_common import stream

BIG = 9223372036854775807
ATOMS = ['0', '1', '-1', 'True', 'False', 'None', str(BIG), str(-BIG - 1), str(BIG + 1), str(-BIG - 2),
         str(3 ** 50), "float('nan')", '-0.0', '0.0', '1.5', "float('inf')", "'s'", "''", "'héllo'",
         "'x' * 40", '[]', '[1, [2]]', '(1, 2)', '()', "{'k': [1]}", '(1, [2, 3])', '{1, 2}', 'range(3)']
LIST_STEPS = ['', ':1', ':2', ':3', ':-1', ':-2', ':-3', ':7', ':-7', f':{BIG}', f':{-BIG}', f':{-BIG - 1}', ':True']
LIST_BOUNDS = ['', '0', '1', '-1', '2', '-3', '5', '-6', '100', '-100', str(BIG), str(-BIG - 1)]


def mixed(rnd, lo=0, hi=9):
    return '[' + ', '.join(rnd.choice(ATOMS) for _ in range(rnd.randint(lo, hi))) + ']'


def list_sl(rnd):
    return f'{rnd.choice(LIST_BOUNDS)}:{rnd.choice(LIST_BOUNDS)}{rnd.choice(LIST_STEPS)}'


@stream(1)
def fam_copies(rnd):
    make = rnd.choice(['xs.copy()', 'list(xs)', 'xs[:]', f'xs[{list_sl(rnd)}]', 'list(reversed(xs))',
                       'xs + ys', 'ys + xs', 'xs * 2', '2 * xs', 'xs * 0', 'list(tuple(xs))',
                       f'list(tuple(xs)[{list_sl(rnd)}])', '[*xs]', 'list(xs[::-1])'])
    lines = [f'xs = {mixed(rnd)}', f'ys = {mixed(rnd, 0, 3)}', f'c = {make}']
    if rnd.random() < .5:
        lines.append('same = [c[i] is xs[i] for i in range(min(len(c), len(xs)))]')
    else:
        lines.append('same = None')
    for _ in range(rnd.randint(0, 2)):
        lines.append(rnd.choice([
            'for x in c:\n    if isinstance(x, list):\n        x.append(9)',
            'c.reverse()', 'c.append(xs)', 'c[:0] = ys', 'c.clear()', 'xs.clear()',
            'for x in xs:\n    if isinstance(x, dict):\n        x["n"] = 1', 'xs = None', 'c = c[::-1]']))
    lines.append('[c, xs, same, len(c)]')
    return "\n".join(lines)


@stream(4)
def fam_rebind(rnd):
    lines = [f'inner = {mixed(rnd, 1, 5)}', f"t = ('t', inner, {rnd.choice(ATOMS)})",
             f'a = [inner, t, {rnd.choice(ATOMS)}, inner]', 'deep = None']
    if rnd.random() < .5:
        lines.append(f'deep = []\nfor i in range({rnd.choice([3, 50, 400])}):\n    deep = [deep, str(i), i, (i, [i])]')
        lines.append('a.append(deep)')
    lines.append(rnd.choice(['a = None', 'a.clear()', 'a = a[1:]', 'a[:] = []', 'a = [0] * 3',
                             'a[::-1] = list(range(len(a)))', 'a *= 0', 'a = list(reversed(a))']))
    lines.append(rnd.choice(['inner.append(1)', 'inner.reverse()', 'x = 1']))
    lines.append('[inner, t, a if a is None else [x for x in a if x is not deep], deep and deep[1:]]')
    return "\n".join(lines)


TUPLE_ATOMS = ['0', '1', '-1', 'True', 'False', 'None', str(BIG), str(-BIG - 1), str(BIG + 1), str(3 ** 45),
         "float('nan')", '-0.0', '2.5', "'s'", "''", "'word' * 9", '[]', '[1, [2]]', '(1, 2)', '()',
         "{'k': [1]}", '(1, [2, 3])', '{3, 1}', 'int', 'len', 'range(2)']


def tup(rnd, lo=1, hi=5):
    return '(' + ', '.join(rnd.choice(TUPLE_ATOMS) for _ in range(rnd.randint(lo, hi))) + ',)'


@stream(1)
def fam_tuple_drop(rnd):
    lines = ['keep = [1, 2]', f'x = {rnd.choice(TUPLE_ATOMS)}']
    kind = rnd.random()
    if kind < .4:
        depth = rnd.choice([3, 100, 30000])
        shape = rnd.choice(['(t,)', '(t, x)', '(x, t)', '(t, x, keep)', '(x, x, t)', '([t],)', '(t, 1, 2, 3)',
                            '({"t": t},)'])
        lines.append('t = ()')
        lines.append(f'for i in range({depth}):\n    t = {shape}')
        lines.append(rnd.choice(['t = None', 't = 0', 'u = t\nt = None\nu = None', 'keep.append(len(t))\nt = 1']))
    else:
        lines.append(f'ts = [{", ".join(tup(rnd) for _ in range(rnd.randint(1, 6)))}]')
        lines.append(rnd.choice(['ts.append((keep, x))', 'ts.append((x,))', 'ts.append((keep, keep, keep))',
                                 'ts.append((x, keep, x, keep))', 'ts = ts + [(ts[0],)]']))
        lines.append(rnd.choice(['r = [t[0] for t in ts]', 'r = [len(t) for t in ts]', 'r = ts[::-1]',
                                 'r = [t for t in ts if len(t) > 1]', 'r = list(zip(ts, ts))']))
        lines.append(rnd.choice(['ts = None', 'ts.clear()', 'ts.pop(0)', 'ts[0] = 1', 'ts = ts[1:]']))
        lines.append('keep.append(len(r))')
    lines.append(rnd.choice(['[keep, x]', 'keep', '[x, keep[:2]]']))
    return "\n".join(lines)


PLAIN = ['None', 'True', 'False', '0', '-1', str(BIG), str(-BIG - 1), '-0.0', "float('nan')", '1.5',
         'int', 'len', 'str']
OWNING = ['keep', "'t' * 30", str(BIG + 1), '(keep,)', '[keep]', "{'k': keep}", 'range(3)', "'ab'"]


@stream(2)
def fam_plain_runs(rnd):
    n = rnd.choice([0, 1, 15, 16, 17, 31, 32, 33, 64, 100])
    plain = rnd.choice(PLAIN)
    lines = ['keep = [7]', f'a = [{plain}] * {n}']
    if rnd.random() < .7 and n:
        at = rnd.choice([0, n - 1, n // 2, min(15, n - 1), min(16, n - 1), min(17, n - 1)])
        lines.append(f'a[{at}] = {rnd.choice(OWNING)}')
    if rnd.random() < .4:
        lines.append(f'a += [{rnd.choice(PLAIN)}, {rnd.choice(PLAIN)}]')
    op = rnd.choice(['b = a.copy()', 'b = a[::-1]', 'b = a[1:]', 'b = list(a)', 'b = a * 2', 'b = tuple(a)',
                     'a.reverse()\nb = a', 'b = a[::3]', 'b = [v for v in a]', 'b = list(reversed(a))'])
    lines.append(op)
    lines.append(rnd.choice(['a = None', 'a.clear()', 'a[:] = []', 'a = [0]', 'a *= 0', 'x = 1']))
    lines.append(rnd.choice(['b = None', 'x = 2', 'b = b[:1]']))
    lines.append(rnd.choice(['[keep, b]', '[keep, a]', 'keep', '[a, b, keep]']))
    return "\n".join(lines)


FAMILIES = [fam_copies, fam_rebind, fam_tuple_drop, fam_plain_runs]

if __name__ == "__main__":
    gen_common.main(FAMILIES, line=True)
