#!/usr/bin/env python3
"""Generates lackpy programs aimed at the str results built with a known
length (stepped slices gathered on the stack or in one buffer, `replace`
with a multi-byte pattern and its length computed from the match count,
`partition`/`rpartition` pieces, `splitlines` by bytes, shared empty and one-character results)
and runs each with CPython.

Usage: python3 gen_str2.py SEED PER_FAMILY

Prints one JSON list of {"program", "family", "repr"|"error"}; the last
line of each program is an expression whose repr() is the answer.
"""
import json
import random
import sys

ASCII = "abcab a,=e"
WIDE = "éΣ😀ß"


def text(rnd, wide, n=None):
    if n is None:
        n = rnd.choice([0, 1, 2, 23, 24, 25, 47, 48, 49, 60, rnd.randint(0, 80)])
    alphabet = ASCII + (WIDE if rnd.random() < wide else "")
    return "".join(rnd.choice(alphabet) for _ in range(n))


def fam_step(rnd):
    s = text(rnd, .3)
    b = lambda: rnd.choice(["", "0", "1", "-1", "3", "-5", "24", "25", "-49", "100", "None"])
    st = rnd.choice(["1", "2", "-1", "-2", "3", "-7", "25", "-100", str(2 ** 62)])
    e = f"s[{b()}:{b()}:{st}]"
    return f"s = {s!r}\nt = {e}\n[t, len(t), t[::-1][:5], len(t + s), t == {s!r}[{b()}:{b()}:{st}]]"


def fam_replace(rnd):
    s = text(rnd, .3)
    pats = ["ab", "a", "abc", "", "a,", "éΣ", "😀", "zz", " a", s[:3], s]
    news = ["", "x", "XYZW", "é", "😀😀", "ab"]
    old, new = rnd.choice(pats), rnd.choice(news)
    cnt = rnd.choice(["", ", -1", ", 0", ", 1", ", 2", ", 100"])
    return (f"s = {s!r}\nr = s.replace({old!r}, {new!r}{cnt})\n"
            f"[r, len(r), r[-3:], r.upper(), len(r.replace({new!r}, {old!r}))]")


def fam_partition(rnd):
    s = text(rnd, .3)
    seps = ["=", "a", "ab", ",", "é", "😀", "zz", s[:2] or "q", s or "q"]
    sep = rnd.choice(seps)
    m = rnd.choice(["partition", "rpartition"])
    return (f"s = {s!r}\nt = s.{m}({sep!r})\n"
            f"[t, [len(x) for x in t], t[0] + t[2], t[0] == '', t[2][:1], {{t[0]: 1, t[2]: 2}}]")


def fam_lines(rnd):
    breaks = ["\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85",
              "\u2028", "\u2029", "\n\r", "\x1f", "\u2027", "\u202a", "\xc2", "\xe2"]
    s = "".join(rnd.choice(breaks) if rnd.random() < .3 else rnd.choice(ASCII + WIDE)
                for _ in range(rnd.randint(0, 40)))
    keep = rnd.choice(["", "True", "keepends=True", "False", "0"])
    return f"s = {s!r}\nt = s.splitlines({keep})\n[t, [len(x) for x in t]]"


FAMILIES = [fam_step, fam_replace, fam_partition, fam_lines]


if __name__ == "__main__":
    import gen_common

    gen_common.main(FAMILIES)
