N = 285
xs = list(range(5000))
ys = ["v" + str(i) for i in range(5000)]
total = 0
for r in range(N):
    total += len(list(enumerate(xs, r)))
    total += len(list(zip(xs, ys, xs)))
    rev = list(reversed(xs))
    total += rev[r] + len([p for p in zip(reversed(ys), xs)])
print(total, list(enumerate(ys[:2])), list(zip(xs[:2], ys[-2:])))
