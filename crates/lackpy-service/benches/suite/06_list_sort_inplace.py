N = 561983
xs = [(i * 48271) % 65537 for i in range(N)]
ys = list(xs)
ys.sort()
zs = list(xs)
zs.sort(reverse=True)
fs = [x / 3 for x in xs]
fs.sort()
print(ys[0], ys[N // 3], ys[-1], zs[0], zs[-1])
print(fs[0], fs[-1])
