#!/usr/bin/env python3
"""Generates programs for unpacking assignment and runs each with CPython.

Families: a list unpacked into names (a list no one else holds gives up
its items; a list still named elsewhere, or one the targets themselves
change, must be copied), with a starred target, too few and too many
values, split results of every length; and unpacking of every shape
(tuples short and long, unique and shared lists, strings, ranges, dicts,
iterators) into names, items, slices and nested targets, with every count
and type error and its line.

Usage: python3 gen_unpack.py SEED PER_FAMILY

Prints one JSON list of cases (see gen_common.py).
"""
import gen_common
from gen_common import pick, stream

WORDS = ["a", "b", "ab", "é", "", "x,y", "1", "ß", "long-word-over-24-bytes-xx"]


@stream(1)
def fam_list(rnd):
    parts = [rnd.choice(WORDS) for _ in range(rnd.choice([0, 1, 2, 3, 4, 40]))]
    line = ",".join(parts)
    # Mostly the right count (or a starred target to take up many parts).
    count = max(len(parts), 1)
    n = count if count <= 4 and rnd.random() < 0.6 else rnd.choice([1, 2, 3, 4])
    names = [f"v{i}" for i in range(n)]
    if (rnd.random() < 0.3 or count > 4) and n >= 1:
        names[rnd.randrange(n)] = "*rest"
    targets = ", ".join(names) + ("," if n == 1 else "")
    shown = ", ".join(x.lstrip("*") for x in names)
    src = rnd.choice([
        "line.split(',')", "line.split(',')", "line.rsplit(',')",
        f"line.rsplit(',', {rnd.choice([-1, 1, 2])})",
        "list(range(len(line) % 5))", "keep", "[keep[0], 1.5, None] if keep else []",
        "[x for x in line.split(',')]",
    ])
    extra = rnd.choice([
        "",
        # The list is still named: unpacking must copy it.
        f"keep = line.split(',')\n{targets} = keep\n",
        # The targets rebind the list's own slots as they are assigned.
        "keep = line.split(',')\nif len(keep) >= 2:\n    keep[0], keep[1] = keep\n",
        "more = [line, line + ',z']\nfor line2 in more:\n"
        f"    {targets} = line2.split(',')\n",
    ])
    return (f"line = {line!r}\nkeep = line.split(',')\n{extra}{targets} = {src}\n"
            f"[{shown}, keep, len(keep)]")


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


@stream(2)
def fam_targets(rnd):
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


FAMILIES = [fam_list, fam_targets]

if __name__ == "__main__":
    gen_common.main(FAMILIES, line=True)
