#!/usr/bin/env python3
"""Generates programs that search lists and tuples and runs each with
CPython.

Family: `in`, `index`, `count` and `remove` on lists and tuples of mixed
items (bools and floats equal to ints, NaN, -0.0, ints at the i64 limits,
big ints, strs, nested sequences) with every bound form and the not-found
errors and their lines.

Usage: python3 gen_seq_search.py SEED PER_FAMILY

Prints one JSON list of cases (see gen_common.py).
"""
import gen_common
from gen_common import stream

BIG = 9223372036854775807
NEEDLES = ['0', '1', '-1', 'True', 'False', '1.0', '-0.0', '0.0', str(BIG), str(-BIG - 1), str(BIG + 1),
           str(3 ** 45), "float('nan')", "'s'", "''", "'ab'", 'None', '(1, 2)', '[1, [2]]', '()', 'int']
SEARCH_ITEMS = NEEDLES + ['2', '1.5', "'t'", '[]', '{1: 2}', '{3, 1}', 'range(2)', '(1, [2, 3])']


@stream(4)
def fam_search(rnd):
    # A float has no identity here (CPython finds a NaN by identity): a
    # needle taken from the items is never a NaN.
    from_items = rnd.random() < .3
    pool = [a for a in SEARCH_ITEMS if 'nan' not in a] if from_items else SEARCH_ITEMS
    n = rnd.choice([0, 1, 3, 8, 1030])
    items = ', '.join(rnd.choice(pool) for _ in range(min(n, 8)))
    make = f'[{items}]' if n <= 8 else f'[{items}] * 129'
    x = rnd.choice(NEEDLES)
    lines = [f'xs = {make}', f'x = {x}']
    if rnd.random() < .3 and 'nan' not in x:
        lines.append('xs.append(x)')
    seq = rnd.choice(['xs', 'tuple(xs)'])
    bounds = rnd.choice(['', ', 1', ', -2', ', 2, 5', ', -3, -1', f', {BIG}', f', 0, {-BIG - 1}', ', 3, 1',
                         ', True', ', 0, 1000'])
    if from_items:
        op = rnd.choice([f'[{seq}.count(y) for y in xs[:4]]', 'xs.index(xs[-1]) if xs else -1',
                         f'[{seq}.index(y{bounds}) for y in xs[2:4]]', '[y in xs for y in xs[:3]]'])
    else:
        op = rnd.choice([f'{seq}.count(x)', f'{seq}.index(x{bounds})', 'x in xs', f'x in {seq}',
                         'xs.remove(x)\nr = xs', 'xs.count(xs)', 'xs.append(xs)\nr = xs.count(xs), xs.index(xs)'])
    if not op.startswith('xs.remove') and not op.startswith('xs.append'):
        op = f'r = {op}'
    lines.append(op)
    lines.append('[r, len(xs)]' if rnd.random() < .8 else 'r')
    return "\n".join(lines)


FAMILIES = [fam_search]

if __name__ == "__main__":
    gen_common.main(FAMILIES, line=True)
