N = 2019801
x = 0.5
acc = 0.0
for i in range(N):
    x = x * 3.7 * (1.0 - x)
    acc += x / 3.0 - 0.125 * x
print(acc, x)
