N = 441121
pairs = ["key" + str(i % 500) + "=value" + str(i) for i in range(N)]
total = 0
d = {}
for p in pairs:
    k, sep, v = p.partition("=")
    a, sep2, b = v.rpartition("e")
    d[k] = b
    total += len(k) + len(b)
print(total, len(d), d["key7"], "no-sep".partition("="))
