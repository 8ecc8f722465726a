N = 646157
names = ["file" + str(i) + (".txt" if i % 3 == 0 else ".py" if i % 3 == 1 else ".rs") for i in range(N)]
a = 0
b = 0
c = 0
for n in names:
    if n.endswith(".py"):
        a += 1
    if n.startswith("file1"):
        b += 1
    if n.endswith((".txt", ".rs")):
        c += 1
print(a, b, c)
