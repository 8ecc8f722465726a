N = 444133
lines = ["abc:def:" + str(i) + ":ghi" + "x" * (i % 10) for i in range(N)]
total = 0
for s in lines:
    total += s.find(":") + s.rfind(":") + s.index("g") + s.count("x") + s.find("zz")
print(total, lines[9].count(":"), lines[9].index("ghi"))
