#!/usr/bin/env python3
"""Generates programs for str results built to a known length and runs
each with CPython.

Families: join over lists, tuples, iterators and single items (the length
of the result computed without a rescan), over mixed and non-str items
(the TypeError names the first bad item), with non-ASCII pieces and empty
and non-ASCII separators; concatenation, repetition and padding (center,
ljust, rjust, zfill) with non-ASCII pieces and fill characters, strided
and reversed slices, around the inline length, used as keys next to the
same text made by other roads; and chains of `+` over every kind of
operand (strings collected and joined once, then the rest added one by
one), with operands that raise after a type error (the order of
evaluation and the first error must hold), chains over several lines,
long and non-ASCII chains and chains that grow a name.

Usage: python3 gen_str_build.py SEED PER_FAMILY

Prints one JSON list of cases (see gen_common.py).
"""
import gen_common
from gen_common import pick, stream, text


@stream(3)
def fam_join(rnd):
    items = [text(rnd, wide=.4) for _ in range(rnd.randint(0, 5))]
    sep = rnd.choice(["", ",", ", ", "é", " | "])
    src = rnd.choice([f"{items!r}", f"tuple({items!r})", f"reversed({items!r})",
                      f"[x.upper() for x in {items!r}]", "[s]", "[1, 'a']", "['a', None]",
                      "reversed([s, s])", "s", "{'k': 1, 'j': 2}"])
    return f"s = {text(rnd)!r}\nr = {sep!r}.join({src})\n[r, len(r), r[-2:], r == {sep!r}.join(list({src}))]"


WORD_ASCII = "abcxyz01 ,;-"
WORD_WIDE = "éßΣσ😀ﬁ"


def word(rnd, wide=0.3, lengths=(0, 1, 2, 5, 11, 12, 13, 23, 24, 25, 30)):
    n = rnd.choice(lengths)
    alphabet = WORD_ASCII + (WORD_WIDE if rnd.random() < wide else "")
    return "".join(rnd.choice(alphabet) for _ in range(n))


def literal(rnd):
    """A random item for a join: mostly str, sometimes another type."""
    return rnd.choice([
        repr(word(rnd)), repr(word(rnd)), repr(word(rnd)), repr(word(rnd)),
        "1", "True", "None", "1.5", "['a']", "('a',)", "b'x'", "-9223372036854775808",
    ])


@stream(1)
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


@stream(6)
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


def other_road(name):
    """An expression equal to the string named `name`, made another way."""
    return f"''.join(list({name}))"


@stream(3)
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


MAX = 9223372036854775807
STRS = ["'ab'", "''", "'é'", "'日本'", "'x' * 30", "'-'", "'\\n'", "'a😀'", 'w', 'u', 'str(i)', 'str(n)',
        "'q' * 25"]
OTHERS = ['1', '0', '-1', '2.5', 'True', 'False', 'None', '[1]', '(2,)', 'n', 'f', str(MAX), str(2 ** 64),
          "b'x'", '[]']
BOMBS = ['(1 // 0)', 'nope', '[][1]', "int('z')", '{}["k"]']


def operand(rnd, strs=.75):
    r = rnd.random()
    if r < strs:
        return rnd.choice(STRS)
    if strs > .8:
        return rnd.choice(OTHERS)
    if r < .97:
        return rnd.choice(OTHERS)
    return rnd.choice(BOMBS)


def chain(rnd, lo=3, hi=12, strs=.75):
    if rnd.random() < .55:
        strs = 1.0
    parts = [operand(rnd, strs) for _ in range(rnd.randint(lo, hi))]
    if rnd.random() < .2:
        # A chain over several lines: each step's error has the line of its `+`.
        return '(' + ' +\n    '.join(parts) + ')'
    if rnd.random() < .1:
        # Parentheses on the right: a separate addition inside the chain.
        k = rnd.randint(1, len(parts) - 1)
        return ' + '.join(parts[:k]) + ' + (' + ' + '.join(parts[k:]) + ')'
    return ' + '.join(parts)


@stream(1)
def fam_add_chain(rnd):
    """`a + b + c …` over strings, numbers, sequences and raising operands,
    as values, in comprehensions and lambdas, and growing a name."""
    lines = [f'w = {pick(rnd, "{!r}".format("wörd"), "{!r}".format("w"), "{!r}".format(""), "7")}',
             f'u = {pick(rnd, "{!r}".format("u" * 40), "{!r}".format("ü"), "[3]", "2")}',
             f'n = {pick(rnd, "3", "-4", str(MAX), "2.5", "True")}', 'f = 1.5', 'i = 0']
    shape = rnd.random()
    if shape < .4:
        for k in range(rnd.randint(1, 2)):
            lines.append(f'r{k} = {chain(rnd)}')
        lines.append('[' + ', '.join(f'r{k}' for k in range(len(lines) - 5)) + ']')
        return '\n'.join(lines)
    if shape < .6:
        lines.append('s = w')
        body = pick(rnd, f's = s + {chain(rnd, 2, 4)}', f's = {chain(rnd, 2, 4)} + s[:7]',
                    f's += {chain(rnd, 2, 4)}', f's = s + w + str(i) + s[-3:]')
        lines.append(f'for i in range({rnd.randint(0, 5)}):\n    {body}')
        lines.append('[s, len(s)]')
        return '\n'.join(lines)
    if shape < .8:
        lines.append(f'r = [{chain(rnd, 3, 9, .85).replace("str(i)", "str(x)")} for x in range(3)]')
        lines.append('r')
        return '\n'.join(lines)
    lines.append(f"xs = ['b', 'a', {pick(rnd, repr('c'), '1', repr('dé'))}]")
    lines.append(f'r = sorted(xs, key=lambda x, y="t": {chain(rnd, 3, 9, .85).replace("str(i)", "x")} + y)')
    lines.append('r')
    return '\n'.join(lines)


FAMILIES = [fam_join, fam_join_mixed, fam_concat_pad, fam_built, fam_add_chain]

if __name__ == "__main__":
    gen_common.main(FAMILIES, line=True)
