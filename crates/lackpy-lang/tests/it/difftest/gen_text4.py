#!/usr/bin/env python3
"""Generates lackpy programs aimed at the fourth round of fast paths and runs
each with CPython.

Usage: python3 gen_text4.py SEED PER_FAMILY

Families: unpacking a list into names (a list no one else holds gives up its
items; a list still named elsewhere, or one the targets themselves change,
must be copied), with a starred target, too few and too many values, split
results of every length; building a dict from an iterable of pairs
(`dict(zip(...))`, enumerate, dict items, lists of tuples, lists and
two-character strings), with equal keys (the last value wins, the first key
stays), True next to 1, one NaN object as a key (distinct NaN floats are
a known difference: floats have no identity, language.md), unhashable keys,
zip strict and elements of the wrong length (the error names the element).

Prints one JSON list of {"program", "family", "repr"|"error"}; the last
line of each program is an expression whose repr() is the answer.
"""
import gen_common

WORDS = ["a", "b", "ab", "é", "", "x,y", "1", "ß", "long-word-over-24-bytes-xx"]


def fam_unpack_list(rnd):
    parts = [rnd.choice(WORDS) for _ in range(rnd.choice([0, 1, 2, 3, 4, 40]))]
    line = ",".join(parts)
    # Mostly the right count (or a starred target to take up many parts).
    count = max(len(parts), 1)
    n = count if count <= 4 and rnd.random() < 0.6 else rnd.choice([1, 2, 3, 4])
    names = [f"v{i}" for i in range(n)]
    if (rnd.random() < 0.3 or count > 4) and n >= 1:
        names[rnd.randrange(n)] = "*rest"
    targets = ", ".join(names) + ("," if n == 1 else "")
    shown = ", ".join(x.lstrip("*") for x in names)
    src = rnd.choice([
        "line.split(',')", "line.split(',')", "line.rsplit(',')",
        f"line.rsplit(',', {rnd.choice([-1, 1, 2])})",
        "list(range(len(line) % 5))", "keep", "[keep[0], 1.5, None] if keep else []",
        "[x for x in line.split(',')]",
    ])
    extra = rnd.choice([
        "",
        # The list is still named: unpacking must copy it.
        f"keep = line.split(',')\n{targets} = keep\n",
        # The targets rebind the list's own slots as they are assigned.
        "keep = line.split(',')\nif len(keep) >= 2:\n    keep[0], keep[1] = keep\n",
        "more = [line, line + ',z']\nfor line2 in more:\n"
        f"    {targets} = line2.split(',')\n",
    ])
    return (f"line = {line!r}\nkeep = line.split(',')\n{extra}{targets} = {src}\n"
            f"[{shown}, keep, len(keep)]")


def key(rnd):
    return rnd.choice(["'a'", "'b'", "'é'", "1", "True", "1.0", "0", "False", "None",
                       "(1, 2)", "nan", "-9223372036854775808",
                       "9223372036854775807", "'long-key-over-24-bytes-xxxx'", "'a'", "1"]
                      + (["[1]"] if rnd.random() < 0.1 else []))


def fam_dict_pairs(rnd):
    nk = rnd.choice([0, 1, 2, 3, 5, 8])
    ks = "[" + ", ".join(key(rnd) for _ in range(nk)) + "]"
    vs = "[" + ", ".join(str(i) for i in range(rnd.choice([nk, nk, 0, 2, 3, 5, 8]))) + "]"
    src = rnd.choice([
        "zip(ks, vs)", "zip(vs, ks)", "zip(ks, vs, strict=True)", "zip(ks, vs, vs)",
        "zip(ks)", "enumerate(ks)", "d0.items()", "list(zip(ks, vs))",
        "[[k, v] for k, v in zip(ks, vs)]", "['ab', 'cd', 'ab']", "['ab', 'c']",
        "[(k,) for k in ks]", "[(k, 1, 2) for k in ks]", "[p for p in zip(ks, vs)]",
        "zip(ks, range(3))", "reversed(list(zip(ks, vs)))", "{1: 2}", "[1, 2]",
    ])
    how = rnd.choice(["d = dict({src})", "d = {{'a': 0}}\nd.update({src})", "d = dict({src})"])
    return (f"nan = float('nan')\nks = {ks}\nvs = {vs}\nd0 = {{'z': 9, 1: 'one'}}\n"
            + how.format(src=src) + "\n[d, len(d), list(d)]")


FAMILIES = [fam_unpack_list, fam_dict_pairs]

if __name__ == "__main__":
    gen_common.main(FAMILIES)
