N = 389312
total = 0
last = ""
for i in range(N):
    name = "user" + str(i % 100)
    s = f"{name} has {i} points and {i % 7} badges ({i / 4})"
    total += len(s)
    last = s
print(total, last)
