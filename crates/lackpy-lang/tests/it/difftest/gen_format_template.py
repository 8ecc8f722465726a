#!/usr/bin/env python3
"""Generates programs for str.format templates and f-string specs and runs
each with CPython.

Family: templates (auto and manual numbering, names, nested width fields,
stray braces) and specs (alignment, grouping, every type, conversions) over
ints at the i64 edges, bools, floats, text, None and lists, each template
reused with other arguments.

Usage: python3 gen_format_template.py SEED PER_FAMILY

Prints one JSON list of cases (see gen_common.py).
"""
import gen_common
from gen_common import stream

BIG = 9223372036854775807


@stream(7)
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


FAMILIES = [fam_template]

if __name__ == "__main__":
    gen_common.main(FAMILIES)
