N = 765
base = {"k" + str(i): i for i in range(5000)}
total = 0
for r in range(N):
    d = dict(base)
    d.update({"k" + str(i): -i for i in range(r, r + 100)})
    total += len(d.keys()) + sum(d.values()) + len(list(d.items()))
    ks = list(d.keys())
    total += len(ks[0])
print(total, ks[-1], list(d.items())[:2])
