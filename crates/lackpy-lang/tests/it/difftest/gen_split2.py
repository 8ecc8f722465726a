#!/usr/bin/env python3
"""Generates programs that consume a split-family call directly and runs
each with CPython.

Usage: python3 gen_split2.py SEED PER_FAMILY

The interpreter walks the pieces of `split`, `rsplit` and `splitlines` one
at a time when a loop, a comprehension or an unpacking consumes the call
(no list is made), so every form of the call is exercised there: one- and
several-byte separators (some overlapping themselves), whitespace, every
maxsplit (negative, 0, 1, large, bool, the i64 limit, too large, the wrong
type), keyword arguments, keepends, empty texts and pieces, non-ASCII text
and line breaks, long texts (their repeated pieces are shared), bad
arguments (type errors, the empty separator) and their lines; unpacking
with matching and mismatching counts, starred and non-name targets,
`partition`/`rpartition` (also as loop sources); a call indexed
(`s.split(sep)[k]`: ints from either end, out of range, bool, slices, wrong
types) and counted (`len(s.split())`); loops whose body rebinds the text being split or the loop
name, and loops nesting a split of each piece (the language has no
`break` or `continue`).

Prints one JSON list of {"program", "family", "repr"|"error", "line"?}: the
last line of each program is an expression whose repr() is the answer; an
exception gives "ClassName: message" and its line.
"""
import gen_common
from gen_common import pick

BIG = 9223372036854775807
LONG_WORDS = " ".join(["ab", "cd", "ab", "é", "ef", "ab", "x" * 30] * 30)
LONG_CSV = ",".join(str(i % 7) for i in range(400))
TEXTS = [
    "", " ", "a", "a,b,,c", ",a,", "  a  b\tc\n ", "k=v=w", "aaa", "aaaa", "abab", "ab",
    "x\r\ny\rz\n", "line1\nline2\n", "\n\n", "é,ü,,ß", "a\u2028b\u2029c\x85d", "a\x1cb\x1dc\x1ee",
    "ab  cd\u3000ef \xa0", "αβγ δ ε", "a\x0bb\x0cc", "/usr/local/lib/file12.txt", "k = v",
    "\r\n", "a\r", "x y z ", "  lead", "trail  ", "1,2,3,4,5", "a b\nc d\n\ne f",
    LONG_WORDS, LONG_CSV, "w\n" * 40,
]
SEPS = ["None", "','", "'='", "' '", "'a'", "'aa'", "'ab'", "'é'", "', '", "'\\n'", "'xyz'",
        "'/'", "'b'", "'\\u3000'", "'aba'"]
MAXSPLITS = ["", "-1", "0", "1", "2", "3", "100", "-5", "True", "False", str(BIG)]
BAD = ["''", "1", "b','", "[',']", "sep=''", "maxsplit='1'", "maxsplit=1.5", f"maxsplit={BIG + 1}",
       "',', 1, 2", "x=1", "None, 'a'"]


def call(rnd, recv="t"):
    """A split-family call on `recv` (usually legal)."""
    m = pick(rnd, "split", "split", "rsplit", "rsplit", "splitlines", "partition", "rpartition")
    if m.endswith("partition"):
        arg = pick(rnd, repr('='), repr('a'), repr(','), repr('ab'), repr('é'), 'sep')
        return f"{recv}.{m}({arg})"
    if m == "splitlines":
        arg = pick(rnd, "", "True", "False", "keepends=True", "keepends=False", "1", "0")
        return f"{recv}.splitlines({arg})"
    sep, ms = rnd.choice(SEPS), rnd.choice(MAXSPLITS)
    form = rnd.random()
    if ms == "":
        args = pick(rnd, "", sep, f"sep={sep}")
    elif form < .5:
        args = f"{sep}, {ms}"
    elif form < .75:
        args = f"sep={sep}, maxsplit={ms}"
    else:
        args = f"maxsplit={ms}" if sep == "None" else f"{sep}, maxsplit={ms}"
    return f"{recv}.{m}({args})"


def bad_call(rnd, recv="t"):
    m = pick(rnd, "split", "rsplit", "splitlines", "partition")
    if m == "partition":
        m = pick(rnd, 'partition', 'rpartition')
        arg = pick(rnd, repr(''), '1', 'None', 'sep=1', repr('a') + ', 1', '')
        return f"{recv}.{m}({arg})"
    if m == "splitlines":
        bad = pick(rnd, "True, 1", "x=1", "keepends=[]", "[]", "1.5", "None", str(2 ** 40), "-1", "'x'")
        return f"{recv}.splitlines({bad})"
    return f"{recv}.{m}({rnd.choice(BAD)})"


def text(rnd):
    return repr(rnd.choice(TEXTS))


def fam_loop(rnd):
    c = call(rnd)
    body = pick(rnd, "out.append(x)", "out.append(len(x))", "out.append(x.upper())",
                "if x == 'a':\n        out.append(0)\n    else:\n        out.append(x)",
                "if x:\n        out.append(x)",
                "out.append(x)\n    t = 'zz,zz'",
                "out.append(x)\n    x = 'rebound'",
                "out.append(x)\n    out.append(t.split(x)[0] if x else x)")
    tail = pick(rnd, "", "\nelse:\n    out.append('done')")
    last = pick(rnd, "out", "[out, x]", "[out, t]", "len(out)")
    return f"t = {text(rnd)}\nsep = '='\nx = 'before'\nout = []\nfor x in {c}:\n    {body}{tail}\n{last}"


def fam_comp(rnd):
    c = call(rnd)
    shape = rnd.random()
    if shape < .3:
        e = f"[x for x in {c}]"
    elif shape < .45:
        e = f"[len(x) for x in {c} if x]"
    elif shape < .55:
        e = f"sorted({{x for x in {c}}})"
    elif shape < .65:
        e = f"{{x: i for i in range(2) for x in {c}}}"
    elif shape < .75:
        e = f"[[y for y in x.split()] for x in {c}]"
    elif shape < .85:
        e = f"[(x, y) for x in {c} for y in x.{pick(rnd, 'split', 'rsplit')}({pick(rnd, '', repr('a'), repr(','), 'None, 1')})]"
    elif shape < .92:
        e = f"[int(x) for x in {c} if x.isdigit()]"
    else:
        e = f"[x + y for x, y in [(a, b) for a in {c} for b in 'pq']]"
    return f"t = {text(rnd)}\nsep = ','\nx = 'outer'\nr = {e}\n[r, x]"


def fam_unpack(rnd):
    c = call(rnd)
    tgt = pick(rnd, "a, b", "a, b", "a, b, c", "a,", "(a, b)", "[a, b]", "a, *b", "*a, b",
               "a, *b, c", "d['k'], b", "a, a", "a, b, c, d, e, f, g, h, i")
    names = sorted({n for n in "abcdefghi" if n in tgt.replace("d['k']", "")})
    src = pick(rnd, c, c, c, f"t.{pick(rnd, 'partition', 'rpartition')}({pick(rnd, repr('='), repr('a'), repr(','), repr(''), '1')})")
    last = f"[{', '.join(names)}]" if names else "d"
    if "d['k']" in tgt:
        last = f"[d, {', '.join(names)}]" if names else "d"
    return f"t = {text(rnd)}\nsep = {pick(rnd, repr('='), repr('b'), '1')}\nd = {{}}\na = b = c = 'old'\n{tgt} = {src}\n{last}"


def fam_errors(rnd):
    c = bad_call(rnd) if rnd.random() < .6 else call(rnd)
    recv = pick(rnd, "t", "t", "t", "n", "xs")
    c = c.replace("t.", recv + ".", 1)
    use = pick(rnd, f"for x in {c}:\n    out.append(x)", f"r = [x for x in {c}]",
               f"a, b = {c}", f"out.append([x for x in 'ab' for y in {c}])",
               f"for x in xs:\n    for y in {c}:\n        out.append(y)")
    return f"t = {text(rnd)}\nsep = 'a'\nn = 5\nxs = ['a,b']\nout = []\n{use}\nout"


def fam_nested(rnd):
    c = call(rnd)
    inner = pick(rnd, "x.split()", "x.split(',')", "x.rsplit('a', 1)", "x.splitlines()",
                 "x.split('=', 1)", "t.split()")
    prog = pick(
        rnd,
        f"out = []\nfor x in {c}:\n    for y in {inner}:\n        out.append([x, y])\nout",
        f"out = []\nfor x in {c}:\n    t = x\n    for y in {inner}:\n        out.append(y)\n[out, t]",
        f"out = {{}}\nfor x in {c}:\n    for w in {inner}:\n        out[w] = out.get(w, 0) + 1\nsorted(out.items())",
        f"out = []\nfor i in range(3):\n    for x in {c}:\n        out.append(x)\n        t = t[1:]\n[out, t]",
        f"out = []\nfor x in {c}:\n    p = x.split('=', 1)\n    out.append(p)\n    if len(p) == 2:\n        k, v = p\n        out.append(k + v)\nout",
    )
    return f"t = {text(rnd)}\nsep = 'b'\n{prog}"


def fam_item(rnd):
    c = call(rnd) if rnd.random() < .85 else bad_call(rnd)
    k = pick(rnd, "0", "1", "2", "-1", "-2", "-3", "5", "-10", "k", "-k", "0", "1", "-1", "k",
             "1:", "::-1", "-1:", "True", pick(rnd, str(BIG), str(-BIG - 1), "1.0", "None", "'x'", "False"))
    use = pick(rnd, f"r = {c}[{k}]", f"r = [{c}[{k}], {c}[0] if {c} else 'none']",
               f"r = [len({c}[{k}]), k]", f"r = {c}[{k}][{pick(rnd, '0', '-1', '1:')}]",
               f"r = [x[{k}] for x in {c}]", f"r = [len({c}), {c}]", f"r = len({c}) + k")
    return f"t = {text(rnd)}\nsep = ','\nk = {pick(rnd, '1', '-1', '0', '3')}\n{use}\nr"


if __name__ == "__main__":
    gen_common.main([fam_loop, fam_comp, fam_unpack, fam_errors, fam_nested, fam_item],
                    run=gen_common.run_with_line)
