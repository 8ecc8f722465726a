N = 17973
xs = list(range(10000))
s = "0123456789" * 1000
t = tuple(xs[:3000])
total = 0
for i in range(N):
    r = i % 5000
    total += len(xs[r::3]) + len(xs[::-2]) + len(s[r:r + 5000:4]) + len(t[::5]) + xs[-r - 1::-7][0]
print(total, xs[10:30:6], s[::-999], t[-1:-12:-5])
