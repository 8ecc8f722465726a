"""Reference side of the semantics tests (CPython 3.11).

Reads a JSON list of programs on stdin and prints a JSON list with one
entry per program: {"repr": repr(value of the last statement if it is an
expression, else None), "stdout": printed text}, or {"error": "ClassName:
message", "stdout": ...} when the program raises.
"""
import ast
import contextlib
import io
import json
import sys


def one(src):
    tree = ast.parse(src)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    env = {}
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(tree, "<program>", "exec"), env)
            value = eval(compile(ast.Expression(last.value), "<program>", "eval"), env) if last else None
        return {"repr": repr(value), "stdout": out.getvalue()}
    except Exception as e:  # the program's own error is the answer
        return {"error": f"{type(e).__name__}: {e}", "stdout": out.getvalue()}


def main():
    json.dump([one(p) for p in json.load(sys.stdin)], sys.stdout)


if __name__ == "__main__":
    main()
