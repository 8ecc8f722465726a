N = 671052
xs = [(i * 2654435761) % 1000003 for i in range(N)]
a = sorted(xs)
b = sorted(xs, reverse=True)
c = sorted(a)
print(a[0], a[len(a) // 2], a[-1])
print(b[:3], c == a)
