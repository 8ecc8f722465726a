#!/usr/bin/env python3
"""Generates lackpy programs aimed at how builtins take their arguments
and at a few conversions' limits, and runs each with CPython.

Families: print with every mix of sep/end/file/flush values (None, str,
other types) and unknown keywords, what it printed compared too; int()
of strings around the 4300-digit limit in every base (signs, spaces,
underscores, a bad character past the limit) and str/repr/f-string/
%-format/format of ints around it; %-templates with '%' after flags,
width, precision, keys and '*', with too few, enough and too many
arguments; every builtin and every method of every type called with too
many positional arguments, unknown keywords, an argument given twice,
none at all, and '*' of a non-iterable in displays and calls; builtins and
methods called with positional, keyword, default, `*` and `**` arguments
(the bindings and every argument error). An error's line and what the
program printed must match too.

Usage: python3 gen_args.py SEED PER_FAMILY

Prints one JSON list of cases (see gen_common.py).
"""
import gen_common
from gen_common import pick, stream

PRINT_ARGS = ["", "1", "1, 2", "'a', 'b', 'c'", "[1, 'x']", "None", "*[1, 2]", "'é', 3.5"]
PRINT_VALUES = ["None", "''", "'-'", "', '", "'\\n'", "3", "b'x'", "1.5", "['x']", "True"]


@stream(1)
def fam_print(rnd):
    kws = []
    for name in rnd.sample(["sep", "end", "file", "flush"], rnd.randrange(0, 4)):
        if name == "file":
            value = rnd.choice(["None", "None", "3", "'f'"])
        elif name == "flush":
            value = rnd.choice(["True", "False", "0", "'x'"])
        else:
            value = rnd.choice(PRINT_VALUES)
        kws.append(f"{name}={value}")
    if rnd.random() < 0.12:
        kws.insert(rnd.randrange(len(kws) + 1), rnd.choice(["foo=1", "Sep=' '", "flushh=1"]))
    args = rnd.choice(PRINT_ARGS)
    call = ", ".join(p for p in [args] + kws if p)
    if rnd.random() < 0.3:
        return f"for i in range(2):\n    print(i, {call})\nprint('done')\n0"
    return f"print('start')\nprint({call})\nprint('after')\n0"


DIGITS = {2: "1", 8: "7", 10: "9", 16: "f", 36: "z", 7: "6", 0: "9", 3: "2"}


@stream(2)
def fam_digit_limit(rnd):
    kind = rnd.random()
    if kind < 0.55:
        base = rnd.choice(list(DIGITS))
        n = rnd.choice([1, 10, 4299, 4300, 4301, 4302, 5000, 9000])
        digit = DIGITS[base]
        body = f"'{digit}' * {n}"
        pre = rnd.choice(["", "", "'-' + ", "'+' + ", "'  ' + ", "'0' + "])
        post = rnd.choice(["", "", " + 'x'", " + '  '", " + '_1'", " + '.5'"])
        if base == 0 and rnd.random() < 0.4:
            pre = rnd.choice(["'0x' + ", "'0o' + ", "'0b' + "])
            digit = {"'0x' + ": "f", "'0o' + ": "7", "'0b' + ": "1"}[pre]
            body = f"'{digit}' * {n}"
        if rnd.random() < 0.15:
            body = f"'_'.join(['{digit}'] * {n})"
        s = f"{pre}{body}{post}"
        call = f"int(s, {base})" if base != 10 or rnd.random() < 0.5 else "int(s)"
        if rnd.random() < 0.2:
            call = f"int(s, base={base})"
        # Names starting with `_` are not among the run's variables (an int
        # past the limit has no JSON form).
        return f"s = {s}\n_v = {call}\n[_v % 1000, _v.bit_length()]"
    a = rnd.choice([2150, 2151, 2200, 3000, 4300, 4301])
    b = rnd.choice([2150, 2151, 1, 2])
    sign = rnd.choice(["", "-"])
    make = f"_v = {sign}int('9' * {a}) * int('9' * {b})"
    use = rnd.choice(["str(v)", "f'{v!r}'", "f'{v}'", "'%d' % v", "'%s' % (v,)", "'%r' % (v,)",
                      "'{}'.format(v)", "'{!r}'.format(v)", "f'{v:,}'", "f'{v:x}'", "str([v])",
                      "f'{v:>10}'", "'%x' % v", "'%i' % (v,)", "str({'k': v})", "str((v,))",
                      "'%5d' % v", "f'{v:d}'", "f'{v:_}'", "str(v % 10)"])
    return f"{make}\nr = {use.replace('v', '_v')}\n[len(r), r[:5]]"


PCT = ["%%", "%5%", "%-%", "%.2%", "%-5.2%", "%08%", "%+%", "% %", "%#%", "%*%", "%.*%",
       "%(a)%", "%(a)5%", "%l%", "%5y", "%y", "%(a)y"]


@stream(3)
def fam_percent(rnd):
    parts = [rnd.choice(["<", "", "ab", "é"])]
    for _ in range(rnd.randrange(1, 4)):
        parts.append(rnd.choice(PCT + ["%s", "%d", "%r", "%%"]))
        parts.append(rnd.choice(["", ">", " x "]))
    t = "".join(parts)
    rhs = rnd.choice(["()", "(1,)", "(1, 2)", "(1, 2, 3)", "1", "'s'", "{'a': 1}", "{}",
                      "[]", "(3, 4, 'x')"])
    return f"t = {t!r}\nr = {t!r} % {rhs}\n[r, t % {rhs}]"


# (callee, valid positional arguments, keyword names it takes)
CALLEES = [
    ("len", ["[1]"], []), ("sorted", ["[2, 1]"], ["key", "reverse"]),
    ("reversed", ["[1]"], []), ("enumerate", ["'ab'", "1"], ["iterable", "start"]),
    ("zip", ["[1]", "[2]"], ["strict"]), ("range", ["1", "5", "2"], []),
    ("min", ["[3, 1]"], ["key", "default"]), ("max", ["[3, 1]"], ["key", "default"]),
    ("sum", ["[1]", "0"], ["start"]), ("any", ["[1]"], []), ("all", ["[1]"], []),
    ("abs", ["-1"], []), ("round", ["1.5", "0"], ["number", "ndigits"]),
    ("str", ["b'x'", "'ascii'", "'strict'"], ["object", "encoding", "errors"]),
    ("int", ["'5'", "10"], ["base"]), ("float", ["'1.5'"], []), ("bool", ["1"], []),
    ("list", ["'ab'"], []), ("dict", ["[(1, 2)]"], []), ("set", ["[1]"], []),
    ("tuple", ["[1]"], []), ("isinstance", ["1", "int"], []),
    ("'hello'.capitalize", [], []), ("'hello'.casefold", [], []),
    ("'hello'.center", ["9", "'*'"], []), ("'hello'.count", ["'l'", "0", "5"], []),
    ("'hello'.encode", ["'utf-8'", "'strict'"], ["encoding", "errors"]),
    ("'hello'.endswith", ["'o'", "0", "5"], []), ("'hello'.expandtabs", ["4"], ["tabsize"]),
    ("'hello'.find", ["'l'", "0", "5"], []), ("'{}'.format", ["1"], []),
    ("'{a}'.format_map", ["{'a': 1}"], []), ("'hello'.index", ["'l'", "0", "5"], []),
    ("'hello'.isalnum", [], []), ("'hello'.isdigit", [], []), ("'hello'.isidentifier", [], []),
    ("'hello'.isprintable", [], []), ("'hello'.join", ["['a', 'b']"], []),
    ("'hello'.ljust", ["9", "'*'"], []), ("'hello'.lower", [], []), ("'hello'.lstrip", ["'h'"], []),
    ("'hello'.partition", ["'l'"], []), ("'hello'.removeprefix", ["'h'"], []),
    ("'hello'.replace", ["'l'", "'L'", "1"], ["count"]), ("'hello'.rfind", ["'l'", "0", "5"], []),
    ("'hello'.rjust", ["9", "'*'"], []), ("'hello'.rsplit", ["'l'", "1"], ["sep", "maxsplit"]),
    ("'hello'.split", ["'l'", "1"], ["sep", "maxsplit"]), ("'a\\nb'.splitlines", ["True"], ["keepends"]),
    ("'hello'.startswith", ["'h'", "0", "5"], []), ("'hello'.strip", ["'h'"], []),
    ("'hello'.title", [], []), ("'hello'.upper", [], []), ("'hello'.zfill", ["9"], []),
    ("'hello'.translate", ["{104: 'j'}"], []), ("str.maketrans", ["'ab'", "'cd'", "'e'"], []),
    ("[1, 2].append", ["3"], []), ("[1, 2].clear", [], []), ("[1, 2].copy", [], []),
    ("[1, 2].count", ["1"], []), ("[1, 2].extend", ["[3]"], []), ("[1, 2].index", ["2", "0", "2"], []),
    ("[1, 2].insert", ["0", "5"], []), ("[1, 2].pop", ["0"], []), ("[1, 2].remove", ["1"], []),
    ("[1, 2].reverse", [], []), ("[2, 1].sort", [], ["key", "reverse"]),
    ("(1, 2).count", ["1"], []), ("(1, 2).index", ["2", "0", "2"], []),
    ("range(5).count", ["1"], []), ("range(5).index", ["2"], []),
    ("{1: 2}.clear", [], []), ("{1: 2}.copy", [], []), ("dict.fromkeys", ["[1]", "0"], []),
    ("{1: 2}.get", ["1", "0"], []), ("{1: 2}.items", [], []), ("{1: 2}.keys", [], []),
    ("{1: 2}.pop", ["1", "0"], []), ("{1: 2}.popitem", [], []), ("{1: 2}.setdefault", ["3", "4"], []),
    ("{1: 2}.update", ["{3: 4}"], []), ("{1: 2}.values", [], []),
    ("{1, 2}.add", ["3"], []), ("{1, 2}.clear", [], []), ("{1, 2}.copy", [], []),
    ("{1, 2}.difference", ["[1]"], []), ("{1, 2}.discard", ["1"], []),
    ("{1, 2}.intersection", ["[1]"], []), ("{1, 2}.isdisjoint", ["[3]"], []),
    ("{1, 2}.issubset", ["[1]"], []), ("{1, 2}.issuperset", ["[1]"], []), ("{1, 2}.pop", [], []),
    ("{1, 2}.remove", ["1"], []), ("{1, 2}.symmetric_difference", ["[1]"], []),
    ("{1, 2}.union", ["[3]"], []), ("{1, 2}.update", ["[3]"], []),
    ("(5).bit_length", [], []), ("(5).bit_count", [], []), ("(5).conjugate", [], []),
    ("(5).as_integer_ratio", [], []), ("(1.5).is_integer", [], []), ("(1.5).hex", [], []),
    ("(1.5).as_integer_ratio", [], []), ("b'ab'.decode", ["'utf-8'", "'strict'"], ["encoding", "errors"]),
    ("b'ab'.hex", [], []), ("b'ab'.count", ["b'a'"], []), ("b'ab'.startswith", ["b'a'"], []),
    ("b'ab'.find", ["b'a'"], []), ("b'ab'.split", ["b'a'"], ["sep", "maxsplit"]),
    ("b'ab'.replace", ["b'a'", "b'c'"], []), ("b'ab'.strip", ["b'a'"], []),
]


STARS = ["{*42}", "[*42]", "(*42,)", "{1, *3}", "print(*42)", "len(*5)", "max(*5)",
         "sorted(*1)", "[*None]", "{*1.5, 2}", "zip(*3)", "[*'ab', *2]", "{**42}",
         "dict(**{1: 2})", "{'a': 1, **[]}"]


@stream(4)
def fam_arg_errors(rnd):
    if rnd.random() < 0.1:
        return f"r = {rnd.choice(STARS)}\nr"
    f, pos, kws = rnd.choice(CALLEES)
    kind = rnd.random()
    if kind < 0.25:
        # A set of ints and strs prints in hash order, which CPython
        # randomizes for strs: sets get no str.
        extra = ["1", "None", "[7]"] if f.startswith("{1, 2}") else ["1", "'x'", "None"]
        args = pos + [rnd.choice(extra) for _ in range(rnd.randrange(1, 4))]
    elif kind < 0.45:
        args = pos[:rnd.randrange(len(pos) + 1)]
        args.insert(rnd.randrange(len(args) + 1) if False else len(args),
                    rnd.choice(["foo=True", "nope=1", "x=1", "self=1"]))
    elif kind < 0.6 and kws:
        name = rnd.choice(kws)
        args = pos + [f"{name}=1"]
    elif kind < 0.7:
        args = []
    elif kind < 0.8 and kws:
        args = [f"{rnd.choice(kws)}=None"] + ([] if rnd.random() < 0.5 else ["foo=2"])
    elif kind < 0.9:
        args = pos[:rnd.randrange(len(pos) + 1)]
    else:
        args = pos + ["*[1, 2]"]
    if f in ("list", "set", "tuple", "dict", "zip", "reversed", "enumerate", "range"):
        return f"r = {f}({', '.join(args)})\nlist(r)"
    return f"r = {f}({', '.join(args)})\nr"


# The divergences issue 27 reports, verbatim, each also a regression case.
SNIPPETS = [
    "print('a', 'b', sep=None, end=None)\n0", "print(1, sep=3)\n0", "print(1, foo=4)\n0",
    "r = int('1' * 4301, 0)\n0", "r = int('1' * 4301 + 'x')\n0", "r = int('7' * 4301, 8)\n0",
    "r = int('6' * 4301, 7)\n0", "r = '<%8%>' % ()\nr", "r = '%-5.2%' % ()\nr",
    "r = 'hello'.expandtabs(4, tabsize=8)\nr", "r = int('5', 10, base=16)\nr",
    "r = max(nope=1)\nr", "r = list(zip([1], foo=True))\nr", "r = {*42}\nr",
]


@stream(5)
def fam_snippets(rnd):
    return rnd.choice(SNIPPETS)


CALLS = ['sorted(xs)', 'sorted(xs, reverse=True)', 'sorted(xs, key=abs, reverse=False)', 'sorted(*[xs])',
         'sorted(xs, **{"reverse": True})', 'sorted(xs, reverse=1)', 'sorted(xs, key=None)', 'sorted(xs, rev=True)',
         'sorted()', 'sorted(xs, xs)', 'max(xs, default=0)', 'max([], default=-1)', 'max(*xs)', 'max(xs, key=abs)',
         'min(xs, key=lambda v: -v)', 'min([])', 'min(1, 2, key=abs, default=3)', 'round(2.675, 2)',
         'round(2.5)', 'round(number=2.5, ndigits=0)', 'int("ff", 16)', 'int("ff", base=16)',
         'int("10", **{"base": 2})', 'int(x="3")', 'enumerate(xs, start=5)', 'enumerate(xs, 1)', 'list(*[xs])',
         'dict(a=1, b=2)', 'dict([(1, 2)], c=3)', 'dict(**{"z": 0})', 'range(*[1, 9, 3])', 'range(stop=3)',
         'sum(xs, start=10)', 'sum(xs, 0.5)', 'sum(*[xs])', '"a,b,c".split(",", maxsplit=1)',
         '"a,b,c".split(sep=",")', '"a b".split(maxsplit=0)', '"abc".replace("b", "x", count=1)',
         '"abc".replace("b", "x", 1)', '"x".center(5, fillchar="-")', '"x".center(*[5, "*"])',
         '"x".ljust(width=3)', '"-".join(*[["a", "b"]])', 'xs.index(3, 0)', 'xs.count(*[1])', 'len(*[xs])',
         'len(xs, xs)', 'abs(*[-2])', 'str(5, base=2)', 'zip(xs, xs, strict=True)', 'zip(xs, [1], strict=True)',
         'isinstance(1, int)', 'isinstance(obj=1, class_or_tuple=int)']


@stream(4)
def fam_keywords(rnd):
    """Builtins and methods called with positional, keyword, default, `*`
    and `**` arguments: bindings and every argument error."""
    lines = [f'xs = [{pick(rnd, "3, -1, 2", "1.5, -2, True", "", "3")}]']
    out = []
    for k in range(rnd.randint(1, 3)):
        call = rnd.choice(CALLS)
        lines.append(f'r{k} = {call}' if 'zip' not in call and 'enumerate' not in call else f'r{k} = list({call})')
        out.append(f'r{k}')
    lines.append(f"[{', '.join(out)}]")
    return '\n'.join(lines)


FAMILIES = [fam_print, fam_digit_limit, fam_percent, fam_arg_errors, fam_snippets, fam_keywords]

if __name__ == "__main__":
    gen_common.main(FAMILIES, line=True, stdout=True)
