#!/usr/bin/env python3
"""Generates programs for str.replace and runs each with CPython.

Families: every kind of old (one byte, several bytes, overlapping like
'aa' in 'aaaa', non-ASCII, empty) and new (empty, one byte, longer,
non-ASCII), with and without a count (0, negative, 1, around the sixteen
matches a replace keeps on the stack, past the number of matches), on
short texts, long ones (past 256 bytes) and texts whose result is empty,
one character or around the inline length, with non-ASCII text at every
position; the result (its length computed from the match count) compared
with, hashed like and looked up as a key next to the same text made
another way, and replaced back.

Usage: python3 gen_replace.py SEED PER_FAMILY

Prints one JSON list of cases (see gen_common.py).
"""
import gen_common
from gen_common import stream

WORD_ASCII = "abcxyz01 ,;-"
WORD_WIDE = "éßΣσ😀ﬁ"


def word(rnd, wide=0.3, lengths=(0, 1, 2, 5, 11, 12, 13, 23, 24, 25, 30)):
    n = rnd.choice(lengths)
    alphabet = WORD_ASCII + (WORD_WIDE if rnd.random() < wide else "")
    return "".join(rnd.choice(alphabet) for _ in range(n))


def long_text(rnd, wide):
    alphabet = rnd.choice(["ab", "aab", "abc ", "a", "xyz,"]) + ("é" if wide else "")
    n = rnd.choice([0, 3, 10, 40, 255, 256, 257, 300, 600])
    return "".join(rnd.choice(alphabet) for _ in range(n))


def needle(rnd, wide):
    return rnd.choice(["a", "aa", "aaa", "ab", "aab", "ba", "abc", "bca", "zz", "c ", "xyz,x",
                       "é", "aé", "éa", "ab" * 10] if wide else
                      ["a", "aa", "aaa", "ab", "aab", "ba", "abc", "bca", "zz", "c ", "xyz,x",
                       "ab" * 10, "abcabcabc"])


@stream(3)
def fam_counts(rnd):
    wide = rnd.random() < 0.3
    s = long_text(rnd, wide) if rnd.random() < 0.5 else word(rnd, lengths=(0, 1, 3, 12, 24, 25, 40))
    old = rnd.choice([needle(rnd, wide), "", " ", ","])
    new = rnd.choice(["", "-", "XY", "é", "😀😀", "a", "aa", "z" * 30])
    n = rnd.choice(["", ", 0", ", 1", ", 2", ", -1", ", 40", ", True"])
    return (f"s = {s!r}\nr = s.replace({old!r}, {new!r}{n})\n"
            f"[r, len(r), r is s, r.count({new!r}) if {new!r} else 0]")


PIECES = ["a", "aa", "b", "ab", "the", " ", "é", "€", "😀", "x" * 7, "-", "", "ß", "\n",
          "abc" * 3]
OLDS = ["a", "aa", "aaa", "ab", "ba", "the", " ", "é", "€", "😀", "é€", "zzz", "", "x",
        "-", "abcabc"]
NEWS = ["", ".", "A", "é", "€😀", "the", "xyzw" * 5, "aa", "a", "-" * 30]


def piece_text(rnd):
    n = rnd.choice([0, 1, 2, 3, 5, 8, 12, 20, 40])
    t = "".join(rnd.choice(PIECES) for _ in range(n))
    if rnd.random() < 0.3:
        # ASCII piece_text around the inline limit with one non-ASCII character
        # (or none) at any position.
        n = rnd.choice([1, 22, 23, 24, 25, 26, 31, 48, 49, 50])
        pos = rnd.randrange(n + 1)
        fill = rnd.choice(["a", "ab", "x", " "])
        t = (fill * n)[:pos] + rnd.choice(["é", "€", "😀", ""]) + (fill * n)[pos:n]
    return t


def other_road(name):
    """An expression equal to the string named `name`, made another way."""
    return f"''.join(list({name}))"


@stream(1)
def fam_keys(rnd):
    t = piece_text(rnd)
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


@stream(2)
def fam_one_byte(rnd):
    n = rnd.choice([1, 2, 8, 23, 24, 25, 26, 40, 100, 300])
    t = "".join(rnd.choice("ab -.x") for _ in range(n))
    if rnd.random() < 0.5:
        pos = rnd.randrange(n + 1)
        t = t[:pos] + rnd.choice(["é", "€", "😀", "ab"]) + t[pos:]
    old, new = rnd.sample(["a", "b", " ", "-", ".", "x", "q"], 2)
    count = rnd.choice(["", ", -1", ", 0", ", 1", ", 3", ", 999"])
    return (f"t = {t!r}\nr = t.replace({old!r}, {new!r}{count})\n"
            f"[r, len(r), r == t, {{r: 1}}.get({other_road('r')}, 0), r.count({new!r})]")


SIZED_ASCII = "abcab a,=e"
SIZED_WIDE = "éΣ😀ß"


def sized_text(rnd, wide, n=None):
    if n is None:
        n = rnd.choice([0, 1, 2, 23, 24, 25, 47, 48, 49, 60, rnd.randint(0, 80)])
    alphabet = SIZED_ASCII + (SIZED_WIDE if rnd.random() < wide else "")
    return "".join(rnd.choice(alphabet) for _ in range(n))


@stream(2)
def fam_patterns(rnd):
    s = sized_text(rnd, .3)
    pats = ["ab", "a", "abc", "", "a,", "éΣ", "😀", "zz", " a", s[:3], s]
    news = ["", "x", "XYZW", "é", "😀😀", "ab"]
    old, new = rnd.choice(pats), rnd.choice(news)
    cnt = rnd.choice(["", ", -1", ", 0", ", 1", ", 2", ", 100"])
    return (f"s = {s!r}\nr = s.replace({old!r}, {new!r}{cnt})\n"
            f"[r, len(r), r[-3:], r.upper(), len(r.replace({new!r}, {old!r}))]")


FAMILIES = [fam_counts, fam_keys, fam_one_byte, fam_patterns]

if __name__ == "__main__":
    gen_common.main(FAMILIES)
