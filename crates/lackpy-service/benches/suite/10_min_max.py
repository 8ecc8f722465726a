N = 644549
xs = [(i * 7919) % 100003 - 50000 for i in range(N)]
fs = [x / 7 for x in xs]
ws = ["w" + str(x) for x in xs[:N // 3]]
print(min(xs), max(xs), min(fs), max(fs))
print(min(xs, key=abs), max(xs, key=abs))
print(min(ws), max(ws), max(ws, key=len), min(ws, key=lambda w: (len(w), w)))
recs = [(x, x % 11) for x in xs[:N // 3]]
print(max(recs, key=lambda r: r[1]), min(recs))
