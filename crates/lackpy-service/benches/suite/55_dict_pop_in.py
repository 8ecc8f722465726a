N = 1122975
d = {i: i * 2 for i in range(N // 3)}
hits = 0
popped = 0
for i in range(N):
    if i in d:
        hits += 1
    if (i + 1) not in d:
        hits += 2
    if i % 5 == 0:
        popped += d.pop(i // 2, 0)
print(hits, popped, len(d))
