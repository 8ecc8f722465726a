N = 130
xs = list(range(50000))
acc = 0
for r in range(N):
    ys = [x * 2 + r for x in xs]
    zs = [str(y) for y in ys[:5000]]
    acc += ys[-1] + len(zs)
print(acc, ys[:3], zs[-1])
