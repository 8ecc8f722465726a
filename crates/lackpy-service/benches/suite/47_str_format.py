N = 150000
total = 0
last = ""
tpl = "{} scored {:.1f} in {name} (rank {rank:>4})"
for i in range(N):
    s = tpl.format("player" + str(i % 50), i / 3, name="round", rank=i % 1000)
    t = "{0}-{1}-{0}".format(i, i % 10)
    total += len(s) + len(t)
    last = s + t
print(total, last)
