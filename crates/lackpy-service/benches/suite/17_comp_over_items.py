N = 85
d = {"key" + str(i): i for i in range(30000)}
acc = 0
for r in range(N):
    big = {k: v for k, v in d.items() if v % 5 == r % 5}
    pairs = [(v, k) for k, v in d.items() if v > 29000]
    vals = [v * 2 for v in d.values()]
    acc += len(big) + len(pairs) + vals[-1]
print(acc, pairs[0])
