#!/usr/bin/env python3
"""Generates lackpy programs aimed at the sixth round of text fast paths and
runs each with CPython.

Usage: python3 gen_text6.py SEED PER_FAMILY

Families: str.replace with every kind of old (one byte, several bytes,
overlapping like 'aa' in 'aaaa', non-ASCII, empty) and new (empty, one
byte, longer, non-ASCII), with and without a count (0, negative, 1, around
the sixteen matches a replace keeps on the stack, past the number of
matches), on texts whose result is empty, one character, or around the
former inline limit (24 bytes; 30 now), with non-ASCII text at every position; the result
is compared with, hashed like, and looked up as a key built by another
road. Strings built to a known length (concatenation, join, padding,
zfill, strided and reversed slices) around the inline limit, with
non-ASCII pieces and fill characters, used as keys next to the same text
made by other roads. count/find of one-byte and longer needles with many
matches.

Prints one JSON list of {"program", "family", "repr"|"error"}; the last
line of each program is an expression whose repr() is the answer.
"""
import gen_common

PIECES = ["a", "aa", "b", "ab", "the", " ", "é", "€", "😀", "x" * 7, "-", "", "ß", "\n",
          "abc" * 3]
OLDS = ["a", "aa", "aaa", "ab", "ba", "the", " ", "é", "€", "😀", "é€", "zzz", "", "x",
        "-", "abcabc"]
NEWS = ["", ".", "A", "é", "€😀", "the", "xyzw" * 5, "aa", "a", "-" * 30]


def text(rnd):
    n = rnd.choice([0, 1, 2, 3, 5, 8, 12, 20, 40])
    t = "".join(rnd.choice(PIECES) for _ in range(n))
    if rnd.random() < 0.3:
        # ASCII text around the inline limit with one non-ASCII character
        # (or none) at any position.
        n = rnd.choice([1, 22, 23, 24, 25, 26, 31, 48, 49, 50])
        pos = rnd.randrange(n + 1)
        fill = rnd.choice(["a", "ab", "x", " "])
        t = (fill * n)[:pos] + rnd.choice(["é", "€", "😀", ""]) + (fill * n)[pos:n]
    return t


def other_road(name):
    """An expression equal to the string named `name`, made another way."""
    return f"''.join(list({name}))"


def fam_replace(rnd):
    t = text(rnd)
    old = rnd.choice(OLDS + [t[:2], t[1:3], t[-1:]])
    new = rnd.choice(NEWS)
    count = rnd.choice(["", "", ", -1", ", 0", ", 1", ", 2", ", 15", ", 16", ", 17", ", 100",
                        ", -5"])
    use = rnd.choice([
        "out = [r, len(r), r == t]",
        f"d = {{r: 1}}\nout = [d.get({other_road('r')}, 0), len({{r, {other_road('r')}}})]",
        "out = [r.replace(new, old), r.count(new) if new else -1, r[::-1], r[:25]]",
        "s = {r, t, r + ''}\nout = [len(s), r in s, sorted(s)[:2]]",
    ])
    return f"t = {t!r}\nold = {old!r}\nnew = {new!r}\nr = t.replace(old, new{count})\n{use}\nout"


def fam_replace_byte(rnd):
    n = rnd.choice([1, 2, 8, 23, 24, 25, 26, 40, 100, 300])
    t = "".join(rnd.choice("ab -.x") for _ in range(n))
    if rnd.random() < 0.5:
        pos = rnd.randrange(n + 1)
        t = t[:pos] + rnd.choice(["é", "€", "😀", "ab"]) + t[pos:]
    old, new = rnd.sample(["a", "b", " ", "-", ".", "x", "q"], 2)
    count = rnd.choice(["", ", -1", ", 0", ", 1", ", 3", ", 999"])
    return (f"t = {t!r}\nr = t.replace({old!r}, {new!r}{count})\n"
            f"[r, len(r), r == t, {{r: 1}}.get({other_road('r')}, 0), r.count({new!r})]")


def fam_built(rnd):
    a = rnd.choice(["", "a", "é", "x" * rnd.choice([10, 11, 12, 13, 23, 24, 25]), "ab€",
                    "😀" * 3, "key", "-12", "+7", "0"])
    b = rnd.choice(["", "b", "ß", "y" * rnd.choice([1, 11, 12, 13, 14]), "€", "😀"])
    w = rnd.choice([0, 5, 12, 23, 24, 25, 26, 30, 49])
    fill = rnd.choice(["", ", '*'", ", 'é'", ", '😀'", ", ' '"])
    expr = rnd.choice([
        "a + b", "b + a", "a + b + a", "''.join([a, b, a])", "'|'.join([a, b])",
        "', '.join([a] * 5)", f"a.ljust({w}{fill})", f"a.rjust({w}{fill})",
        f"a.center({w}{fill})", f"a.zfill({w})", f"(a + b) * 3", "(a * 9 + b)[::2]",
        "(a * 9 + b)[::-1]", "(a * 9 + b)[1::3]", "(a + b * 9)[-2::-2]",
    ])
    return (f"a = {a!r}\nb = {b!r}\nr = {expr}\n"
            f"d = {{r: 1}}\n"
            f"[r, len(r), d.get({other_road('r')}, 0), r == {other_road('r')}, r[::-1][:4]]")


def fam_count(rnd):
    n = rnd.choice([0, 1, 10, 24, 25, 60, 300])
    t = "".join(rnd.choice(["x", "x", "y", ":", "é", "xx", "ab"]) for _ in range(n))
    sub = rnd.choice(["x", "xx", "y", ":", "é", "ab", "zz", "", "xy"])
    how = rnd.choice(["count", "count", "find", "rfind"])
    bounds = rnd.choice(["", "", ", 1", ", -3", ", 2, -1", ", None, 4"])
    return f"t = {t!r}\n[t.{how}({sub!r}{bounds}), len(t)]"


FAMILIES = [fam_replace, fam_replace_byte, fam_built, fam_count]

if __name__ == "__main__":
    gen_common.main(FAMILIES)
