#!/usr/bin/env python3
"""Generates programs for the str searches and runs each with CPython.

Families: find/rfind/index/rindex/count and `in` on short texts (a
first-byte scan) and long ones (past 256 bytes, a prebuilt searcher) with
overlapping candidates, bounds and needles longer than the text;
startswith/endswith (one affix or a tuple) and the searches with and
without bounds; count/find of one-byte and longer needles with many
matches; partition/rpartition edge cases and their pieces (shared empty
and one-character results).

Usage: python3 gen_str_search.py SEED PER_FAMILY

Prints one JSON list of cases (see gen_common.py).
"""
import gen_common
from gen_common import stream


def long_text(rnd, wide):
    alphabet = rnd.choice(["ab", "aab", "abc ", "a", "xyz,"]) + ("é" if wide else "")
    n = rnd.choice([0, 3, 10, 40, 255, 256, 257, 300, 600])
    return "".join(rnd.choice(alphabet) for _ in range(n))


def needle(rnd, wide):
    return rnd.choice(["a", "aa", "aaa", "ab", "aab", "ba", "abc", "bca", "zz", "c ", "xyz,x",
                       "é", "aé", "éa", "ab" * 10] if wide else
                      ["a", "aa", "aaa", "ab", "aab", "ba", "abc", "bca", "zz", "c ", "xyz,x",
                       "ab" * 10, "abcabcabc"])


@stream(2)
def fam_find(rnd):
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


@stream(7)
def fam_affix(rnd):
    t = "".join(rnd.choice(["a", "b", "ab", "é", "😀", ".py", "x", ":"])
                for _ in range(rnd.choice([0, 1, 3, 8, 30])))
    sub = rnd.choice(["", "a", "ab", "é", "😀", ".py", "b:", "zz", t[:3], t[-2:], "a" * 40])
    how = rnd.choice(["startswith", "endswith", "find", "rfind", "index", "rindex", "count"])
    arg = repr(sub)
    if how in ("startswith", "endswith") and rnd.random() < 0.3:
        arg = "(" + ", ".join(repr(rnd.choice([sub, "a", "é", "", "q"])) for _ in range(3)) + ")"
    bounds = rnd.choice(["", "", ", 1", ", -3", ", 2, -1", ", None, 4", ", 0, 100", ", 5, 2",
                         ", -100", ", 40", ", None, None"])
    return f"t = {t!r}\n[t.{how}({arg}{bounds}), len(t)]"


@stream(4)
def fam_count(rnd):
    n = rnd.choice([0, 1, 10, 24, 25, 60, 300])
    t = "".join(rnd.choice(["x", "x", "y", ":", "é", "xx", "ab"]) for _ in range(n))
    sub = rnd.choice(["x", "xx", "y", ":", "é", "ab", "zz", "", "xy"])
    how = rnd.choice(["count", "count", "find", "rfind"])
    bounds = rnd.choice(["", "", ", 1", ", -3", ", 2, -1", ", None, 4"])
    return f"t = {t!r}\n[t.{how}({sub!r}{bounds}), len(t)]"


WORD_ASCII = "abcxyz01 ,;-"
WORD_WIDE = "éßΣσ😀ﬁ"


def word(rnd, wide=0.3, lengths=(0, 1, 2, 5, 11, 12, 13, 23, 24, 25, 30)):
    n = rnd.choice(lengths)
    alphabet = WORD_ASCII + (WORD_WIDE if rnd.random() < wide else "")
    return "".join(rnd.choice(alphabet) for _ in range(n))


@stream(4)
def fam_partition_edges(rnd):
    wide = rnd.random() < 0.3
    s = rnd.choice([long_text(rnd, wide), word(rnd), "key=value=x", "=a=", "a==b", "é=é"])
    sep = rnd.choice([needle(rnd, wide), "=", "==", "é", "x", "", "1", "None", "b'='"])
    sep_src = sep if sep in ("1", "None", "b'='") else repr(sep)
    m = rnd.choice(["partition", "rpartition"])
    return f"s = {s!r}\np = s.{m}({sep_src})\n[p, [len(x) for x in p], p[0] + p[1] + p[2] == s]"


SIZED_ASCII = "abcab a,=e"
SIZED_WIDE = "éΣ😀ß"


def sized_text(rnd, wide, n=None):
    if n is None:
        n = rnd.choice([0, 1, 2, 23, 24, 25, 47, 48, 49, 60, rnd.randint(0, 80)])
    alphabet = SIZED_ASCII + (SIZED_WIDE if rnd.random() < wide else "")
    return "".join(rnd.choice(alphabet) for _ in range(n))


@stream(3)
def fam_partition(rnd):
    s = sized_text(rnd, .3)
    seps = ["=", "a", "ab", ",", "é", "😀", "zz", s[:2] or "q", s or "q"]
    sep = rnd.choice(seps)
    m = rnd.choice(["partition", "rpartition"])
    return (f"s = {s!r}\nt = s.{m}({sep!r})\n"
            f"[t, [len(x) for x in t], t[0] + t[2], t[0] == '', t[2][:1], {{t[0]: 1, t[2]: 2}}]")


FAMILIES = [fam_find, fam_affix, fam_count, fam_partition_edges, fam_partition]

if __name__ == "__main__":
    gen_common.main(FAMILIES)
