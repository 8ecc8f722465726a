#!/usr/bin/env python3
"""Generates programs for bulk copies and drops of mixed lists and runs each with CPython.

Usage: python3 gen_bulk2.py SEED PER_FAMILY

Families: copies of mixed lists and tuples (ints at the i64 limits, bools,
floats with NaN and -0.0, strs, big ints, None, nested lists, tuples and
dicts) by copy(), list(), tuple(), [:], strided slices of every step sign,
reversed(), + and *, then mutation of the copy's nested items to show what
is shared (`is` on every item); slice assignment whose source aliases the
target (`a[:] = a`, `a[::-1] = a`, `a[1:3] = a`, extended slices of the
wrong length); slice assignment with every step sign and bound, and its
errors; and rebinding or clearing lists whose items are shared elsewhere
or nested deeply (what survives must be intact). Each family draws from its
own seed. A fifth drains enumerate, zip (strict or not, of unequal lengths) and
reversed over lists, fresh or half used, with counts near the i64 limits. Prints one JSON list of {"program", "repr" | "error", "family"}.
"""

BIG = 9223372036854775807
ATOMS = ['0', '1', '-1', 'True', 'False', 'None', str(BIG), str(-BIG - 1), str(BIG + 1), str(-BIG - 2),
         str(3 ** 50), "float('nan')", '-0.0', '0.0', '1.5', "float('inf')", "'s'", "''", "'héllo'",
         "'x' * 40", '[]', '[1, [2]]', '(1, 2)', '()', "{'k': [1]}", '(1, [2, 3])', '{1, 2}', 'range(3)']
STEPS = ['', ':1', ':2', ':3', ':-1', ':-2', ':-3', ':7', ':-7', f':{BIG}', f':{-BIG}', f':{-BIG - 1}', ':True']
BOUNDS = ['', '0', '1', '-1', '2', '-3', '5', '-6', '100', '-100', str(BIG), str(-BIG - 1)]


def mixed(rnd, lo=0, hi=9):
    return '[' + ', '.join(rnd.choice(ATOMS) for _ in range(rnd.randint(lo, hi))) + ']'


def sl(rnd):
    return f'{rnd.choice(BOUNDS)}:{rnd.choice(BOUNDS)}{rnd.choice(STEPS)}'


def fam_copies(rnd):
    make = rnd.choice(['xs.copy()', 'list(xs)', 'xs[:]', f'xs[{sl(rnd)}]', 'list(reversed(xs))',
                       'xs + ys', 'ys + xs', 'xs * 2', '2 * xs', 'xs * 0', 'list(tuple(xs))',
                       f'list(tuple(xs)[{sl(rnd)}])', '[*xs]', 'list(xs[::-1])'])
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


def fam_alias(rnd):
    target = rnd.choice([f'a[{sl(rnd)}]', 'a[:]', 'a[::-1]', 'a[1:3]', 'a[::2]', 'a[1::2]', 'a[len(a):]',
                         'a[:0]', 'a[-1::-2]'])
    src = rnd.choice(['a', 'a[::-1]', 'a[1::2]', 'a[:]', 'reversed(a)', 'tuple(a)', 'a * 2', '[a]',
                      'a[:len(a) // 2]', 'enumerate(a)'])
    lines = [f'a = {mixed(rnd, 0, 7)}', 'keep = a', f'{target} = {src}']
    if rnd.random() < .4:
        lines.append(f'{rnd.choice(["a[::-1]", "a[:]", "a[1:]"])} = a')
    lines.append('[len(a), a is keep, [x if x is not a else "self" for x in a]]')
    return "\n".join(lines)


def fam_assign_steps(rnd):
    n = rnd.choice([0, 1, 2, 5, 10])
    val = rnd.choice(['[]', '[7]', '[7, 8]', '[7, 8, 9]', '[7, 8, 9, 10, 11]', "'abcde'", 'range(4)',
                      '(1, 2, 3)', '[[0]] * 2', f'[{BIG}, -0.0, None]', '5', 'None', '{1: 2, 3: 4}', 'reversed([1])'])
    at = sl(rnd)
    if rnd.random() < .5:  # the right length for an extended slice
        val = rnd.choice([f'a[{at}][::-1]', f'[str(x) for x in a[{at}]]', f'tuple(a[{at}])',
                          f'[None] * len(a[{at}])', f'reversed(a[{at}])'])
    lines = [f'a = list(range({n}))', f'a[{at}] = {val}']
    if rnd.random() < .5:
        lines.append(f'a[{sl(rnd)}] = {rnd.choice(["[]", "[0]", "a[:2]", "a[::-1]", "range(3)"])}')
    lines.append('a')
    return "\n".join(lines)


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


def fam_drain_lists(rnd):
    lines = [f'a = {mixed(rnd, 0, 6)}', f'b = {mixed(rnd, 0, 6)}', 'it = None']
    start = rnd.choice(['', ', 0', ', -3', f', {BIG - 2}', f', {BIG}', f', {-BIG - 1}', ', True', f', {BIG + 3}'])
    strict = rnd.choice(['', '', ', strict=True'])
    make = rnd.choice([f'enumerate(a{start})', f'zip(a, b{strict})', f'zip(a, b, a{strict})',
                       f'zip(b, a, b, a{strict})', 'reversed(a)', f'zip(a, a{strict})', f'zip(a, reversed(b){strict})'])
    if rnd.random() < .4:
        lines.append(f'it = {make}')
        lines.append(rnd.choice(['first = list(zip(it, [0]))', 'first = list(zip([0], it))', 'a.append(99)',
                                 'a.clear()', 'b.pop() if b else None', 'first = None']))
        make = 'it'
    lines.append(f"r = {rnd.choice(['list(%s)', 'tuple(%s)', 'len(list(%s))', '[p for p in %s]']) % make}")
    lines.append('[r, a, b, list(it) if it is not None else None]')
    return "\n".join(lines)


FAMILIES = [fam_copies, fam_alias, fam_assign_steps, fam_rebind, fam_drain_lists]


if __name__ == "__main__":
    import gen_common

    gen_common.main(FAMILIES)
