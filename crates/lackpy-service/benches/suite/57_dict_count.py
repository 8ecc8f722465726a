N = 1053648
words = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta"]
counts = {}
for i in range(N):
    w = words[(i * 7) % 8] + str(i % 13)
    counts[w] = counts.get(w, 0) + 1
top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
print(len(counts), top)
