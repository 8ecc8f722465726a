#!/usr/bin/env python3
"""Generates identity and value-model programs and runs each with CPython.

Usage: python3 gen_identity.py SEED PER_FAMILY

Families: `is` between floats that CPython makes new objects of (NaN and
the infinities from `float()`, arithmetic and conversions) and their copies
through names, containers, slices, min/max/sorted and dict reads; CPython's
identity shortcut in every container comparison (`==`, `!=`, `in`, `count`,
`index`, `remove`, dict and set lookups, ordering of sequences) with one
NaN object against another; dict key and item views under `-`, the
comparisons and `isdisjoint`, with sets, lists and each other, and `in`
with unhashable members; generic aliases (`list[str]`) in annotations and
as values; ints past `ssize_t` given to every index-taking method, to
indexing and to slices; and the builtin classes and constants a program can
name, and `isinstance` with class tuples nested past the recursion
limit; and `is` between ints and finite floats made every way (literals,
folded constants, arithmetic, conversions, copies). Every program computes
its answer in its body and ends with a name (this script compiles the last
line apart, so its constants would be other objects; lackpy, like the
reference, compiles the program as one). Prints one JSON list of
{"program", "repr" | "error", "line"?, "family"}.
"""

BIG = ['100000000000000000000', '-100000000000000000000', '9223372036854775808', '-9223372036854775809',
       '9223372036854775807', '-9223372036854775808', '2147483648', '-2147483649']

SPECIAL = ["float('nan')", "float('inf')", "float('-inf')", "float('NaN')", "float('-nan')", "float('infinity')",
           "x * 0", "x - x", "-x", "x + 1", "x * 2", "abs(x)", "x / 1", "float(x)", "+x", "1e308 * y"]


def fam_floats(rnd):
    lines = ["x = float('inf')", "y = 10.0", "a = " + rnd.choice(SPECIAL), "b = " + rnd.choice(SPECIAL + ['a'])]
    copies = ['a', '[a][0]', '(a, 1)[0]', '{"k": a}["k"]', 'max(a, a)', 'min([a, b])', 'sorted([a])[0]',
              '[a, b][:1][0]', 'list((a,))[0]', '{a: 1}.popitem()[0] if a == a else a', 'float(a)',
              '[a][-1]', 'dict.fromkeys([a]).popitem()[0] if a == a else a', 'list({0: a}.values())[0]']
    outs = []
    for _ in range(rnd.randint(3, 6)):
        left, right = rnd.choice(copies), rnd.choice(copies + ['b', 'x', "float('inf')", "float('nan')"])
        op = rnd.choice(['is', 'is not', '=='])
        outs.append(f"{left} {op} {right}")
    lines.append(f"r = [{', '.join(outs)}]")
    lines.append("r")
    return "\n".join(lines)


CONTAINERS = ['[n]', '(n,)', '[1, n]', '(n, 2, n)', '[[n]]', '[(n, 1)]', '{0: n}', '{n: 0}', '{n}', '[m]',
              '[n, m]', '(m,)', '{0: m}', '{m}', '[[m]]', '[]', '[1, 2]', '{1: n, 2: m}']


def fam_shortcut(rnd):
    lines = ["n = float('nan')", "m = float('nan')",
             "c = " + rnd.choice(CONTAINERS), "e = " + rnd.choice(CONTAINERS)]
    outs = rnd.sample([
        'c == e', 'c != e', 'n in c', 'm in c', 'n not in c', 'c == c', "[c] == [c]", "(c, 1) == (c, 1)",
        'float("nan") in c', 'len(c)', '[n, 1] < [n, 2]', '(n, 1) <= (n, 0)', '[n] >= [n]', '[m] > [n]',
        'list(c).count(n)', 'list(c).count(m)', 'tuple(c).count(n)', '{1: c} == {1: c}', '{1: c} == {1: e}',
        'n in list(c)', 'n in tuple(c)', 'n in set([n])', '[c, c].count(c)', 'max([1, n]) is n',
    ], 5)
    lines.append(f"r = [{', '.join(outs)}]")
    stmt = rnd.choice(['xs = list(c)\nv = xs.index(n)', 'xs = list(c)\nxs.remove(n)\nv = xs',
                       'xs = [1, m, n]\nv = xs.index(n, 1)', 'xs = list(c) + [n]\nv = xs.index(n)',
                       'xs = (1, n)\nv = xs.index(n)', 'd = {n: 1}\nv = [d[n], d.get(n), n in d, d.pop(n)]',
                       'd = {n: 1}\nv = d.get(m, "none")', 'd = {n: 1}\nv = d[m]', 's = {n}\ns.remove(n)\nv = s',
                       's = {n}\ns.discard(m)\nv = len(s)', 'xs = [m]\nxs.remove(n)\nv = xs', 'v = list(c).index(m)'])
    lines.append(stmt)
    lines.append("r = [r, v]")
    lines.append("r")
    return "\n".join(lines)


VIEWS = ['d.keys()', 'd.items()', 'e.keys()', 'e.items()']
OTHERS = ['{1, 2}', 'set()', '[1, 3]', '(2,)', "{(1, 'a')}", "[(2, 'b'), (5, 5)]", 'range(3)', '{1: 0}.keys()',
          'e.keys()', 'd.keys()', 'e.items()', "'ab'", '[[1]]', '3', 'd.values()', "{2: 'b'}.items()"]


def fam_views(rnd):
    ds = ["{1: 'a', 2: 'b'}", '{}', "{2: 'b'}", "{1: 'a', 2: 'b', 3: [3]}"]
    es = ["{2: 'b', 4: 'd'}", "{1: 'a'}", '{}', "{'a': 1}"]
    lines = ["d = " + rnd.choice(ds), "e = " + rnd.choice(es)]
    v, o = rnd.choice(VIEWS), rnd.choice(OTHERS)
    expr = rnd.choice([
        f'sorted({v} - {o}, key=str)', f'sorted({o} - {v}, key=str)', f'{v} == {o}', f'{v} != {o}',
        f'{v} < {o}', f'{v} <= {o}', f'{v} > {o}', f'{v} >= {o}', f'{o} < {v}', f'{v}.isdisjoint({o})',
        f'{o} in {v}', f"([1], 'a') in {v}", f'[1] in {v}', f"(1, 'a') in {v}", f'len({v} - {o})',
    ])
    lines.append(f"r = {expr}")
    lines.append("r")
    return "\n".join(lines)


ARGS = ['int', 'str', 'float', 'bool', 'list[int]', 'dict[str, int]', 'tuple[int, ...]', '...', 'None', '()', "'x'",
        '1', 'set[str]', 'len', 'list', 'tuple[()]', 'object', 'ValueError']
# `type` is a forbidden name; `type[int]` is not reachable.
ORIGINS = ['list', 'dict', 'tuple', 'set', 'enumerate']


def fam_alias(rnd):
    def alias():
        o = rnd.choice(ORIGINS)
        n = rnd.choice([1, 1, 2, 3])
        return f"{o}[{', '.join(rnd.choice(ARGS) for _ in range(n))}]"
    a, b = alias(), alias()
    lines = [f"x: {a} = []", f"y: {b} = {{}}", f"a = {a}", f"b = {b}"]
    outs = rnd.sample(['a', 'b', 'a == b', 'a != b', 'a == a', 'str(a)', "f'{b}'", "f'{a!r}'", '[a, b]',
                       'len({a, b})', 'x', 'y', 'isinstance(x, list)', '(a,)'], 4)
    lines.append(f"r = [{', '.join(outs)}]")
    if rnd.random() < .3:
        lines.append(rnd.choice(['r = isinstance(x, a)', 'r = a[int]', 'r = int[str]', 'r = str[a]',
                                 'r = len[int]', 'r = range[int]', 'r = zip[int]', 'r = len(a)', 'r = a + 1']))
    lines.append("r")
    return "\n".join(lines)


# Past ssize_t: an allocation this large fails before it starts.
HUGE = ['100000000000000000000', '-100000000000000000000', '9223372036854775808', '-9223372036854775809']


def fam_index(rnd):
    k = rnd.choice(BIG)
    h = rnd.choice(HUGE + ['-9223372036854775808', '-1', '0'])
    t = rnd.choice(HUGE + ['2147483648', '-2147483649', '-2147483648', '3'])
    stmt = rnd.choice([
        f"x = [1, 2, 3]\nx.insert({k}, 'z')\nr = x", f"x = [1, 2, 3]\nr = x.pop({k})", f"r = [1, 2].index(2, {k})",
        f"r = [1, 2].index(2, 0, {k})", f"r = [1, 2].index(2, {k}, 1)", f"r = (1, 2).index(2, {k})",
        f"r = (1, 2).index(1, 0, {k})", f"r = 'abc'.find('c', {k})", f"r = 'abc'.find('a', 0, {k})",
        f"r = 'abc'.rfind('c', {k})", f"r = 'abc'.index('b', 0, {k})", f"r = 'abc'.count('b', {k})",
        f"r = 'abc'.startswith('a', {k})", f"r = 'abc'.endswith('c', 0, {k})", f"r = [1, 2][{k}]",
        f"r = 'ab'[{k}]", f"r = (1,)[{k}]", f"r = [1, 2, 3][{k}:]", f"r = [1, 2, 3][:{k}]",
        f"r = 'abc'[::{k}]", f"r = [1, 2, 3][{k}::-1]", f"x = [1]\nx[{k}] = 2\nr = x",
        f"x = [1, 2, 3]\nx[{k}:] = [9]\nr = x", f"r = 'ab' * {h}", f"r = [0] * {h}", f"r = 'a'.ljust({h})",
        f"r = 'a'.center({h})", f"r = 'a'.zfill({h})", f"r = 'a b'.split(' ', {k})", f"r = 'a b'.rsplit(None, {k})",
        f"r = 'aa'.replace('a', 'b', {k})", f"r = 'a\\tb'.expandtabs({t})", f"r = range({k})[-1]",
        f"r = len(range({k}))", f"r = round(2.5, {k})", f"r = round(25, {k.lstrip('-')})", f"r = list(enumerate('a', {k}))",
        f"r = 'ab'.splitlines({k})", f"r = range(3)[{k}]", f"r = {k} in range(3)",
    ])
    return stmt + "\nr"


def fam_names(rnd):
    names = ['Ellipsis', 'NotImplemented', 'object', 'ValueError', 'TypeError', 'OSError', 'IOError', 'KeyError',
             'Exception', 'BaseException', 'StopIteration', 'ZeroDivisionError', 'UnicodeDecodeError', 'Warning',
             'EnvironmentError', 'ExceptionGroup', 'TimeoutError']
    a, b = rnd.choice(names), rnd.choice(names)
    outs = rnd.sample([a, b, f'{a} == {b}', f'{a} is {b}', f'isinstance(1, {a})', f'isinstance({a}, object)',
                       f'isinstance(None, ({a}, object))', f'str({a})', f'[{a}]', f'len({{{a}, {b}}})',
                       f'{a} is not None', f'... is {a}'], 4)
    return f"r = [{', '.join(outs)}]\nr"


def fam_isinstance(rnd):
    # Depths stay clear of the limit: CPython's frames above the program
    # (this script's exec) move it by a few levels.
    n = rnd.choice([0, 1, 5, 50, 500, 900, 1100, 5000])
    inner = rnd.choice(['str', 'int', '(int, str)', '3', 'list[int]', 'object', 'ValueError', '()'])
    probe = rnd.choice(['1', "'a'", '[]', 'None', '1.5', 'True'])
    front = rnd.choice(['', 'int, ', 'float, ', 'bool, '])
    return "\n".join([f"t = {inner}", f"for i in range({n}):", "    t = (t,)",
                      f"r = isinstance({probe}, ({front}t))", "t = 0", "r"])


NUM_BASES = ['1000', '257', '256', '-5', '-6', '0', '100', '9223372036854775807', '-9223372036854775808',
             '10000000000000000000000', '0.5', '1e300', '-0.0', '0.0', '2.5', '999 + 1', '0.25 + 0.25', '-1000',
             '128 + 129', '1000 * 1000', "int('1000')", "float('0.5')", 'len([1, 2]) * 500', '30000 // 30']
NUM_COPIES = ['x', 'y', '[x][0]', '(x, 2)[0]', '{"k": x}["k"]', 'list({x: 1})[0]', 'list({x})[0]', 'max(x, -7)',
              'min([x, y])', 'sorted([y, x])[0]', 'sorted([x, x])[1]', 'abs(x)', 'int(x)', 'float(x)', '+x',
              '-(-x)', 'x + 0', 'x * 1', 'x - 0', 'x // 1', 'sum([x])', 'round(x)', 'x % 7',
              'list(range(3))[1]', '[x] * 2', '(x if x else y)', '(x or y)', '(x and y)', 'd[1]', 'e[0]', 'i',
              't[0]', '1000', '257', '256', '0.5', '-0.0', '999 + 1', '0.25 + 0.25', '1000 * 1000',
              '10000000000000000000000', '5000000000000000000000 * 2', '1e300 * 1.0',
              'sorted([x + 0, x])[1]', 'sorted([x, x * 1, 7])[0]', 'sorted([x - 0, x, -1e9] * 3)[4]',
              'sorted([x, x + 0], reverse=True)[0]', 'sorted([y, x + 0, x, y * 1])[1]']


def fam_numbers(rnd):
    """`is` between ints and floats made every way: literals (merged by
    value), folded constants, computed values (new objects; ints from -5 to
    256 cached), conversions, and copies through names, containers,
    builtins and loops."""
    a, b = rnd.choice(NUM_BASES), rnd.choice(NUM_BASES)
    lines = [f"x = {a}", f"y = {b}", "d = {1: x, 2: y}", "e = [y, x]", "t = (1000, 0.5, x)"]
    lines.append(rnd.choice(["xs = [x]\nfor i in xs:\n    z = i", "for i in range(255, 259):\n    z = i",
                             "i = x", "i = y * 1", "for i in range(-7, -4):\n    z = i"]))
    outs = []
    for _ in range(rnd.randint(4, 8)):
        left, right = rnd.choice(NUM_COPIES), rnd.choice(NUM_COPIES)
        op = rnd.choice(['is', 'is', 'is not', '=='])
        outs.append(f"({left}) {op} ({right})")
    lines.append(f"r = [{', '.join(outs)}]")
    lines.append("r")
    return "\n".join(lines)


FAMILIES = [fam_floats, fam_shortcut, fam_views, fam_alias, fam_index, fam_names, fam_isinstance, fam_numbers]


if __name__ == "__main__":
    import warnings

    import gen_common

    # `x is 1000` is what the numbers family asks on purpose.
    warnings.simplefilter("ignore", SyntaxWarning)

    gen_common.main(FAMILIES, line=True)
