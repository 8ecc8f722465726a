N = 800000
names = ["item" + str(i % 1000) for i in range(N)]
total = 0
last = ""
for i, name in enumerate(names):
    if i % 1000 == 999:
        last = name
    total += i
for i, name in enumerate(names, 1):
    total -= i
print(total, last)
