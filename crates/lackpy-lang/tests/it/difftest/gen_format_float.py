#!/usr/bin/env python3
"""Generates programs for float repr and float formatting and runs each
with CPython.

Families: repr and fixed-precision formatting (str, f-strings, `%`,
str.format) over random bit patterns and edge cases (subnormals, powers of
ten, the 1e16 boundary, negative zero, ties); 'e'/'E'/'g'/'G'/'%'/no-type
specs at every precision up to past 19 digits (the 128-bit significant
digits) on ties, neighbours of powers of ten, NaN, infinities, -0.0,
subnormals and huge values, with fill, alignment, sign, '#', '0', width,
grouping and 'z'.

Usage: python3 gen_format_float.py SEED PER_FAMILY

Prints one JSON list of cases (see gen_common.py).
"""
import struct

import gen_common
from gen_common import stream


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


@stream(4)
def fam_repr_fixed(rnd):
    x = float_lit(random_float(rnd))
    p = rnd.choice([0, 1, 2, 3, 6, 10, 17, 30])
    ops = ["str(x)", "f'{x!r}'", "f'{x}'", "'%s' % x", "'%r' % x", "str(-x)", "len(str(x))",
           f"'%.{p}f' % x", f"f'{{x:.{p}f}}'", "f'{x:08.3f}'", "f'{x:>12}'", "'{:.2f}'.format(x)",
           f"'%.{p}e' % x", f"f'{{x:.{p}g}}'", "str([x, x / 3])", "str(x * 3)", "str(x) == f'{x}'",
           "float(str(x)) == x or x != x"]
    return f"x = {x}\n[{', '.join(rnd.sample(ops, 5))}]"


FLOATS = ["0.0", "-0.0", "1.5", "2.5", "0.125", "-0.375", "9.5", "99.5", "999999.5",
          "1e22", "1e23", "-1e-5", "123.456", "1/3", "2/3", "5e-324", "1.7976931348623157e308",
          "float('nan')", "float('inf')", "-float('inf')", "0.1", "9.999999999999999e22",
          "1e16", "12345678901234567890.0", "7", "True", "-3"]


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


@stream(2)
def fam_spec(rnd):
    v = rnd.choice(FLOATS)
    spec = float_spec(rnd)
    return f"v = {v}\nr = {use_spec(rnd, 'v', spec)}\n[r, len(r)]"


FAMILIES = [fam_repr_fixed, fam_spec]

if __name__ == "__main__":
    gen_common.main(FAMILIES, line=True)
