#!/usr/bin/env python3
"""Generates programs for sorting and key functions and runs each with
CPython.

Families: key functions called directly (len, abs, str.lower / upper /
casefold / strip, int, str, float) and lambdas returning tuples, bools or
numbers, on items whose keys tie but whose reprs differ (so the order of
equal keys shows); larger lists built in the program, for the counting sort
(few distinct ints), packed and paired int words (wide spans, the i64
edges), floats with zeros of both signs, bools among ints, strings sharing
long prefixes, with reverse=; min/max with key=, default= and several
arguments; errors: a key raising, str methods and len on the wrong type,
the list changed by the key during list.sort; and sorts by tuple keys led
by ints (many equal leads and keys that must keep their order, reverse,
leads at the i64 limits or spanning more than 2**32, bools and floats among
them, later items that do not compare or are NaN).

Usage: python3 gen_sort.py SEED PER_FAMILY

Prints one JSON list of cases (see gen_common.py).
"""
import gen_common
from gen_common import stream

I64 = 9223372036854775807
WORDS = ["''", "'a'", "'A'", "'ab'", "'Ab'", "'aB'", "'AB'", "'b'", "'B'", "' a'", "'a '",
         "'é'", "'É'", "'ß'", "'ss'", "'a\\x00'", "'abcdefgh'", "'ABCDEFGH'", "'abcdefghi'",
         "'abcdefgH'", "'zz'", "'10'", "'9'", "'İ'", "'ﬃ'"]
NUMS = ['0', '1', '-1', '2', '-2', '3', '-3', '7', 'True', 'False', '1.0', '-1.0', '0.0', '-0.0',
        '2.5', '-2.5', '1.5', '0.5', str(I64), str(-I64 - 1), str(I64 + 1), str(-I64 - 2),
        "float('inf')", "float('-inf')", '1e300', '9007199254740993']
DIRECT = {
    'str': ['len', 'str.lower', 'str.upper', 'str.casefold', 'str.strip', 'str.swapcase'],
    'num': ['abs', 'int', 'float', 'str', 'bool'],
}
LAMBDAS = ['lambda x: (len(str(x)), str(x))', 'lambda x: -len(str(x))', 'lambda x: (0,)',
           'lambda x: str(x)[:2]', 'lambda x: x == 0', 'lambda x: (abs(x) if not isinstance(x, str) else 0, 1)',
           'lambda x: [str(x).lower()]', 'lambda x: len(str(x)) % 3']


def rev(rnd):
    return rnd.choice(['', ', reverse=True', ', reverse=False', ', reverse=1'])


@stream(1)
def fam_keyfn(rnd):
    kind = rnd.choice(['str', 'str', 'num', 'num'])
    n = rnd.choice([0, 1, 2, 5, 12, 40, 63, 64, 100, 200])
    pool = WORDS if kind == 'str' else NUMS
    items = ', '.join(rnd.choice(pool) for _ in range(n))
    key = rnd.choice(DIRECT[kind] * 3 + LAMBDAS)
    r = rev(rnd)
    if rnd.random() < .5:
        return f"xs = [{items}]\nsorted(xs, key={key}{r})"
    return f"xs = [{items}]\nxs.sort(key={key}{r})\nxs"


@stream(2)
def fam_many(rnd):
    n = rnd.choice([64, 65, 200, 1000, 3000])
    m = rnd.choice([3, 7, 50, 1000, 65537, 1000003])
    off = rnd.choice([0, m // 2, -5])
    shape = rnd.choice(['ints', 'ints', 'edges', 'bools', 'floats', 'zeros', 'strs', 'prefix',
                        'tagged'])
    if shape == 'ints':
        make = f"[(i * 7919) % {m} - {off} for i in range(N)]"
    elif shape == 'edges':
        make = f"[{I64} - (i * 31) % {m} if i % 2 else {-I64 - 1} + (i * 17) % {m} for i in range(N)]"
    elif shape == 'bools':
        make = f"[i % 3 == 0 if i % 4 else (i * 7) % {m} - {off} for i in range(N)]"
    elif shape == 'floats':
        make = f"[((i * 7919) % {m}) / 7.0 - {off} for i in range(N)]"
    elif shape == 'zeros':
        make = f"[(i % 7 - 3) * 0.0 if i % 2 else (i * 13) % 5 - 2.5 for i in range(N)]"
    elif shape == 'strs':
        make = f"['w' + str((i * 7919) % {m}) + 'x' + str(i % 17) for i in range(N)]"
    elif shape == 'prefix':
        make = f"[('Ab' if i % 3 == 0 else 'aB') * (1 + i % 9) + str((i * 31) % {m}) for i in range(N)]"
    else:
        make = f"[((i * 7919) % {m}, 'k' + str(i % 5)) for i in range(N)]"
    keys = {
        'ints': ['None', 'abs', 'lambda x: x % 5', 'lambda x: -x', 'str', 'float'],
        'edges': ['None', 'lambda x: x // 3', 'abs', 'str'],
        'bools': ['None', 'lambda x: x * 2', 'float', 'int'],
        'floats': ['None', 'int', 'abs', 'lambda x: round(x)', 'lambda x: -x'],
        'zeros': ['None', 'abs', 'lambda x: x * 0', 'int'],
        'strs': ['None', 'len', 'str.upper', 'lambda w: w[-3:]', 'lambda w: (len(w), w)'],
        'prefix': ['None', 'len', 'str.lower', 'str.upper', 'lambda w: w[2:]'],
        'tagged': ['None', 'lambda p: p[0]', 'lambda p: p[1]', 'lambda p: (p[1], -p[0])'],
    }[shape]
    key = rnd.choice(keys)
    how = rnd.choice(['sorted', 'sort', 'fresh', 'fresh'])
    body = f"N = {n}\nxs = {make}\n"
    if how == 'sorted':
        body += f"ys = sorted(xs, key={key}{rev(rnd)})\n"
        # A list a name holds is copied, never taken.
        return body + "[ys, xs[:5], len(xs)]"
    elif how == 'fresh':
        # A list nothing else holds: sorted in its own buffer; the source
        # list must come out unchanged.
        src = rnd.choice(['[x for x in xs]', 'list(xs)', 'xs + []', 'xs[::-1]'])
        body += f"ys = sorted({src}, key={key}{rev(rnd)})\n"
        return body + "[ys, xs[:5], xs[-5:]]"
    else:
        body += f"ys = list(xs)\nys.sort(key={key}{rev(rnd)})\n"
    # The whole order, its reprs showing -0.0, True and ties in place.
    return body + "ys"


NAN = "float('nan')"


@stream(3)
def fam_minmax(rnd):
    kind = rnd.choice(['str', 'num'])
    pool = WORDS if kind == 'str' else NUMS
    n = rnd.choice([0, 1, 2, 5, 30])
    items = [rnd.choice(pool + ([NAN] if kind == 'num' and rnd.random() < .2 else [])) for _ in range(n)]
    seq = rnd.choice(['[{}]', '({},)' if n else '()']).format(', '.join(items))
    key = rnd.choice(DIRECT[kind] * 2 + LAMBDAS + ['None'])
    f = rnd.choice(['min', 'max'])
    form = rnd.choice(['seq', 'seq', 'default', 'args'])
    if form == 'seq':
        return f"xs = {seq}\n{f}(xs, key={key})"
    if form == 'default':
        d = rnd.choice(["'d'", 'None', '0'])
        return f"xs = {seq}\n{f}(xs, key={key}, default={d})"
    args = ', '.join(items[:max(2, len(items))] or ['1', '2'])
    if len(items) < 2:
        args = ', '.join(rnd.choice(pool) for _ in range(2))
    return f"{f}({args}, key={key})"


@stream(4)
def fam_errors(rnd):
    n = rnd.choice([1, 3, 10, 70, 300])
    bad = rnd.randint(0, n - 1)
    case = rnd.choice(['str_method', 'len', 'abs', 'raising', 'modify', 'minmax', 'mixed_keys'])
    strs = f"['w' + str(i) for i in range({n})]"
    if case == 'str_method':
        m = rnd.choice(['lower', 'upper', 'strip', 'casefold'])
        other = rnd.choice(['5', 'None', '(1,)', "b'x'", '2.5'])
        return f"xs = {strs}\nxs[{bad}] = {other}\nsorted(xs, key=str.{m}{rev(rnd)})"
    if case == 'len':
        return f"xs = {strs}\nxs[{bad}] = {rnd.choice(['5', 'None', '2.5', 'True'])}\nsorted(xs, key=len)"
    if case == 'abs':
        return f"xs = list(range({n}))\nxs[{bad}] = {rnd.choice(['None', repr('a'), '[1]'])}\nsorted(xs, key=abs)"
    if case == 'raising':
        return f"xs = list(range({n}))\nsorted(xs, key=lambda x: 1 // (x - {bad}){rev(rnd)})"
    if case == 'modify':
        return f"xs = list(range({n}))\nxs.sort(key=lambda x: xs.append(x) or -x)\nxs"
    if case == 'minmax':
        f = rnd.choice(['min', 'max'])
        return f"xs = {strs}\nxs[{bad}] = 7\n{f}(xs, key={rnd.choice(['len', 'str.lower', 'abs'])})"
    return (f"xs = list(range({n}))\n"
            f"sorted(xs, key=lambda x: 'a' if x == {bad} else x{rev(rnd)})")


BIG = 9223372036854775807
LEADS = ['0', '1', '-1', '2', '-5', '3', str(BIG), str(-BIG - 1), '2147483648', '-2147483648', '4294967296', '4294967295', 'True',
         'False', '1.0', '-0.0', str(BIG + 1)]
RESTS = ["'a'", "'b'", "''", '0', '1', '2.5', "float('nan')", '-0.0', 'None', '(1,)', '[0]', 'True']


@stream(5)
def fam_tuple_keys(rnd):
    n = rnd.choice([0, 1, 2, 5, 9, 40])
    narrow = rnd.random() < .6  # leads from a few small ints: many ties
    rests = rnd.choice([["'a'", "'b'", "''"], ['0', '1', '2'], ['1.5', '-0.0', '0']]) if narrow else RESTS
    width = rnd.choice([1, 2]) if narrow else None
    rows = []
    for i in range(n):
        lead = rnd.choice(['0', '1', '-1', '2', '7'] if narrow else LEADS)
        rest = ', '.join(rnd.choice(rests) for _ in range(width or rnd.randint(0, 2)))
        rows.append(f'({lead}, {rest}{", " if rest else ""}{i})' if rnd.random() < .3 else f'({lead}, {rest})')
    lines = [f'rows = [{", ".join(rows)}]', 'tag = [r for r in rows]']
    key = rnd.choice(['lambda r: r', 'lambda r: r[:2]', 'lambda r: (r[0],)', 'lambda r: (-r[0], r[1:])',
                      'lambda r: (r[0], len(r))', 'lambda r: (r[0] % 3, r[0])', 'lambda r: [r[0]]'])
    rev = rnd.choice(['', '', ', reverse=True', ', reverse=False'])
    op = rnd.choice([f'r = sorted(rows, key={key}{rev})', f'rows.sort(key={key}{rev})\nr = rows',
                     f'r = sorted(rows{rev})', f'r = [tag.index(x) for x in sorted(tag, key={key}{rev})]',
                     f'r = max(rows, key={key}) if rows else None'])
    lines.append(op)
    lines.append('r')
    return "\n".join(lines)


FAMILIES = [fam_keyfn, fam_many, fam_minmax, fam_errors, fam_tuple_keys]

if __name__ == "__main__":
    gen_common.main(FAMILIES, line=True)
