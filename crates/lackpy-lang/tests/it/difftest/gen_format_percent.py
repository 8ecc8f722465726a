#!/usr/bin/env python3
"""Generates programs for `%` formatting and runs each with CPython.

Families: one conversion (every type, width, flag) over mixed arguments
(bools are ints, ints at the i64 boundary, big ints, non-ASCII text under a
width, templates reused with different arguments and errors); constant
templates with a tuple (or one value) of mixed int, bool, float and str
operands (the template parsed once, the tuple never built), including every
error (too few or too many arguments, wrong types) with its line.

Usage: python3 gen_format_percent.py SEED PER_FAMILY

Prints one JSON list of cases (see gen_common.py).
"""
import gen_common
from gen_common import stream

BIG = 9223372036854775807


@stream(5)
def fam_mixed_args(rnd):
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


PERCENT = ["%s", "%d", "%i", "%5d", "%-5d", "%05d", "%+d", "% d", "%x", "%X", "%#x", "%o",
           "%.2f", "%5.1f", "%-8.3f", "%f", "%e", "%.3e", "%g", "%.10g", "%r", "%a", "%c",
           "%5s", "%-5s", "%.2s", "%%", "%*d", "%.*f", "%u", "%E", "%G", "%#o"]
PERCENT_ARGS = ["0", "-7", "42", "True", "False", "3.14159", "-0.0", "float('nan')", "1e300",
                "'ab'", "'é€'", "''", "9223372036854775807", "-9223372036854775808",
                "1180591620717411303424", "[1]", "None", "65", "2.5", "'x'"]


@stream(3)
def fam_tuple(rnd):
    n = rnd.choice([1, 1, 2, 3, 4, 6])
    convs = [rnd.choice(PERCENT) for _ in range(n)]
    lits = [rnd.choice(["", " ", ": ", "é", "|", "[", "] "]) for _ in range(n + 1)]
    template = lits[0] + "".join(c + l for c, l in zip(convs, lits[1:]))
    need = sum(c.count("*") + (0 if c == "%%" else 1) for c in convs)
    k = need + rnd.choice([0, 0, 0, 0, -1, 1])
    # Mostly an operand each conversion takes; sometimes any operand.
    fits = []
    for c in convs:
        if c == "%%":
            continue
        fits += ["3"] * c.count("*")
        if rnd.random() < 0.15:
            fits.append(rnd.choice(PERCENT_ARGS))
        elif c[-1] in "sra":
            fits.append(rnd.choice(PERCENT_ARGS))
        elif c[-1] == "c":
            fits.append(rnd.choice(["65", "'x'", "0x10ffff", "'é'"]))
        else:
            fits.append(rnd.choice(["0", "-7", "42", "True", "3.14159", "-0.0", "2.5",
                                    "9223372036854775807", "-9223372036854775808", "1180591620717411303424",
                                    "1e300", "float('inf')", "i", "i * 0.37"]))
    args = (fits + [rnd.choice(PERCENT_ARGS)])[:max(k, 0)]
    shape = rnd.random()
    if shape < 0.6 or len(args) != 1:
        rhs = "(" + ", ".join(args) + ("," if len(args) == 1 else "") + ")"
    else:
        rhs = args[0]
    names = rnd.random() < 0.4
    if names and args:
        pre = "".join(f"a{i} = {a}\n" for i, a in enumerate(args))
        rhs = "(" + ", ".join(f"a{i}" for i in range(len(args))) + ("," if len(args) == 1 else "") + ")"
    else:
        pre = ""
    loop = rnd.random() < 0.3
    if loop:
        return (f"{pre}out = []\nfor i in range(3):\n    s = {template!r} % {rhs}\n"
                f"    out.append(s)\nout")
    return f"{pre}i = 3\ns = {template!r} % {rhs}\n[s, len(s)]"


FAMILIES = [fam_mixed_args, fam_tuple]

if __name__ == "__main__":
    gen_common.main(FAMILIES, line=True)
