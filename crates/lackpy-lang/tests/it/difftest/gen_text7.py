#!/usr/bin/env python3
"""Generates lackpy programs aimed at the seventh round of text fast paths
and runs each with CPython.

Usage: python3 gen_text7.py SEED PER_FAMILY

Families: int format specs (fill, every alignment, sign, '#', '0', width,
',' and '_' grouping, every type code, precision and 'z' errors) on ints
at and around the i64 boundary, bools and negatives, through f-strings
and str.format; 'e'/'E'/'g'/'G'/'%'/no-type float specs at
every precision up to past 19 digits on ties, neighbours of powers of
ten, NaN, infinities, -0.0, subnormals and huge values; `%` formatting
with a constant template and a tuple (or one value) of mixed int, bool,
float and str operands, including every error (too few or too many
arguments, wrong types) with its line; str indexing and slicing by
constants, names and expressions with every step on ASCII and
non-ASCII text, including IndexError and the line it is raised on; the
str predicates (isdigit, isalpha, islower, ...) on ASCII text with
control characters and on non-ASCII digits, numerals and title-case
letters, with wrong arguments.

Prints one JSON list of {"program", "family", "repr"|"error", "line"?}.
"""
import gen_common

INTS = ["0", "1", "-1", "7", "-42", "255", "1000", "-1000", "123456789", "True", "False",
        "9223372036854775807", "-9223372036854775807", "-9223372036854775808",
        "9223372036854775808", "-9223372036854775809", "1180591620717411303424", "-18446744073709551616", "65", "0x10ffff"]
FLOATS = ["0.0", "-0.0", "1.5", "2.5", "0.125", "-0.375", "9.5", "99.5", "999999.5",
          "1e22", "1e23", "-1e-5", "123.456", "1/3", "2/3", "5e-324", "1.7976931348623157e308",
          "float('nan')", "float('inf')", "-float('inf')", "0.1", "9.999999999999999e22",
          "1e16", "12345678901234567890.0", "7", "True", "-3"]


def int_spec(rnd):
    fill = rnd.choice(["", "", "*", "é", "0", " "])
    align = rnd.choice(["", "", "<", ">", "^", "="])
    if not align:
        fill = ""
    sign = rnd.choice(["", "", "+", "-", " "])
    alt = rnd.choice(["", "", "#"])
    zero = rnd.choice(["", "", "0"])
    width = rnd.choice(["", "", "1", "5", "12", "25"])
    group = rnd.choice(["", "", ",", "_"])
    prec = rnd.choice([""] * 12 + [".2"])
    z = rnd.choice([""] * 15 + ["z"])
    ty = rnd.choice(["", "d", "d", "x", "X", "o", "b", "n", "c", "e", "f", "%", "g", "s"])
    return f"{fill}{align}{sign}{z}{alt}{zero}{width}{group}{prec}{ty}"


def float_spec(rnd):
    fill = rnd.choice(["", "*"])
    align = rnd.choice(["", "", "<", ">", "^", "="])
    if not align:
        fill = ""
    sign = rnd.choice(["", "", "+", " "])
    alt = rnd.choice(["", "", "#"])
    zero = rnd.choice(["", "", "0"])
    width = rnd.choice(["", "", "8", "14", "30"])
    group = rnd.choice(["", "", "", ",", "_"])
    prec = rnd.choice(["", "", ".0", ".1", ".3", ".6", ".12", ".16", ".17", ".18", ".19",
                       ".20", ".25"])
    z = rnd.choice([""] * 8 + ["z"])
    ty = rnd.choice(["e", "E", "g", "G", "", "%", "e", "g"])
    return f"{fill}{align}{sign}{z}{alt}{zero}{width}{group}{prec}{ty}"


def use_spec(rnd, value, spec):
    if rnd.random() < 0.6:
        return f"f'{{{value}:{spec}}}'"
    return f"'<{{:{spec}}}>'.format({value})"


def fam_int_spec(rnd):
    v = rnd.choice(INTS)
    spec = int_spec(rnd)
    return f"v = {v}\nr = {use_spec(rnd, 'v', spec)}\n[r, len(r)]"


def fam_float_spec(rnd):
    v = rnd.choice(FLOATS)
    spec = float_spec(rnd)
    return f"v = {v}\nr = {use_spec(rnd, 'v', spec)}\n[r, len(r)]"


PERCENT = ["%s", "%d", "%i", "%5d", "%-5d", "%05d", "%+d", "% d", "%x", "%X", "%#x", "%o",
           "%.2f", "%5.1f", "%-8.3f", "%f", "%e", "%.3e", "%g", "%.10g", "%r", "%a", "%c",
           "%5s", "%-5s", "%.2s", "%%", "%*d", "%.*f", "%u", "%E", "%G", "%#o"]
PERCENT_ARGS = ["0", "-7", "42", "True", "False", "3.14159", "-0.0", "float('nan')", "1e300",
                "'ab'", "'é€'", "''", "9223372036854775807", "-9223372036854775808",
                "1180591620717411303424", "[1]", "None", "65", "2.5", "'x'"]


def fam_percent(rnd):
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


TEXTS = ["", "a", "abc", "abcdefghij" * 3, "héllo wörld", "€uro😀x", "x" * 24 + "é",
         "0123456789"]
IDX = ["0", "1", "-1", "2", "-3", "5", "-11", "24", "25", "100", "-100", "i", "j", "i + 1",
       "-1 - i", "True", "False", "n - 1"]
BOUND = ["", "0", "1", "-1", "2", "-3", "i", "j", "i + 2", "100", "-100", "None", "n"]
STEP = ["", "", "1", "2", "-1", "-2", "3", "7", "-5", "0"]


def fam_str_slice(rnd):
    t = rnd.choice(TEXTS)
    i = rnd.randrange(-3, 12)
    j = rnd.randrange(-3, 30)
    kind = rnd.random()
    if kind < 0.35:
        e = f"t[{rnd.choice(IDX)}]"
    else:
        a, b, st = rnd.choice(BOUND), rnd.choice(BOUND), rnd.choice(STEP)
        e = f"t[{a}:{b}" + (f":{st}]" if st else "]")
    use = rnd.choice([
        "out = [r, len(r)]",
        "out = [r == t[:], r + '!', {r: 1}.get(''.join(list(r)), 0)]",
        "out = [r[::-1][:5], r.upper()]",
    ])
    loop = rnd.random() < 0.3
    if loop:
        return (f"t = {t!r}\nn = len(t)\ni = {i}\nj = {j}\nout = []\n"
                f"for i in range({i}, {i} + 3):\n    r = {e}\n    out.append(r)\nout")
    return f"t = {t!r}\nn = len(t)\ni = {i}\nj = {j}\nr = {e}\n{use}\nout"


PRED_PIECES = ["a", "Z", "0", "9", "abc", "ABC", "Ab", "12", " ", "\t", "\x1c", "\x1f", "_a",
               "-", ".", "\x00", "\x7f", "²", "Ⅻ", "ǅ", "ß", "٣", "é", "É", "😀", "ﬁ", "\u2028"]
PREDS = ["isdigit", "isalpha", "isalnum", "islower", "isupper", "isdecimal", "isnumeric",
         "isspace", "istitle", "isascii"]


def fam_str_pred(rnd):
    n = rnd.choice([0, 1, 1, 2, 3, 6])
    ascii_only = rnd.random() < 0.6
    pieces = [p for p in PRED_PIECES if p.isascii()] if ascii_only else PRED_PIECES
    t = "".join(rnd.choice(pieces) for _ in range(n))
    calls = rnd.sample(PREDS, 4)
    bad = rnd.random() < 0.1
    extra = rnd.choice(["1", "'a'", "x=1"]) if bad else ""
    body = ", ".join(f"t.{c}({extra})" for c in calls)
    loop = rnd.random() < 0.3
    if loop:
        return (f"ts = [{t!r}, {t!r}.upper(), {t!r}.lower()]\nout = []\nfor t in ts:\n"
                f"    if t.{calls[0]}():\n        out.append(1)\n    out.append([{body}])\nout")
    return f"t = {t!r}\n[{body}]"


FAMILIES = [fam_int_spec, fam_float_spec, fam_percent, fam_str_slice, fam_str_pred]

if __name__ == "__main__":
    gen_common.main(FAMILIES, run=gen_common.run_with_line)
