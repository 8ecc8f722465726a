//! Python semantics area by area: each program's `repr` of the result (or
//! its error) and what it printed must be what CPython 3.11 gives for the
//! same program, asked on every run (`tests/it/difftest/cpython_eval.py`;
//! `python3` is required).

use crate::difftest;
use crate::difftest::ours;

use serde_json::{Value, json};

/// An answer, cut to a readable length.
fn short(v: &Value) -> String {
    let text = v.to_string();
    match text.char_indices().nth(400) {
        Some((cut, _)) => format!("{}… ({} bytes)", &text[..cut], text.len()),
        None => text,
    }
}

/// Every program gives what CPython gives.
fn matches_cpython(programs: &[&str]) {
    let theirs = difftest::cpython("cpython_eval.py", &json!(programs));
    let theirs = theirs.as_array().expect("a list");
    assert_eq!(theirs.len(), programs.len());
    let diffs: Vec<String> = programs
        .iter()
        .zip(theirs)
        .filter_map(|(src, want)| {
            let got = ours(src);
            (got != *want).then(|| {
                format!(
                    "{src:?}\n  CPython: {}\n  ours:    {}",
                    short(want),
                    short(&got)
                )
            })
        })
        .collect();
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
}

#[test]
fn float_repr_through_str() {
    matches_cpython(&[
        "[str(0.1 + 0.2), str(1e16), str(1e15), str(1e-4), str(1e-5), str(-0.0), str(2.5e-7)]",
        "[1 / 3, 2 / 3, 10 / 3, 1 / 7, 5e-324, 1.7976931348623157e308]",
        "[float('inf'), -float('inf'), float('nan'), float('-0.0')]",
        "[round(2.675, 2), round(0.125, 2), round(-0.4), round(1234.5678, -2), round(2.5), round(3.5)]",
        "[float('1_000.5'), float(' 2 '), float('-Infinity'), float('１２')]",
        "float('1e')",
        "[(0.1).hex(), (3.75).as_integer_ratio(), (2.0).is_integer()]",
    ]);
}

#[test]
fn int_and_float_arithmetic() {
    matches_cpython(&[
        "[17 // 5, -17 // 5, 17 % -5, -17 % 5, 7.5 // 2, -7.5 % 2, 7 // 2.0]",
        "[9223372036854775807 + 1, -9223372036854775808 - 1, 9223372036854775807 * 3]",
        "12345678901234567890 * 98765432109876543210 // 7",
        "[True + True, True * 10, False - 1, True / 4, 7 // True]",
        "[9007199254740993 == 9007199254740992.0, 9007199254740993 > 9007199254740992.0]",
        "123456789012345678901234567890 / 7",
        "1 / 0",
        "1 % 0",
        "1 // 0",
        "1.0 // 0",
        "1.0 % 0",
        "5 / 0.0",
        "None * 3",
        "'a' * 2.0",
        "[1, 2] - [1]",
        "abs(-9223372036854775808)",
        "int('9' * 5000)",
        "x = 10\nfor i in range(400):\n    x *= 10\nfloat(x)",
        "[(1 + 2j) * 3, 3j / -1, abs(3 + 4j)]",
        "big = 9223372036854775807\n[sum([1, 2, 3]), sum([1, 2.5]), sum([big, 1]), sum([1, big, -5]), sum([], 5), sum([1, 2], 10), sum([[1], [2]], []), sum([True, 2]), sum([0.1] * 3)]",
        "sum([1, 'a'])",
        "t = 'a'\nt -= True",
        "t = [1]\nt //= 2",
    ]);
}

#[test]
fn formatting_through_fstrings() {
    matches_cpython(&[
        "[f'{42:<5}|', f'{42:^7}|', f'{42:03d}', f'{-7:05d}', f'{255:#x}', f'{5:#b}', f'{1234567:,}', f'{1234567:_x}']",
        "[f'{3.14159:.2f}', f'{12345.678:e}', f'{0.00001234:g}', f'{0.5:.0%}', f'{-0.0:+.1f}', f'{1e16}']",
        "[f'{\"ab\":*^8}', f'{\"ab\":->6}', f'{\"abc\":.2}', f'{True:>6}', f'{None}', f'{[1, \"a\"]!r}']",
        "w = 10\np = 3\n[f'{3.14159:{w}.{p}f}|', f'{7:0{p}d}']",
        "x = 5\nlabel = 'hi'\n[f'{x=}', f'{x * 2 = }', f'{label=!s}', f'{x=:>4}', f'{label!a}']",
        "f'{3.5:d}'",
        "f'{\"abc\":d}'",
        "f'{[1]:>5}'",
        "['%5.2f|' % 3.14159, '%-6d|' % 42, '%#x %#o' % (255, 8), '%(a)s=%(b)d' % {'a': 'k', 'b': 2}, '%*d' % (5, 3)]",
        "'%s %s' % (1,)",
        "'%d' % 'x'",
        "'%s' % (1, 2)",
        "['{} {}'.format(1, 2), '{1}{0}'.format('a', 'b'), '{x:>{w}}'.format(x='r', w=4), '{:,.2f}'.format(1234.5)]",
        "'{}{0}'.format(1, 2)",
        "'{2}'.format(1)",
        "'{missing}'.format(present=1)",
    ]);
}

#[test]
fn formatting_refuses_what_lackpy_refuses() {
    // Where lackpy differs from CPython on purpose (language.md): a field
    // may not look up attributes or items, and a result is bounded by the
    // run's memory (CPython builds the gigabyte string).
    assert_eq!(
        ours("'{0[1]}'.format([5, 6])"),
        json!({"error": "ValueError: attribute and index lookup are not allowed in format fields", "stdout": ""})
    );
    assert_eq!(
        ours("f'{1:>1000000000}'"),
        json!({"error": "MemoryError: ", "stdout": ""})
    );
}

#[test]
fn string_methods() {
    matches_cpython(&[
        "['a,b,,c'.split(','), '  a  b  '.split(), 'a b c d'.rsplit(' ', 1), 'k=v=w'.split('=', maxsplit=1)]",
        "['  hi  '.strip(), 'xxhixx'.strip('x'), 'www.site.com'.strip('wcom.'), 'abcba'.rstrip('ab')]",
        "['aaaa'.replace('a', 'b', 2), 'abc'.replace('', '-'), 'x'.replace('', '-', 2)]",
        "['42'.zfill(5), '-42'.zfill(6), 'ab'.center(5), 'abc'.center(6, '*'), 'ab'.ljust(4, '.')]",
        "['Straße'.upper(), 'ǅ'.lower(), 'Straße'.casefold(), \"they're\".title(), 'Σίσυφος ΣΑΣ'.title()]",
        "[' a  b\\tc\\n'.split(None, 1), ' a  b\\tc\\n'.split(None, 0), 'a\\x1cb\\x1fc d'.split(), 'x\\x0by\\x0cz\\rw'.rsplit(None, 2), 'trail  '.split(None, 1)]",
        "w = ('a bb ccc ' * 40).split()\nx = w[1]\nx += 'z'\nw[4] += 'y'\n[len(w), w[1], w[4], w[7], x, w.count('bb'), sorted(set(w))]",
        "['a\\tb'.expandtabs(4), 'a\\r\\nb\\rc\\n'.splitlines(), 'a\\nb'.splitlines(True)]",
        "['report.csv'.endswith(('.csv', '.tsv')), 'abc'.startswith('b', 1), 'abc'.find('c', 1, 2), 'héllo'.index('l')]",
        "['123'.isdigit(), '²'.isdecimal(), 'Abc Def'.istitle(), 'A1!'.isupper(), ''.isspace()]",
        "[str.upper('abc'), ', '.join(['x', 'y']), 'abc'.partition('b'), 'a-b-c'.rpartition('-')]",
        "'abc'.nope()",
        "'abc'.upper(1)",
        "'a'.replace('a')",
        "'x'.center()",
        "'abc'.split(1)",
        "'-'.join([1])",
        "'banana'.index('z')",
        "str.upper(5)",
    ]);
}

#[test]
fn comprehension_scoping() {
    matches_cpython(&[
        "x = 10\ny = [x for x in range(3)]\n[x, y]",
        "[y for y in range(3)]\ny",
        "xs = [len for len in range(2)]\n[xs, len('abc')]",
        "x = [1, 2, 3]\n[x for x in x if x > 1]",
        "[[j * i for j in range(3)] for i in range(3)]",
        "{k: [v for v in range(k)] for k in range(3)}",
        "k = 2\nsorted([[3, 1], [2, 2]], key=lambda p: p[k - 1])",
        "[sorted(row, key=lambda v: -v * m) for m, row in [(1, [1, 3, 2]), (-1, [1, 3, 2])]]",
        "[q for z in range(2) if z for q in range(2)]",
        "[z for z in range(3) if undefined_flag]",
        "[x for x in 5]",
        "{v: k for k, v in {'a': 1, 'b': 2, 'c': 1}.items()}",
    ]);
}

#[test]
fn unpacking_and_assignment() {
    matches_cpython(&[
        "a, b, *c = range(5)\n[a, b, c]",
        "*a, b = 'xyz'\n[a, b]",
        "a, (b, *c), d = 1, (2, 3, 4), 5\n[a, b, c, d]",
        "x, y = [1, 2, 3]",
        "x, y, z = [1, 2]",
        "a, *b, c = [1]",
        "a, b = 5",
        "t = (1, 2)\nt[0] = 5",
        "d = {}\nd['n'] += 1",
        "xs = [1, 2]\nys = xs\nxs += [3]\n[xs, ys, xs is ys]",
        "xs = list(range(10))\nxs[::3] = ['a', 'b', 'c', 'd']\nxs",
        "xs = list(range(10))\nxs[::3] = [1]",
        "x = y = z = 0\nx += 1\n[x, y, z]",
        "x: int\nx",
        "with 5 as f:\n    f",
    ]);
}

#[test]
fn containers_and_sets() {
    matches_cpython(&[
        "[{3, 1, 2}, {10, 1, 100}, {16, 0, 8}, list({8, 1}), {1.5, 16, 615208, -2.5, 24}]",
        "s = {4, 2, 9}\n[s.pop(), s]",
        "s = set([5, 13, 21, 3])\ns.discard(13)\ns.add(29)\n[s, s - {5}, s.union({7}), s.symmetric_difference({3, 100})]",
        "{True: 'a', 1: 'b', 1.0: 'c'}",
        "d = {'a': 1, 2: 'x'}\n[d.get('a'), d.get('b', 5), d.get(2.0), d.get('b'), d.get(True, 't')]",
        "{}.get([1])",
        "{}.get()",
        "d = {'a': 1, 'b': 2, 'c': 3}\nd.pop('b')\nd['b'] = 20\n[list(d), d.keys(), d.items()]",
        "{'a': 1}.items()[0]",
        "{[1]: 2}",
        "d = {'x': 1}\nfor k in d:\n    d[k + k] = 2",
        "a = []\na.append(a)\nd = {}\nd['self'] = d\n[a, d]",
        "[list(zip([1, 2], 'ab')), list(enumerate('ab', 5)), list(reversed(range(3)))]",
        "list(zip([1, 2], [3], strict=True))",
        "[range(10)[3], range(0, 10, 2)[1:3], 5 in range(10), len(range(3, 30, 4))]",
        "[sorted([3, 1, 2], reverse=True), sorted(['b', 'A'], key=str.lower), max([], default=0), min('hello')]",
        "max(1, 'a')",
        "sorted([1, 'a'])",
        "[sum([0.1] * 10), sum([[1], [2]], []), any([]), all([])]",
    ]);
}

#[test]
fn sort_by_is_lackpys_own() {
    // Not a CPython builtin: sorts by a key of each item, raising what a
    // lookup of that key raises.
    assert_eq!(
        ours("sort_by([{'n': 'b'}, {'n': 'a'}], 'n')"),
        json!({"repr": "[{'n': 'a'}, {'n': 'b'}]", "stdout": ""})
    );
    assert_eq!(
        ours("sort_by([3, 1], 'name')"),
        json!({"error": "AttributeError: 'int' object has no attribute 'name'", "stdout": ""})
    );
}

#[test]
fn sort_keywords_are_checked_like_sorted() {
    // CPython: `reverse` of list.sort and sorted must be int-like.
    matches_cpython(&[
        "xs = [2, 1]\nxs.sort(reverse=1)\nxs",
        "[1].sort(reverse='x')",
        "sorted([1], reverse='x')",
        "[1].sort(reverse=2.5)",
        "[1].sort(cmp=None)",
    ]);
}
