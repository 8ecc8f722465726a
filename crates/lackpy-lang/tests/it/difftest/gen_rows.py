#!/usr/bin/env python3
"""Generates programs for padding, slicing and word counting and runs each with CPython.

Usage: python3 gen_rows.py SEED PER_FAMILY

Families: str padding (zfill, ljust, rjust, center) of ASCII and non-ASCII
text and of str(int) at the i64 edges, with widths below, at and above the
length (negative, bools, big ints), fill characters of one to four UTF-8
bytes, and bad fill or width arguments (the error's type, message and
line); slices with every step sign and bounds past either end of lists
whose items change kind part way (ints, then floats with NaN and -0.0,
strs, None, nested lists), of tuples, of ASCII and non-ASCII strs and of
bytes, copied, then mutated to show what is shared (sometimes with `len`
shadowed by the program); and word counting over
generated text with other cleanup methods (strip, lstrip, rstrip with
sets of characters, lower, casefold, upper), dict.get and setdefault
counting, a sort with a tuple key and formatted rows. Each family draws
from its own seed. Prints one JSON list of
{"program", "repr" | "error" [, "line"], "family"}.
"""
from gen_common import main

BIG = 9223372036854775807
TEXTS = ["''", "'a'", "'ab'", "'abc'", "'-12'", "'+7'", "'-'", "'+'", "'007'", "'héllo'", "'日本'",
         "'😀x'", "'a b'", "'x' * 30", "'é' * 13", "str(-5)", f"str({BIG})", f"str({-BIG - 1})",
         f"str({BIG + 1})", "str(0)", "str(True)", "str(-0)", "str(100000000000000000000)", "str(-100000000000000000000)"]
WIDTHS = ['-5', '-1', '0', '1', '2', '3', '4', '5', '6', '7', '8', '11', '12', '25', '31', 'True',
          'False', 'len(s)', 'len(s) + 1', 'len(s) - 1', 'len(s) + 2']
FILLS = ["'*'", "'.'", "' '", "'0'", "'é'", "'日'", "'😀'", "'\\t'", "'-'"]
BAD_FILLS = ["''", "'ab'", "'éé'", "1", "None", "b'x'", "['*']"]
BAD_WIDTHS = ["'5'", '2.0', 'None', f'{BIG + 1} * 0 + 2.5', '[3]']


def fam_pad(rnd):
    lines = [f"s = {rnd.choice(TEXTS)}", "out = []"]
    for _ in range(rnd.randint(1, 5)):
        m = rnd.choice(['zfill', 'ljust', 'rjust', 'center'])
        w = rnd.choice(WIDTHS)
        r = rnd.random()
        if m == 'zfill':
            if r < .08:
                args = rnd.choice(BAD_WIDTHS)
            elif r < .12:
                args = f"{w}, '*'"
            else:
                args = w
        elif r < .1:
            args = f"{w}, {rnd.choice(BAD_FILLS)}"
        elif r < .15:
            args = rnd.choice(BAD_WIDTHS)
        elif r < .18:
            args = f"{w}, '*', 1"
        elif r < .55:
            args = w
        else:
            args = f"{w}, {rnd.choice(FILLS)}"
        if rnd.random() < .2:
            # Another receiver (not compared by identity: CPython's constant
            # folding may share equal literals).
            lines.append(f"p = ({rnd.choice(TEXTS)}).{m}({args})")
            lines.append("out.append((p, len(p)))")
        else:
            lines.append(f"p = s.{m}({args})")
            lines.append("out.append((p, len(p), p is s))")
        if rnd.random() < .3:
            lines.append("s = p")
    if rnd.random() < .3:
        lines.append(f"for i in range({rnd.choice([3, 12])}):\n    out.append(str(i * {rnd.choice(['7', '-13', '1001'])}).{rnd.choice(['zfill', 'rjust', 'center', 'ljust'])}({rnd.choice(WIDTHS[:14])}))")
    lines.append("out")
    return "\n".join(lines)


ITEMS = ['0', '1', '-1', str(BIG), str(-BIG - 1), 'True', "1.5", "float('nan')", '-0.0', "'s'", "'é'",
         'None', '[1]', '(2, 3)', str(BIG + 1)]
STEPS = ['', ':1', ':2', ':3', ':-1', ':-2', ':-3', ':5', ':-7', ':100', ':-100', f':{BIG}', f':{-BIG}',
         f':{-BIG - 1}', ':True', ':0']
BOUNDS = ['', '0', '1', '-1', '2', '-3', '4', '-5', '9', '-9', '40', '-40', str(BIG), str(-BIG - 1), 'None']


def sl(rnd):
    return f'{rnd.choice(BOUNDS)}:{rnd.choice(BOUNDS)}{rnd.choice(STEPS)}'


def seq(rnd):
    kind = rnd.random()
    n = rnd.randint(0, 12)
    if kind < .35:
        # Runs of one kind, then another: the copy loop's fast kinds and the rest.
        runs = []
        while len(runs) < n:
            item = rnd.choice(ITEMS)
            runs += [item] * rnd.randint(1, 4)
        return '[' + ', '.join(runs[:n]) + ']'
    if kind < .5:
        return f'list(range({rnd.choice([-3, 0, 7, 20])}, {rnd.choice([30, 2, -1])}))'
    if kind < .65:
        return '(' + ', '.join(rnd.choice(ITEMS) for _ in range(n)) + ',)' if n else '()'
    if kind < .8:
        return rnd.choice(["'abcdefghijkl'", "'héllo wörld'", "'日本語テキスト'", "'a😀b😀c'", "''", "'x'",
                           "'0123456789' * 3", "'é' * 9 + 'z'"])
    return rnd.choice(["b'abcdefghij'", "b''", "b'\\x00\\xff\\x10'", "b'xyz' * 5"])


def fam_slices(rnd):
    lines = [f'xs = {seq(rnd)}', 'out = []']
    for _ in range(rnd.randint(1, 4)):
        r = rnd.random()
        if r < .6:
            lines.append(f'c = xs[{sl(rnd)}]')
        elif r < .75:
            lines.append(f'c = xs[{sl(rnd)}][{sl(rnd)}]')
        elif r < .85:
            lines.append(f'c = xs[{rnd.choice(BOUNDS[1:14])}::{rnd.choice(["-1", "-2", "3", "-4"])}]')
        else:
            a, b = rnd.choice(['0', '1', '-2', '3']), rnd.choice(['2', '-1', '5', '3'])
            lines.append(f'c = xs[{a}::{b}] + xs[::-{b.lstrip("-")}]')
        lines.append('out.append([c, len(c)])')
    if rnd.random() < .3:
        lines.append("if isinstance(c, list):\n    c.append(0)\n    for x in c:\n        if isinstance(x, list):\n            x.append(9)")
    if rnd.random() < .08:
        # A program's own `len` shadows the builtin for every call after it.
        lines.insert(1, 'len = str')
    lines.append('[out, xs]')
    return "\n".join(lines)


WORDS = ["the", "The", "THE", "a", "A,", "(lackpy)", "Rust!", "rust.", "Python;", "fast", "FAST?", "'tool'",
         "Straße", "ÉCOLE", "école", "...", "", "--", "x-y", "İ", "ß"]


def fam_words(rnd):
    words = [rnd.choice(WORDS) for _ in range(rnd.randint(0, 30))]
    sep = rnd.choice(["' '", "'  '", "'\\n'", "' \\t'"])
    clean = rnd.choice([
        "w.strip('.!,?;()').lower()", "w.strip().lower()", "w.rstrip('.,;!?').lstrip('(').rstrip(')').casefold()",
        "w.lower().strip(\"'.,!?;()\")", "w.casefold()", "w.upper().strip('.!')", "w.strip('.!,').lower()",
        "w.lstrip('-').rstrip('-.')", "w.strip(None)", "w.lower()", "w.strip('é,').upper()",
        "w.strip(1).lower()", "w.strip('.', 2).casefold()", "w.rstrip(None).lower()", "w.strip(w).lower()"])
    count = rnd.choice(["freq[w] = freq.get(w, 0) + 1", "freq[w] = freq.setdefault(w, 0) + 1",
                        "if w in freq:\n            freq[w] += 1\n        else:\n            freq[w] = 1"])
    split = rnd.choice(["text.split()", f"text.split({sep})", "text.split(None, 5)"])
    key = rnd.choice(["lambda kv: (-kv[1], kv[0])", "lambda kv: (kv[1], kv[0])", "lambda kv: kv[0]",
                      "lambda kv: (-kv[1], len(kv[0]), kv[0])"])
    spec = rnd.choice(["f'{word:>12} {n:7d} {n / total:7.2%}'", "f'{word:<8}|{n:>5,}|{n / total:.3f}'",
                       "f'{word!r:^10}{n:+d}'", "'%-10s %5d' % (word, n)"])
    return "\n".join([
        f"text = {sep}.join({words!r})",
        "freq = {}",
        f"for w in {split}:",
        f"    w = {clean}",
        "    if w:",
        f"        {count}",
        "total = sum(freq.values()) or 1",
        f"ranked = sorted(freq.items(), key={key})",
        "rows = []",
        "top = ranked[:6]",
        "for word, n in top:",
        f"    rows.append({spec} + '#' * (n * 40 // ranked[0][1]))",
        "[rows, len(freq)]",
    ])


main([fam_pad, fam_slices, fam_words], line=True)
