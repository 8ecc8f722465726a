"""What the generated differential tests' scripts share: run each program
with CPython and print the cases as JSON.

A generator script defines FAMILIES (functions taking a random.Random and
returning a program whose last line is an expression) and calls
`main(FAMILIES)`; argv is the seed and the number of programs per family.
Each case is {family, program, repr | error}; `run=run_with_line` adds
the line of an error, `run=run_with_stdout` what the program printed.
"""
import json
import random
import sys


def run_one(src):
    body, _, last = src.rpartition("\n")
    env = {}
    try:
        exec(body, env)
        return {"program": src, "repr": repr(eval(last, env))}
    except Exception as e:  # the program's own error is the answer
        return {"program": src, "error": f"{type(e).__name__}: {e}"}


def run_with_line(src):
    """As run_one, and an error also gives the line it was raised on."""
    case = run_one(src)
    if "error" in case:
        body, _, last = src.rpartition("\n")
        try:
            exec(body, {})
            case["line"] = src.count("\n") + 1
        except Exception as e:
            tb, line = e.__traceback__, 0
            while tb is not None:
                if tb.tb_frame.f_code.co_filename == "<string>":
                    line = tb.tb_lineno
                tb = tb.tb_next
            case["line"] = line
    return case


def run_with_stdout(src):
    """As run_one, and what the program printed is the case's "stdout"."""
    import contextlib
    import io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        case = run_one(src)
    case["stdout"] = buf.getvalue()
    return case


def pick(rnd, *options):
    """One of `options`, drawn from `rnd`."""
    return rnd.choice(options)


def comp_shapes(rnd, elt, t, src, cond, first, value):
    """One comprehension over `src` with target `t`: a list, dict or set
    comprehension, one nested in another loop, or one inside a list."""
    shape = rnd.random()
    if shape < .35:
        return f"[{elt} for {t} in {src}{cond}]"
    if shape < .55:
        return f"{{str({first}): {value} for {t} in {src}{cond}}}"
    if shape < .7:
        return f"sorted({{str({first}) for {t} in {src}{cond}}})"
    if shape < .85:
        return f"[{elt} for x in [1, 2] for {t} in {src}{cond}]"
    return f"[[{elt} for {t} in {src}{cond}] for x in range(2)]"


def main(families, run=run_one):
    seed, per_family = int(sys.argv[1]), int(sys.argv[2])
    out = []
    for i, fam in enumerate(families):
        rnd = random.Random(seed * 100 + i + 1)
        for _ in range(per_family):
            case = run(fam(rnd))
            case["family"] = fam.__name__[4:]
            out.append(case)
    json.dump(out, sys.stdout)
