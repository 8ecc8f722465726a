#!/usr/bin/env python3
"""Generates lackpy programs aimed at the fifth round of text fast paths and
runs each with CPython.

Usage: python3 gen_text5.py SEED PER_FAMILY

Families: split/rsplit with every kind of separator (one byte, several
bytes, overlapping like 'aa', non-ASCII, whitespace) on short texts and on
texts past the short-search limit (256 bytes), with every maxsplit, and
splits of many repeated words (the parts share their strings: equal parts
must stay equal keys, whatever their identity); splitlines with every line
break (\\r\\n, \\r, \\x0b, \\x0c, \\x1c-\\x1e, \\x85, \\u2028, \\u2029) and
keepends; strings made by every road (split, slicing, +, join, replace,
partition, str(), f-strings, strip) used as dict keys and set members and
looked up, next to non-ASCII text at every position and lengths around the
former inline limit (24 bytes; 30 now); strip/lstrip/rstrip of whitespace (ASCII and
not: \x85, \xa0, \u2000, \u3000, \u2028, \x1c-\x1f) and of ASCII and
non-ASCII character sets; slices of every step (reversed, strided, both
signs) of ASCII and non-ASCII text around the inline length;
startswith/endswith/find/rfind/index/rindex/count with and without bounds;
float() of plain decimals and of every other form (spaces, underscores,
signs, inf, nan, exponents, non-ASCII digits, malformed text); the case
methods on ASCII and non-ASCII text.

Prints one JSON list of {"program", "family", "repr"|"error"}; the last
line of each program is an expression whose repr() is the answer.
"""
import gen_common

ATOMS = ["a", "b", "ab", "aa", "é", "ß", "€", "😀", "x y", " ", "", "1", "--", "a\tb",
         "word", "long-word-over-24-bytes-xx", "\u2028", "\r\n", "\n", "\x0b", "\x85"]
SEPS = [",", "--", "aa", "a", "é", "€", ", ", "ab", "xyz", "😀", "\n", " ", "ba"]


def text(rnd, long_ok=True):
    n = rnd.choice([0, 1, 2, 3, 5, 8, 40] + ([150, 300] if long_ok else []))
    return "".join(rnd.choice(ATOMS + SEPS) for _ in range(n))


def fam_split_seps(rnd):
    t = text(rnd)
    sep = rnd.choice(SEPS + ["None", "''"])
    sep_src = sep if sep in ("None", "''") else repr(sep)
    maxsplit = rnd.choice(["", ", -1", ", 0", ", 1", ", 2", ", 5", ", maxsplit=3"])
    how = rnd.choice(["split", "rsplit"])
    return (f"t = {t!r}\nparts = t.{how}({sep_src}{maxsplit})\n"
            f"[parts, len(parts), [len(p) for p in parts]]")


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


def fam_splitlines(rnd):
    brs = ["\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85",
           "\u2028", "\u2029", "\n\r", "\r\r\n", "\x1f"]
    n = rnd.choice([0, 1, 2, 3, 6, 40])
    t = "".join(rnd.choice(ATOMS) + rnd.choice(brs) * rnd.choice([0, 1, 1, 2])
                for _ in range(n))
    keep = rnd.choice(["", "True", "False", "keepends=True", "keepends=0"])
    return f"t = {t!r}\nls = t.splitlines({keep})\n[ls, len(ls), ''.join(ls) == t]"


def roads(rnd, w):
    """Expressions that make the string `w` by different roads."""
    a, b = w[: len(w) // 2], w[len(w) // 2:]
    # An f-string's expression part takes no backslash (3.11).
    fstr = [] if "\\" in repr(a) + repr(b) else [f'f"{{{a!r}}}{{{b!r}}}"']
    return fstr + [
        repr(w), f"{a!r} + {b!r}", f"''.join([{a!r}, {b!r}])", f"({w!r} + '|x').split('|')[0]",
        f"('z|' + {w!r}).rsplit('|', 1)[1]", f"({w!r} + 'q')[:-1]", f"('q' + {w!r})[1:]",
        f"({w!r} + 'k').partition('k')[0]", f"({w!r}).replace('\\x00', '')",
        f"({w!r}.replace({a!r}, '\\x01', 1) if {a!r} else {w!r}).replace('\\x01', {a!r})",
        f"(' ' + {w!r} + ' ').strip(' ')", f"str({w!r})",
        f"({w!r} + {w!r})[{len(w)}:]", f"'%s%s' % ({a!r}, {b!r})",
        f"({w!r} + '\\n').splitlines()[0]",
    ]


def fam_key_roads(rnd):
    base = rnd.choice(["", "a", "é", "key", "x" * 23, "x" * 24, "x" * 25, "y" * 40,
                       "ñ" * 12, "ab€" * 8, "😀" * 6, "a\u2028b", "1234"])
    # Non-ASCII at a random position of an ASCII text around the inline limit.
    if rnd.random() < 0.5:
        n = rnd.choice([22, 23, 24, 25, 26, 31, 32, 33])
        pos = rnd.randrange(n + 1)
        base = "k" * pos + rnd.choice(["é", "€", "😀", ""]) + "k" * (n - pos)
    exprs = rnd.sample(roads(rnd, base), 5)
    body = "\n".join(f"s{i} = {e}" for i, e in enumerate(exprs))
    use = rnd.choice([
        "d = {}\nall5 = [s0, s1, s2, s3, s4]\nfor s in all5:\n    d[s] = d.get(s, 0) + 1\nout = list(d.items())",
        "out = [len({s0, s1, s2, s3, s4}), s0 in {s1: 1}, {s0: 1}.get(s4, 0)]",
        "out = [s0 == s1, s1 == s2, s2 == s3, s3 == s4, len(s0), len(s4), s4]",
        "out = [sorted([s0, s1 + 'a', s2]), s3 < s4 + 'a', s2.find(s3)]",
    ])
    return f"{body}\n{use}\nout"


def fam_strip(rnd):
    edge = [" ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1f", "\x85", "\xa0",
            "\u2000", "\u3000", "\u2028", "-", "x", "é", "ab", "\x00", "\x7f"]
    core = rnd.choice(["", "a", "word", "é", "a b", "x" * 30, "-x-", "€uro", "\x85mid\x85"])
    t = ("".join(rnd.choice(edge) for _ in range(rnd.choice([0, 1, 2, 4])))
         + core + "".join(rnd.choice(edge) for _ in range(rnd.choice([0, 1, 2, 4]))))
    chars = rnd.choice(["", "None", "' '", "'-'", "'-x'", "'x-é'", "'\\x85 '", "''",
                        "' \\t\\n'", "'ab'", "'\\u3000'", "'\\x7f\\x00 '"])
    how = rnd.choice(["strip", "lstrip", "rstrip"])
    return (f"t = {t!r}\nr = t.{how}({chars})\n"
            f"[r, len(r), r == t, {{r: 1}}.get(t.{how}({chars}) + '', 0)]")


def fam_slices(rnd):
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


def fam_affix_search(rnd):
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


def fam_float_parse(rnd):
    body = rnd.choice([
        lambda: str(rnd.randrange(10 ** rnd.choice([1, 3, 9, 17, 25]))),
        lambda: f"{rnd.randrange(1000)}.{rnd.randrange(1000)}",
        lambda: f"{rnd.randrange(100)}e{rnd.choice(['', '-', '+'])}{rnd.randrange(400)}",
        lambda: f"{rnd.randrange(100)}E{rnd.randrange(30)}",
        lambda: rnd.choice([".5", "5.", ".", "e5", "1e", "1.e3", ".e1", "1e+", "1.5e-3",
                            "1_000.5", "1_0_0", "_1", "1_", "inf", "-Infinity", "nan", "+nAn",
                            "1e400", "-0.0", "0x10", "١٢.٥", "0.1", "00012.50", "1.5.2",
                            "--1", "+-1", "1e5.0", "", " ", "9" * 30 + "." + "9" * 30,
                            "2.2250738585072014e-308", "4.9e-324", "1e-400"]),
    ])()
    sign = rnd.choice(["", "", "-", "+"])
    pad = rnd.choice(["", "", " ", "\t", "\n ", "\x1c", "\xa0"])
    t = pad + sign + body + rnd.choice(["", "", " ", "\x85"])
    return f"t = {t!r}\nf = float(t)\n[f, f == f, str(f), f'{{f!r}}']"


def fam_case(rnd):
    atoms = ["hello", "World", "fooBAR", " ", "1st", "x2y", "it's", "a-b", "_a", "Q", "",
             "ÉTÉ", "straße", "ǅ", "ΣΑΣ", "\t", "42", "mIxEd"]
    t = "".join(rnd.choice(atoms) for _ in range(rnd.choice([0, 1, 2, 4, 6, 10])))
    how = rnd.choice(["upper", "lower", "title", "capitalize", "swapcase"])
    return f"t = {t!r}\nr = t.{how}()\n[r, len(r), r == t, {{r: 1}}.get(r + '', 0)]"


FAMILIES = [fam_split_seps, fam_split_shared, fam_splitlines, fam_key_roads, fam_strip,
            fam_slices, fam_affix_search, fam_float_parse, fam_case]

if __name__ == "__main__":
    gen_common.main(FAMILIES)
