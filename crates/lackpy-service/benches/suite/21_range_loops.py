N = 15813
total = 0
for i in range(N):
    for j in range(i % 200, 1000, 3):
        total += j
for i in range(N * 100, 0, -7):
    total -= 1
print(total)
