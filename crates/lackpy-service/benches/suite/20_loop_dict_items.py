N = 63
d = {"k" + str(i): i for i in range(40000)}
total = 0
best = ""
for r in range(N):
    for k, v in d.items():
        if v % 1000 == r:
            best = k
        total += v
print(total, best)
