#!/usr/bin/env python3
"""Runs the lackpy speed suite: every program under `lackpy run` and CPython.

Each program is a plain Python file whose first line is `N = <int>` (its size
knob). For every program the runner starts `lackpy run FILE` and
`<python> FILE` alternately, `--repeat` times each, as whole processes, and
records the wall time and the peak resident set size of each child
(`os.wait4`, `ru_maxrss`, read in a minimal spawner: see SPAWNER). Both must print the same stdout; a mismatch or a
failed run is reported and makes the runner exit with status 1.

Usage: run.py LACKPY SUITE_DIR [--repeat K] [--filter SUBSTR] [--json OUT]
              [--python PYTHON]
"""

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import tempfile
import time


def real_python():
    """The interpreter behind `python3`, resolved once: a pyenv shim adds a
    shell script's start-up to every run, the executable does not."""
    out = subprocess.run(
        ["python3", "-c", "import sys; print(sys.executable)"],
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout.strip()


# Peak RSS is read with `os.wait4` in a minimal Python (`-S -I`, nothing
# imported but builtins) that forks and execs the measured program: Linux
# carries the high-water mark of the process that forked a child over its
# exec into the child's `ru_maxrss`, so a child of this runner (about 15 MB
# resident) could never report less than that. The spawner also takes the
# wall time around fork and exit, so its own start-up is not counted.
SPAWNER = """
import os, sys, time
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execv(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
elapsed = time.perf_counter() - start
with open(sys.argv[1], "w") as f:
    f.write("%r %d %d" % (elapsed, usage.ru_maxrss, os.waitstatus_to_exitcode(status)))
"""


def run_once(python, cmd, cwd):
    """Runs `cmd` to completion; returns (seconds, peak RSS in KiB, exit
    status, stdout, stderr)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r", suffix=".rusage") as meas:
        subprocess.run(
            [python, "-S", "-I", "-c", SPAWNER, meas.name, *cmd],
            cwd=cwd, stdin=subprocess.DEVNULL, stdout=out, stderr=err, check=True,
        )
        elapsed, rss, status = meas.read().split()
        out.seek(0)
        err.seek(0)
        return (
            float(elapsed),
            int(rss),  # KiB on Linux
            int(status),
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
        )


def first_difference(a, b):
    """A short description of where two outputs part."""
    al, bl = a.splitlines(), b.splitlines()
    for i in range(max(len(al), len(bl))):
        x = al[i] if i < len(al) else "<no line>"
        y = bl[i] if i < len(bl) else "<no line>"
        if x != y:
            return f"line {i + 1}: lackpy {x[:200]!r} vs CPython {y[:200]!r}"
    return "outputs differ"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("lackpy", help="the lackpy binary")
    ap.add_argument("suite", help="the directory of suite programs")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each side per program (default 3)")
    ap.add_argument("--filter", default="", help="only programs whose file name contains this")
    ap.add_argument("--json", dest="json_out", help="also write the results as JSON to this file")
    ap.add_argument("--python", help="the CPython executable (default: sys.executable of `python3`)")
    args = ap.parse_args()
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")

    python = args.python or real_python()
    lackpy = os.path.abspath(args.lackpy)
    suite = os.path.abspath(args.suite)
    programs = sorted(
        f for f in os.listdir(suite)
        if f.endswith(".py") and f != "run.py" and args.filter in f
    )
    if not programs:
        # A bench filter meant for another bench (`cargo bench -- echo`)
        # matches nothing here: that is not a failure; an empty suite is.
        print(f"no suite programs in {suite} match {args.filter!r}", file=sys.stderr)
        return 0 if args.filter else 1
    py_version = subprocess.run(
        [python, "-c", "import sys; print(sys.version.split()[0])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()

    print(f"lackpy: {lackpy}")
    print(f"CPython {py_version}: {python}")
    print(f"{len(programs)} programs, {args.repeat} alternating runs each side; "
          f"time = best (min) wall time of a whole process, MB = highest peak RSS over the runs; "
          f"ratio = CPython s / lackpy s (> 1: lackpy is faster); load average {os.getloadavg()[0]:.2f}")
    header = f"{'program':<40} {'lackpy s':>9} {'CPython s':>9} {'ratio':>7} {'lackpy MB':>9} {'CPython MB':>10}"
    print(header)
    print("-" * len(header))
    sys.stdout.flush()

    results = []
    failures = []
    for name in programs:
        path = os.path.join(suite, name)
        times = {"lackpy": [], "cpython": []}
        rss = {"lackpy": 0, "cpython": 0}
        problem = None
        for _ in range(args.repeat):
            lk = run_once(python, [lackpy, "run", path], suite)
            py = run_once(python, [python, path], suite)
            for side, r in (("lackpy", lk), ("cpython", py)):
                times[side].append(r[0])
                rss[side] = max(rss[side], r[1])
            if py[2] != 0:
                problem = f"CPython exited with {py[2]}: {py[4].strip()[-300:]}"
            elif lk[2] != 0:
                problem = f"lackpy exited with {lk[2]}: {(lk[4] or lk[3]).strip()[-300:]}"
            elif lk[3] != py[3]:
                problem = "stdout differs, " + first_difference(lk[3], py[3])
            if problem:
                break
        lk_s, py_s = min(times["lackpy"]), min(times["cpython"])
        row = {
            "program": name,
            "lackpy_s": round(lk_s, 4),
            "cpython_s": round(py_s, 4),
            "ratio": round(py_s / lk_s, 3) if lk_s > 0 else None,
            "lackpy_mb": round(rss["lackpy"] / 1024, 1),
            "cpython_mb": round(rss["cpython"] / 1024, 1),
            "ok": problem is None,
            "problem": problem,
        }
        results.append(row)
        if problem:
            failures.append((name, problem))
            print(f"{name:<40} FAILED: {problem}")
        else:
            flag = " <" if row["ratio"] < 1.0 else ""
            mem = " M" if row["lackpy_mb"] > row["cpython_mb"] else ""
            print(f"{name:<40} {lk_s:9.3f} {py_s:9.3f} {row['ratio']:6.2f}x "
                  f"{row['lackpy_mb']:9.1f} {row['cpython_mb']:10.1f}{flag}{mem}")
        sys.stdout.flush()

    good = [r for r in results if r["ok"]]
    geomean = math.exp(sum(math.log(r["ratio"]) for r in good) / len(good)) if good else 0.0
    slower = [r["program"] for r in good if r["ratio"] < 1.0]
    heavier = [r["program"] for r in good if r["lackpy_mb"] > r["cpython_mb"]]
    print("-" * len(header))
    print(f"geomean ratio {geomean:.2f}x over {len(good)} programs; "
          f"below 1.0x: {len(slower)} (marked <); "
          f"lackpy peak RSS over CPython's: {len(heavier)} (marked M); failed: {len(failures)}")
    for name, problem in failures:
        print(f"FAILED {name}: {problem}", file=sys.stderr)

    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump({
                "lackpy": lackpy,
                "python": python,
                "python_version": py_version,
                "repeat": args.repeat,
                "machine": platform.platform(),
                "geomean": round(geomean, 3),
                "below_1x": slower,
                "memory_over": heavier,
                "results": results,
            }, f, indent=2)
            f.write("\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
