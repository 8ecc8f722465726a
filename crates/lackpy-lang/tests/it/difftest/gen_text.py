#!/usr/bin/env python3
"""Generates lackpy programs aimed at the text fast paths and runs each with
CPython.

Usage: python3 gen_text.py SEED PER_FAMILY

Families: ASCII and non-ASCII case mapping (short strings held inline and
long ones), split/rsplit/replace/count with one-byte, multi-byte and
non-ASCII separators and limits, strip with ASCII and non-ASCII char sets,
join over lists, tuples, iterators and single items (with the length of
the result, which the join computes without a rescan), float repr and
fixed-precision formatting over random bit patterns and edge cases
(subnormals, powers of ten, the 1e16 boundary, negative zero, ties), `%`
with mixed arguments (bools are ints, ints at the i64 boundary, big ints,
non-ASCII text under a width, templates reused with different arguments
and errors), and str()/int()/float() conversions.

Prints one JSON list of {"program", "family", "repr"|"error"}; the last
line of each program is an expression whose repr() is the answer.
"""
import json
import random
import struct
import sys

ASCII = "abcXYZ019 _-',.\t"
WIDE = "éÅßΣσςİǅﬁ😀"
BIG = 9223372036854775807


def text(rnd, wide=0.2, longer=False):
    n = rnd.choice([0, 1, 3, 8, 23, 24, 25, 40]) if not longer else rnd.randint(20, 60)
    alphabet = ASCII + (WIDE if rnd.random() < wide else "")
    out = "".join(rnd.choice(alphabet) for _ in range(n))
    # A '__' in a string literal is outside the language.
    while "__" in out:
        out = out.replace("__", "_")
    return out


def fam_case(rnd):
    s = text(rnd, longer=rnd.random() < .3)
    ops = ["s.upper()", "s.lower()", "s.title()", "s.capitalize()", "s.swapcase()",
           "len(s.upper())", "s.upper().lower() == s.lower()", "s.title().istitle()"]
    return f"s = {s!r}\n[{', '.join(rnd.sample(ops, 4))}]"


def fam_split(rnd):
    alphabet = rnd.choice(["ab,; ", "a,b", "xy\t\n \x0b", "aé,é", "ab" + "ab"])
    s = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 50)))
    sep = rnd.choice([",", ";", " ", "ab", "é", "aé", "xyz", ",,"])
    n = rnd.choice(["-1", "0", "1", "2", "100"])
    new = rnd.choice(["", "-", "XYZW", "ü"])
    chars = rnd.choice(["' ,'", "'ab'", "'é,'", "None", "'\\t\\n '"])
    ops = [f"s.split({sep!r})", f"s.split({sep!r}, {n})", f"s.rsplit({sep!r}, {n})",
           "s.split()", f"s.split(None, {n})", f"s.rsplit(None, {n})",
           f"s.replace({sep!r}, {new!r})", f"s.replace({sep!r}, {new!r}, {n})",
           f"len(s.replace({sep!r}, {new!r}))", f"s.count({sep!r})", f"s.count({sep!r}, 2, -3)",
           f"s.strip({chars})", f"s.lstrip({chars})", f"s.rstrip({chars})",
           f"s.find({sep!r})", f"s.rfind({sep!r})", f"s.partition({sep!r})",
           f"s.startswith(({sep!r}, 'a'))", f"s.endswith({sep!r})"]
    return f"s = {s!r}\n[{', '.join(rnd.sample(ops, 5))}]"


def fam_join(rnd):
    items = [text(rnd, wide=.4) for _ in range(rnd.randint(0, 5))]
    sep = rnd.choice(["", ",", ", ", "é", " | "])
    src = rnd.choice([f"{items!r}", f"tuple({items!r})", f"reversed({items!r})",
                      f"[x.upper() for x in {items!r}]", "[s]", "[1, 'a']", "['a', None]",
                      "reversed([s, s])", "s", "{'k': 1, 'j': 2}"])
    return f"s = {text(rnd)!r}\nr = {sep!r}.join({src})\n[r, len(r), r[-2:], r == {sep!r}.join(list({src}))]"


def random_float(rnd):
    pick = rnd.random()
    if pick < .3:
        return struct.unpack("<d", struct.pack("<Q", rnd.getrandbits(64)))[0]
    if pick < .5:
        return rnd.choice([0.0, -0.0, 5e-324, 2.2250738585072014e-308, 1.7976931348618157e308,
                           1e16, 9999999999999998.0, 1e15, 0.0001, 0.00001, 1e22, 1e23,
                           0.1, 0.2, 0.3, 1 / 3, 2.675, 0.125, 0.375, 2.5, 1e-7, 123456789.0,
                           float("inf"), float("-inf"), float("nan")])
    if pick < .7:
        return float(f"1e{rnd.randint(-324, 308)}") * rnd.choice([1, -1, 3, 7.5])
    return rnd.randint(-10 ** 6, 10 ** 6) / rnd.choice([1, 8, 10, 100, 1000, 1024])


def float_lit(x):
    if x != x:
        return "float('nan')"
    if x in (float("inf"), float("-inf")):
        return f"float({str(x)!r})"
    return repr(x)


def fam_float(rnd):
    x = float_lit(random_float(rnd))
    p = rnd.choice([0, 1, 2, 3, 6, 10, 17, 30])
    ops = ["str(x)", "f'{x!r}'", "f'{x}'", "'%s' % x", "'%r' % x", "str(-x)", "len(str(x))",
           f"'%.{p}f' % x", f"f'{{x:.{p}f}}'", "f'{x:08.3f}'", "f'{x:>12}'", "'{:.2f}'.format(x)",
           f"'%.{p}e' % x", f"f'{{x:.{p}g}}'", "str([x, x / 3])", "str(x * 3)", "str(x) == f'{x}'",
           "float(str(x)) == x or x != x"]
    return f"x = {x}\n[{', '.join(rnd.sample(ops, 5))}]"


def fam_percent(rnd):
    ints = ["0", "-1", "7", str(BIG), str(-BIG - 1), str(BIG + 1), "True", "False", "2.9",
            "-2.5", str(-(2 ** 70))]
    strs = ["'ab'", "'éü'", "''", "'x' * 30", "'😀'"]
    a, b = rnd.choice(ints), rnd.choice(ints)
    s = rnd.choice(strs)
    tmpl = rnd.choice(["%d", "%5d", "%-6d|", "%i%u", "%x", "%X", "%o", "%-8x|", "%s", "%8s|",
                       "%-8s|", "%r", "%c", "%05d", "%+d", "% d", "%#x", "%.3d"])
    pair = rnd.choice(["'%d-%s' % (a, s)", "'%s and %s' % (a, s)", "'%x/%o' % (a, b)",
                       "'%(k)s=%(v)d' % {'k': s, 'v': a}", "'%*d' % (4, a)", "'%d%%' % a",
                       "'%d %d' % (a,)", "'%d' % (a, b)", "'%s' % [a, s]", "'%s' % (s,)",
                       "'%5s|%-5s|' % (s, s)"])
    return "\n".join([
        f"a = {a}", f"b = {b}", f"s = {s}",
        "out = []",
        "vs = [a, b, s, a]",
        f"for v in vs:\n    out.append({tmpl!r} % v if not isinstance(v, str) or {tmpl!r} in ('%s', '%8s|', '%-8s|', '%r') else '')",
        f"[out, {pair}]",
    ])


def fam_conv(rnd):
    vals = ["0", "-0", str(BIG), str(-BIG - 1), str(BIG + 1), "True", "None", "1.5", "-0.0",
            "1e16", "'12'", "' -7 '", "'1_000'", "'١٢'", "'0x10'", "'3.25'", "' 1e-5 '",
            "'inf'", "'-nan'", "'1.5e400'", "'abc'", "''", "'+4'", "'\\x1c9'", "'9\\x1f'",
            "'\\x0b9\\x0c'", "'\\x859'", "'\\u20289.5'", "' 123456789012345678 '",
            "'-1234567890123456789'", "'9' * 19", "'0' * 30 + '7'"]
    v = rnd.choice(vals)
    ops = ["str(v)", "len(str(v))", "int(v)", "float(v)", "int(str(v)) if isinstance(v, int) else 0",
           "str(v) + '|'", "[str(v)] * 2", "str(int(float(v)))"]
    return f"v = {v}\n[{', '.join(rnd.sample(ops, 3))}]"


def fam_template(rnd):
    vals = ["0", "-1", "7", str(BIG), str(-BIG - 1), str(BIG + 1), "True", "2.5", "-0.0",
            "1e16", "'ab'", "'éü'", "None", "[1, 'a']", "float('nan')"]
    a, b = rnd.choice(vals), rnd.choice(vals)
    spec = rnd.choice(["", ":>8", ":<6", ":^9", ":,", ":_", ":x", ":X", ":o", ":b", ":08.3f",
                       ":.2f", ":10.1f", ":>12,", ":+d", ":e", ":g", ":.3", ":*^7", ":=8",
                       ":#x", ":d", ":s", ":.2%", "!r", "!s:>5", "!a"])
    tmpl = rnd.choice(["{%s}|{}" % spec, "{0%s}-{1}-{0}" % spec, "{a%s}" % spec,
                       "{} {1}", "{", "x}", "{:{w}}", "{0:{1}}", "{{}}{}" ])
    ops = [f"{tmpl!r}.format(a, b, a=a, w=5)", f"f'{{a{spec}}}|{{b{spec}}}'",
           f"[{tmpl!r}.format(v, v, a=v, w=3) for v in [a, b]]", f"'{{0{spec}}}'.format(a)"]
    return f"a = {a}\nb = {b}\n[{', '.join(rnd.sample(ops, 2))}]"


def fam_slice(rnd):
    s = text(rnd, wide=.5, longer=rnd.random() < .3)
    b = lambda: rnd.choice(["", "0", "1", "-1", "2", "-3", "5", "30", "-30", "None"])
    st = rnd.choice(["", "1", "2", "-1", "-2", "3", "-7"])
    ops = [f"s[{b()}:{b()}]", f"s[{b()}:{b()}:{st or '1'}]", f"s[::{st or '-1'}]",
           f"len(s[{b()}:{b()}:{st or '1'}])", f"s[{b()}:] + s[:{b()}]", "s[0] if s else ''",
           "s[-1] if s else ''", "s[:] is s", "[c for c in s[1:4]]", "s[1:2] == s[1] if len(s) > 1 else 0",
           "s.partition(s[1:3])[1:] if len(s) > 3 else 0", "s.center(30, '*')", "s.ljust(27)",
           "s.rjust(26, 'é')", "s.zfill(28)", "len(s.center(31))"]
    return f"s = {s!r}\n[{', '.join(rnd.sample(ops, 5))}]"


FAMILIES = [fam_case, fam_split, fam_join, fam_float, fam_percent, fam_conv, fam_template,
            fam_slice]


if __name__ == "__main__":
    import gen_common

    gen_common.main(FAMILIES)
