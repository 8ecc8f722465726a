#!/usr/bin/env python3
"""Writes crates/lackpy-service/symbol-order.txt: the functions a plain
`lackpy run` and the speed suite execute, which the linker places first and
together (see crates/lackpy-service/build.rs for why).

The list is made from a release build of `lackpy` run under Valgrind's
callgrind, which records every function executed: once on `print(1)` (the
start-up path: argument parsing, logging, the runtime, the service, the
interpreter), then on every suite program with its size knob (`N = <int>`,
the first line) cut to SMALL_N, which runs the same code in a fraction of
the time. Start-up functions come first, then the suite's, those most
programs use first. Only names the binary defines are written.

Regenerate after a toolchain or dependency update, or when a change moves
much code (symbol names carry hashes of their crate's build settings; a
name the linker no longer finds is skipped, so a stale list costs memory,
never correctness):

    cargo build --release -p lackpy-service
    python3 scripts/symbol-order.py target/release/lackpy
    cargo build --release -p lackpy-service   # relinks with the new list

Changing the dependencies of a crate changes the names of the generic
code instantiated in it: adding one dependency to lackpy-service left 162
of 1443 names unmatched and a plain run 2.4 MB bigger. To see how much of
the list a build still matches (exit status 1 below CHECK_MIN of it):

    python3 scripts/symbol-order.py --check target/release/lackpy

Needs valgrind and nm (binutils).
"""

import collections
import os
import re
import subprocess
import sys
import tempfile

SMALL_N = 1000
CRT = {"_start", "frame_dummy", "__do_global_dtors_aux"}
CHECK_MIN = 0.97
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUITE = os.path.join(ROOT, "crates", "lackpy-service", "benches", "suite")
OUT = os.path.join(ROOT, "crates", "lackpy-service", "symbol-order.txt")


def executed(binary, program, workdir):
    """Mangled names of the functions of `binary` that `lackpy run program`
    executed, from a callgrind profile."""
    profile = os.path.join(workdir, "callgrind.out")
    subprocess.run(
        ["valgrind", "--tool=callgrind", "--demangle=no",
         "--callgrind-out-file=" + profile, binary, "run", program],
        cwd=workdir, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        check=False)
    objects, functions, found, current = {}, {}, set(), None
    real = os.path.realpath(binary)
    with open(profile, encoding="utf-8", errors="replace") as f:
        for line in f:
            # Names are compressed: `ob=(3) /path` defines id 3, `ob=(3)`
            # reuses it; `cob`/`cfn` (callees) define ids the same way.
            m = re.match(r"^(c?ob|c?fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
            if not m:
                continue
            kind, ident, name = m.groups()
            table = objects if kind.endswith("ob") else functions
            if name:
                table[ident] = name
            if kind == "ob":
                current = objects.get(ident)
            elif kind == "fn" and current and os.path.realpath(current) == real:
                # `'2` marks a recursion level, not part of the name.
                found.add(re.sub(r"'\d+$", "", functions[ident]))
    os.remove(profile)
    return found


def main():
    args = sys.argv[1:]
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    binary = args[0] if args else os.path.join(ROOT, "target", "release", "lackpy")
    binary = os.path.abspath(binary)
    nm = subprocess.run(["nm", "--defined-only", binary], capture_output=True,
                        text=True, check=True).stdout
    defined = {p[2] for p in (l.split() for l in nm.splitlines())
               if len(p) == 3 and p[1] in "tTwW"}
    if check:
        with open(OUT, encoding="utf-8") as f:
            listed = f.read().split()
        found = sum(1 for name in listed if name in defined)
        print("%d of %d listed functions found in %s" % (found, len(listed), binary))
        sys.exit(0 if listed and found >= CHECK_MIN * len(listed) else 1)
    with tempfile.TemporaryDirectory() as work:
        start = os.path.join(work, "start.py")
        with open(start, "w", encoding="utf-8") as f:
            f.write("print(1)\n")
        # The C runtime's entry point and its start-up and exit hooks
        # (crt1.o, crtbegin.o) run in every process, unseen by callgrind.
        startup = executed(binary, start, work) | CRT
        uses = collections.Counter()
        for name in sorted(os.listdir(SUITE)):
            if not re.match(r"^\d+_.*\.py$", name):
                continue
            with open(os.path.join(SUITE, name), encoding="utf-8") as f:
                text = f.read()
            small = os.path.join(work, name)
            with open(small, "w", encoding="utf-8") as f:
                f.write(re.sub(r"\AN = \d+", "N = %d" % SMALL_N, text))
            uses.update(executed(binary, small, work))
            print(name, file=sys.stderr)
    order = sorted(startup) + [f for f, _ in sorted(uses.items(), key=lambda kv: (-kv[1], kv[0]))
                               if f not in startup]
    order = [f for f in order if f in defined]
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("".join(f + "\n" for f in order))
    print("%d functions (%d at start-up) -> %s" % (len(order), len(startup & defined), OUT),
          file=sys.stderr)


if __name__ == "__main__":
    main()
