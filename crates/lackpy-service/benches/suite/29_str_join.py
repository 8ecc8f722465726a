N = 7083
parts = ["p" + str(i) for i in range(5000)]
total = 0
for r in range(N):
    s = ",".join(parts)
    t = "".join(parts[r:r + 500])
    u = " | ".join([p for p in parts[:100]])
    total += len(s) + len(t) + len(u)
print(total, s[:20], t[-5:])
