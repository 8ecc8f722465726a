N = 414634
items = [[1] * (i % 5) for i in range(100)]
total = 0
ftotal = 0.0
for i in range(N):
    total += len(items[i % 100]) + abs(i - 125000) + len("abc" * (i % 4))
    ftotal += round(i / 3, 1) + abs(-i * 0.5)
print(total, round(ftotal, 2), round(2.675, 2), round(-7.5), round(1234567, -3))
