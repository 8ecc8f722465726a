N = 1646221
text = "the quick brown fox jumps over the lazy dog " * 3
needles = ["fox", "cat", "lazy", "dog ", "zebra", "q", "over the"]
hits = 0
for i in range(N):
    if needles[i % 7] in text:
        hits += 1
    if "z" not in needles[i % 7]:
        hits += 1
print(hits)
