N = 170376
pairs = [((i * 7919) % 5003, "p" + str(i % 101)) for i in range(N)]
a = sorted(pairs, reverse=True)
b = sorted(pairs, key=lambda p: p[1], reverse=True)
c = sorted([p[0] for p in pairs], reverse=True)
print(a[0], a[-1], b[0], b[-1], c[:3])
