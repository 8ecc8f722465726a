#!/usr/bin/env python3
"""Generates programs for str indexing and slicing and runs each with
CPython.

Families: slices of every step (reversed, strided, both signs, huge) and
bound of ASCII and non-ASCII text around the inline length, gathered on the
stack or in one buffer, compared, hashed and looked up as keys; indexing and
slicing by constants, names and expressions, IndexError and the line it is
raised on; slices beside padding and partition of the same text.

Usage: python3 gen_str_slice.py SEED PER_FAMILY

Prints one JSON list of cases (see gen_common.py).
"""
import gen_common
from gen_common import stream, text


@stream(8)
def fam_slice_mix(rnd):
    s = text(rnd, wide=.5, longer=rnd.random() < .3)
    b = lambda: rnd.choice(["", "0", "1", "-1", "2", "-3", "5", "30", "-30", "None"])
    st = rnd.choice(["", "1", "2", "-1", "-2", "3", "-7"])
    ops = [f"s[{b()}:{b()}]", f"s[{b()}:{b()}:{st or '1'}]", f"s[::{st or '-1'}]",
           f"len(s[{b()}:{b()}:{st or '1'}])", f"s[{b()}:] + s[:{b()}]", "s[0] if s else ''",
           "s[-1] if s else ''", "s[:] is s", "[c for c in s[1:4]]", "s[1:2] == s[1] if len(s) > 1 else 0",
           "s.partition(s[1:3])[1:] if len(s) > 3 else 0", "s.center(30, '*')", "s.ljust(27)",
           "s.rjust(26, 'é')", "s.zfill(28)", "len(s.center(31))"]
    return f"s = {s!r}\n[{', '.join(rnd.sample(ops, 5))}]"


@stream(6)
def fam_steps(rnd):
    n = rnd.choice([0, 1, 2, 5, 23, 24, 25, 26, 48, 49, 50, 51, 100, 300])
    t = "".join(rnd.choice("abcdefghij") for _ in range(n))
    if rnd.random() < 0.3 and n:
        pos = rnd.randrange(n)
        t = t[:pos] + rnd.choice(["é", "€", "😀"]) + t[pos + 1:]
    bound = lambda: rnd.choice(["", "0", "1", "-1", "3", "-5", str(n), str(n + 7), "-999",
                                str(n // 2)])
    step = rnd.choice(["", "1", "-1", "2", "-2", "3", "-3", "7", "-7", "24", "-25", "1000"])
    expr = f"t[{bound()}:{bound()}:{step}]"
    return (f"t = {t!r}\nr = {expr}\n"
            f"[r, len(r), r == {expr}, {{r: 1}}.get(''.join(list(r)), 0), r[::-1][:3]]")


TEXTS = ["", "a", "abc", "abcdefghij" * 3, "héllo wörld", "€uro😀x", "x" * 24 + "é",
         "0123456789"]
IDX = ["0", "1", "-1", "2", "-3", "5", "-11", "24", "25", "100", "-100", "i", "j", "i + 1",
       "-1 - i", "True", "False", "n - 1"]
BOUND = ["", "0", "1", "-1", "2", "-3", "i", "j", "i + 2", "100", "-100", "None", "n"]
STEP = ["", "", "1", "2", "-1", "-2", "3", "7", "-5", "0"]


@stream(4)
def fam_index(rnd):
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


SIZED_ASCII = "abcab a,=e"
SIZED_WIDE = "éΣ😀ß"


def sized_text(rnd, wide, n=None):
    if n is None:
        n = rnd.choice([0, 1, 2, 23, 24, 25, 47, 48, 49, 60, rnd.randint(0, 80)])
    alphabet = SIZED_ASCII + (SIZED_WIDE if rnd.random() < wide else "")
    return "".join(rnd.choice(alphabet) for _ in range(n))


@stream(1)
def fam_step(rnd):
    s = sized_text(rnd, .3)
    b = lambda: rnd.choice(["", "0", "1", "-1", "3", "-5", "24", "25", "-49", "100", "None"])
    st = rnd.choice(["1", "2", "-1", "-2", "3", "-7", "25", "-100", str(2 ** 62)])
    e = f"s[{b()}:{b()}:{st}]"
    return f"s = {s!r}\nt = {e}\n[t, len(t), t[::-1][:5], len(t + s), t == {s!r}[{b()}:{b()}:{st}]]"


FAMILIES = [fam_slice_mix, fam_steps, fam_index, fam_step]

if __name__ == "__main__":
    gen_common.main(FAMILIES, line=True)
