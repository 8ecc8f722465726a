N = 625766
pts = [((i * 7919) % 1009, (i * 104729) % 997, i % 13) for i in range(N)]
less = 0
equal = 0
prev = pts[0]
for p in pts:
    if p < prev:
        less += 1
    elif p == prev:
        equal += 1
    prev = p
best = pts[0]
for p in pts:
    if p > best:
        best = p
print(less, equal, best)
print(len([p for p in pts if (100, 100, 0) <= p <= (500, 500, 12)]))
