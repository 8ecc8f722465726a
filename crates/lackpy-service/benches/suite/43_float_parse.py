N = 658064
texts = [str(i) + "." + str(i % 1000) for i in range(N // 2)] + [str(i) + "e-3" for i in range(N // 2)]
total = 0.0
for t in texts:
    total += float(t)
print(total, float("  -1.5  "), float("inf"), float("1e400"), float("0.1"))
