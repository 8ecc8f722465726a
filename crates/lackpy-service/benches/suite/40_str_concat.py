N = 653846
total = 0
s = ""
for i in range(N):
    t = "id-" + str(i % 1000) + "/" + "x"
    s = "<" + t + ">" + s[:10]
    total += len(t)
print(total, len(s), t)
