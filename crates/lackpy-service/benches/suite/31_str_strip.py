N = 382485
raw = ["  value" + str(i) + "  \n" if i % 2 else "--x" + str(i) + "--" for i in range(N)]
total = 0
for s in raw:
    a = s.strip()
    b = s.lstrip()
    c = s.rstrip()
    d = s.strip("-")
    total += len(a) + len(b) + len(c) + len(d)
print(total, f"{raw[1].strip()!r}", raw[2].strip("-"))
