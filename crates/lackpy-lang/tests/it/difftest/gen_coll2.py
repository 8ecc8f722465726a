#!/usr/bin/env python3
"""Generates programs for container drops, plain-value runs and zip over
temporary iterators, and runs each with CPython.

Usage: python3 gen_coll2.py SEED PER_FAMILY

Families: tuples of one to five items (ints at the i64 limits, bools, NaN,
-0.0, strs, big ints, type and builtin objects, nested lists, tuples and
dicts) dropped while their items live on elsewhere, and chains of nested
one-, two- and three-tuples tens of thousands deep (dropping them must not
recurse); long lists of plain values (None, bools, ints, floats, `int`,
`len`) with one item that owns something at a block edge, dropped, copied,
reversed and sliced, the shared item checked afterwards; `zip` over
temporary iterators (`reversed`, `enumerate`, `zip`) and over iterator
objects held by a name (an alias must see them advance), with lists
mutated while the zip runs, strict zips of unequal lengths, and an iterator
zipped with itself; `in`, `index`, `count` and `remove` on lists and
tuples of mixed items (bools and floats equal to ints,
NaN, -0.0, ints at the i64 limits, big ints, strs, nested sequences) with
every bound form and the not-found errors; sorts by tuple keys led by ints
(many equal leads and keys that must keep their order, reverse, leads at the
i64 limits or spanning more than 2**32, bools and floats among them, later
items that do not compare or are NaN); sets of numbers built and emptied
key by key (keys sharing a first slot, dummies, hashes equal at the i64
limits and 2**61 - 1, 1 == 1.0 == True, 0 == -0.0) and combined, in
CPython's iteration order. Errors carry their line. Prints one JSON list of
{"program", "repr" | "error", "line"?, "family"}.
"""

BIG = 9223372036854775807
ATOMS = ['0', '1', '-1', 'True', 'False', 'None', str(BIG), str(-BIG - 1), str(BIG + 1), str(3 ** 45),
         "float('nan')", '-0.0', '2.5', "'s'", "''", "'word' * 9", '[]', '[1, [2]]', '(1, 2)', '()',
         "{'k': [1]}", '(1, [2, 3])', '{3, 1}', 'int', 'len', 'range(2)']
PLAIN = ['None', 'True', 'False', '0', '-1', str(BIG), str(-BIG - 1), '-0.0', "float('nan')", '1.5',
         'int', 'len', 'str']
OWNING = ['keep', "'t' * 30", str(BIG + 1), '(keep,)', '[keep]', "{'k': keep}", 'range(3)', "'ab'"]


def tup(rnd, lo=1, hi=5):
    return '(' + ', '.join(rnd.choice(ATOMS) for _ in range(rnd.randint(lo, hi))) + ',)'


def fam_tuple_drop(rnd):
    lines = ['keep = [1, 2]', f'x = {rnd.choice(ATOMS)}']
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


def fam_zip_temps(rnd):
    lines = [f'a = [{", ".join(rnd.choice(ATOMS) for _ in range(rnd.randint(0, 6)))}]',
             f'b = [{", ".join(rnd.choice(PLAIN + ATOMS[:8]) for _ in range(rnd.randint(0, 6)))}]']
    strict = rnd.choice(['', '', ', strict=True'])
    temp = rnd.choice(['reversed(a)', 'reversed(b)', 'enumerate(a)', f'enumerate(b, {BIG - 1})',
                       'zip(a, b)', 'reversed((1, 2, 3))', 'reversed(range(4))', 'enumerate(reversed(a))',
                       'reversed("xyz")'])
    other = rnd.choice(['a', 'b', 'reversed(b)', 'range(3)', "'pq'", 'it'])
    held = rnd.random() < .4 or other == 'it'
    if held:
        lines.append(f'it = {temp}')
        lines.append(rnd.choice(['first = None', 'first = list(zip(it, [0]))', 'seen = it']))
        temp = 'it'
    zipped = rnd.choice([f'zip({temp}, {other}{strict})', f'zip({other}, {temp}{strict})',
                         f'zip({temp}, {other}, {temp}{strict})'])
    use = rnd.random()
    if use < .35:
        lines.append(f'r = [p for p in {zipped}]')
    elif use < .6:
        lines.append(f'r = list({zipped})')
    else:
        body = rnd.choice(['x = 0', 'a.append(0)', 'b.pop() if b else None', 'a.clear()', 'b.insert(0, 5)',
                           'a.pop(0) if a else None'])
        lines.append('r = []')
        lines.append(f'for p in {zipped}:\n    r.append(p)\n    if len(r) < 20:\n        {body}')
    lines.append('[r, a, b, list(it)]' if held else '[r, a, b]')
    return "\n".join(lines)


NEEDLES = ['0', '1', '-1', 'True', 'False', '1.0', '-0.0', '0.0', str(BIG), str(-BIG - 1), str(BIG + 1),
           str(3 ** 45), "float('nan')", "'s'", "''", "'ab'", 'None', '(1, 2)', '[1, [2]]', '()', 'int']
SEARCH_ITEMS = NEEDLES + ['2', '1.5', "'t'", '[]', '{1: 2}', '{3, 1}', 'range(2)', '(1, [2, 3])']


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


LEADS = ['0', '1', '-1', '2', '-5', '3', str(BIG), str(-BIG - 1), '2147483648', '-2147483648', '4294967296', '4294967295', 'True',
         'False', '1.0', '-0.0', str(BIG + 1)]
RESTS = ["'a'", "'b'", "''", '0', '1', '2.5', "float('nan')", '-0.0', 'None', '(1,)', '[0]', 'True']


def fam_sort_leads(rnd):
    n = rnd.choice([0, 1, 2, 5, 9, 40])
    narrow = rnd.random() < .6  # leads from a few small ints: many ties
    rests = rnd.choice([["'a'", "'b'", "''"], ['0', '1', '2'], ['1.5', '-0.0', '0']]) if narrow else RESTS
    width = rnd.choice([1, 2]) if narrow else None
    rows = []
    for i in range(n):
        lead = rnd.choice(['0', '1', '-1', '2', '7'] if narrow else LEADS)
        rest = ', '.join(rnd.choice(rests) for _ in range(width or rnd.randint(0, 2)))
        rows.append(f'({lead}, {rest}{", " if rest else ""}{i})' if rnd.random() < .3 else f'({lead}, {rest})')
    lines = [f'rows = [{", ".join(rows)}]', 'tag = [r for r in rows]']
    key = rnd.choice(['lambda r: r', 'lambda r: r[:2]', 'lambda r: (r[0],)', 'lambda r: (-r[0], r[1:])',
                      'lambda r: (r[0], len(r))', 'lambda r: (r[0] % 3, r[0])', 'lambda r: [r[0]]'])
    rev = rnd.choice(['', '', ', reverse=True', ', reverse=False'])
    op = rnd.choice([f'r = sorted(rows, key={key}{rev})', f'rows.sort(key={key}{rev})\nr = rows',
                     f'r = sorted(rows{rev})', f'r = [tag.index(x) for x in sorted(tag, key={key}{rev})]',
                     f'r = max(rows, key={key}) if rows else None'])
    lines.append(op)
    lines.append('r')
    return "\n".join(lines)


SET_KEYS = ['0', '1', '-1', '-2', '8', '16', '32', '64', '40', '7', 'True', 'False', '1.0', '-0.0', '0.5', '2.5',
            str(BIG), str(-BIG - 1), str(2 ** 61 - 1), str(2 ** 61), str(2 * (2 ** 61 - 1)), str(BIG + 1),
            '(1, 2)', '(0,)']


def fam_set_slots(rnd):
    # Only numbers and tuples of them: CPython's order for a str or NaN
    # member depends on the process (random hashes, NaN hashed by identity).
    keys = SET_KEYS
    lines = ['s = set()', f't = {{{", ".join(rnd.choice(keys) for _ in range(rnd.randint(1, 12)))}}}']
    for _ in range(rnd.randint(1, 14)):
        k = rnd.choice(keys)
        lines.append(rnd.choice([f's.add({k})', f's.add({k})', f's.discard({k})', f's.add({k} * 1)',
                                 'x = s.pop() if s else None', f's.add({k})\ns.discard({k})']))
    op = rnd.choice(['s.union(t)', 't.union(s)', 's.intersection(t)', 't.intersection(s)', 's.difference(t)',
                     't.difference(s)', 's - t', 't - s', 's.symmetric_difference(t)', 's.copy()'])
    lines.append(f'r = {op}')
    lines.append(rnd.choice(['r.add(3)', 'r.discard(8)', 'x = 0']))
    lines.append('[list(s), list(r), len(r), 1 in r, 0 in s]')
    return "\n".join(lines)


FAMILIES = [fam_tuple_drop, fam_plain_runs, fam_zip_temps, fam_search, fam_sort_leads, fam_set_slots]


if __name__ == "__main__":
    import gen_common

    gen_common.main(FAMILIES, run=gen_common.run_with_line)
