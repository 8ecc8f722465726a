N = 1063856
acc = 0
x = 12345
for i in range(N):
    x = (x * 1103515245 + 12345) % 2147483648
    acc += x // 65536 - x % 1000 + i * 3
print(acc, x)
