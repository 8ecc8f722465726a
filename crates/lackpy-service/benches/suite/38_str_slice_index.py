N = 502818
s = "".join(["abcdefghij"[i % 10] for i in range(1000)])
total = 0
out = ""
for i in range(N):
    j = i % 900
    piece = s[j:j + 50]
    total += len(piece) + len(s[j::7]) + (1 if s[j] == "a" else 0) + (1 if s[-1 - j % 10] == "j" else 0)
    out = piece[::-1][:5]
print(total, out)
