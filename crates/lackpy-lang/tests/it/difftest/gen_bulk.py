#!/usr/bin/env python3
"""Generates programs for the bulk container paths and runs each with CPython.

Usage: python3 gen_bulk.py SEED PER_FAMILY

Families: draining each iterator kind at once (ranges near the i64 limits,
reversed lists/tuples/ranges/dicts, enumerate with any start, zip of one to
five iterables, strict zip, dict views, shared iterator objects drained twice
or after a partial step); draining a reversed list shrunk or grown after the
iterator was made; slices of lists, tuples, strs, bytes and ranges with every
step sign and bound (bools and ints at the i64 limits as bounds); slice
assignment from every iterable kind; list/tuple/set/dict/sorted constructors
and extend/update from every iterator kind; zip unpacked into loop targets
(strict, unequal lengths, a shared iterator as one argument, starred
targets); dict views, update and set operations with equal keys such as 1,
1.0 and True; mutation of a list, dict or set while iterating it; and dicts of every size
around the table thresholds (with holes) copied and then grown, updated and
emptied of keys. Each
family draws from its own seed. Prints one JSON list of
{"program", "repr" | "error", "family"}.
"""

BIG = 9223372036854775807
SEQS = ['[1, 2, 3]', '[True, False, 2]', "'abc'", '[]', 'range(4)', f'[{BIG}, {-BIG - 1}, 0]',
        '[1.5, -0.0, 2]', "['x', 'y']", '(7, 8, 9, 10)', '[[1, 2], [3, 4]]', '()',
        '(1,)', 'range(10, -3, -4)', "{'a': 1, 'b': 2}"]
RANGES = ['range(5)', 'range(0)', 'range(3, 17, 4)', 'range(10, -10, -3)', f'range({BIG - 3}, {BIG})',
          f'range({-BIG - 1}, {-BIG + 2})', f'range({-BIG - 1}, {BIG}, {BIG})', 'range(-2, 2)',
          f'range({BIG}, {-BIG - 1}, {-BIG})']


def source(rnd):
    a, b = rnd.choice(SEQS), rnd.choice(SEQS)
    return rnd.choice([
        rnd.choice(RANGES), f'reversed({a if not a.startswith("{") and a != chr(39) + "abc" + chr(39) else "[1, 2]"})',
        f'reversed({rnd.choice(RANGES)})', f'enumerate({a})',
        f'enumerate({a}, {rnd.choice(["1", "-3", str(BIG - 1), "True", str(BIG)])})',
        f'zip({a})', f'zip({a}, {b})', f'zip({a}, {b}, {rnd.choice(SEQS)})',
        f'zip({a}, {b}, {a}, {b}, {a})', f'zip({a}, {b}, strict=True)', 'zip()',
        'd.items()', 'd.values()', 'd.keys()', 'reversed(d)', 'reversed(d.items())',
        f'enumerate(zip({a}, {b}))', f'zip(enumerate({a}), reversed({rnd.choice(RANGES)}))',
    ])


def fam_drain(rnd):
    lines = [f"d = {rnd.choice(['{}', '{1: 2, 3: 4}', '{True: 1.5, 0: None, 9: (1, 2)}'])}"]
    src = source(rnd)
    consumer = rnd.choice(['list(%s)', 'tuple(%s)', 'sorted(%s, key=str)', 'len(list(%s))',
                           '[p for p in %s]', '[str(p) for p in %s]', 'dict(enumerate(%s))'])
    lines.append(f"r = {consumer % src}")
    lines.append("r")
    return "\n".join(lines)


def fam_shared(rnd):
    src = source(rnd)
    lines = ["d = {1: 'a', 2: 'b', 3: 'c'}", f"it = {src}"]
    if rnd.random() < 0.5:
        lines.append("first = list(zip([0], it))")
    else:
        lines.append("first = None")
    lines.append(f"a = {rnd.choice(['list(it)', 'tuple(it)', 'sorted(it, key=str)'])}")
    lines.append("b = list(it)")
    lines.append("[first, a, b]")
    return "\n".join(lines)


def fam_mutated(rnd):
    seq = rnd.choice(['[1, 2, 3, 4, 5]', '[]', '[(1, 2), (3, 4)]', f'[{BIG}, True, 2.5]'])
    lines = [f"xs = {seq}", "it = reversed(xs)"]
    lines.append(rnd.choice(['xs.pop()', 'xs.append(9)', 'xs.clear()', 'xs.insert(0, -1)', 'xs[:2] = []',
                             'x = list(zip([0], it))', 'xs.extend([7, 8])']))
    lines.append(f"r = {rnd.choice(['list(it)', 'tuple(it)', 'len(list(it))'])}")
    lines.append("[r, list(it)]")
    return "\n".join(lines)


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


def fam_slice(rnd):
    seq = rnd.choice(SLICEABLE)
    parts = [f's[{sl(rnd)}]' for _ in range(rnd.randint(1, 3))]
    if rnd.random() < .3:
        parts.append(f's[{sl(rnd)}][{sl(rnd)}]')
    if rnd.random() < .3:
        parts.append(f'len(s[{sl(rnd)}])')
    return f"s = {seq}\n[{', '.join(parts)}]"


def fam_slice_assign(rnd):
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


ITERS = ['[3, 1, 2, 1]', '(True, 1, 1.0, 2)', "'abca'", 'range(6)', 'range(10, 0, -3)', "{'a': 1, 'b': 2}",
         "{'a': 1, 'b': 2}.keys()", "{'a': 1, 'b': 2}.values()", "{'a': 1, 'b': 2}.items()", '{5, 3, 5}',
         'reversed([1, 2, 3])', 'reversed((4, 5))', "reversed('xyz')", 'reversed(range(4))',
         "reversed({'k': 1, 'j': 2})", "enumerate('ab', 5)", "zip('ab', [1, 2, 3])", 'zip()', '[]',
         f'[{BIG}, {-BIG - 1}]', "[(1, 'a'), (2, 'b'), (1, 'c')]", "[[1, 2], [3, 4]]", "['ab', 'cd']",
         "zip(range(3), 'xyz', (True, False, None))", "enumerate(zip('pq', 'rs'))", "b'hi'"]


def fam_construct(rnd):
    src = rnd.choice(ITERS)
    cons = rnd.choice(['list(%s)', 'tuple(%s)', 'sorted(%s, key=str)', 'sorted(set(%s), key=str)',
                       'dict(%s)', 'sorted(dict(%s).items(), key=str)', 'len(set(%s))', '[*%s]',
                       'list(reversed(list(%s)))', 'list(zip(%s, %s))', 'list(enumerate(%s, -1))',
                       'dict(zip(%s, range(9)))', 'sorted({x: 0 for x in %s}, key=str)'])
    lines = ['xs = [0]', f'r = {cons.replace("%s", src)}']
    if rnd.random() < .4:
        lines.append(f'xs.extend({rnd.choice(ITERS)})')
    if rnd.random() < .3:
        lines.append(f'd = {{}}\nd.update({rnd.choice(ITERS)})\nxs.append(d)')
    lines.append('[r, xs]')
    return "\n".join(lines)


ZSEQS = ['[1, 2, 3]', "'ab'", 'range(4)', '[]', '(5,)', "['p', 'q', 'r', 's']", '[True, 2.5, None]',
         'reversed([7, 8, 9])', "{'k': 1, 'v': 2}", "{'k': 1}.items()", 'enumerate([4, 5])']


def fam_zip_unpack(rnd):
    n = rnd.randint(1, 5)
    args = [rnd.choice(ZSEQS) for _ in range(n)]
    strict = ', strict=True' if rnd.random() < .3 else ''
    names = [f'v{i}' for i in range(n)]
    lines = [f"{' = '.join(names)} = 'unset'", 'out = []', f"it = {rnd.choice(['reversed([10, 20, 30])', 'enumerate([1, 2, 3, 4])'])}"]
    if rnd.random() < .3:
        args[rnd.randrange(n)] = 'it'
    zipped = f"zip({', '.join(args)}{strict})"
    shape = rnd.random()
    if shape < .4:
        lines.append(f"for {', '.join(names)} in {zipped}:\n    out.append(({', '.join(names)},))")
    elif shape < .7:
        lines.append(f"out = [({', '.join(reversed(names))},) for {', '.join(names)} in {zipped}]")
    elif n >= 2:
        lines.append(f"for {names[0]}, *rest in {zipped}:\n    out.append(({names[0]}, rest))")
    else:
        lines.append(f"for ({names[0]},) in {zipped}:\n    out.append({names[0]})")
    lines.append(f"[out, {', '.join(names)}, list(it)]")
    return "\n".join(lines)


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


def fam_mutate_iter(rnd):
    kind = rnd.choice(['list', 'list', 'dict', 'set', 'dictview'])
    if kind == 'list':
        body = rnd.choice(['if len(xs) < 12:\n        xs.append(x * 2)', 'if xs:\n        xs.pop(0)',
                           'xs.insert(0, x) if len(xs) < 9 else None', 'xs[:] = xs[1:]',
                           'if len(xs) < 9:\n        xs.extend([x, x])', 'xs.reverse()'])
        it = rnd.choice(['xs', 'enumerate(xs)', 'zip(xs, xs)', 'reversed(xs)'])
        return (f"xs = [1, 2, 3, 4]\nseen = []\nfor x in {it}:\n    seen.append(x)\n"
                f"    x = x if isinstance(x, int) else 1\n    {body}\n[seen, xs]")
    if kind == 'dict':
        body = rnd.choice(["d['n' + str(k)] = 1", 'd.pop(k)', "d[k] = 0", 'd.update({k: 5})', 'd.clear()'])
        return (f"d = {{'a': 1, 'b': 2}}\nseen = []\nfor k in {rnd.choice(['d', 'd.keys()', 'list(d)'])}:\n"
                f"    seen.append(k)\n    {body}\n[seen, d]")
    if kind == 'set':
        body = rnd.choice(['s.add(k + 100)', 's.discard(k)', 's.add(k)', 's.remove(k)'])
        return f"s = {{1, 2, 3}}\nseen = []\nfor k in s:\n    seen.append(k)\n    {body}\n[seen, sorted(s)]"
    body = rnd.choice(["d['z'] = 0", 'd.pop(k)', 'd[k] = v + 1'])
    return (f"d = {{'a': 1, 'b': 2}}\nseen = []\nfor k, v in d.items():\n    seen.append((k, v))\n"
            f"    {body}\n[seen, d]")


def fam_dict_grow(rnd):
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


FAMILIES = [fam_drain, fam_shared, fam_mutated, fam_slice, fam_slice_assign, fam_construct, fam_zip_unpack,
            fam_views_sets, fam_mutate_iter, fam_dict_grow]


if __name__ == "__main__":
    import gen_common

    gen_common.main(FAMILIES)
