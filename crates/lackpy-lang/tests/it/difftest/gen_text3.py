#!/usr/bin/env python3
"""Generates lackpy programs aimed at the third round of text fast paths and
runs each with CPython.

Usage: python3 gen_text3.py SEED PER_FAMILY

Families: join over mixed and non-str items (the TypeError names the first
bad item), non-ASCII pieces, empty and non-ASCII separators, results whose
length crosses 24 bytes, the former inline limit (the join and concatenation write at
a cursor into a buffer of the exact length); substring search on short and
long (past 256 bytes) texts with overlapping candidates, bounds and needles
longer than the text; replace with counts and overlapping patterns;
partition/rpartition edge cases; split/rsplit/splitlines with separators at
the ends, runs of separators, few and many parts; concatenation and padding
around the inline limit.

Prints one JSON list of {"program", "family", "repr"|"error"}; the last
line of each program is an expression whose repr() is the answer.
"""
import gen_common

ASCII = "abcxyz01 ,;-"
WIDE = "éßΣσ😀ﬁ"


def word(rnd, wide=0.3, lengths=(0, 1, 2, 5, 11, 12, 13, 23, 24, 25, 30)):
    n = rnd.choice(lengths)
    alphabet = ASCII + (WIDE if rnd.random() < wide else "")
    return "".join(rnd.choice(alphabet) for _ in range(n))


def literal(rnd):
    """A random item for a join: mostly str, sometimes another type."""
    return rnd.choice([
        repr(word(rnd)), repr(word(rnd)), repr(word(rnd)), repr(word(rnd)),
        "1", "True", "None", "1.5", "['a']", "('a',)", "b'x'", "-9223372036854775808",
    ])


def fam_join_mixed(rnd):
    items = [literal(rnd) for _ in range(rnd.randint(0, 6))]
    sep = rnd.choice(["", ",", ", ", "é", " | ", "😀", "ab" * 7])
    lst = "[" + ", ".join(items) + "]"
    src = rnd.choice([lst, f"tuple({lst})", f"reversed({lst})", f"[x for x in {lst}]",
                      f"reversed(tuple({lst}))", "{'k': 1, 'é': 2}", "'abé'", "42", "None",
                      f"[str(x) for x in {lst}]", "[s] * 3", "[s, t, s]"])
    return (f"s = {word(rnd)!r}\nt = {word(rnd)!r}\nr = {sep!r}.join({src})\n"
            f"[r, len(r), r[:3], r[-3:], r.upper() == {sep!r}.upper().join([x.upper() for x in {src}])]"
            if rnd.random() < 0.3 else
            f"s = {word(rnd)!r}\nt = {word(rnd)!r}\nr = {sep!r}.join({src})\n[r, len(r), r[:3], r[-3:]]")


def long_text(rnd, wide):
    alphabet = rnd.choice(["ab", "aab", "abc ", "a", "xyz,"]) + ("é" if wide else "")
    n = rnd.choice([0, 3, 10, 40, 255, 256, 257, 300, 600])
    return "".join(rnd.choice(alphabet) for _ in range(n))


def needle(rnd, wide):
    return rnd.choice(["a", "aa", "aaa", "ab", "aab", "ba", "abc", "bca", "zz", "c ", "xyz,x",
                       "é", "aé", "éa", "ab" * 10] if wide else
                      ["a", "aa", "aaa", "ab", "aab", "ba", "abc", "bca", "zz", "c ", "xyz,x",
                       "ab" * 10, "abcabcabc"])


def fam_search(rnd):
    wide = rnd.random() < 0.3
    s = long_text(rnd, wide)
    p = needle(rnd, wide)
    a = rnd.choice(["0", "1", "-5", "100", "-300", "None"])
    b = rnd.choice(["None", "-1", "5", "250", "1000", "-260"])
    ops = [f"s.find({p!r})", f"s.rfind({p!r})", f"s.count({p!r})",
           f"s.find({p!r}, {a})", f"s.rfind({p!r}, {a}, {b})", f"s.count({p!r}, {a}, {b})",
           f"s.index({p!r})", f"s.rindex({p!r}, {a})", f"{p!r} in s",
           f"s.find({p!r}, {a}, {b})", f"s.index({p!r}, {a}, {b})"]
    picks = rnd.sample(ops, 3)
    return f"s = {s!r}\n[{', '.join(picks)}]"


def fam_replace(rnd):
    wide = rnd.random() < 0.3
    s = long_text(rnd, wide) if rnd.random() < 0.5 else word(rnd, lengths=(0, 1, 3, 12, 24, 25, 40))
    old = rnd.choice([needle(rnd, wide), "", " ", ","])
    new = rnd.choice(["", "-", "XY", "é", "😀😀", "a", "aa", "z" * 30])
    n = rnd.choice(["", ", 0", ", 1", ", 2", ", -1", ", 40", ", True"])
    return (f"s = {s!r}\nr = s.replace({old!r}, {new!r}{n})\n"
            f"[r, len(r), r is s, r.count({new!r}) if {new!r} else 0]")


def fam_partition(rnd):
    wide = rnd.random() < 0.3
    s = rnd.choice([long_text(rnd, wide), word(rnd), "key=value=x", "=a=", "a==b", "é=é"])
    sep = rnd.choice([needle(rnd, wide), "=", "==", "é", "x", "", "1", "None", "b'='"])
    sep_src = sep if sep in ("1", "None", "b'='") else repr(sep)
    m = rnd.choice(["partition", "rpartition"])
    return f"s = {s!r}\np = s.{m}({sep_src})\n[p, [len(x) for x in p], p[0] + p[1] + p[2] == s]"


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


def fam_concat_pad(rnd):
    a, b = word(rnd), word(rnd)
    w = rnd.choice([0, 1, 5, 23, 24, 25, 26, 40])
    fill = rnd.choice(["", ", '*'", ", 'é'", ", '😀'"])
    ops = ["a + b", "b + a + b", "len(a + b)", "(a + b)[-2:]", f"a.center({w}{fill})",
           f"a.ljust({w}{fill})", f"b.rjust({w}{fill})", f"a.zfill({w})",
           "c = a\nxs = [b, a, b]\nfor x in xs:\n    c += x\nc"]
    op = rnd.choice(ops)
    if "\n" in op:
        return f"a = {a!r}\nb = {b!r}\n{op}"
    return f"a = {a!r}\nb = {b!r}\n[{op}, {rnd.choice(ops[:4])}]"


FAMILIES = [fam_join_mixed, fam_search, fam_replace, fam_partition, fam_split_edges,
            fam_concat_pad]

if __name__ == "__main__":
    gen_common.main(FAMILIES)
