N = 750000
d = {}
groups = {}
total = 0
for i in range(N):
    k = i % 1000
    d[k] = d.get(k, 0) + 1
    groups.setdefault(k % 10, []).append(i)
    total += d.get(k + 5000, -1)
print(total, len(d), d[7], len(groups[3]), groups[9][-1])
