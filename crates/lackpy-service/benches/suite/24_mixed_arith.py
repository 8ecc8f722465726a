N = 1476998
acc = 0
scale = 1.5
for i in range(N):
    acc += i * scale - i // 3 + (i % 7) / 2
    if i % 100000 == 0:
        scale = scale + 0.25
print(acc, round(acc, 3), int(acc))
