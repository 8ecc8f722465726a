#!/usr/bin/env python3
"""Generates programs aimed at ordering and numbers, and runs each with CPython.

Usage: python3 gen_order.py SEED PER_FAMILY

Families: sorting (typed fast paths: ints, floats, strs, tuples and lists of
them, mixed numbers; the general sort: NaN keys, mixed types, errors; key=,
reverse=, stability of equal keys such as 1, 1.0 and True), tuple and list
comparison (mixed lengths and number types, NaN identity), min/max/sum/any/all
over lists and tuples, arithmetic of floats with ints at the 2**53 and i64
edges (`//`, `%`, round with digits), and containment. Each family draws from
its own seed. Prints one JSON list of {"program", "repr" | "error", "family"}.
"""

I64 = 9223372036854775807
NUMS = ['0', '1', '-1', '2', '7', '-3', str(I64), str(-I64 - 1), str(I64 - 1), str(I64 + 1),
        str(-I64 - 2), '2**70 if False else 1180591620717411303424', '9007199254740993',
        '2.5', '-0.0', '0.0', '1.0', '1e300', '-1e-300', "float('inf')", "float('-inf')",
        'True', 'False', '0.1', '3.0', '9007199254740992.0']
# Each NaN is a fresh object: ours has no identity for floats, so the
# identity shortcut CPython takes for one NaN object seen twice is not tried.
NAN = "float('nan')"
STRS = ["''", "'a'", "'b'", "'ab'", "'B'", "'é'", "'a\\x00'", "'zz'", "'10'", "'9'"]


def num(rnd, nan=False):
    if nan and rnd.random() < .15:
        return NAN
    return rnd.choice(NUMS).split(' if ')[-1].replace('False else ', '')


def key_val(rnd, kind, nan):
    if kind == 'int':
        return str(rnd.choice([rnd.randint(-5, 5), rnd.randint(-10**6, 10**6), I64, -I64 - 1]))
    if kind == 'float':
        return rnd.choice(['-0.0', '0.0', '1.5', '-2.25', '1e300', "float('inf')", '3.0',
                           NAN if nan else '0.5', str(rnd.uniform(-100, 100))])
    if kind == 'num':
        return num(rnd, nan)
    if kind == 'str':
        return rnd.choice(STRS)
    if kind == 'tuple':
        n = rnd.randint(0, 3)
        inner = rnd.choice(['int', 'num', 'num', 'str'] + ['mixed'] * (rnd.random() < .1))
        return '(' + ''.join(key_val(rnd, inner, nan) + ', ' for _ in range(n)) + ')'
    if kind == 'list':
        n = rnd.randint(0, 3)
        return '[' + ', '.join(key_val(rnd, rnd.choice(['int', 'num']), nan) for _ in range(n)) + ']'
    # mixed: anything, so comparisons may raise
    return rnd.choice([num(rnd, nan), rnd.choice(STRS), 'None', '(1, 2)', '[1]'])


def fam_sort(rnd):
    kind = rnd.choice(['int', 'float', 'num', 'str', 'tuple', 'tuple', 'list', 'mixed'])
    nan = rnd.random() < .3
    # Past 63 items CPython's sort merges runs as it builds them; NaN and
    # errors are only compared below that (the run phase is the same).
    n = rnd.choice([0, 1, 2, 3, 5, 17, 40, 63]) if (nan or kind == 'mixed') else \
        rnd.choice([0, 2, 10, 63, 64, 65, 100, 300])
    items = ', '.join(key_val(rnd, kind, nan) for _ in range(n))
    rev = rnd.choice(['', ', reverse=True', ', reverse=False', ', reverse=1'])
    # Tagged items sorted by their key keep equal keys in order.
    how = rnd.choice(['plain', 'tagged', 'keyfn', 'method'])
    pre = ""
    if how == 'plain':
        return f"{pre}xs = [{items}]\nys = sorted(xs{rev})\n[ys, xs == sorted(ys{rev}) or True]"
    if how == 'tagged':
        return (f"{pre}xs = [{items}]\npairs = [(x, i) for i, x in enumerate(xs)]\n"
                f"[p[1] for p in sorted(pairs, key=lambda p: p[0]{rev})]")
    if how == 'keyfn':
        key = rnd.choice(['lambda x: (x, 1)', 'lambda x: [x]', 'lambda x: (0, x)', 'str',
                          'lambda x: -1 if x is None else 1'])
        return f"{pre}xs = [{items}]\nsorted(xs, key={key}{rev})"
    return f"{pre}xs = [{items}]\nxs.sort({rev[2:]})\nxs"


def fam_compare(rnd):
    def seq(outer, depth=0):
        n = rnd.randint(0, 3)
        parts = []
        for _ in range(n):
            r = rnd.random()
            if r < .2 and depth < 2:
                parts.append(seq(outer if rnd.random() < .8 else '(', depth + 1))
            elif r < .25:
                parts.append(rnd.choice(STRS))
            else:
                parts.append(num(rnd, True))
        if outer == '[':
            return '[' + ', '.join(parts) + ']'
        return '(' + ''.join(p + ', ' for p in parts) + ')'
    ops = ['<', '<=', '>', '>=', '==', '!=']
    o = rnd.choice('([')
    if rnd.random() < .8:
        expr = f"{seq(o)} {rnd.choice(ops)} {seq(o if rnd.random() < .95 else '[')}"
    else:
        expr = f"{seq(o)} < {seq(o)} <= {seq(o)}"
    return expr


def fam_reduce(rnd):
    n = rnd.choice([0, 1, 2, 5, 9, 300])
    kind = rnd.choice(['int', 'float', 'num', 'str', 'tuple', 'mixed'])
    items = ', '.join(key_val(rnd, kind, rnd.random() < .3) for _ in range(n))
    wrap = rnd.choice(['[{}]', '({},)' if n else '()'])
    seq = wrap.format(items)
    expr = rnd.choice([
        f"min({seq})", f"max({seq})", f"min({seq}, default='d')", f"max({seq}, default=None)",
        f"sum({seq})", f"sum({seq}, 0.5)", f"sum({seq}, {I64})", f"any({seq})", f"all({seq})",
        f"min({seq}, key=lambda v: (v, 0))", f"max({seq}, key=str)",
        f"[min(xs), max(xs)] if xs else 0",
    ])
    return f"xs = {seq}\n{expr}"


def fam_arith(rnd):
    exprs = []
    for _ in range(6):
        a, b = num(rnd), num(rnd)
        op = rnd.choice(['+', '-', '*', '/', '//', '%'])
        if op in ('/', '//', '%') and b in ('0', '-0.0', '0.0', 'False') and rnd.random() < .9:
            b = '7'
        if op == '*' and '300' in a and '300' in b:
            b = '2'
        exprs.append(f"{a} {op} {b}")
    x = rnd.choice([str(rnd.uniform(-1e6, 1e6)), str(rnd.randint(-10**6, 10**6) / 8),
                    f"{rnd.randint(0, 10**6)}.5", str(rnd.randint(0, 10**5) / 1000),
                    '2.675', '0.125', '-0.5', '1.5', '2.5', '1e22', '123456789.123456789',
                    '4503599627370495.5', '-0.0', "float('inf')", "float('nan')", '5e-324'])
    nd = rnd.choice(['', ', 0', ', 1', ', 2', ', 3', ', -1', ', -2', ', 5', ', 15', ', 22', ', 23',
                     ', 400', ', -400', ', True'])
    exprs.append(f"round({x}{nd})")
    exprs.append(f"abs({num(rnd)})")
    exprs.append(f"{num(rnd)} < {num(rnd)} <= {num(rnd)}")
    return "[" + ", ".join(exprs) + "]"


def fam_contains(rnd):
    n = rnd.choice([0, 1, 4, 50])
    items = ', '.join(key_val(rnd, rnd.choice(['num', 'tuple', 'str', 'mixed']), True) for _ in range(n))
    probe = rnd.choice([num(rnd), NAN, rnd.choice(STRS), '(1, 2)', '(1.0, 2)', '[1]', 'None'])
    items = ', '.join(([items] if items else []) + [NAN])
    return (f"xs = [{items}]\n"
            f"[{probe} in xs, {probe} in tuple(xs), {probe} not in xs[:-1], xs.count({probe}), "
            f"{rnd.choice(['0', '4', '-3', str(I64), '10000000000000000004', 'True'])} in range(-3, 100000000000000000000, 7)]")


FAMILIES = [fam_sort, fam_compare, fam_reduce, fam_arith, fam_contains]


if __name__ == "__main__":
    import gen_common

    gen_common.main(FAMILIES)
