#!/usr/bin/env python3
"""Generates programs for int format specs and runs each with CPython.

Family: specs of every form (fill, every alignment, sign, '#', '0', width,
',' and '_' grouping, every type code, precision and 'z' errors) on ints at
and around the i64 boundary (the machine-word digits), bools and
negatives, through f-strings and str.format.

Usage: python3 gen_format_int.py SEED PER_FAMILY

Prints one JSON list of cases (see gen_common.py).
"""
import gen_common
from gen_common import stream

INTS = ["0", "1", "-1", "7", "-42", "255", "1000", "-1000", "123456789", "True", "False",
        "9223372036854775807", "-9223372036854775807", "-9223372036854775808",
        "9223372036854775808", "-9223372036854775809", "1180591620717411303424", "-18446744073709551616", "65", "0x10ffff"]


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


def use_spec(rnd, value, spec):
    if rnd.random() < 0.6:
        return f"f'{{{value}:{spec}}}'"
    return f"'<{{:{spec}}}>'.format({value})"


@stream(1)
def fam_spec(rnd):
    v = rnd.choice(INTS)
    spec = int_spec(rnd)
    return f"v = {v}\nr = {use_spec(rnd, 'v', spec)}\n[r, len(r)]"


FAMILIES = [fam_spec]

if __name__ == "__main__":
    gen_common.main(FAMILIES, line=True)
