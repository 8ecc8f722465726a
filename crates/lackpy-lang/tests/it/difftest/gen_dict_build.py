#!/usr/bin/env python3
"""Generates programs that build dicts from iterables and keywords and runs
each with CPython.

Families: `dict(...)` from pairs, zip, enumerate, items and keywords and
`dict.fromkeys`, at sizes around the small-dict limit and the index resize
thresholds (where it gets room ahead of time: repeated keys, fewer items
than the iterator said, elements that are not pairs), then updated; and
`dict(...)` / `update` from iterables of pairs (zip, enumerate, dict items,
lists of tuples and lists, two-character strings) with equal keys (the
last value wins, the first key stays), True next to 1, one NaN object as a
key (distinct NaN floats are a known difference: floats have no identity,
language.md), unhashable keys, zip strict and elements of the wrong length
(the error names the element).

Usage: python3 gen_dict_build.py SEED PER_FAMILY

Prints one JSON list of cases (see gen_common.py).
"""
import gen_common
from gen_common import stream
from gen_dict import KEYS, SCALARS, SIZES, gen_dict


@stream(2)
def fam_build(rnd):
    n = rnd.choice(SIZES)
    k = rnd.choice(KEYS)
    src = rnd.choice([
        f'dict(zip([{k} for i in range({n})], range({n})))',
        f'dict(zip([{k} for i in range({n})], range({n} + 3)))',
        f'dict(zip(range({n} + 2), [{k} for i in range({n})]))',
        f'dict([({k}, i) for i in range({n})])',
        f'dict([[{k}, i] for i in range({n})])',
        f'dict([({k}, i) for i in range({n})] + [("z", 1), "ab"])',
        f'dict([(i % 3, i) for i in range({n})])',
        f'dict(enumerate([{k} for i in range({n})]))',
        f'dict({gen_dict(rnd)}.items())',
        f'dict({gen_dict(rnd)})',
        f'dict({gen_dict(rnd)}, extra=1)',
        f'dict([], a=1, b=2)',
        f'dict([(i, i) for i in range({n})])',
        f'dict.fromkeys([{k} for i in range({n})], 0)',
        f'dict.fromkeys(range({n}))',
    ])
    lines = [f'd = {src}']
    for _ in range(rnd.randint(0, 2)):
        lines.append(rnd.choice([f'd[{rnd.choice(SCALARS)}] = "new"', 'd.update(q=1)', 'd.setdefault("s", [])',
                                 f'd.update([({rnd.choice(SCALARS)}, 9)])', 'd.pop(0, None)']))
    lines.append('[list(d.items()), len(d)]')
    return "\n".join(lines)


def key(rnd):
    return rnd.choice(["'a'", "'b'", "'é'", "1", "True", "1.0", "0", "False", "None",
                       "(1, 2)", "nan", "-9223372036854775808",
                       "9223372036854775807", "'long-key-over-24-bytes-xxxx'", "'a'", "1"]
                      + (["[1]"] if rnd.random() < 0.1 else []))


@stream(2)
def fam_pairs(rnd):
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


FAMILIES = [fam_build, fam_pairs]

if __name__ == "__main__":
    gen_common.main(FAMILIES, line=True)
