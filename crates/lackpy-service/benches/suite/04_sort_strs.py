N = 356020
words = ["w" + str((i * 7919) % 100003) + "x" + str(i % 17) for i in range(N)]
a = sorted(words)
b = sorted(words, reverse=True)
print(a[0], a[len(a) // 2], a[-1])
print(b[0], len(a))
