#!/usr/bin/env python3
"""Generates dict programs and runs each with CPython.

Usage: python3 gen_dicts.py SEED PER_FAMILY

Dicts keep insertion order, so every program compares the items in order.
Families: displays (pairs with duplicate and equal keys of different types:
1, 1.0, True; 0, False, -0.0; keys of every hashable kind; ints at the i64
limits and beyond; spreads), built at sizes around the small-dict limit and
the index resize thresholds; `dict(...)` from pairs, zip, enumerate, items
and keywords (where it gets room ahead of time: repeated keys, fewer items
than the iterator said, elements that are not pairs); methods (get,
setdefault, pop, popitem, update, copy, fromkeys) on small and large dicts;
churn (pops then reinsertion, which must go to the end; copies of dicts
with holes); lookups of constant and computed string keys in small dicts;
and errors (unhashable keys, missing keys, bad pairs, mutation during
iteration). Prints one JSON list of
{"program", "repr" | "error", "line"?, "family"}.
"""

BIG = 9223372036854775807
KEYS = ['i', 'i * 7', '-i', 'i * 1.0', 'i / 2', '(i, i % 3)', 'i % 2 == 0', f'{BIG} - i', f'{-BIG - 1} + i',
        '18446744073709551616 + i', '"k" + str(i)', 'str(i % 5)', '(str(i), (i, None))', 'None if i == 3 else i',
        '2305843009213693951 + i', '-1 if i == 0 else i', 'range(i % 3)', '"é" * (i % 4)']
SIZES = [0, 1, 2, 3, 5, 7, 8, 9, 10, 12, 13, 22, 43, 86, 300]
SCALARS = ['1', '1.0', 'True', '0', 'False', '-0.0', '0.0', 'None', '"a"', '"b"', '(1, 2)', '(1.0, 2)', '()',
           f'{BIG}', f'{BIG + 1}', f'{-BIG - 1}', f'{-BIG - 2}', '2.5', '"1"', 'b"x"', '(None,)', '"sku"',
           'float("inf")', '2305843009213693951', '-1', '-2', 'range(3)', 'len']


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


def fam_build(rnd):
    n = rnd.choice(SIZES)
    k = rnd.choice(KEYS)
    src = rnd.choice([
        f'dict(zip([{k} for i in range({n})], range({n})))',
        f'dict(zip([{k} for i in range({n})], range({n} + 3)))',
        f'dict(zip(range({n} + 2), [{k} for i in range({n})]))',
        f'dict([({k}, i) for i in range({n})])',
        f'dict([[{k}, i] for i in range({n})])',
        f'dict([({k}, i) for i in range({n})] + [("z", 1), "ab"])',
        f'dict([(i % 3, i) for i in range({n})])',
        f'dict(enumerate([{k} for i in range({n})]))',
        f'dict({gen_dict(rnd)}.items())',
        f'dict({gen_dict(rnd)})',
        f'dict({gen_dict(rnd)}, extra=1)',
        f'dict([], a=1, b=2)',
        f'dict([(i, i) for i in range({n})])',
        f'dict.fromkeys([{k} for i in range({n})], 0)',
        f'dict.fromkeys(range({n}))',
    ])
    lines = [f'd = {src}']
    for _ in range(rnd.randint(0, 2)):
        lines.append(rnd.choice([f'd[{rnd.choice(SCALARS)}] = "new"', 'd.update(q=1)', 'd.setdefault("s", [])',
                                 f'd.update([({rnd.choice(SCALARS)}, 9)])', 'd.pop(0, None)']))
    lines.append('[list(d.items()), len(d)]')
    return "\n".join(lines)


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


FAMILIES = [fam_displays, fam_build, fam_methods, fam_churn, fam_records, fam_errors]


if __name__ == "__main__":
    import gen_common

    gen_common.main(FAMILIES, run=gen_common.run_with_line)
