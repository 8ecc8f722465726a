#!/usr/bin/env python3
"""Generates programs for str.split, rsplit and splitlines and runs each
with CPython.

Families: split/rsplit/splitlines beside replace, count, strip, find and
partition on the same text; separators at the ends, runs of separators,
few and many parts; every kind of separator (one byte, several bytes,
overlapping like 'aa', non-ASCII, whitespace) on short texts and past the
short-search limit (256 bytes), with every maxsplit; splits of many
repeated words (the parts share their strings: equal parts must stay equal
keys, whatever their identity); splitlines over every line break (\\r\\n,
\\r, \\x0b, \\x0c, \\x1c-\\x1e, \\x85, \\u2028, \\u2029) with keepends; and a
split-family call consumed directly by a loop, a comprehension, an
unpacking or an index (the pieces made one at a time, no list): every
maxsplit (negative, 0, 1, large, bool, the i64 limit, too large, the wrong
type), keyword arguments, empty texts and pieces, bad arguments and their
lines, matching and mismatching counts, starred and non-name targets,
`partition`/`rpartition` as loop sources, loops that rebind the text or the
loop name, and loops nesting a split of each piece.

Usage: python3 gen_split.py SEED PER_FAMILY

Prints one JSON list of cases (see gen_common.py).
"""
import gen_common
from gen_common import pick, stream


@stream(2)
def fam_split_mix(rnd):
    alphabet = rnd.choice(["ab,; ", "a,b", "xy\t\n \x0b", "aé,é", "ab" + "ab"])
    s = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 50)))
    sep = rnd.choice([",", ";", " ", "ab", "é", "aé", "xyz", ",,"])
    n = rnd.choice(["-1", "0", "1", "2", "100"])
    new = rnd.choice(["", "-", "XYZW", "ü"])
    chars = rnd.choice(["' ,'", "'ab'", "'é,'", "None", "'\\t\\n '"])
    ops = [f"s.split({sep!r})", f"s.split({sep!r}, {n})", f"s.rsplit({sep!r}, {n})",
           "s.split()", f"s.split(None, {n})", f"s.rsplit(None, {n})",
           f"s.replace({sep!r}, {new!r})", f"s.replace({sep!r}, {new!r}, {n})",
           f"len(s.replace({sep!r}, {new!r}))", f"s.count({sep!r})", f"s.count({sep!r}, 2, -3)",
           f"s.strip({chars})", f"s.lstrip({chars})", f"s.rstrip({chars})",
           f"s.find({sep!r})", f"s.rfind({sep!r})", f"s.partition({sep!r})",
           f"s.startswith(({sep!r}, 'a'))", f"s.endswith({sep!r})"]
    return f"s = {s!r}\n[{', '.join(rnd.sample(ops, 5))}]"


@stream(5)
def fam_split_edges(rnd):
    wide = rnd.random() < 0.3
    unit = rnd.choice(["a", "ab", "é", "word", ""])
    sep = rnd.choice([",", ", ", "é", "::", " "])
    pieces = [rnd.choice([unit, "", unit * 2, "x" + unit]) for _ in range(rnd.choice([0, 1, 2, 5, 31, 32, 33, 60]))]
    s = sep.join(pieces)
    if rnd.random() < 0.3:
        s = sep + s + sep
    if wide:
        s += "é"
    n = rnd.choice(["-1", "0", "1", "3", "100"])
    lines = "".join(rnd.choice(["a", "é", "\n", "\r\n", "\r", "\x0b", "\x1c", "\u2028", "\x85", " "])
                    for _ in range(rnd.randint(0, 30)))
    ops = [f"s.split({sep!r})", f"s.rsplit({sep!r}, {n})", f"s.split({sep!r}, {n})",
           "s.split()", f"s.rsplit(None, {n})", "len(s.split())",
           "t.splitlines()", "t.splitlines(True)", "len(t.splitlines())",
           f"[len(x) for x in s.split({sep!r})]"]
    return f"s = {s!r}\nt = {lines!r}\n[{', '.join(rnd.sample(ops, 4))}]"


ATOMS = ["a", "b", "ab", "aa", "é", "ß", "€", "😀", "x y", " ", "", "1", "--", "a\tb",
         "word", "long-word-over-24-bytes-xx", "\u2028", "\r\n", "\n", "\x0b", "\x85"]
ATOM_SEPS = [",", "--", "aa", "a", "é", "€", ", ", "ab", "xyz", "😀", "\n", " ", "ba"]


def atom_text(rnd, long_ok=True):
    n = rnd.choice([0, 1, 2, 3, 5, 8, 40] + ([150, 300] if long_ok else []))
    return "".join(rnd.choice(ATOMS + ATOM_SEPS) for _ in range(n))


@stream(1)
def fam_split_seps(rnd):
    t = atom_text(rnd)
    sep = rnd.choice(ATOM_SEPS + ["None", "''"])
    sep_src = sep if sep in ("None", "''") else repr(sep)
    maxsplit = rnd.choice(["", ", -1", ", 0", ", 1", ", 2", ", 5", ", maxsplit=3"])
    how = rnd.choice(["split", "rsplit"])
    return (f"t = {t!r}\nparts = t.{how}({sep_src}{maxsplit})\n"
            f"[parts, len(parts), [len(p) for p in parts]]")


@stream(2)
def fam_split_shared(rnd):
    words = [rnd.choice(["a", "bb", "é", "the", "ab", "ba", "x" * 24, "y" * 25, "12",
                         "Ab", "αβ", str(rnd.randrange(1000))])
             for _ in range(rnd.choice([4, 10]))]
    n = rnd.choice([20, 31, 32, 33, 100, 255, 256, 257, 400, 700])
    picks = [rnd.choice(words) for _ in range(n)]
    sep = rnd.choice([" ", ",", "\n", ", ", "ab"])
    how = rnd.choice(["split", "rsplit", "splitlines" if sep == "\n" else "split"])
    arg = "" if how == "splitlines" else repr(sep)
    if sep == " " and rnd.random() < 0.5:
        arg = ""
    use = rnd.choice([
        "counts = {}\nfor p in parts:\n    counts[p] = counts.get(p, 0) + 1\n"
        "out = sorted(counts.items())",
        "s = set(parts)\nout = sorted(s)",
        "out = [p == q for p, q in zip(parts, parts[1:])]",
        # Mutating the list (or a part's name) must not touch the others.
        "parts[0] = parts[0] + '!'\nparts[-1] += '?'\nout = parts[:3] + parts[-3:]",
        "out = [{p: 1}.get(p[:] + '', 0) for p in parts[:50]]",
    ])
    return f"t = {sep.join(picks)!r}\nparts = t.{how}({arg})\n{use}\n[out, len(parts)]"


@stream(3)
def fam_splitlines(rnd):
    brs = ["\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85",
           "\u2028", "\u2029", "\n\r", "\r\r\n", "\x1f"]
    n = rnd.choice([0, 1, 2, 3, 6, 40])
    t = "".join(rnd.choice(ATOMS) + rnd.choice(brs) * rnd.choice([0, 1, 1, 2])
                for _ in range(n))
    keep = rnd.choice(["", "True", "False", "keepends=True", "keepends=0"])
    return f"t = {t!r}\nls = t.splitlines({keep})\n[ls, len(ls), ''.join(ls) == t]"


SIZED_ASCII = "abcab a,=e"
SIZED_WIDE = "éΣ😀ß"


@stream(4)
def fam_splitlines_breaks(rnd):
    breaks = ["\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85",
              "\u2028", "\u2029", "\n\r", "\x1f", "\u2027", "\u202a", "\xc2", "\xe2"]
    s = "".join(rnd.choice(breaks) if rnd.random() < .3 else rnd.choice(SIZED_ASCII + SIZED_WIDE)
                for _ in range(rnd.randint(0, 40)))
    keep = rnd.choice(["", "True", "keepends=True", "False", "0"])
    return f"s = {s!r}\nt = s.splitlines({keep})\n[t, [len(x) for x in t]]"


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


def text(rnd):
    return repr(rnd.choice(TEXTS))


@stream(1)
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


@stream(2)
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


@stream(3)
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


BAD = ["''", "1", "b','", "[',']", "sep=''", "maxsplit='1'", "maxsplit=1.5", f"maxsplit={BIG + 1}",
       "',', 1, 2", "x=1", "None, 'a'"]


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


@stream(4)
def fam_errors(rnd):
    c = bad_call(rnd) if rnd.random() < .6 else call(rnd)
    recv = pick(rnd, "t", "t", "t", "n", "xs")
    c = c.replace("t.", recv + ".", 1)
    use = pick(rnd, f"for x in {c}:\n    out.append(x)", f"r = [x for x in {c}]",
               f"a, b = {c}", f"out.append([x for x in 'ab' for y in {c}])",
               f"for x in xs:\n    for y in {c}:\n        out.append(y)")
    return f"t = {text(rnd)}\nsep = 'a'\nn = 5\nxs = ['a,b']\nout = []\n{use}\nout"


@stream(5)
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


@stream(6)
def fam_item(rnd):
    c = call(rnd) if rnd.random() < .85 else bad_call(rnd)
    k = pick(rnd, "0", "1", "2", "-1", "-2", "-3", "5", "-10", "k", "-k", "0", "1", "-1", "k",
             "1:", "::-1", "-1:", "True", pick(rnd, str(BIG), str(-BIG - 1), "1.0", "None", "'x'", "False"))
    use = pick(rnd, f"r = {c}[{k}]", f"r = [{c}[{k}], {c}[0] if {c} else 'none']",
               f"r = [len({c}[{k}]), k]", f"r = {c}[{k}][{pick(rnd, '0', '-1', '1:')}]",
               f"r = [x[{k}] for x in {c}]", f"r = [len({c}), {c}]", f"r = len({c}) + k")
    return f"t = {text(rnd)}\nsep = ','\nk = {pick(rnd, '1', '-1', '0', '3')}\n{use}\nr"


FAMILIES = [fam_split_mix, fam_split_edges, fam_split_seps, fam_split_shared, fam_splitlines,
            fam_splitlines_breaks, fam_loop, fam_comp, fam_unpack, fam_errors, fam_nested, fam_item]

if __name__ == "__main__":
    gen_common.main(FAMILIES, line=True)
