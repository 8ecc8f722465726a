N = 289772
words = [("Ab" if i % 3 == 0 else "cD") * (1 + i % 5) + str((i * 7919) % 10007) for i in range(N)]
a = sorted(words, key=len)
b = sorted(words, key=str.lower)
c = sorted(words, key=lambda w: w[-3:])
print(a[0], a[-1], b[0], b[-1], c[0], c[-1])
