#!/usr/bin/env python3
"""Generates programs that drain, zip and mutate iterators and runs each
with CPython.

Families: draining each iterator kind at once (`list()`, `tuple()`,
`sorted()`, ...: ranges near the i64 limits, reversed lists, tuples, ranges
and dicts, enumerate with any start, zip of one to five iterables, strict
zip, dict views, shared iterator objects drained twice or after a partial
step); draining a reversed list shrunk or grown after the iterator was
made; list/tuple/set/dict/sorted constructors and extend/update from every
iterator kind; enumerate, zip (strict or not, of unequal lengths) and
reversed over lists, fresh or half used, with counts near the i64 limits;
zip unpacked into loop targets (strict, unequal lengths, a shared iterator
as one argument, starred targets); zip over temporary iterators
(`reversed`, `enumerate`, `zip`) and over iterator objects held by a name
(an alias must see them advance), with lists mutated while the zip runs and
an iterator zipped with itself; and mutation of a list, dict or set while
iterating it.

Usage: python3 gen_iter.py SEED PER_FAMILY

Prints one JSON list of cases (see gen_common.py).
"""
import gen_common
from gen_common import stream

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


@stream(1)
def fam_drain(rnd):
    lines = [f"d = {rnd.choice(['{}', '{1: 2, 3: 4}', '{True: 1.5, 0: None, 9: (1, 2)}'])}"]
    src = source(rnd)
    consumer = rnd.choice(['list(%s)', 'tuple(%s)', 'sorted(%s, key=str)', 'len(list(%s))',
                           '[p for p in %s]', '[str(p) for p in %s]', 'dict(enumerate(%s))'])
    lines.append(f"r = {consumer % src}")
    lines.append("r")
    return "\n".join(lines)


@stream(2)
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


@stream(3)
def fam_mutated(rnd):
    seq = rnd.choice(['[1, 2, 3, 4, 5]', '[]', '[(1, 2), (3, 4)]', f'[{BIG}, True, 2.5]'])
    lines = [f"xs = {seq}", "it = reversed(xs)"]
    lines.append(rnd.choice(['xs.pop()', 'xs.append(9)', 'xs.clear()', 'xs.insert(0, -1)', 'xs[:2] = []',
                             'x = list(zip([0], it))', 'xs.extend([7, 8])']))
    lines.append(f"r = {rnd.choice(['list(it)', 'tuple(it)', 'len(list(it))'])}")
    lines.append("[r, list(it)]")
    return "\n".join(lines)


ITERS = ['[3, 1, 2, 1]', '(True, 1, 1.0, 2)', "'abca'", 'range(6)', 'range(10, 0, -3)', "{'a': 1, 'b': 2}",
         "{'a': 1, 'b': 2}.keys()", "{'a': 1, 'b': 2}.values()", "{'a': 1, 'b': 2}.items()", '{5, 3, 5}',
         'reversed([1, 2, 3])', 'reversed((4, 5))', "reversed('xyz')", 'reversed(range(4))',
         "reversed({'k': 1, 'j': 2})", "enumerate('ab', 5)", "zip('ab', [1, 2, 3])", 'zip()', '[]',
         f'[{BIG}, {-BIG - 1}]', "[(1, 'a'), (2, 'b'), (1, 'c')]", "[[1, 2], [3, 4]]", "['ab', 'cd']",
         "zip(range(3), 'xyz', (True, False, None))", "enumerate(zip('pq', 'rs'))", "b'hi'"]


@stream(6)
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


ATOMS = ['0', '1', '-1', 'True', 'False', 'None', str(BIG), str(-BIG - 1), str(BIG + 1), str(-BIG - 2),
         str(3 ** 50), "float('nan')", '-0.0', '0.0', '1.5', "float('inf')", "'s'", "''", "'héllo'",
         "'x' * 40", '[]', '[1, [2]]', '(1, 2)', '()', "{'k': [1]}", '(1, [2, 3])', '{1, 2}', 'range(3)']


def mixed(rnd, lo=0, hi=9):
    return '[' + ', '.join(rnd.choice(ATOMS) for _ in range(rnd.randint(lo, hi))) + ']'


@stream(5)
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


ZSEQS = ['[1, 2, 3]', "'ab'", 'range(4)', '[]', '(5,)', "['p', 'q', 'r', 's']", '[True, 2.5, None]',
         'reversed([7, 8, 9])', "{'k': 1, 'v': 2}", "{'k': 1}.items()", 'enumerate([4, 5])']


@stream(7)
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


TUPLE_ATOMS = ['0', '1', '-1', 'True', 'False', 'None', str(BIG), str(-BIG - 1), str(BIG + 1), str(3 ** 45),
         "float('nan')", '-0.0', '2.5', "'s'", "''", "'word' * 9", '[]', '[1, [2]]', '(1, 2)', '()',
         "{'k': [1]}", '(1, [2, 3])', '{3, 1}', 'int', 'len', 'range(2)']
PLAIN = ['None', 'True', 'False', '0', '-1', str(BIG), str(-BIG - 1), '-0.0', "float('nan')", '1.5',
         'int', 'len', 'str']


@stream(3)
def fam_zip_temps(rnd):
    lines = [f'a = [{", ".join(rnd.choice(TUPLE_ATOMS) for _ in range(rnd.randint(0, 6)))}]',
             f'b = [{", ".join(rnd.choice(PLAIN + TUPLE_ATOMS[:8]) for _ in range(rnd.randint(0, 6)))}]']
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


@stream(9)
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


FAMILIES = [fam_drain, fam_shared, fam_mutated, fam_construct, fam_drain_lists, fam_zip_unpack,
            fam_zip_temps, fam_mutate_iter]

if __name__ == "__main__":
    gen_common.main(FAMILIES, line=True)
