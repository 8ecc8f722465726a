N = 253932
total = 0
last = ""
for i in range(N):
    x = i / 7 + 0.1
    s = str(x)
    r = f"{x * 1e-5!r}"
    total += len(s) + len(r)
    last = s + " " + r
print(total, last, str(0.1 + 0.2), str(1e16), str(1e-5), str(-0.0), str(1.5e300 * 1e10))
