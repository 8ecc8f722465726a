N = 95
xs = list(range(20000))
total = 0
hits = 0
for r in range(N):
    total += sum([x * r for x in xs])
    if any([x > 19990 + r for x in xs]):
        hits += 1
    if all([x >= 0 for x in xs]):
        hits += 1
    total += sum([1 for x in xs if x % 7 == r % 7])
print(total, hits)
