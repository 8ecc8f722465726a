"""Reference side of the Python-forms differential test (CPython 3.11).

Reads {"json": [text, ...], "repr_chunk": n} on stdin and prints
{"json": [...], "repr": [...]}:
* for each text, {"dumps": json.dumps(json.loads(text))} or
  {"error": "ExceptionName"} when json.loads refuses it;
* repr() of every string of n consecutive code points from U+0000 to
  U+10FFFF, surrogates left out (a Rust string cannot hold them).
"""
import json
import sys


def load(text):
    try:
        return {"dumps": json.dumps(json.loads(text)), "repr": repr(json.loads(text))}
    except (ValueError, RecursionError) as e:
        return {"error": type(e).__name__}


def main():
    req = json.load(sys.stdin)
    n = req["repr_chunk"]
    chunks = []
    for start in range(0, 0x110000, n):
        text = "".join(chr(c) for c in range(start, start + n) if not 0xD800 <= c < 0xE000)
        chunks.append(repr(text))
    json.dump({"json": [load(t) for t in req["json"]], "repr": chunks}, sys.stdout)


if __name__ == "__main__":
    main()
