#!/usr/bin/env python3
"""Generates lackpy programs aimed at text encodings and runs each with
CPython.

Usage: python3 gen_codecs.py SEED PER_FAMILY

Families: str.encode of texts (ASCII, Latin-1, BMP, astral) with every
supported codec under its aliases and case/punctuation variants, every
error handler (and unknown ones, unknown encodings, wrong types, keyword
forms); bytes.decode and str(bytes, encoding, errors) of valid and broken
byte strings (truncated and overlong UTF-8, surrogates, odd UTF-16 and
UTF-32 lengths, BOMs) with the same codecs and handlers; the common bytes
methods (find, index, count, startswith, endswith, split, rsplit, strip,
replace, hex, partition, join, the case and is* methods, len, slicing,
indexing, in, +, *, comparisons) on
tool-like output; str.translate, str.maketrans and str.format_map;
random byte strings (lead, continuation, surrogate and out-of-range
bytes) decoded and random text (every plane's edges) encoded with every
codec and handler; the issue's snippets verbatim.

Prints one JSON list of {"program", "family", "repr"|"error"}.
"""
import gen_common

TEXTS = ["", "a", "hello", "héllo", "aéé€b😀", "naïve café", "€", "😀x", "ÿ\x00\x7f",
         "tab\there", "日本語", "x" * 5 + "é" + "y" * 3, "\u0100", "ab\r\nc"]
CODECS = {
    "utf_8": ["utf-8", "UTF-8", "utf8", "u8", "UTF8", "utf", "cp65001", "utf_8", "Utf-8",
              "utf8_ucs4", "utf 8"],
    "ascii": ["ascii", "ASCII", "us-ascii", "US_ASCII", "646", "us", "ansi_x3.4_1968",
              "iso646-us", "cp367", "csASCII"],
    "latin_1": ["latin-1", "latin1", "Latin-1", "iso-8859-1", "iso8859_1", "l1", "8859",
                "latin", "cp819", "ISO_8859-1", "iso_ir_100", "IBM819"],
    "utf_16": ["utf-16", "UTF-16", "utf16", "u16"],
    "utf_16_le": ["utf-16-le", "utf_16_le", "UTF-16LE", "utf-16le", "unicodelittleunmarked"],
    "utf_16_be": ["utf-16-be", "utf_16be", "UTF-16BE", "unicodebigunmarked"],
    "utf_32": ["utf-32", "UTF32", "u32", "utf_32"],
    "utf_32_le": ["utf-32-le", "utf_32le", "UTF-32LE"],
    "utf_32_be": ["utf-32-be", "utf_32be", "UTF-32-BE"],
}
UNKNOWN = ["bogus", "", "utf-7x", "utf-9", "latin-2x", "asci", "utf--8x", "zzz"]
HANDLERS = ["strict", "ignore", "replace", "backslashreplace", "xmlcharrefreplace",
            "bogus", "STRICT", ""]
BYTES = [b"", b"abc", b"h\xc3\xa9llo", b"a\xe9b", b"\xe2\x82a", b"a\xe2\x82", b"\xe2",
         b"\xf0\x9f\x98", b"\xf0\x9f\x98\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
         b"\xc0\xaf", b"\xff\xfe", b"\xfe\xff\x00a", b"\xff\xfea\x00", b"a\x00b",
         b"\x00\xd8a\x00", b"\x00\xdca\x00", b"\x00\xd8", b"\x00\xd8\x00\xd8", b"\x00\xd8a",
         b"a\x00\x00\x00", b"\xff\xfe\x00\x00a\x00\x00\x00", b"\x00\x00\x11\x00",
         b"\x00\xd8\x00\x00", b"a\x00\x00", b"\x80abc\xbf", b"\xe9\xe9x\xe9",
         b"=\xd8\x00\xde", b"\xd8=\xde\x00", b"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"]


def encoding(rnd):
    if rnd.random() < 0.1:
        return rnd.choice(UNKNOWN)
    return rnd.choice(rnd.choice(list(CODECS.values())))


def call_args(rnd, enc, err):
    """The arguments of encode/decode: positional, keyword or absent."""
    shape = rnd.random()
    if shape < 0.15:
        return ""
    if shape < 0.3:
        return repr(enc)
    if shape < 0.6:
        return f"{enc!r}, {err!r}"
    if shape < 0.75:
        return f"encoding={enc!r}, errors={err!r}"
    if shape < 0.85:
        return f"errors={err!r}"
    if shape < 0.9:
        return rnd.choice(["1", "None", f"{enc!r}, None", f"{enc!r}, {err!r}, 1",
                           "foo=1", f"{enc!r}, encoding={enc!r}", "b'utf-8'"])
    return f"{enc!r}, errors={err!r}"


def fam_encode(rnd):
    t = rnd.choice(TEXTS)
    if rnd.random() < 0.3:
        t = t + rnd.choice(TEXTS)
    args = call_args(rnd, encoding(rnd), rnd.choice(HANDLERS))
    use = rnd.choice(["r", "[r, len(r)]", "r.hex()", "list(r)[:6]"])
    return f"t = {t!r}\nr = t.encode({args})\n{use}"


def fam_decode(rnd):
    b = rnd.choice(BYTES)
    if rnd.random() < 0.3:
        b = b + rnd.choice(BYTES)
    enc, err = encoding(rnd), rnd.choice(HANDLERS)
    if rnd.random() < 0.3:
        shape = rnd.random()
        if shape < 0.5:
            call = f"str(b, {enc!r}, {err!r})"
        elif shape < 0.7:
            call = f"str(b, {enc!r})"
        elif shape < 0.85:
            call = f"str(b, errors={err!r})"
        else:
            call = rnd.choice(["str(b, None)", "str(b, 'ascii', 1)", "str('x', 'ascii')",
                               "str(1, 'ascii')", "str(b, encoding=None)", "str(b, 'ascii', 'strict', 3)"])
    else:
        call = f"b.decode({call_args(rnd, enc, err)})"
    use = rnd.choice(["r", "[r, len(r)]", "list(r)"])
    return f"b = {b!r}\nr = {call}\n{use}"


def fam_roundtrip(rnd):
    t = rnd.choice(TEXTS) + rnd.choice(TEXTS)
    codec = rnd.choice(list(CODECS))
    a, b = rnd.choice(CODECS[codec]), rnd.choice(CODECS[codec])
    err = rnd.choice(["strict", "replace", "ignore", "backslashreplace"])
    return (f"t = {t!r}\nb = t.encode({a!r}, {err!r})\nu = b.decode({b!r}, {err!r})\n"
            f"[b, u, u == t, len(b)]")


OUT = [b"ok: 3 files\nerror: none\n", b"  key=value; other=\xc3\xa9t\xc3\xa9  ", b"a,b,,c",
       b"", b"\x00\x01\xff", b"line1\r\nline2\r\n", b"  \t  ", b"abcabcabc"]
NEEDLES = [b"", b"a", b"abc", b"\n", b"error", b"=", b",", b" ", b"\xc3\xa9", b"zz"]
IDX = ["0", "1", "-1", "3", "-4", "100", "-100", "None"]


def fam_bytes(rnd):
    b = rnd.choice(OUT)
    n = rnd.choice(NEEDLES)
    i, j = rnd.choice(IDX), rnd.choice(IDX)
    op = rnd.choice([
        f"b.find({n!r})", f"b.find({n!r}, {i})", f"b.find({n!r}, {i}, {j})", f"b.rfind({n!r})",
        f"b.index({n!r})", f"b.count({n!r})", f"b.count({n!r}, {i})",
        f"b.startswith({n!r})", f"b.startswith({n!r}, {i})", f"b.endswith({n!r})",
        f"b.startswith(({n!r}, b'x'))", f"b.endswith({n!r}, {i}, {j})",
        f"b.split()", f"b.split({n!r})", f"b.split({n!r}, 1)", f"b.rsplit({n!r}, 1)",
        f"b.split(maxsplit=1)", "b.splitlines()", "b.splitlines(True)",
        "b.strip()", f"b.strip({n!r})", "b.lstrip()", "b.rstrip()", f"b.rstrip({n!r})",
        f"b.replace({n!r}, b'#')", f"b.replace({n!r}, b'', 1)", "b.hex()", "b.hex(':')",
        "len(b)", f"b[{i}:{j}]", f"b[{i}]", "b[::-1]", f"b[{i}::2]", f"{n!r} in b",
        f"b + {n!r}", "b * 2", f"b == {n!r}", f"b < {n!r}",         "b.decode()", "list(b)[:5]",
        "b.find('a')", "b.split('a')", "b.startswith('a')", "b.strip('a')", "b.find(97)",
        f"b.count({n!r}, {i}, {j})", "b.index(b'qq')", "b.replace(b'a')",
        "b.decode('ascii', 'replace')", "b.rindex(b'a')", "b.lstrip(b' k')",
        "b.upper()", "b.lower()", "b.isdigit()", "b.isspace()", "b.isalpha()", "b.isalnum()",
        "b.islower()", "b.isupper()", "b.isascii()", f"b.partition({n!r})",
        f"b.rpartition({n!r})", f"b.removeprefix({n!r})", f"b.removesuffix({n!r})",
        f"{n!r}.join([b, b'x'])", f"b.join([{n!r}, b'x', {n!r}])", "b.join(['x'])",
        "b.upper(1)", "b.partition()", "b.join()",
    ])
    return f"b = {b!r}\nr = {op}\nr"


TRANS = ["{97: 'x'}", "{97: None}", "{97: 120, 98: 'yz'}", "{'a': 'x'}", "{97: 1.5}",
         "str.maketrans('ab', 'xy')", "str.maketrans('ab', 'xy', 'c')", "str.maketrans({'a': 'b'})",
         "str.maketrans({97: None, 'é': 'e'})", "str.maketrans('', '', 'aeiou')",
         "{}", "[]", "{233: 'e', 128512: ':)'}", "{97: 0x110000}", "{97: -1}",
         "{97: 98, 98: 97}", "'abc'"]
MAKETRANS = ["str.maketrans('ab', 'x')", "str.maketrans('abc')", "str.maketrans(1)",
             "str.maketrans({'ab': 1})", "str.maketrans({1.5: 1})", "str.maketrans('a', 'b', 1)",
             "str.maketrans()", "str.maketrans({}, 'a')", "'x'.maketrans('a', 'b')",
             "str.maketrans({'a': 1, 98: 'c'})", "sorted(str.maketrans('abc', 'xyz', 'q').items())",
             "str.maketrans(x='y')"]
FMAP = ["'{a} {b}'", "'{a!r:>6}'", "'{0}'", "'{}'", "'{{a}}'", "'{c}'", "'{b:>{a}}'",
        "'{a:{b}}'", "'{b}-{a}'"]
MAPS = ["{'a': 1, 'b': 'x'}", "{'a': [5, 6], 'b': 3}", "{}", "{1: 2}", "[1]", "1",
        "{'a': 'q', 'b': 8, 'c': None}"]


def fam_translate(rnd):
    t = rnd.choice(TEXTS + ["abcabc", "banana", "aeiou"])
    kind = rnd.random()
    if kind < 0.5:
        return f"t = {t!r}\nr = t.translate({rnd.choice(TRANS)})\n[r, len(r)]"
    if kind < 0.7:
        return f"r = {rnd.choice(MAKETRANS)}\nr"
    fm = rnd.choice(FMAP)
    extra = rnd.choice(["", "", "", ", 1", "x=1"])
    mp = rnd.choice(MAPS)
    if extra == "x=1":
        return f"m = {mp}\nr = {fm}.format_map(x=1)\nr"
    return f"m = {mp}\nr = {fm}.format_map(m{extra})\nr"


INTERESTING = [0x00, 0x41, 0x7f, 0x80, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xe1, 0xed, 0xef, 0xf0,
               0xf4, 0xf5, 0xff, 0xa0, 0x9f, 0x90, 0x8f, 0xd8, 0xdc, 0xfe, 0x11, 0x10]


def fam_decode_fuzz(rnd):
    n = rnd.randrange(0, 13)
    b = bytes(rnd.choice(INTERESTING) if rnd.random() < 0.8 else rnd.randrange(256)
              for _ in range(n))
    codec = rnd.choice(list(CODECS))
    enc = rnd.choice(CODECS[codec])
    err = rnd.choice(["strict", "replace", "ignore", "backslashreplace"])
    return f"b = {b!r}\nr = b.decode({enc!r}, {err!r})\n[r, len(r)]"


def fam_encode_fuzz(rnd):
    pool = "aZ\x00\x7f\x80\xe9\xff\u0100\u20ac\ud7ff\ue000\uffff\U00010000\U0001f600\U0010ffff"
    t = "".join(rnd.choice(pool) for _ in range(rnd.randrange(0, 8)))
    codec = rnd.choice(list(CODECS))
    enc = rnd.choice(CODECS[codec])
    err = rnd.choice(["strict", "replace", "ignore", "backslashreplace", "xmlcharrefreplace"])
    return f"t = {t!r}\nr = t.encode({enc!r}, {err!r})\n[r, len(r), r.decode({enc!r}, 'replace')]"


# The divergences issue 27 reports, verbatim, each also a regression case.
SNIPPETS = [
    "r = str(b'x', None)\nr", "r = b'a\\xe9b'.decode()\nr", "r = b'a\\xe9'.decode()\nr",
    "r = b'a\\xe2\\x82'.decode()\nr", "r = 'h\u00e9llo'.encode('ascii')\nr",
    "r = 'hi'.encode('utf-16')\nr", "r = 'hi'.encode('no-such-codec')\nr",
    "r = 'abc'.translate({97: 'x'})\nr", "r = str.maketrans('ab', 'xy')\nr",
    "r = '{a}-{b}'.format_map({'a': 1, 'b': 2})\nr",
    "b = b'ok: 3\\nerr: 0\\n'\n[b.find(b'err'), b.startswith(b'ok'), b.split(b'\\n'), "
    "b.strip(), b.replace(b'0', b'1'), b.hex(), len(b), b[1:4], b'3' in b, b.decode()]",
]


def fam_snippets(rnd):
    return rnd.choice(SNIPPETS)


FAMILIES = [fam_encode, fam_decode, fam_roundtrip, fam_bytes, fam_translate, fam_snippets,
            fam_decode_fuzz, fam_encode_fuzz]

if __name__ == "__main__":
    gen_common.main(FAMILIES)
