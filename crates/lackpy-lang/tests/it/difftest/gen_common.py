"""What the generated differential tests' scripts share: the one seeded
random source, running each program with CPython, and printing the cases
as JSON.

A generator script defines FAMILIES (functions taking a random.Random and
returning a program whose last line is an expression) and calls
`main(FAMILIES)`; argv is the seed and the number of programs per family.
Each case is {family, program, repr | error}; `line=True` adds the line of
an error, `stdout=True` what the program printed.
"""
import contextlib
import io
import json
import random
import sys


def rng(seed, stream):
    """The generators' one random source: stream `stream` of the run seeded
    `seed` (Python's Mersenne Twister, the same on every platform), so each
    family or generator draws its own numbers and adding one shifts no
    other."""
    return random.Random(seed * 100 + stream)


def stream(n):
    """Gives a family the stream `n` of `rng` (by default a family's stream
    is its place in FAMILIES, counted from 1). A family moved to another
    script keeps its stream, so it makes the same programs there; two
    families of a script may share a stream, each reading it its own way."""
    def mark(fam):
        fam.stream = n
        return fam
    return mark


def run_one(src):
    """Runs `src` (its last line an expression): the repr of that
    expression's value, or the error as "Type: message"."""
    body, _, last = src.rpartition("\n")
    env = {}
    try:
        exec(body, env)
        return {"program": src, "repr": repr(eval(last, env))}
    except Exception as e:  # the program's own error is the answer
        return {"program": src, "error": f"{type(e).__name__}: {e}"}


def error_line(src):
    """The line `src` raised its error on: the last line when the body ran,
    else the innermost frame of the program's own code."""
    body, _, last = src.rpartition("\n")
    try:
        exec(body, {})
        return src.count("\n") + 1
    except Exception as e:
        tb, line = e.__traceback__, 0
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == "<string>":
                line = tb.tb_lineno
            tb = tb.tb_next
        return line


def run_case(src, line=False, stdout=False):
    """One case: as run_one, with the error's line (`line`) and what the
    program printed (`stdout`) when asked. What a program prints never
    reaches this script's own output."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        case = run_one(src)
        if line and "error" in case:
            with contextlib.redirect_stdout(io.StringIO()):
                case["line"] = error_line(src)
    if stdout:
        case["stdout"] = printed.getvalue()
    return case


TEXT_ASCII = "abcXYZ019 _-',.\t"
TEXT_WIDE = "éÅßΣσςİǅﬁ😀"


def text(rnd, wide=0.2, longer=False):
    """A string literal's text: ASCII, non-ASCII with chance `wide`, of a
    length around the inline limit (or 20-60 characters when `longer`)."""
    n = rnd.choice([0, 1, 3, 8, 23, 24, 25, 40]) if not longer else rnd.randint(20, 60)
    alphabet = TEXT_ASCII + (TEXT_WIDE if rnd.random() < wide else "")
    out = "".join(rnd.choice(alphabet) for _ in range(n))
    # A '__' in a string literal is outside the language.
    while "__" in out:
        out = out.replace("__", "_")
    return out


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


def main(families, line=False, stdout=False):
    """Prints the cases of `families` (argv: seed, programs per family) as
    one JSON list; see run_case for `line` and `stdout`."""
    seed, per_family = int(sys.argv[1]), int(sys.argv[2])
    out = []
    for i, fam in enumerate(families):
        rnd = rng(seed, getattr(fam, "stream", i + 1))
        for _ in range(per_family):
            case = run_case(fam(rnd), line=line, stdout=stdout)
            case["family"] = fam.__name__[4:]
            out.append(case)
    json.dump(out, sys.stdout)
