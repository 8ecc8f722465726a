N = 11845
text = "\n".join(["/usr/local/lib/file" + str(i) + ".txt" for i in range(100)])
total = 0
last = None
for r in range(N):
    for line in text.splitlines():
        head, tail = line.rsplit("/", 1)
        total += len(tail)
    last = text.rsplit("\n", 2)[-1].rsplit(".", 1)
print(total, last)
