N = 444444
vals = [i if i % 4 == 0 else str(i) if i % 4 == 1 else i / 2 if i % 4 == 2 else (i % 3 == 0) for i in range(N)]
ints = 0
strs = 0
floats = 0
bools = 0
total = 0.0
for v in vals:
    if isinstance(v, bool):
        bools += 1
        total += int(v)
    elif isinstance(v, int):
        ints += 1
        total += float(v)
    elif isinstance(v, str):
        strs += 1
        total += int(v) + len(str(bool(v)))
    elif isinstance(v, (float, list)):
        floats += 1
        total += int(v) + float(str(v))
print(ints, strs, floats, bools, total, bool(""), bool([0]), str(True), list("ab"), tuple([1]))
