N = 1096774
seen = set(range(0, 200000, 3))
words = {"w" + str(i) for i in range(5000)}
hits = 0
for i in range(N):
    if i in seen:
        hits += 1
    if "w" + str(i % 10000) in words:
        hits += 1
print(hits)
