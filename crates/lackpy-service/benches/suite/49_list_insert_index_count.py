N = 22929
xs = []
total = 0
for i in range(N):
    xs.insert(i % 50, i % 97)
    if i % 10 == 0:
        total += xs.index(i % 97) + xs.count(3)
xs.remove(xs[10])
print(total, len(xs), xs[:5], xs.count(0))
