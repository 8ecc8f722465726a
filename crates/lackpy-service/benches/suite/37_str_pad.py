N = 437142
total = 0
last = None
for i in range(N):
    s = str(i % 10000)
    a = s.zfill(8)
    b = s.ljust(10, ".")
    c = s.center(12, "*")
    d = s.rjust(9)
    total += len(a) + len(b) + len(c) + len(d)
    last = (a, b, c, d)
print(total, last)
