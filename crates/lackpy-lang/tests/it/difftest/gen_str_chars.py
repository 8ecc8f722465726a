#!/usr/bin/env python3
"""Generates programs for the str methods that go character by character
(the Unicode tables) and runs each with CPython.

Families: the case methods (upper, lower, title, capitalize, swapcase) on
ASCII and non-ASCII text, short strings held inline and long ones, their
results used as keys; the predicates (isdigit, isalpha, islower, ...) on
ASCII text with control characters and on non-ASCII digits, numerals and
title-case letters, with wrong arguments; strip/lstrip/rstrip of whitespace
(ASCII and not: \\x85, \\xa0, \\u2000, \\u3000, \\u2028, \\x1c-\\x1f) and of
ASCII and non-ASCII character sets.

Usage: python3 gen_str_chars.py SEED PER_FAMILY

Prints one JSON list of cases (see gen_common.py).
"""
import gen_common
from gen_common import stream, text


@stream(1)
def fam_case(rnd):
    s = text(rnd, longer=rnd.random() < .3)
    ops = ["s.upper()", "s.lower()", "s.title()", "s.capitalize()", "s.swapcase()",
           "len(s.upper())", "s.upper().lower() == s.lower()", "s.title().istitle()"]
    return f"s = {s!r}\n[{', '.join(rnd.sample(ops, 4))}]"


@stream(9)
def fam_case_keys(rnd):
    atoms = ["hello", "World", "fooBAR", " ", "1st", "x2y", "it's", "a-b", "_a", "Q", "",
             "ÉTÉ", "straße", "ǅ", "ΣΑΣ", "\t", "42", "mIxEd"]
    t = "".join(rnd.choice(atoms) for _ in range(rnd.choice([0, 1, 2, 4, 6, 10])))
    how = rnd.choice(["upper", "lower", "title", "capitalize", "swapcase"])
    return f"t = {t!r}\nr = t.{how}()\n[r, len(r), r == t, {{r: 1}}.get(r + '', 0)]"


PRED_PIECES = ["a", "Z", "0", "9", "abc", "ABC", "Ab", "12", " ", "\t", "\x1c", "\x1f", "_a",
               "-", ".", "\x00", "\x7f", "²", "Ⅻ", "ǅ", "ß", "٣", "é", "É", "😀", "ﬁ", "\u2028"]
PREDS = ["isdigit", "isalpha", "isalnum", "islower", "isupper", "isdecimal", "isnumeric",
         "isspace", "istitle", "isascii"]


@stream(5)
def fam_predicates(rnd):
    n = rnd.choice([0, 1, 1, 2, 3, 6])
    ascii_only = rnd.random() < 0.6
    pieces = [p for p in PRED_PIECES if p.isascii()] if ascii_only else PRED_PIECES
    t = "".join(rnd.choice(pieces) for _ in range(n))
    calls = rnd.sample(PREDS, 4)
    bad = rnd.random() < 0.1
    extra = rnd.choice(["1", "'a'", "x=1"]) if bad else ""
    body = ", ".join(f"t.{c}({extra})" for c in calls)
    loop = rnd.random() < 0.3
    if loop:
        return (f"ts = [{t!r}, {t!r}.upper(), {t!r}.lower()]\nout = []\nfor t in ts:\n"
                f"    if t.{calls[0]}():\n        out.append(1)\n    out.append([{body}])\nout")
    return f"t = {t!r}\n[{body}]"


@stream(5)
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


FAMILIES = [fam_case, fam_case_keys, fam_predicates, fam_strip]

if __name__ == "__main__":
    gen_common.main(FAMILIES, line=True)
