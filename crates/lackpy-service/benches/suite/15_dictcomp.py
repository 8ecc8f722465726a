N = 74
keys = ["k" + str(i) for i in range(30000)]
acc = 0
for r in range(N):
    d = {k: i * r for i, k in enumerate(keys)}
    sq = {i: i * i for i in range(10000)}
    inv = {v: k for k, v in sq.items() if v % 2 == 0}
    acc += len(d) + len(inv) + d["k77"]
print(acc, len(sq))
