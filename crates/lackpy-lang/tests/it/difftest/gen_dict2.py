#!/usr/bin/env python3
"""Generates programs that consume dicts and their views, and runs each
with CPython.

Usage: python3 gen_dict2.py SEED PER_FAMILY

Families: view consumers (len, list, tuple, set, sum with and without a
start, sorted, min, max, any, all, in, iteration, `-` and `==` against sets
and other views) over keys, values and items of dicts whose values mix
ints, bools, floats (NaN, -0.0), ints at the i64 limits and beyond and
strings (so a sum overflows, changes type or fails); copies (`dict(d)`,
`d.copy()`) and updates between small and large dicts, with holes left by
pops and then reinsertion (which goes to the end); keys of every hashable
kind, equal keys of different types (1, 1.0, True; 0, False, -0.0) and
equal strings that are different objects; and mutation during iteration
(the error, its message and its line). Prints one JSON list of
{"program", "repr" | "error", "line"?, "family"}.
"""

BIG = 9223372036854775807
KEYS = ['i', '"k" + str(i)', 'str(i)', 'i * 1.0', '-i', '(i, str(i))', f'{BIG} - i', f'{-BIG - 1} + i',
        '18446744073709551616 + i', 'i % 2 == 0', 'None if i == 2 else i', '"é" * (i % 5) + str(i)',
        '(i % 3, (i, None))', 'i / 4', '"k" * (i % 30)']
VALUES = ['i', '-i', 'i * 0.5', 'i % 2 == 0', f'{BIG} - i', f'{BIG} - 2 + i', f'{-BIG - 1} + i',
          '18446744073709551616 * i', 'float("nan") if i == 3 else i', '-0.0', '0.0 if i % 2 else -0.0',
          'str(i)', '"v" + str(i % 4)', '(i, -i)', 'None', '1.5 if i % 3 else 2', 'i % 3',
          '[i]', 'i if i % 5 else float("inf")']
SIZES = [0, 1, 2, 3, 5, 7, 8, 9, 10, 13, 22, 40, 86, 300]


def gen_dict(rnd, name='d', values=VALUES):
    k, v, n = rnd.choice(KEYS), rnd.choice(values), rnd.choice(SIZES)
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


def fam_views(rnd):
    lines = [gen_dict(rnd)]
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


def fam_copies(rnd):
    # (No NaN: a float here is not an object, so a NaN copied from one dict
    # into another is not "the same object" as CPython's, which == uses.)
    values = [v for v in VALUES if 'nan' not in v]
    lines = [gen_dict(rnd, values=values), gen_dict(rnd, 'e', values=values)]
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


def fam_mutate(rnd):
    lines = [gen_dict(rnd)]
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


FAMILIES = [fam_views, fam_copies, fam_keys, fam_mutate]


if __name__ == "__main__":
    import gen_common

    gen_common.main(FAMILIES, run=gen_common.run_with_line)
