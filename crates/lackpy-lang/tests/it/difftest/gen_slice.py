#!/usr/bin/env python3
"""Generates programs for slicing and slice assignment of sequences and
runs each with CPython.

Families: slices of lists, tuples, strs, bytes and ranges with every step
sign and bound (bools and ints at the i64 limits as bounds); slice
assignment from every iterable kind; slice assignment whose source aliases
the target (`a[:] = a`, `a[::-1] = a`, `a[1:3] = a`, extended slices of the
wrong length); and slice assignment with every step sign and bound, and its
errors.

Usage: python3 gen_slice.py SEED PER_FAMILY

Prints one JSON list of cases (see gen_common.py).
"""
import gen_common
from gen_common import stream

BIG = 9223372036854775807
BOUNDS = ['None', '0', '1', '2', '-1', '-2', '3', '-4', '7', '-9', '100', '-100', 'True', 'False',
          str(BIG), str(-BIG - 1), str(BIG + 5), str(-BIG - 9)]
STEPS = ['None', '1', '2', '3', '-1', '-2', '-3', '5', '-7', 'True', str(BIG), str(-BIG), str(-BIG - 1),
         str(BIG * 4), '0']
SLICEABLE = ['[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]', '[]', '[True, 2.5, None, "s", (1,), [2], -0.0]',
             "'abcdefghij'", "'héllo wörld'", '(1, 2, 3, 4, 5)', '(9,)', '()', f'[{BIG}, {-BIG - 1}, 1, 2]',
             "b'bytes!'", 'range(3, 40, 3)', 'list(range(30))', 'tuple(range(12))', "'x' * 11"]


def sl(rnd):
    lo, hi = rnd.choice(BOUNDS), rnd.choice(BOUNDS)
    if rnd.random() < .3:
        return f'{lo}:{hi}'
    return f'{lo}:{hi}:{rnd.choice(STEPS)}'


@stream(4)
def fam_slice(rnd):
    seq = rnd.choice(SLICEABLE)
    parts = [f's[{sl(rnd)}]' for _ in range(rnd.randint(1, 3))]
    if rnd.random() < .3:
        parts.append(f's[{sl(rnd)}][{sl(rnd)}]')
    if rnd.random() < .3:
        parts.append(f'len(s[{sl(rnd)}])')
    return f"s = {seq}\n[{', '.join(parts)}]"


@stream(5)
def fam_assign(rnd):
    seq = rnd.choice(['[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]', '[]', '[1.5, True, None]', 'list(range(20))',
                      '[[1], [2], [3], [4]]'])
    val = rnd.choice(['[]', '[7]', '[7, 8, 9]', '(1, 2)', "'ab'", 'range(5)', 'reversed([1, 2, 3])',
                      'enumerate("xyz")', '{5: 6, 7: 8}', '{4}', 'zip([1, 2], [3, 4])', 'xs', 'xs[::-1]',
                      '[[0]] * 3', '5', 'None', '[True, 2.5]'])
    lines = [f'xs = {seq}', f'xs[{sl(rnd)}] = {val}']
    if rnd.random() < .5:
        lines.append(f'xs[{sl(rnd)}] = {rnd.choice(["[]", "[0, 0]", "xs[:3]", "range(2)"])}')
    lines.append('xs')
    return "\n".join(lines)


ATOMS = ['0', '1', '-1', 'True', 'False', 'None', str(BIG), str(-BIG - 1), str(BIG + 1), str(-BIG - 2),
         str(3 ** 50), "float('nan')", '-0.0', '0.0', '1.5', "float('inf')", "'s'", "''", "'héllo'",
         "'x' * 40", '[]', '[1, [2]]', '(1, 2)', '()', "{'k': [1]}", '(1, [2, 3])', '{1, 2}', 'range(3)']
LIST_STEPS = ['', ':1', ':2', ':3', ':-1', ':-2', ':-3', ':7', ':-7', f':{BIG}', f':{-BIG}', f':{-BIG - 1}', ':True']
LIST_BOUNDS = ['', '0', '1', '-1', '2', '-3', '5', '-6', '100', '-100', str(BIG), str(-BIG - 1)]


def mixed(rnd, lo=0, hi=9):
    return '[' + ', '.join(rnd.choice(ATOMS) for _ in range(rnd.randint(lo, hi))) + ']'


def list_sl(rnd):
    return f'{rnd.choice(LIST_BOUNDS)}:{rnd.choice(LIST_BOUNDS)}{rnd.choice(LIST_STEPS)}'


@stream(2)
def fam_assign_alias(rnd):
    target = rnd.choice([f'a[{list_sl(rnd)}]', 'a[:]', 'a[::-1]', 'a[1:3]', 'a[::2]', 'a[1::2]', 'a[len(a):]',
                         'a[:0]', 'a[-1::-2]'])
    src = rnd.choice(['a', 'a[::-1]', 'a[1::2]', 'a[:]', 'reversed(a)', 'tuple(a)', 'a * 2', '[a]',
                      'a[:len(a) // 2]', 'enumerate(a)'])
    lines = [f'a = {mixed(rnd, 0, 7)}', 'keep = a', f'{target} = {src}']
    if rnd.random() < .4:
        lines.append(f'{rnd.choice(["a[::-1]", "a[:]", "a[1:]"])} = a')
    lines.append('[len(a), a is keep, [x if x is not a else "self" for x in a]]')
    return "\n".join(lines)


@stream(3)
def fam_assign_steps(rnd):
    n = rnd.choice([0, 1, 2, 5, 10])
    val = rnd.choice(['[]', '[7]', '[7, 8]', '[7, 8, 9]', '[7, 8, 9, 10, 11]', "'abcde'", 'range(4)',
                      '(1, 2, 3)', '[[0]] * 2', f'[{BIG}, -0.0, None]', '5', 'None', '{1: 2, 3: 4}', 'reversed([1])'])
    at = list_sl(rnd)
    if rnd.random() < .5:  # the right length for an extended slice
        val = rnd.choice([f'a[{at}][::-1]', f'[str(x) for x in a[{at}]]', f'tuple(a[{at}])',
                          f'[None] * len(a[{at}])', f'reversed(a[{at}])'])
    lines = [f'a = list(range({n}))', f'a[{at}] = {val}']
    if rnd.random() < .5:
        lines.append(f'a[{list_sl(rnd)}] = {rnd.choice(["[]", "[0]", "a[:2]", "a[::-1]", "range(3)"])}')
    lines.append('a')
    return "\n".join(lines)


FAMILIES = [fam_slice, fam_assign, fam_assign_alias, fam_assign_steps]

if __name__ == "__main__":
    gen_common.main(FAMILIES)
