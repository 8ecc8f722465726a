#!/usr/bin/env python3
"""Generates set programs and runs each with CPython.

Sets of ints, floats, bools and tuples iterate in an order CPython fixes
(their hashes do not vary between processes), so these programs look at that
order (`list(s)`), not only at the members. Families: every set operation
(methods with any number of operands, `-` and `-=`; the bitwise
operators are outside the language) between
sets of sizes around the resize thresholds, with equal keys of different
types (1, 1.0, True; 0, False, -0.0), ints at the i64 limits and beyond, hash
collisions (2**61 - 1 hashes like 0) and one NaN object; churn (add, discard, remove and
pop in loops, which leaves and reuses dummy slots, then copies and grows);
in-place operations on aliases and on the set itself; errors (unhashable
members, missing keys, empty pops, operators with non-sets); operations
between sets and dict views; and sets of numbers built and emptied key by
key (keys sharing a first slot, dummies, hashes equal at the i64 limits
and 2**61 - 1, 1 == 1.0 == True, 0 == -0.0) and combined, in CPython's
iteration order. Errors carry their line.

Usage: python3 gen_set.py SEED PER_FAMILY

Prints one JSON list of cases (see gen_common.py).
"""
import gen_common
from gen_common import stream

BIG = 9223372036854775807
KEYS = ['i', 'i * 7', '-i', 'i * 1.0', 'i / 2', '(i, i % 3)', 'i % 2 == 0', f'{BIG} - i', f'{-BIG - 1} + i',
        '2305843009213693951 + i', '18446744073709551616 + i', 'i * 8', 'i * 1024 - 3', '-1 if i == 0 else i']
SIZES = [0, 1, 4, 5, 6, 8, 18, 19, 20, 40, 77, 78, 300, 1200]


def gen_set(rnd):
    k, n = rnd.choice(KEYS), rnd.choice(SIZES)
    lo = rnd.choice([0, 0, 3, -5, 100])
    step = rnd.choice([1, 1, 2, 3, 5])
    return rnd.choice([
        f'{{{k} for i in range({lo}, {lo} + {n} * {step}, {step})}}',
        f'set([{k} for i in range({lo}, {lo} + {n} * {step}, {step})])',
        f'set(range({lo}, {lo} + {n} * {step}, {step}))',
        "{1, 1.0, True, 2, 0, False, -0.0, 0.0}", "{-1, -2, 2305843009213693951, 0, 2305843009213693952, 1}",
        f"{{{BIG}, {-BIG - 1}, {BIG + 1}, {-BIG - 2}, 0}}", "set()", "{(1, 2), (2, 1), (1, 2.0), ()}",
        "{float('inf'), -float('inf'), 1e300, -0.0, 0.5}",
    ])


OPERAND = ['t', 't', 'list(t)', 'tuple(t)', 'range(7)', 'dict.fromkeys(t)', '[1, 1.0, True]', '()',
           'reversed(list(t))']


@stream(1)
def fam_ops(rnd):
    lines = [f's = {gen_set(rnd)}', f't = {gen_set(rnd)}']
    outs = []
    for _ in range(rnd.randint(2, 4)):
        op = rnd.choice([
            's.union({o})', 's.intersection({o})', 's.difference({o})', 's.symmetric_difference({o})',
            's.union({o}, {p})', 's.intersection({o}, {p})', 's.difference({o}, {p})', 's.union()',
            's.intersection()', 's.difference()', 's.union(t)', 's.intersection(t)', 's - t',
            's.symmetric_difference(t)', 't.union(s)', 't.intersection(s)', 't - s', 't.symmetric_difference(s)',
            's.copy()', 'set(s)', 'frozen(s)', 's.issubset({o})', 's.issuperset({o})',
            's.isdisjoint({o})', 's == t', 's <= t', 's < t', 's >= t', 'len(s.intersection(t))',
        ])
        op = op.replace('frozen(s)', '{{x for x in s}}')
        outs.append(op.format(o=rnd.choice(OPERAND), p=rnd.choice(OPERAND)))
    if rnd.random() < .5:
        stmt = rnd.choice(['s -= t', 's -= s', 's = s - t', 's.update(t, [5, 6])',
                           's.intersection_update(t, range(50))', 's.difference_update(t, [0])',
                           's.symmetric_difference_update(list(t))', 's.update()', 's.clear()'])
        lines.append(stmt)
    lines.append(f"[{', '.join(f'list({o})' if not o.startswith(('s.is', 's =', 's <', 's >', 'len')) else o for o in outs)}, list(s), list(t)]")
    return "\n".join(lines)


@stream(2)
def fam_churn(rnd):
    n = rnd.choice([5, 9, 20, 60, 200, 700])
    k = rnd.choice(KEYS)
    lines = [f's = {{{k} for i in range({n})}}', 'popped = []']
    for _ in range(rnd.randint(1, 3)):
        a, b = rnd.randint(-5, n), rnd.choice([1, 2, 3, 7])
        body = rnd.choice([
            f'for i in range({a}, {n}, {b}):\n    s.discard({k})',
            f'for i in range({a}, {n + 30}, {b}):\n    s.add({k} + 1)',
            f'for i in range({rnd.randint(0, 9)}):\n    if s:\n        popped.append(s.pop())',
            f'for i in range({a}, {n}, {b}):\n    s.discard({k})\n    s.add({k} * 3)',
            f's = s.copy()', f's = set(s)', f's = s.union({{{k} for i in range({b})}})',
            f's -= {{{k} for i in range(0, {n}, {b})}}',
        ])
        lines.append(body)
    lines.append('[list(s), popped, len(s)]')
    return "\n".join(lines)


@stream(3)
def fam_alias(rnd):
    lines = [f's = {gen_set(rnd)}', 'u = s', f't = {gen_set(rnd)}']
    for _ in range(rnd.randint(1, 3)):
        lines.append(rnd.choice([
            's.update(s, s)', 's.intersection_update(s)', 's -= s', 's.symmetric_difference_update(u)', 's.update(s)',
            's.update(u, t)', 's.difference_update(s)', 's.symmetric_difference_update(s)',
            's.intersection_update(s, t)', 'u.update(t)', 'u -= t', 'u.intersection_update(t)',
            'u.symmetric_difference_update(t)', 's = s.union(t)', 's = s - u', 's.add(len(s))', 's.discard(0)',
        ]))
    lines.append('[list(s), list(u), s is u, list(t)]')
    return "\n".join(lines)


@stream(4)
def fam_errors(rnd):
    lines = [f's = {gen_set(rnd)}']
    lines.append(rnd.choice([
        's.add([1])', 's.union([[1]])', 's.intersection([[1], 2])', 's.difference([{}])', 's.update([1], [[2]])',
        's - [1]', 's - (1,)', 's - range(3)', 's - {1: 2}', 's.remove(-99)', 'set().pop()', 's -= [3]',
        's.symmetric_difference([[0]])', 's.discard({1})', 'x = [1] in s', 's.issubset(5)', 's.union(5)',
        's.intersection_update(None)', 'set([[]])', 'set(5)', 'x = {[1], 2}', 's.update({1: 2}, (3, 4))', '{1} in s',
    ]))
    lines.append('list(s)')
    return "\n".join(lines)


@stream(5)
def fam_nan(rnd):
    # One NaN object: floats here have no identity, so two NaNs made
    # apart are the same member (CPython keeps both); that is not compared.
    nan = 'n'
    lines = ['n = float("nan")', f's = {{n, 1, {nan}, 2.0, n}}', f't = {{n, {nan}, 3}}']
    outs = rnd.sample(['len(s)', 'n in s', f'{nan} in s', 'len(s.union(t))', 'len(s.intersection(t))', 'len(s - t)',
                       'len(s.symmetric_difference(t))',
                       'sorted([x for x in s if x == x])', 's == t', 'len(s.union(t, [n]))', 'n in (s - {n})', 'len(s - t - {n})'], 4)
    lines.append(f"[{', '.join(outs)}]")
    return "\n".join(lines)


@stream(6)
def fam_views(rnd):
    # Members whose order CPython fixes: numbers and flat tuples of numbers
    # (strings hash randomly; nested tuples iterate here in insertion order).
    d = rnd.choice(["{1: 1.5, 2: -2, 3: 0}", '{}', '{1.0: 1, True: 2, 0: 3}', "{(1, 2): 0, 5: 5}",
                    '{i: i * i for i in range(30)}'])
    s = rnd.choice(['{1, 2, 9}', 'set()', '{0, False, 1.0}', '{(1, 2), (5, 5)}', 'set(range(0, 40, 3))'])
    lines = [f'd = {d}', f's = {s}']
    outs = rnd.sample([
        'list(d.keys() - s)', 'list(s.symmetric_difference(d.keys()))', 'list(s.intersection(d.values()))',
        'list(s - set(d.keys()))', 'list(set(d.keys()) - s)', 'list(s.difference(d.keys(), d.items())) if (1, 2) not in d else 0', 'list(s.union(d.keys()))',
        'list(s.intersection(d.keys()))', 'list(s.difference(d))', 'list(set(d.items())) if (1, 2) not in d else 0',
        'list({(1, 1.5), (5, 5)}.intersection(d.items()))', 'list(set(d.keys()))', 'list(s.symmetric_difference(d))',
        'd.keys() == set(d)', 'list(s.union(d.items())) if (1, 2) not in d else 0'], 4)
    lines.append(f"[{', '.join(outs)}]")
    return "\n".join(lines)


SET_KEYS = ['0', '1', '-1', '-2', '8', '16', '32', '64', '40', '7', 'True', 'False', '1.0', '-0.0', '0.5', '2.5',
            str(BIG), str(-BIG - 1), str(2 ** 61 - 1), str(2 ** 61), str(2 * (2 ** 61 - 1)), str(BIG + 1),
            '(1, 2)', '(0,)']


@stream(6)
def fam_slots(rnd):
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


FAMILIES = [fam_ops, fam_churn, fam_alias, fam_errors, fam_nan, fam_views, fam_slots]

if __name__ == "__main__":
    gen_common.main(FAMILIES, line=True)
