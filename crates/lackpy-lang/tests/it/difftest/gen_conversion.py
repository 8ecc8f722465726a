#!/usr/bin/env python3
"""Generates programs for the conversions between text and numbers and
runs each with CPython.

Families: str(), int() and float() of ints at the i64 edges and past them,
bools, floats and text (signs, spaces, underscores, non-ASCII digits,
control characters, hex, exponents, malformed text); float() of plain
decimals and of every other form (inf, nan, huge and tiny exponents,
subnormals).

Usage: python3 gen_conversion.py SEED PER_FAMILY

Prints one JSON list of cases (see gen_common.py).
"""
import gen_common
from gen_common import stream

BIG = 9223372036854775807


@stream(6)
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


@stream(8)
def fam_float_parse(rnd):
    body = rnd.choice([
        lambda: str(rnd.randrange(10 ** rnd.choice([1, 3, 9, 17, 25]))),
        lambda: f"{rnd.randrange(1000)}.{rnd.randrange(1000)}",
        lambda: f"{rnd.randrange(100)}e{rnd.choice(['', '-', '+'])}{rnd.randrange(400)}",
        lambda: f"{rnd.randrange(100)}E{rnd.randrange(30)}",
        lambda: rnd.choice([".5", "5.", ".", "e5", "1e", "1.e3", ".e1", "1e+", "1.5e-3",
                            "1_000.5", "1_0_0", "_1", "1_", "inf", "-Infinity", "nan", "+nAn",
                            "1e400", "-0.0", "0x10", "١٢.٥", "0.1", "00012.50", "1.5.2",
                            "--1", "+-1", "1e5.0", "", " ", "9" * 30 + "." + "9" * 30,
                            "2.2250738585072014e-308", "4.9e-324", "1e-400"]),
    ])()
    sign = rnd.choice(["", "", "-", "+"])
    pad = rnd.choice(["", "", " ", "\t", "\n ", "\x1c", "\xa0"])
    t = pad + sign + body + rnd.choice(["", "", " ", "\x85"])
    return f"t = {t!r}\nf = float(t)\n[f, f == f, str(f), f'{{f!r}}']"


FAMILIES = [fam_conv, fam_float_parse]

if __name__ == "__main__":
    gen_common.main(FAMILIES)
