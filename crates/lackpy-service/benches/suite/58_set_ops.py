N = 1026
a = set(range(0, 20000, 2))
b = set(range(0, 20000, 3))
total = 0
for r in range(N):
    s = set()
    for i in range(r, r + 200):
        s.add(i * 7)
    u = a.union(s)
    x = a.intersection(b)
    d = b.difference(a)
    total += len(u) + len(x) + len(d) + len(s.difference(a)) + len(s.intersection(b))
print(total, sorted(x)[:5], sorted(d)[-3:])
