N = 151785
rows = [((i * 7919) % 1000, (i * 31) % 97, "k" + str(i % 50)) for i in range(N)]
a = sorted(rows)
b = sorted(rows, reverse=True)
print(a[0], a[len(a) // 2], a[-1])
print(b[0], b[-1])
