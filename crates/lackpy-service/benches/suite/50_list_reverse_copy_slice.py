N = 19928
base = list(range(5000))
total = 0
for r in range(N):
    c = base.copy()
    c.reverse()
    total += c[0] + len(c[100:2000]) + c[r % 5000] + len(base[::-3])
    c[10:20] = [r % 100] * 5
    total += len(c)
print(total, c[8:14])
