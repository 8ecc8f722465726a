N = 373333
total = 0
last = ""
for i in range(N):
    s = "%s: %d items at %.2f (%5.1f%%) [%x] %r" % ("row", i, i * 0.37, i % 100 / 3, i, "q")
    total += len(s)
    last = s
print(total, last, "%-6s|%06.2f|%+d" % ("ab", 3.14159, 5))
