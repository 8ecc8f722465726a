N = 79069
vocab = ["the", "a", "lackpy", "Rust", "python", "fast", "slow", "Interpreter", "tool", "model", "program", "value"]
sentences = []
for i in range(N):
    ws = [vocab[(i * k + k * k) % 12] for k in range(1, 9)]
    sentences.append(" ".join(ws).capitalize() + ("." if i % 3 else "!"))
text = " ".join(sentences)
freq = {}
for w in text.split():
    w = w.strip(".!,").lower()
    if w:
        freq[w] = freq.get(w, 0) + 1
total = sum(freq.values())
ranked = sorted(freq.items(), key=lambda kv: (-kv[1], kv[0]))
top = ranked[:6]
for word, n in top:
    print(f"{word:>12} {n:7d} {n / total:7.2%} " + "#" * (n * 40 // ranked[0][1]))
print(len(freq), total)
