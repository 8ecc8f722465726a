"""Reference side of the parser differential test (CPython 3.11).

Reads a JSON list of program texts on stdin and prints a JSON list with one
entry per program: {"walk": [[kind, lineno-or-null, col_offset-or-null], ...]}
from `ast.walk`, or {"error": lineno-or-null, "msg": text} when `ast.parse`
refuses it.
"""
import ast
import json
import sys
import warnings

warnings.simplefilter("ignore")


def one(src):
    try:
        tree = ast.parse(src)
    except SyntaxError as e:  # IndentationError and TabError included
        return {"error": e.lineno, "msg": e.msg}
    except (ValueError, MemoryError, RecursionError) as e:
        return {"error": None, "msg": f"{type(e).__name__}: {e}"}
    return {
        "walk": [
            [type(n).__name__, getattr(n, "lineno", None), getattr(n, "col_offset", None)]
            for n in ast.walk(tree)
        ]
    }


def main():
    programs = json.load(sys.stdin)
    json.dump([one(p) for p in programs], sys.stdout)


if __name__ == "__main__":
    main()
