N = 20187
xs = [i * 3 for i in range(1000)]
strs = ["s" + str(i) for i in range(300)]
hits = 0
for i in range(N):
    if i in xs:
        hits += 1
    if "s" + str(i % 500) in strs:
        hits += 1
    if (i % 7) not in xs:
        hits += 1
print(hits)
