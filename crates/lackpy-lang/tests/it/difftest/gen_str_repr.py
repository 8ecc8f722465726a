#!/usr/bin/env python3
"""Generates lackpy programs aimed at the str representation and runs each
with CPython.

Text is stored inline (up to 30 bytes, with a one-byte length) or on the
heap with a trailer that keeps its code point count, at and across that
edge and the 24-byte edge of the word-wise hash (and the former inline
limit), and hashed on demand. Strings of 0, 1, 23-32 and many bytes, ASCII
or with 2-, 3- and 4-byte characters placed at the edges, NUL bytes; every
str method that builds its result in place making results of 23-32 bytes;
`+=` growth across the edge (shared and unshared); indexing, slicing and
len; equal texts built different ways (literal, concat, slice, join,
format, split piece, rsplit, partition, replace, strip, str(), f-strings,
case round trips) as dict keys and set members and looked up, next to
non-ASCII text at every position; ordering; find/count/replace/split on
long non-ASCII text.

Usage: python3 gen_str_repr.py SEED PER_FAMILY

Prints one JSON list of cases (see gen_common.py).
"""
import gen_common
from gen_common import stream

ASCII = "abz0 ,.-:"
WIDE = ["é", "ß", "Σ", "€", "中", "😀", "𝄞"]
NUL = "\x00"


def text(rnd, nbytes=None, wide=0.4, letters=ASCII, wide_share=.3, nul_share=.03):
    """A string of about `nbytes` UTF-8 bytes (exactly, when the last
    character fits): characters of `letters`, or (with chance `wide`) with
    wide characters, and NULs."""
    if nbytes is None:
        nbytes = rnd.choice([0, 1, 2, 22, 23, 24, 25, 26, 27, 29, 30, 31, 32, 47,
                             48, 49, 100, 300, rnd.randint(0, 60)])
    out, size = [], 0
    use_wide = rnd.random() < wide
    while size < nbytes:
        r = rnd.random()
        if use_wide and r < wide_share:
            c = rnd.choice(WIDE)
        elif r < wide_share + nul_share:
            c = NUL
        else:
            c = rnd.choice(letters)
        if size + len(c.encode()) > nbytes:
            c = rnd.choice(letters)
        out.append(c)
        size += len(c.encode())
    return "".join(out)


def edge_text(rnd):
    """Text whose last or first wide character straddles the 24- or
    30-byte edge."""
    c = rnd.choice(WIDE)
    k = len(c.encode())
    edge = rnd.choice([24, 30])
    lead = rnd.choice([edge - k, edge + 1 - k, edge - 1 - k, edge, edge - 1, edge + 1,
                       edge + 2 - k])
    s = "a" * max(lead, 0) + c
    if rnd.random() < .5:
        s = s + text(rnd, rnd.choice([0, 1, 2, 10, 40]), wide=.5)
    return s


def some_text(rnd):
    return edge_text(rnd) if rnd.random() < .4 else text(rnd)


def idx(rnd):
    return rnd.choice(["0", "1", "-1", "-2", "22", "23", "24", "25", "-24", "-25",
                       "len(s) - 1", "len(s) // 2", "len(s)", "100", "-100"])


@stream(1)
def fam_access(rnd):
    s = some_text(rnd)
    a, b = idx(rnd), idx(rnd)
    step = rnd.choice(["1", "2", "-1", "-3", "7"])
    return (f"s = {s!r}\n"
            f"t = s[{a}:{b}:{step}]\n"
            f"c = [s[i] for i in range(len(s)) if i % 5 == 0 or i > 20]\n"
            f"e = s[{a}] if -len(s) <= {a} < len(s) else None\n"
            f"[len(s), e, t, len(t), c, s.isascii(), len(s.encode()), s[::-1][:4],"
            f" s[20:30], len(s[20:30]), ''.join(reversed(s)) == s[::-1],"
            f" s[{a}:] + s[:{a}] == s[{a}:] + s[:{a}]]")


@stream(2)
def fam_grow(rnd):
    pieces = [rnd.choice(["a", "bc", "é", "😀", "中", "\x00", "xyz0123", "", "ß€"])
              for _ in range(rnd.randint(1, 4))]
    n = rnd.randint(1, 20)
    start = rnd.choice(["''", "'a' * 20", "'x' * 23", "'é' * 11", repr(text(rnd))])
    shared = rnd.random() < .4
    lines = [f"s = {start}", "keep = s", "seen = []", f"for i in range({n}):"]
    if shared:
        lines.append("    keep = s")
    for p in pieces:
        lines.append(f"    s += {p!r}")
    lines.append("    seen.append((len(s), s[-1:], s[22:26], len(s.encode())))")
    lines.append("[s, len(s), keep, len(keep), seen, s.count('é'), s.find('😀'),"
                 " s[len(s) // 2], s == keep]")
    return "\n".join(lines)


def same_text_ways(s, a, b):
    """Expressions that all make the text `s` differently; the names `a`
    and `b` hold its two halves."""
    ways = [
        repr(s),
        f"{a} + {b}",
        f"({s!r} + 'QQ')[:-2]",
        f"('QQ' + {s!r})[2:]",
        f"''.join([{a}, {b}])",
        f"'{{}}{{}}'.format({a}, {b})",
        f"f'{{{a}}}{{{b}}}'",
        f"({a} + {b} + '|tail').split('|')[0]",
        f"'%s%s' % ({a}, {b})",
        f"str({s!r})",
        f"{s!r}[::-1][::-1]",
    ]
    if s.isascii() and s.isalpha():
        ways.append(f"{s.swapcase()!r}.swapcase()")
    return ways


@stream(3)
def fam_keys(rnd):
    texts = [some_text(rnd) or "k" for _ in range(rnd.randint(1, 4))]
    lines = ["d = {}", "st = set()"]
    for i, t in enumerate(texts):
        h = len(t) // 2
        lines.append(f"a{i} = {t[:h]!r}")
        lines.append(f"b{i} = {t[h:]!r}")
    ways = [same_text_ways(t, f"a{i}", f"b{i}") for i, t in enumerate(texts)]
    for w in ways:
        k = rnd.choice(w)
        lines.append(f"d[{k}] = d.get({rnd.choice(w)}, 0) + 1")
        lines.append(f"st.add({rnd.choice(w)})")
    probes = [rnd.choice(w) for w in ways]
    probes.append(repr(rnd.choice(texts) + "x"))
    probes.append(repr(rnd.choice(texts)[:-1]))
    lines.append(f"probes = [{', '.join(probes)}]")
    # A dict large enough to have an index, then probed with rebuilt keys.
    lines.append(f"big = {{{texts[0]!r} + str(i): i for i in range({rnd.choice([5, 9, 40, 200])})}}")
    lines.append(f"hits = [big.get({texts[0]!r} + str(i)) for i in (0, 3, 8, 39, 199, 500)]")
    lines.append("[sorted(d.items()), sorted(st), [p in d for p in probes],"
                 " [p in st for p in probes], len(d), len(st), hits,"
                 " (probes[0] + '') in {probes[0][:]: 0}, len({p: 1 for p in probes})]")
    return "\n".join(lines)


@stream(4)
def fam_order(rnd):
    base = some_text(rnd)
    items = [base, base + "a", base[:-1], base + NUL, base.upper(), base + "é",
             some_text(rnd), some_text(rnd), "", "a" * 24, "a" * 25, "a" * 23 + "é"]
    rnd.shuffle(items)
    items = items[:rnd.randint(2, len(items))]
    op = rnd.choice(["<", "<=", ">", ">=", "==", "!="])
    return (f"xs = {items!r}\n"
            f"[sorted(xs), sorted(xs, key=len), max(xs), min(xs),"
            f" [a {op} b for a in xs[:4] for b in xs[:4]], sorted(set(xs)) == sorted(dict.fromkeys(xs))]")


@stream(5)
def fam_search(rnd):
    unit = rnd.choice(["aé", "中x", "😀b", "abc", "ß€z", "a\x00é"])
    s = unit * rnd.choice([9, 13, 40, 200]) + rnd.choice(["", "end", "😀", "é"])
    pat = rnd.choice(["é", "中x", "b", "😀", "zz", unit, unit * 2, "end", "\x00"])
    new = rnd.choice(["", "-", "XY", "é", "😀😀"])
    start = rnd.choice(["", ", 3", ", 25", ", -30", ", 100, 300"])
    return (f"s = {s!r}\n"
            f"r = s.replace({pat!r}, {new!r})\n"
            f"p = s.split({pat!r})\n"
            f"[len(s), s.find({pat!r}{start}), s.rfind({pat!r}{start}), s.count({pat!r}{start}),"
            f" len(r), r[:30], r[-7:], len(p), [len(x) for x in p[:5]], p[-1][:5],"
            f" s.index(s[40]) if len(s) > 40 else -1, s[100:130], s.startswith({unit!r}),"
            f" s.endswith({pat!r}), r.upper()[-5:], s.partition({pat!r})[2][:6]]")


@stream(6)
def fam_errors(rnd):
    s = some_text(rnd)
    bad = rnd.choice([f"s[{len(s)}]", f"s[-{len(s) + 1}]", "s.index('\\x01\\x02')",
                      "d[s + '!']", f"s[{len(s) // 2}] + 1", "int(s)"])
    return f"s = {s!r}\nd = {{s: 1}}\nx = d[s]\ny = {bad}\n[x, y]"


def mid_text(rnd):
    """Text of 23 to 32 bytes, words of mixed case (sometimes with a wide
    character): around the inline forms' edges."""
    return text(rnd, rnd.randint(23, 32), wide=.3, letters="aBcdeFgh xyZ-0a.",
                wide_share=.15, nul_share=0)


@stream(7)
def fam_mid(rnd):
    """Methods that build results of 23 to 32 bytes in place (case maps,
    padding, replace, strip then case, join, formatting, slices, `+=`),
    used as keys, compared and measured."""
    s = mid_text(rnd)
    w = rnd.randint(20, 33)
    fill = rnd.choice(["' '", "'*'", "'é'"])
    made = [
        "s.upper()", "s.lower()", "s.title()", "s.capitalize()", "s.swapcase()",
        "s.casefold()", f"s.center({w}, {fill})", f"s.ljust({w})", f"s.rjust({w}, {fill})",
        f"s.zfill({w})", "s.replace('a', 'XY')", "s.replace(' ', '')",
        "(' ' + s + '  ').strip().upper()", "('..' + s).lstrip('.').lower()",
        "'-'.join([s[:10], s[10:20], s[20:]])", "f'{s}!'", "'%s|%d' % (s, 7)",
        "'{}{}'.format(s[:13], s[13:])", "s[1:]", "s[:-1]", "s + 'é'", "s[::-1]",
        "(s + 'abcdefgh')[:31]", "(s + 'abcdefgh')[:30]", "(s * 2)[3:28]",
    ]
    picks = rnd.sample(made, 6)
    grow = rnd.choice(["'a'", "'é'", "'😀'", "'xy'"])
    lines = [f"s = {s!r}", f"xs = [{', '.join(picks)}]", "g = s[:20]", "steps = []",
             "for i in range(14):", f"    g += {grow}",
             "    steps.append((len(g), g[-2:], g.isascii(), g.upper()[-3:]))",
             "d = {x: i for i, x in enumerate(xs)}",
             "[xs, [len(x) for x in xs], [x.isascii() for x in xs], sorted(xs), steps,"
             " [d.get(x) for x in xs], [x == y for x in xs for y in xs[:2]],"
             " [x[-1] for x in xs if x], [x.find('a') for x in xs], g]"]
    return "\n".join(lines)


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


@stream(4)
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


FAMILIES = [fam_access, fam_grow, fam_keys, fam_order, fam_search, fam_errors, fam_mid,
            fam_key_roads]

if __name__ == "__main__":
    gen_common.main(FAMILIES, line=True)
