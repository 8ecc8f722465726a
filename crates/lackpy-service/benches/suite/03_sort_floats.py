N = 784615
xs = [((i * 7919) % 100003) / 7.0 - 5000.5 for i in range(N)]
a = sorted(xs)
b = sorted(xs, reverse=True)
print(a[0], a[len(a) // 2], a[-1])
print(b[0], sum(a[:100]))
