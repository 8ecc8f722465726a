#!/usr/bin/env python3
"""Generates lackpy programs from a seed and runs each with CPython.

Usage: python3 cpython_run.py SEED COUNT [FAMILY_COUNT]

COUNT programs of the original family (below), then FAMILY_COUNT programs
of each further family in FAMILIES (string methods, slicing, dict and set
operations, sorting with keys and ties, comprehensions with conditions,
enumerate/zip/items unpacking, %/format/f-string specs, big ints, float
repr, range containment, min/max with key/default), each family from its
own stream of gen_common.rng so adding one does not shift the others.

Prints one JSON list of {"program", "repr"} or {"program", "error"}
objects: the program's last line is an expression whose repr() is the
answer; an exception gives "ClassName: message". The programs stay inside
the language (no loops but `for` over calls/names, no imports, no defs) and
aim at the interpreter's fast paths: int accumulators near the i64 limits,
augmented assignment over mixed types, comprehensions over ranges, sum(),
calls with few arguments, dict lookups with constant keys.
"""
import json
import signal
import sys

import gen_common

BIG = 9223372036854775807
VALS = ['0', '1', '-1', '7', str(BIG), str(-BIG - 1), str(BIG - 3), '2.5', '-0.0',
        "'a'", "'xy'", '[1]', '[2, 3]', 'True', 'None', '(1,)']
RANGES = ['range(5)', 'range(10, 0, -3)', 'range(-2, 3)', 'range(0)', 'range(1, 7, 2)']


def program(rnd):
    a, b = rnd.choice(VALS), rnd.choice(VALS)
    op = rnd.choice(['+', '-', '*', '//', '%'])
    r = rnd.choice(RANGES)
    step = rnd.choice(['2', 'i', '-1', str(BIG)])
    body = f"    t {op}= {b}" if rnd.random() < .5 else f"    t = t + {b}"
    summed = rnd.choice(['c', '[1, 2.5]', f'[{a}, {b}]', '[True, 2]', '[]', 'd[0]', 'c + [0.5]'])
    start = rnd.choice(['', ', 10', ', 0.5', ', ' + str(BIG)])
    sep = rnd.choice(['', "','", "',', 1", "None, 2"])
    return "\n".join([
        f"t = {a}",
        f"for i in range({rnd.choice([0, 3, 5])}):",
        body,
        f"c = [i * {step} for i in {r}]",
        f"d = [[i + j for j in {r}] for i in range(3)]",
        f"s = sum({summed}{start})",
        f"m = 'a,b,,c d'.split({sep})",
        "k = {'id': 1, 'score': 2}",
        "z = [k['score'], k.get('id'), k.get('nope', 5), 'abc'.replace('b', 'x', 1), max(c + [0]), min(1, 2)]",
        "[t, c, d, s, m, z]",
    ])


def pick(rnd, *options):
    return rnd.choice(options)


STRS = ["''", "'a'", "'abc'", "'Hello, World'", "'a,b,,c'", "'  pad me  '", "'x y  z'",
        "'123'", "'-4.5'", "'éÅß'", "'line1\\nline2\\r\\nline3\\n'", "\"it's\"",
        "'\\t\\x00\\\\'", "'ABCabc'", "'aaa'", "'Title Case words'", "'\\u2028x'",
        "'mIxEd_CaSe 9'", "'ab' * 3", "'0'", "'  '"]
SUBS = ["''", "'a'", "','", "' '", "'b'", "'ab'", "'zz'", "'\\n'", "'é'"]


def unordered(expr):
    """`expr` as is when it holds no str or None, else sorted: CPython's str
    hashes change with every process and None's is its address, so the
    order of a set holding them is no property to compare."""
    return f"(sorted({expr}, key=str) if any([isinstance(v, (str, tuple)) or v is None for v in {expr}]) else {expr})"


def fam_strings(rnd):
    s, t, u = rnd.choice(STRS), rnd.choice(SUBS), rnd.choice(SUBS)
    n = rnd.choice(['-1', '0', '1', '2', '5', '20'])
    i = rnd.choice(['0', '1', '-2', '3', '100', '-100'])
    ops = [
        f"s.split({pick(rnd, '', t, f'{t}, {n}', f'None, {n}', f'sep={t}', f'maxsplit={n}')})",
        f"s.rsplit({pick(rnd, '', t, f'{t}, {n}', f'None, {n}')})",
        f"s.splitlines({pick(rnd, '', 'True', 'keepends=False')})",
        f"s.{pick(rnd, 'strip', 'lstrip', 'rstrip')}({pick(rnd, '', t, 'None', repr(' ,a'))})",
        f"s.{pick(rnd, 'find', 'rfind', 'index', 'rindex', 'count')}({t}{pick(rnd, '', ', ' + i, ', ' + i + ', ' + n)})",
        f"s.replace({t}, {u}{pick(rnd, '', ', ' + n)})",
        f"s.{pick(rnd, 'startswith', 'endswith')}({pick(rnd, t, f'({t}, {u})', f'{t}, {i}')})",
        f"s.{pick(rnd, 'partition', 'rpartition')}({t})",
        f"s.{pick(rnd, 'upper', 'lower', 'title', 'capitalize', 'swapcase', 'casefold')}()",
        f"s.{pick(rnd, 'isdigit', 'isalpha', 'isalnum', 'isspace', 'isupper', 'islower', 'istitle', 'isnumeric', 'isdecimal', 'isidentifier')}()",
        f"s.zfill({n})",
        f"s.{pick(rnd, 'center', 'ljust', 'rjust')}({n}{pick(rnd, '', ', ' + repr('*'), ', ' + repr('ab'))})",
        f"{t}.join({pick(rnd, 's', 's.split()', '[s, s]', 'list(s)', '[1, 2]')})",
        f"s.{pick(rnd, 'removeprefix', 'removesuffix')}({t})",
        f"s.expandtabs({n})",
        f"(s + {t}) * {n}",
        f"[c for c in s if c {pick(rnd, 'in', 'not in')} {u}]",
        f"len(s), s < {t}, s == {t}, {t} in s",
        f"str.upper(s)",
        "s.nope",
    ]
    chosen = rnd.sample(ops, rnd.randint(1, 4))
    return f"s = {s}\n[{', '.join(chosen)}]"


SEQS = ['[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]', "'abcdefghij'", '(1, 2, 3, 4, 5)', '[]', "''",
        'range(10)', 'range(-5, 20, 3)', 'range(10, 0, -2)', 'list(range(25))', "'é😀ab'"]
BOUNDS = ['', '0', '1', '-1', '3', '-3', '5', '100', '-100', '9223372036854775807',
          '-9223372036854775808', '100000000000000000000', '-100000000000000000000', 'None']
STEPS = ['', '1', '2', '-1', '-2', '3', '-3', '7', '9223372036854775807',
         '-9223372036854775808', '100000000000000000000', 'None', '0']


def fam_slicing(rnd):
    seq = rnd.choice(SEQS)
    parts = []
    for _ in range(rnd.randint(1, 4)):
        a, b, c = rnd.choice(BOUNDS), rnd.choice(BOUNDS), rnd.choice(STEPS)
        kind = rnd.random()
        if kind < .6:
            parts.append(f"x[{a}:{b}:{c}]" if c else f"x[{a}:{b}]")
        elif kind < .8:
            parts.append(f"x[{rnd.choice(['0', '-1', '2', '-11', '10', '9223372036854775807'])}]")
        else:
            parts.append(f"len(x[{a}:{b}:{c}])" if c else f"x[{a}:]")
    return f"x = {seq}\n[{', '.join(parts)}]"


KEYS = ["'a'", "'b'", "'zz'", '1', '2', '-1', '1.0', 'True', '(1, 2)', 'None', '0']


def fam_dictset(rnd):
    d = '{' + ', '.join(f"{rnd.choice(KEYS)}: {rnd.randint(-3, 9)}" for _ in range(rnd.randint(0, 5))) + '}'
    s1 = '{' + ', '.join(str(rnd.randint(-5, 40)) for _ in range(rnd.randint(1, 8))) + '}'
    s2 = rnd.choice(['set()', '{1, 2, 3}', '{33, 1, 17, 9}', "{'a', 'b'}", 'set(range(10, 0, -1))',
                     '{-1, -2, 100000000000000000000}', '{2.5, 2, True}'])
    k, v = rnd.choice(KEYS), rnd.choice(['0', "'v'", '[1]', 'None'])
    ops = [
        f"d.get({k})", f"d.get({k}, {v})", f"d.pop({k}, {v})", f"d.pop({k})",
        f"d.setdefault({k}, {v})", f"{k} in d", f"list(d.items())", f"list(d)",
        f"d.update({{{k}: {v}}})", "d.popitem()", "d.copy() == d", "dict(d, q=1)",
        f"d[{k}]", "len(d)", "sorted(d.values())", "d.clear()",
        f"s.union({s2})", f"s.intersection({s2})", f"s.difference({s2})",
        f"s.symmetric_difference({s2})", f"s.issubset({s2})", f"s.issuperset({s2})",
        f"s.isdisjoint({s2})", f"s.add({k})", f"s.discard({k})", f"s.remove({k})",
        "sorted(s, key=str)", "s == set(list(s))", "len(s)", f"{k} in s",
        f"{{x: x for x in s}}", f"s - {s2}" if rnd.random() < .3 else "s.copy()",
        f"dict.fromkeys({s2})", f"{s2}",
    ]
    sets = ('s.union', 's.intersection', 's.difference', 's.symmetric', 's -', 's.copy', s2, '{x',
            'dict.fromkeys')
    chosen = [unordered(op) if op.startswith(sets) else op
              for op in rnd.sample(ops, rnd.randint(1, 4))]
    return f"d = {d}\ns = {s1}\nr = [{', '.join(chosen)}]\n[r, d, {unordered('s')}]"


def fam_sorting(rnd):
    n = rnd.randint(0, 8)
    rows = [f"{{'name': {rnd.choice(STRS[:8])}, 'n': {rnd.randint(-2, 3)}, 'w': {rnd.choice(['1', '2.5', '-1', '0'])}}}"
            for _ in range(n)]
    tups = [f"({rnd.randint(0, 3)}, {rnd.choice(SUBS)})" for _ in range(n)]
    key = rnd.choice(["lambda r: r['n']", "lambda r: (r['n'], r['name'])", "lambda r: -r['w']",
                      "lambda r: r['name'].lower()", "lambda r: len(r['name'])", "lambda r: r['missing']",
                      "lambda r: str(r)"])
    tkey = rnd.choice(['None', 'len', 'str', 'lambda t: t[1]', 'lambda t: t[0]', 'lambda t: -t[0]',
                       'lambda t: (t[1], -t[0])', 'abs'])
    rev = rnd.choice(['', ', reverse=True', ', reverse=False'])
    ops = [
        f"sorted(rows, key={key}{rev})",
        f"sorted(tups, key={tkey}{rev})",
        f"sorted(tups{rev})",
        f"sorted([3, 1, 2, 1, 0, -5, 2.5, True]{rev})",
        f"sorted({rnd.choice(STRS)}{rev})",
        f"sorted(['b', 'A', 'a', 'B', 'ab', ''], key={rnd.choice(['str.lower', 'len', 'str', 'lambda s: s[::-1]'])}{rev})",
        f"sorted([1, 'a']{rev})",
        f"sorted({{3: 'a', 1: 'b'}}{rev})",
        f"list(reversed(sorted(tups, key={tkey})))",
    ]
    chosen = rnd.sample(ops, rnd.randint(1, 3))
    sort_stmt = rnd.choice(["", f"rows.sort(key={key}{rev})\n", f"tups.sort({rev[2:]})\n"])
    return f"rows = [{', '.join(rows)}]\ntups = [{', '.join(tups)}]\n{sort_stmt}[{', '.join(chosen)}]"


ITERS = ['range(6)', 'range(-3, 8, 2)', "'hello'", '[3, 1, 4, 1, 5, 9, 2, 6]', "{'a': 1, 'b': 2, 'c': 3}",
         '{5, 3, 1}', "['x', 'yy', '', 'zzz']", '[[1, 2], [3], []]', '(0.5, -1, 2)']


def fam_comps(rnd):
    it1, it2 = rnd.choice(ITERS), rnd.choice(ITERS)
    cond = rnd.choice(['', ' if x', ' if not x', ' if x != 1', ' if x in [1, 3]', " if str(x) > '2'",
                       ' if (x if True else False)', ' if len(str(x)) == 1 if x'])
    cond2 = rnd.choice(['', ' if y', ' if x != y', ' if str(y) in str(x)'])
    elt = rnd.choice(['x', '[x, y]', '(x, y)', 'str(x) + str(y)', 'x if y else -1', '{x: y}', '[y for y in [x]]'])
    shape = rnd.random()
    if shape < .3:
        body = f"[x for x in {it1}{cond}]"
    elif shape < .55:
        body = f"[{elt} for x in {it1}{cond} for y in {it2}{cond2}]"
    elif shape < .7:
        body = f"{{str(x): [y for y in {it2}{cond2}] for x in {it1}{cond}}}"
    elif shape < .85:
        body = unordered(f"{{x for x in {it1}{cond}}}")
    else:
        body = f"[[y for y in {it2} if y != x] for x in {it1}{cond}]"
    return f"x = 'outer'\nr = {body}\n[r, x]"


def fam_unpack(rnd):
    a = rnd.choice(['[1, 2, 3]', "'abcd'", '[]', '[10, 20]', 'range(4)'])
    b = rnd.choice(["['x', 'y', 'z']", "'pq'", '[1.5]', 'range(100)'])
    d = rnd.choice(["{'a': 1, 'b': 2}", '{}', "{1: 'one', 2: 'two', 3: 'three'}"])
    loops = [
        f"for i, v in enumerate({a}):\n    out.append((i, v))",
        f"for i, v in enumerate({a}, {rnd.choice(['1', '-5', 'start=10', '9223372036854775807'])}):\n    out.append([i, v])",
        f"for p, q in zip({a}, {b}):\n    out.append(str(p) + str(q))",
        f"for k, v in d.items():\n    out.append(k)\n    out.append(v)",
        f"for i, (p, q) in enumerate(zip({a}, {b})):\n    out.append([i, p, q])",
        f"for k in sorted(d, key=str):\n    out.append(d[k])",
        f"a, b = {rnd.choice(['1, 2', '[3, 4]', repr('xy'), '(5,)', '1, 2, 3'])}\nout.append([a, b])",
        f"a, *rest = {a}\nout.append([a, rest])",
        f"for t in zip({a}, {b}, {rnd.choice(['[7, 8]', repr('mn'), 'range(2)'])}):\n    out.append(t)",
        f"out.extend(list(zip({a}, {b})))",
        f"out.append(dict(zip({b}, {a})))",
        f"out.append(list(enumerate(d)))",
        f"x, y = {rnd.choice(['d', 'list(d.items())[0]', 'range(2)'])}\nout.append((x, y))",
    ]
    chosen = rnd.sample(loops, rnd.randint(1, 3))
    return f"d = {d}\nout = []\n" + "\n".join(chosen) + "\nout"


FMT_VALS = ['0', '42', '-42', '3.14159', '-0.0', '1e16', '1e-05', "'text'", "''", '255', '2.5',
            '9223372036854775807', '-100000000000000000000', '1234567.891', 'True', 'None',
            "float('inf')", "float('nan')", '0.000123', '100', "'é'"]
SPECS = ['', 'd', '5d', '<5', '>8', '^9', '*^11', '0>6', '+', '-', ' ', '010', '+08.2f', ',', '_',
         ',.2f', 'x', 'X', '#x', '#o', 'b', '#b', '_b', 'o', 'e', '.3e', 'E', 'g', '.3g', 'G', '%',
         '.1%', 'f', '.0f', '.10f', 'n', 's', '.2s', '>10.3', 'c', '=+8', '#.0f', '.3', '10']
PCT = ['%s', '%r', '%d', '%i', '%5d', '%-5d|', '%05d', '%+d', '%x', '%X', '%#x', '%o', '%#o', '%f',
       '%.2f', '%10.3f', '%-10.1f|', '%e', '%.3E', '%g', '%G', '%c', '%%', '%a', '%5s', '%.1s', '% d']


def fam_format(rnd):
    parts = []
    for _ in range(rnd.randint(1, 4)):
        v, spec = rnd.choice(FMT_VALS), rnd.choice(SPECS)
        k = rnd.random()
        if k < .3:
            conv = rnd.choice(['', '', '!r', '!s', '!a'])
            parts.append(f"f'<{{v{conv}:{spec}}}>'".replace('v', v) if "'" not in v
                         else f"{'{:' + spec + '}'!r}.format({v})")
        elif k < .5:
            parts.append(f"{'{:' + spec + '}'!r}.format({v})")
        elif k < .75:
            parts.append(f"{rnd.choice(PCT)!r} % {v}" if rnd.random() < .7
                         else f"{(rnd.choice(PCT) + ' ' + rnd.choice(PCT))!r} % ({v}, {rnd.choice(FMT_VALS)})")
        elif k < .9:
            tpl = rnd.choice(['{}-{}', '{0}{1}{0}', '{a}:{b:>4}', '{:' + spec + '}', '{!r}', '{{}}{}',
                              '{0:{1}}', '{}', '{2}'])
            parts.append(f"{tpl!r}.format({v}, {rnd.choice(FMT_VALS)}, a=1, b={v})")
        else:
            w = rnd.choice(['3', '8', '0'])
            parts.append(f"f'{{{v}:>{{{w}}}}}|{{{v}=}}'" if "'" not in v else f"f'{{x!r:^{w}}}'")
    return f"x = 'q'\n[{', '.join(parts)}]"


INT_EDGES = ['0', '1', '-1', '2', '-2', '3', '7', '-7', '9223372036854775807', '-9223372036854775808',
             '9223372036854775806', '-9223372036854775807', '4611686018427387904', '4294967296',
             '18446744073709551615', '18446744073709551616', '-18446744073709551616',
             '170141183460469231731687303715884105727', '10000000000000000000000000000000000001',
             '3037000499', '3037000500', 'True', 'False']


def fam_bigint(rnd):
    a, b = rnd.choice(INT_EDGES), rnd.choice(INT_EDGES)
    ops = [f"a {op} b" for op in ['+', '-', '*', '//', '%', '/', '<', '==', '>=']]
    ops += ['-a', 'abs(a)', 'int(str(a))', 'str(a)', 'len(str(a))', 'a * 1.0', 'int(a / 3)',
            'round(a, -3)', 'round(a, -20)', 'round(a * 1.5)', 'float(a)', 'a == float(a)',
            'sum([a, b, a])', 'max(a, b) - min(a, b)', "f'{a:,}'", "f'{a:x}'", "'%d' % a",
            'isinstance(a, int)', 'a // -1', 'a % -b if b else 0', 'int(-a * 2.0)', 'bool(a)',
            'a * 2 - a', "int('  -' + str(abs(a)) + '  ')", '[a] * 2',
            'list(range(a, a + 3))', 'range(a, b)[0] if a < b else 0', 'len(range(0, a, 7)) if a > 0 else 0']
    chosen = rnd.sample(ops, rnd.randint(1, 5))
    acc = rnd.choice(['', f'for i in range(3):\n    a = a * {rnd.choice(INT_EDGES[:8])} + b\n',
                      'for i in range(5):\n    a += a\n', 'for i in range(4):\n    b -= a\n'])
    return f"a = {a}\nb = {b}\n{acc}[{', '.join(chosen)}]"


FLOATS = ['0.1', '0.2', '0.3', '1.0', '-0.0', '0.0', '1e16', '1e15', '1e-05', '1e-4', '2.5e-7',
          '123456789.123456789', '1.7976931348623157e308', '5e-324', '2.2250738585072014e-308',
          '100.0', '9007199254740993.0', '0.5', '1.5', '2.675', '-1.5', '3.0', '1e22', '1e23']


def fam_float(rnd):
    a, b = rnd.choice(FLOATS), rnd.choice(FLOATS + INT_EDGES[:8])
    ops = [f"a {op} b" for op in ['+', '-', '*', '/', '//', '%']]
    ops += ['a / 3', 'str(a / 7)', '-a', 'abs(a)', 'round(a)', 'round(a, 1)', 'round(a, 2)',
            'round(a, -1)', 'int(a)', "float(str(a))", "float('1e400')", "float('-inf') + a",
            "float('nan') == float('nan')", 'a * 1e300 * 1e10', 'a == int(a)', 'a < b',
            'sum([a, b, 0.1])', 'min(a, b)', 'max([a, b, -a])', "float('  12.5e3 ')", "float('0x1p3')",
            "round(float('inf'))", 'a % -0.7', '-a // 0.3', 'str(a)', "f'{a}'", 'a + 0.0 == a',
            "float('-0')", '1 / a if a else 0.0', 'round(a, 10)', 'int(a * 1e10)', '[a, -a, a * 3]']
    chosen = rnd.sample(ops, rnd.randint(1, 5))
    return f"a = {a}\nb = {b}\n[{', '.join(chosen)}]"


RANGES2 = ['range(10)', 'range(0)', 'range(-10, 10, 3)', 'range(10, -10, -4)', 'range(1, 2)',
           'range(100000000000000000000)', 'range(-9223372036854775808, 9223372036854775807)',
           'range(0, 100000000000000000000, 7)', 'range(5, 5)', 'range(9223372036854775807, 0, -9223372036854775807)',
           'range(0, 1000000000000, 999999999999)']
PROBES = ['0', '1', '-1', '9', '10', '-10', '-7', '5', '2.0', '2.5', 'True', "'1'", 'None',
          '99999999999999999999', '100000000000000000000', '9223372036854775806', '-9223372036854775808',
          '999999999999', '1e20', '[1]']


def fam_range(rnd):
    r = rnd.choice(RANGES2)
    # CPython scans a range element by element for a probe that is not
    # exactly an int (bool and float included): only ints probe big ones.
    probes = PROBES if len(r) < 24 else [p for p in PROBES if p.lstrip('-').isdigit()]
    ops = [f"{rnd.choice(probes)} in r", f"{rnd.choice(probes)} not in r", 'len(r)', 'r',
           f"r[{rnd.choice(['0', '-1', '3', '-3', '100'])}]", f"r[{rnd.choice(BOUNDS)}:{rnd.choice(BOUNDS)}:{rnd.choice(STEPS)}]",
           f"r.index({rnd.choice(probes)})", f"r.count({rnd.choice(probes)})", 'bool(r)', 'r == range(0)',
           'list(r[:5])', 'r[::-1]', 'list(reversed(r[-3:]))', 'min(r[:5])', 'max(r[-5:])', 'sum(r[:4])',
           'r.start + r.stop + r.step', 'any(r[:3])', 'all(r[:3])', 'sorted(r[:4], reverse=True)']
    chosen = rnd.sample(ops, rnd.randint(1, 4))
    return f"r = {r}\n[{', '.join(chosen)}]"


MM_ITEMS = ['[3, 1, 2]', '[]', "['bb', 'a', 'ccc', 'dd']", '[2, 2.0, True, 1]', "[(1, 'b'), (1, 'a'), (0, 'z')]",
            "'hello'", "{'x': 3, 'y': 1}", '{5, 2, 8}', "[-1, 1, -2, 2]", "[[2], [1, 5], []]", "[1, 'a']"]


def fam_minmax(rnd):
    f = rnd.choice(['min', 'max'])
    it = rnd.choice(MM_ITEMS)
    key = rnd.choice(['', ', key=len', ', key=abs', ', key=lambda v: -v', ', key=str', ', key=lambda v: v[1]',
                      ', key=lambda v: 0', ', key=None'])
    default = rnd.choice(['', '', ', default=None', ', default=-1', ", default='none'"])
    forms = [f"{f}({it}{key}{default})", f"{f}({it}, {rnd.choice(MM_ITEMS)}{key})",
             f"{f}(3, 1, 2{key})", f"{f}('b', 'a', 'c'{key})", f"{f}({it}{default})", f"{f}()",
             f"{f}(1, 2, default=0)", f"{f}([1.5, 1, True]{key})", f"{f}({it}{key}, default=[])",
             f"sorted({it}{key})"]
    chosen = rnd.sample(forms, rnd.randint(1, 3))
    return f"[{', '.join(chosen)}]"


FAMILIES = [fam_strings, fam_slicing, fam_dictset, fam_sorting, fam_comps, fam_unpack,
            fam_format, fam_bigint, fam_float, fam_range, fam_minmax]


class Slow(Exception):
    """A program CPython takes too long over (a linear scan of a huge range)."""


def on_alarm(*_):
    raise Slow()


def run_one(src):
    body, _, last = src.rpartition("\n")
    env = {}
    signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, 2.0)
    try:
        exec(body, env)
        return {"program": src, "repr": repr(eval(last, env))}
    except Slow:
        print(f"slow in CPython, left out: {src!r}", file=sys.stderr)
        return None
    except Exception as e:  # the program's own error is the answer
        return {"program": src, "error": f"{type(e).__name__}: {e}"}
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def main():
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    per_family = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    rnd = gen_common.rng(seed, 0)
    out = []
    for _ in range(count):
        src = program(rnd)
        body, last = src.rsplit("\n", 1)
        env = {}
        try:
            exec(body, env)
            out.append({"program": src, "repr": repr(eval(last, env))})
        except Exception as e:  # the program's own error is the answer
            out.append({"program": src, "error": f"{type(e).__name__}: {e}"})
    for i, fam in enumerate(FAMILIES):
        frnd = gen_common.rng(seed, i + 1)
        for _ in range(per_family):
            case = run_one(fam(frnd))
            if case is not None:
                case["family"] = fam.__name__[4:]
                out.append(case)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
