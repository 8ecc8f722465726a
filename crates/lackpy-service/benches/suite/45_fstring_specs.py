N = 130777
total = 0
last = ""
for i in range(N):
    x = i * 1.37
    s = f"{i:>8}|{x:.2f}|{i * 1000:,}|{i:x}|{x:10.3e}|{i:08d}|{'ab'!r}|{x:<9.1f}|{i:^7}"
    total += len(s)
    last = s
print(total, last)
