#!/usr/bin/env python3
"""Generates programs aimed at the memory-saving paths of sorts and list
concatenation, and runs each with CPython.

Usage: python3 gen_mem.py SEED PER_FAMILY

Families: sorted() of a list the program still holds (ordered where it
lies, the result built from the order), with no key or a key that runs no
Python code (len, abs, str methods), reverse= in every spelling, on items
whose keys tie but whose reprs differ (1, 1.0, True; 0.0, -0.0; equal
tuples of differently spelt numbers), strings sharing long prefixes,
non-ASCII and NUL, ints at the i64 edges, NaN inside tuples, mixed types
that raise, lists holding themselves; the same list printed afterwards;
list + list where either side is a temporary (a comprehension, a display,
a call's result) or a name used again, chains, a list added to itself,
nested containers, temporaries of a megabyte and more (moved in parts),
and the errors. Each family draws from its own seed.
Prints one JSON list of {"program", "repr" | "error", "family"}.
"""
import gen_common
from gen_common import pick

I64 = 9223372036854775807
STRS = ["''", "'a'", "'A'", "'ab'", "'abcdefgh'", "'abcdefgh\\x00'", "'abcdefghi'",
        "'abcdefghabcdefgh1'", "'abcdefghabcdefgh'", "'é'", "'éa'", "'ß'", "'zz'", "'10'",
        "'9'", "'a' * 17", "'a' * 16 + 'b'", "'😀'", "'İ'", "'x y'"]
NUMS = ["0", "1", "1.0", "True", "False", "0.0", "-0.0", "-1", "2", "2.5", str(I64),
        str(-I64 - 1), str(I64 + 1), "float('inf')", "-3"]
TUPS = ["(1, 'a')", "(1.0, 'a')", "(True, 'a')", "(1, 'b')", "(0, 'z')", "(-0.0, 'z')",
        "(0.0, 'z')", "(1, 2, 3)", "(1, 2)", "()", "(2,)", "('a', 1)", "(1, [2])", "(1, [2.0])"]
ODD = ["None", "[1]", "'s'", "(1, 'a')", "float('nan')", "(float('nan'), 1)", "[float('nan')]"]
REV = ["", ", reverse=True", ", reverse=False", ", reverse=1", ", reverse=0"]
STR_KEYS = ["len", "str.lower", "str.upper", "str.strip", "str.casefold", "None"]
NUM_KEYS = ["abs", "None", "abs", "None", "len"]


def items(rnd, pool, n):
    return ", ".join(rnd.choice(pool) for _ in range(n))


def fam_sorted_shared(rnd):
    kind = pick(rnd, "str", "str", "num", "tup", "odd")
    n = pick(rnd, 0, 1, 2, 3, 8, 30, 70, 200)
    pool = {"str": STRS, "num": NUMS, "tup": TUPS, "odd": NUMS + ODD}[kind]
    if kind == "str":
        key = pick(rnd, *STR_KEYS)
    elif kind == "num":
        key = pick(rnd, *NUM_KEYS)
    else:
        key = pick(rnd, "None", "len", "abs")
    kw = "" if key == "None" and rnd.random() < .5 else f", key={key}"
    r = pick(rnd, *REV)
    first = f"xs = [{items(rnd, pool, n)}]"
    if rnd.random() < .2:
        first += "\nxs.append(xs)"
    last = pick(rnd, "[a, xs]", "a", "[a == sorted(xs{kw}{r}), len(a), xs]".format(kw=kw, r=r),
                "[a[:3], a[-3:]]")
    if "append(xs)" in first and last in ("[a, xs]", "a"):
        last = "len(a)"
    return f"{first}\nys = xs\na = sorted(xs{kw}{r})\n{last}"


def fam_sorted_many(rnd):
    m = pick(rnd, 3, 50, 1000, 100003)
    shape = pick(rnd, "strs", "prefix", "tup", "mixed", "wide")
    n = pick(rnd, 64, 300, 2000)
    if shape == "strs":
        make = f"['w' + str((i * 7919) % {m}) + 'x' + str(i % 17) for i in range(N)]"
        key = pick(rnd, "None", "len", "str.lower", "str.swapcase")
    elif shape == "prefix":
        make = f"[('Ab' if i % 3 == 0 else 'aB') * (1 + i % 9) + str((i * 31) % {m}) for i in range(N)]"
        key = pick(rnd, "None", "len", "str.lower")
    elif shape == "tup":
        make = f"[((i * 7919) % {m}, 'k' + str(i % 5)) if i % 4 else ((i * 7919) % {m} * 1.0, 'k' + str(i % 5)) for i in range(N)]"
        key = pick(rnd, "None", "len")
    elif shape == "mixed":
        make = f"[str((i * 7919) % {m}) if i % 3 else 'é' + str(i) for i in range(N)]"
        key = pick(rnd, "None", "len", "str.upper")
    else:
        make = f"[{I64} - (i * 31) % {m} if i % 2 else {-I64 - 1} + (i * 17) % {m} for i in range(N)]"
        key = pick(rnd, "abs", "None")
    kw = "" if key == "None" else f", key={key}"
    r = pick(rnd, *REV)
    probe = pick(rnd, "a[:5] + a[-5:]", "[a[::97], xs[:3]]", "[a == sorted(list(xs){kw}{r}), len(a)]".format(kw=kw, r=r))
    return f"N = {n}\nxs = {make}\na = sorted(xs{kw}{r})\n{probe}"


def side(rnd, name):
    return pick(rnd, name, f"[v * 2 for v in {name}]", f"list({name})", f"{name}[:]",
                "[1, 'a', None]", "[]", f"[[v] for v in {name}]", f"{name} + []",
                f"sorted({name}, key=str)", f"[x for x in range(3)]")


def big_concat(rnd):
    """Temporaries large enough to be moved in parts."""
    n = pick(rnd, 65536, 70001, 90000)
    left = pick(rnd, "[i for i in range(N)]", "[str(i) for i in range(N // 2)]", "[]")
    right = pick(rnd, "[str(i) for i in range(N)]", "[(i, i) for i in range(N)]", "list(range(N))")
    probe = pick(rnd, "[len(c), c[::9973], c[-3:]]", "[len(c), c[N - 2:N + 2], c[0:2]]")
    return f"N = {n}\nc = {left} + {right}\n{probe}"


def fam_concat(rnd):
    if rnd.random() < .04:
        return big_concat(rnd)
    a = f"[{items(rnd, NUMS + STRS, pick(rnd, 0, 1, 3, 9))}]"
    b = f"[{items(rnd, NUMS + STRS, pick(rnd, 0, 1, 2, 7))}]"
    form = rnd.random()
    if form < .5:
        expr = f"{side(rnd, 'a')} + {side(rnd, 'b')}"
    elif form < .7:
        expr = f"{side(rnd, 'a')} + {side(rnd, 'b')} + {side(rnd, 'a')}"
    elif form < .8:
        expr = f"{side(rnd, 'a')} + {pick(rnd, '(1, 2)', 'None', repr('s'), '{1: 2}', 'b[0:1]')}"
    elif form < .9:
        expr = "[a] + [b]"
    else:
        expr = f"({side(rnd, 'a')}) + ({side(rnd, 'a')})"
    after = pick(rnd, "[c, a, b]", "[c, len(c), a]", "[c is a, c == a + b, b]", "c")
    extra = ""
    if rnd.random() < .3:
        extra = "\nc.append(c[:1])"
    return f"a = {a}\nb = {b}\nc = {expr}{extra}\n{after}"


def fam_concat_loop(rnd):
    n = pick(rnd, 1, 5, 40)
    grow = pick(rnd, "acc = acc + [i]", "acc = [i] + acc", "acc = acc + [i, str(i)]",
                "acc = [v for v in acc] + [i]", "acc = acc + acc[:1]", "acc += [i]")
    keep = pick(rnd, "", "\n    seen.append(acc)", "\n    seen = [acc]")
    last = pick(rnd, "[acc, len(seen)]", "[acc[:3], acc[-3:], [len(s) for s in seen][:5]]")
    return f"acc = []\nseen = []\nfor i in range({n}):\n    {grow}{keep}\n{last}"


FAMILIES = [fam_sorted_shared, fam_sorted_many, fam_concat, fam_concat_loop]

if __name__ == "__main__":
    gen_common.main(FAMILIES)
