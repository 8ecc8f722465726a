#!/usr/bin/env python3
"""Generates dict programs and runs each with CPython.

Dicts keep insertion order, so every program compares the items in order.
Families: displays (pairs with duplicate and equal keys of different types:
1, 1.0, True; 0, False, -0.0; keys of every hashable kind; ints at the i64
limits and beyond; spreads), built at sizes around the small-dict limit and
the index resize thresholds; methods (get, setdefault, pop, popitem,
update, copy, fromkeys) on small and large dicts; churn (pops then
reinsertion, which must go to the end; copies of dicts with holes);
lookups of constant and computed string keys in small dicts; errors
(unhashable keys, missing keys, bad pairs, mutation during iteration); view
consumers (len, list, tuple, set, sum with and without a start, sorted,
min, max, any, all, in, iteration, `-` and `==` against sets and other
views) over keys, values and items of dicts whose values mix ints, bools,
floats (NaN, -0.0), ints at the i64 limits and beyond and strings (so a sum
overflows, changes type or fails); copies (`dict(d)`, `d.copy()`) and
updates between small and large dicts with holes; keys of every hashable
kind and equal strings that are different objects; mutation during
iteration (the error, its message and its line); dict views, update and
set operations with equal keys such as 1, 1.0 and True; and dicts of every
size around the table thresholds (with holes) copied and then grown,
updated and emptied of keys. Building dicts from iterables of pairs is
gen_dict_build.py's.

Usage: python3 gen_dict.py SEED PER_FAMILY

Prints one JSON list of cases (see gen_common.py).
"""
import gen_common
from gen_common import stream

BIG = 9223372036854775807
SCALARS = ['1', '1.0', 'True', '0', 'False', '-0.0', '0.0', 'None', '"a"', '"b"', '(1, 2)', '(1.0, 2)', '()',
           f'{BIG}', f'{BIG + 1}', f'{-BIG - 1}', f'{-BIG - 2}', '2.5', '"1"', 'b"x"', '(None,)', '"sku"',
           'float("inf")', '2305843009213693951', '-1', '-2', 'range(3)', 'len']


@stream(1)
def fam_displays(rnd):
    pairs = [f'{rnd.choice(SCALARS)}: {rnd.choice(SCALARS)}' for _ in range(rnd.randint(0, 11))]
    lines = ['x = 5', 'base = {"sku": 0, 1: "one"}']
    if rnd.random() < .3:
        pairs.insert(rnd.randint(0, len(pairs)), '**base')
    if rnd.random() < .3:
        pairs.append('x: x * 2')
    lines.append(f'd = {{{", ".join(pairs)}}}')
    outs = rnd.sample(['list(d.items())', 'len(d)', 'str(d)', 'list(d)', 'd == base', 'd.get(1, "no")',
                       'd.get(True)', 'd.get(0.0, 7)', 'd.get("sku")', '[k in d for k in (1, 0, "a", (1, 2))]',
                       'list(d.values())'], 3)
    lines.append(f"[{', '.join(outs)}]")
    return "\n".join(lines)


KEYS = ['i', 'i * 7', '-i', 'i * 1.0', 'i / 2', '(i, i % 3)', 'i % 2 == 0', f'{BIG} - i', f'{-BIG - 1} + i',
        '18446744073709551616 + i', '"k" + str(i)', 'str(i % 5)', '(str(i), (i, None))', 'None if i == 3 else i',
        '2305843009213693951 + i', '-1 if i == 0 else i', 'range(i % 3)', '"é" * (i % 4)']
SIZES = [0, 1, 2, 3, 5, 7, 8, 9, 10, 12, 13, 22, 43, 86, 300]


def gen_dict(rnd):
    k, n = rnd.choice(KEYS), rnd.choice(SIZES)
    lo = rnd.choice([0, 0, 3, -5])
    return rnd.choice([
        f'{{{k}: i for i in range({lo}, {lo} + {n})}}',
        f'dict([({k}, i) for i in range({lo}, {lo} + {n})])',
        f'dict(zip([{k} for i in range({n})], range({n})))',
        f'dict(enumerate(range({lo}, {lo} + {n})))',
        '{1: "a", 1.0: "b", True: "c", 0: "d", False: "e", -0.0: "f"}',
        '{"sku": 1, "warehouse": "W", "qty": 3}', '{}', 'dict(a=1, b=2, sku=3)',
        f'{{{BIG}: 1, {BIG + 1}: 2, {-BIG - 1}: 3, {-BIG - 2}: 4}}',
    ])


@stream(3)
def fam_methods(rnd):
    lines = [f'd = {gen_dict(rnd)}', f'e = {gen_dict(rnd)}', 'out = []']
    for _ in range(rnd.randint(2, 6)):
        key = rnd.choice(SCALARS + ['list(d)[0] if d else 0', 'list(d)[-1] if d else 0', '"k" + str(3)', 'str(2)'])
        lines.append(rnd.choice([
            f'out.append(d.get({key}))', f'out.append(d.get({key}, "dflt"))',
            f'out.append(d.setdefault({key}, len(d)))', f'out.append(d.setdefault({key}))',
            f'out.append(d.pop({key}, "none"))', f'out.append(d.popitem() if d else None)',
            'd.update(e)', 'e.update(d)', f'd.update({{{key}: "u"}})', 'd.update([(1, "p"), (2, "q")])',
            'd.update(e, z=3)', 'd = d.copy()', 'e = dict(d)', f'out.append({key} in d)',
            f'd[{key}] = out[-1] if out else 0', 'out.append(len(d))', 'd.update(d)',
            'out.append(d == e)', 'out.append(list(d.items())[-3:])',
        ]))
    lines.append('[out, list(d.items()), list(e.items())]')
    return "\n".join(lines)


@stream(4)
def fam_churn(rnd):
    n = rnd.choice([3, 6, 8, 9, 12, 20, 60, 200])
    k = rnd.choice(KEYS)
    lines = [f'd = {{{k}: i for i in range({n})}}', 'popped = []']
    for _ in range(rnd.randint(1, 4)):
        a, b = rnd.randint(-3, n), rnd.choice([1, 2, 3, 5])
        lines.append(rnd.choice([
            f'for i in range({a}, {n}, {b}):\n    popped.append(d.pop({k}, None))',
            f'for i in range({a}, {n + 10}, {b}):\n    d[{k}] = -i',
            f'for i in range({rnd.randint(0, 9)}):\n    if d:\n        popped.append(d.popitem())',
            f'for i in range({a}, {n}, {b}):\n    d.pop({k}, 0)\n    d[{k}] = "back"',
            'd = d.copy()', 'd = dict(d)', 'd = {**d}', f'd.update({{{k}: "u" for i in range({b})}})',
            f'for i in range({a}, {n}, {b}):\n    d.setdefault({k}, "sd")',
        ]))
    lines.append('[list(d.items()), popped, len(d)]')
    return "\n".join(lines)


@stream(5)
def fam_records(rnd):
    # Small dicts read with constant and computed string keys, as programs
    # that keep rows as dicts do.
    n = rnd.choice([0, 1, 5, 30])
    extra = rnd.choice(['', ', "sku": -1', ', 1: 2, True: 3', ', "qty": None', ', ("sku",): 0'])
    lines = [f'rows = [{{"sku": "S" + str(i % 4), "qty": i % 3, "wh": "W" + str(i % 2){extra}}} for i in range({n})]',
             'agg = {}', 'out = []']
    lines.append(rnd.choice([
        'for r in rows:\n    agg[r["wh"]] = agg.get(r["wh"], 0) + r["qty"]',
        'for r in rows:\n    agg.setdefault(r["sku"], []).append(r["qty"])',
        'for r in rows:\n    k = "s" + "ku"\n    out.append(r[k])',
        'for r in rows:\n    out.append(r.get("qty" + "", -1))\n    out.append(r.get("missing"))',
        'for r in rows:\n    r["qty"] = r["qty"] * 2\n    r["new"] = 1\n    out.append(list(r))',
        'for r in rows:\n    out.append(r.pop("wh"))\n    r["wh"] = 0\n    out.append(list(r.items()))',
    ]))
    lines.append(rnd.choice(['[list(agg.items()), out, rows[-1:] ]', '[out, len(rows)]',
                             '[sorted(agg.items()), [list(r.values()) for r in rows][:3]]']))
    return "\n".join(lines)


@stream(6)
def fam_errors(rnd):
    lines = [f'd = {gen_dict(rnd)}']
    lines.append(rnd.choice([
        'x = {[1]: 2}', 'x = {1: 2, [3]: 4}', 'x = {**[1]}', 'x = {**d, (1, [2]): 3}',
        'd.get([1])', 'd[{}]', 'd["nope"]', 'd[(1, 2, 3)]', 'd.pop("zz")', 'd.setdefault([])', '{}.popitem()',
        'dict([1, 2])', 'dict([(1, 2), (3,)])', 'dict([(1, 2, 3)])', 'dict(5)', 'dict([[1, 2], "abc"])',
        'dict([((1, [2]), 3)])', 'd.update([1])', 'd.update(5)', 'd.update([(1, 2)], **{"a": 1})',
        'for k in d:\n    d[str(k) + "!"] = 1', 'for k, v in d.items():\n    d.pop(k)',
        'for k in d.keys():\n    d.setdefault(("new", k), 0)', 'for v in d.values():\n    d.update({"nv": v})',
        'x = d[1.5]', 'x = {d: 1}', 'dict.fromkeys([[1]])', 'x = dict(zip([[1]], [2]))',
    ]))
    lines.append('list(d.items())')
    return "\n".join(lines)


MIXED_KEYS = ['i', '"k" + str(i)', 'str(i)', 'i * 1.0', '-i', '(i, str(i))', f'{BIG} - i', f'{-BIG - 1} + i',
        '18446744073709551616 + i', 'i % 2 == 0', 'None if i == 2 else i', '"é" * (i % 5) + str(i)',
        '(i % 3, (i, None))', 'i / 4', '"k" * (i % 30)']
VALUES = ['i', '-i', 'i * 0.5', 'i % 2 == 0', f'{BIG} - i', f'{BIG} - 2 + i', f'{-BIG - 1} + i',
          '18446744073709551616 * i', 'float("nan") if i == 3 else i', '-0.0', '0.0 if i % 2 else -0.0',
          'str(i)', '"v" + str(i % 4)', '(i, -i)', 'None', '1.5 if i % 3 else 2', 'i % 3',
          '[i]', 'i if i % 5 else float("inf")']
MIXED_SIZES = [0, 1, 2, 3, 5, 7, 8, 9, 10, 13, 22, 40, 86, 300]


def mixed_dict(rnd, name='d', values=VALUES):
    k, v, n = rnd.choice(MIXED_KEYS), rnd.choice(values), rnd.choice(MIXED_SIZES)
    lines = [rnd.choice([
        f'{name} = {{{k}: {v} for i in range({n})}}',
        f'{name} = dict(zip([{k} for i in range({n})], [{v} for i in range({n})]))',
        f'{name} = {{}}\nfor i in range({n}):\n    {name}[{k}] = {v}',
        f'{name} = dict({{{k}: {v} for i in range({n})}})',
    ])]
    if rnd.random() < .35:
        # Holes: some keys popped, some of them put back (at the end).
        lines.append(f'for i in range(0, {n}, {rnd.choice([2, 3, 7])}):\n    {name}.pop({k}, None)')
        if rnd.random() < .5:
            lines.append(f'for i in range(0, {n}, 6):\n    {name}[{k}] = {v}')
    return "\n".join(lines)


@stream(1)
def fam_views(rnd):
    lines = [mixed_dict(rnd)]
    view = rnd.choice(['d', 'd.keys()', 'd.values()', 'd.items()'])
    outs = rnd.sample([
        f'len({view})', f'list({view})', f'tuple({view})', f'sum({view})', f'sum({view}, 0.5)',
        f'sum({view}, -1)', f'sum({view}, {BIG})', f'sum({view}, [])', f'sorted({view})',
        f'sorted({view}, reverse=True)', f'min({view})', f'max({view})', f'min({view}, default=7)',
        f'any({view})', f'all({view})', f'[x for x in {view}][:4]', f'list({view})[-3:]',
        f'3 in {view}', f'"k3" in {view}', f'(3, 3) in {view}', f'(1, -1) in {view}', f'None in {view}',
        f'set({view}) == set(list({view}))', f'{view} == d.keys()', f'{view} == {{1, 2}}',
        f'sorted({view} - {{1, "k1", (2, -2)}}, key=str)', f'len(set({view}))', f'list(reversed({view}))',
        f'[len(list({view})), len({view})]', f'str({view})[:60]', f'bool({view})',
        f'sum([1 for x in {view}])', f'list(enumerate({view}))[:3]', f'list(zip({view}, {view}))[:3]',
        f'dict({view})' if view == 'd.items()' else f'dict.fromkeys({view}, 0)',
    ], 3)
    lines.append(f"[{', '.join(outs)}]")
    return "\n".join(lines)


@stream(2)
def fam_copies(rnd):
    # (No NaN: a float here is not an object, so a NaN copied from one dict
    # into another is not "the same object" as CPython's, which == uses.)
    values = [v for v in VALUES if 'nan' not in v]
    lines = [mixed_dict(rnd, values=values), mixed_dict(rnd, 'e', values=values)]
    lines.append(rnd.choice([
        'c = dict(d)', 'c = d.copy()', 'c = dict(d)\nc.update(e)', 'c = d.copy()\nc.update(e)',
        'c = dict(e)\nc.update(d)', 'c = {**d, **e}', 'c = dict(d, extra=1)', 'c = dict(d.items())',
        'c = dict(d)\nfor k in list(e):\n    c[k] = 0', 'c = dict(d)\nc.update(e.items())',
        'c = d.copy()\nks = list(c)[::2]\nfor k in ks:\n    c.pop(k)\nc.update(d)',
    ]))
    lines.append(rnd.choice(['', 'c["new"] = 1', 'c.setdefault(1, 2)', 'c[(1, 2)] = 3', 'd["after"] = 1', 'e.clear()']))
    outs = rnd.sample(['list(c.items())', 'c == d', 'len(c)', 'list(d.items())', 'sum(c.values(), 0.0)',
                       'list(c)[-3:]', 'c == e', 'sorted(c, key=str)[:5]', 'list(c.values())[:5]'], 3)
    lines.append(f"[{', '.join(outs)}]")
    return "\n".join(l for l in lines if l)


@stream(3)
def fam_keys(rnd):
    lines = ['d = {}']
    keys = ['1', '1.0', 'True', '0', 'False', '-0.0', '0.0', '"a"', '"a" + ""', '"".join(["a"])', '"ab"[:1]',
            '(1, 2)', '(1.0, 2)', '(True, 2)', 'None', f'{BIG}', f'{BIG + 1}', f'{-BIG - 1}', f'{-BIG - 2}',
            '2', '2.0', '"k" + str(7)', '"k7"', '-1', '-2', 'range(2)', '""', 'str(10)']
    for _ in range(rnd.randint(1, 14)):
        k = rnd.choice(keys)
        lines.append(rnd.choice([f'd[{k}] = {rnd.randint(0, 9)}', f'd.pop({k}, None)', f'd.setdefault({k}, "s")',
                                 f'd.update({{{k}: "u"}})']))
    outs = rnd.sample(['list(d.items())', 'list(d)', 'len(d)', '[d.get(k, "-") for k in (1, 0, "a", 2, -1)]',
                       'len(d.values())', '[k in d for k in (True, 0.0, "k7")]',
                       'dict(d) == d', 'list(dict(d).items())', 'list(d.copy().items())'], 3)
    lines.append(f"[{', '.join(outs)}]")
    return "\n".join(lines)


@stream(4)
def fam_mutate(rnd):
    lines = [mixed_dict(rnd)]
    lines.append(rnd.choice([
        'for k in d:\n    d[k] = 0', 'for k in d.keys():\n    d.pop(k)', 'for v in d.values():\n    d["x"] = v',
        'for k, v in d.items():\n    d.setdefault((k, 1), v)', 'for k in list(d):\n    d.pop(k)',
        'for k in d:\n    d.update({k: 1})', 'for k in d:\n    d.update({"zz": 1})',
        'it = [d.get(k) for k in d]', 'x = [d.pop(k) for k in d]', 'x = {k: d.setdefault(str(k), 1) for k in d}',
        'for k, v in d.items():\n    d[k] = v', 'for k in d:\n    d.clear()', 'for k in d.copy():\n    d.pop(k)',
        'x = sum(d.values())', 'x = sorted(d.items(), key=lambda kv: str(kv))',
    ]))
    lines.append(rnd.choice(['list(d.items())', 'len(d)']))
    return "\n".join(lines)


@stream(8)
def fam_views_sets(rnd):
    d1 = rnd.choice(["{'a': 1, 'b': 2, 'c': 3}", '{}', '{1: 1.0, True: 2, 2: None}', "{'x': [1], 'y': (2,)}"])
    d2 = rnd.choice(["{'b': 20, 'z': 26}", '{}', '{1.0: 5, 3: 3}', "[('a', 0), ('q', 9)]", "zip('ab', 'cd')"])
    s1 = rnd.choice(['{1, 2, 3}', 'set()', 'set(range(0, 30, 2))', '{1.0, True, 2}', "{'a', 'b'}"])
    s2 = rnd.choice(['{2, 3, 4}', 'range(5)', '[3, 3, 9]', "'ab'", 'd', 'd.keys()', 'set(range(0, 30, 3))',
                     '(True, 0)'])
    ops = rnd.sample([
        'sorted(d.keys(), key=str)', 'list(d.values())', 'list(d.items())', 'len(d)', 'len([1 for _ in d.items()])',
        f'sorted(s.union({s2}), key=str)', f'sorted(s.intersection({s2}), key=str)',
        f'sorted(s.difference({s2}), key=str)', f'sorted(s.symmetric_difference({s2}), key=str)',
        f's.issubset({s2})', f's.issuperset({s2})', f'sorted(s.union(set({s2}), d), key=str)',
        f'sorted(s.intersection(set({s2}), d), key=str)', f'sorted(s.difference(set({s2}), d), key=str)',
        'list(reversed(d.items()))', "'a' in d.keys()", '1 in d.values()', "('a', 1) in d.items()",
        'sorted(set(d), key=str)', 'dict(d)', 'list(dict(d).items())'], 4)
    lines = [f'd = dict({d1})', f'd.update({d2})', f's = {s1}']
    if rnd.random() < .3:
        lines.append(f"d.update({rnd.choice(['{}', 'a=5', 'd', '[(9, 9)]'])})")
    if rnd.random() < .3:
        lines.append(f"s.add({rnd.choice(['1', '1.0', 'True', repr('a'), '(1, 2)'])})")
    lines.append(f"[{', '.join(ops)}]")
    return "\n".join(lines)


@stream(10)
def fam_grow(rnd):
    n = rnd.choice([3, 5, 8, 9, 10, 11, 20, 21, 22, 42, 43, 44, 85, 86, 100, 300])
    key = rnd.choice(["i", "'k' + str(i)", "i * 1.0 if i % 3 else i", "(i, -i)", "i % 2 == 0 if i < 2 else i"])
    lines = [f"base = {{{key}: i for i in range({n})}}"]
    if rnd.random() < .4:
        lines.append(f"for i in range(0, {n}, {rnd.choice([2, 3, 7])}):\n    base.pop({key}, None)")
    lines.append(f"d = {rnd.choice(['dict(base)', 'base.copy()', 'dict(base, z=1)', '{**base}'])}")
    step = rnd.choice(["d.update({{{k}: -i for i in range({a}, {b})}})", "for i in range({a}, {b}):\n    d[{k}] = -i",
                       "d.update([({k}, i) for i in range({a}, {b})])",
                       "for i in range({a}, {b}):\n    d.pop({k}, None)\n    d[{k}] = i"])
    for _ in range(rnd.randint(1, 3)):
        a = rnd.randint(-2, n + 5)
        lines.append(step.format(k=key, a=a, b=a + rnd.choice([1, 2, 5, 40, 200])))
    if rnd.random() < .3:
        lines.append(f"d.pop({rnd.choice(['0', repr('k1'), '1.0', 'True'])}, None)")
    lines.append("[len(d), list(d.items())[:6], list(d.items())[-6:], list(reversed(d))[:3], len(base), "
                 "list(base.items())[-3:], d == base]")
    return "\n".join(lines)


FAMILIES = [fam_displays, fam_methods, fam_churn, fam_records, fam_errors, fam_views, fam_copies,
            fam_keys, fam_mutate, fam_views_sets, fam_grow]

if __name__ == "__main__":
    gen_common.main(FAMILIES, line=True)
