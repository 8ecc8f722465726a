N = 444625
total = 0
for i in range(N):
    s = str(i * 37)
    total += int(s) % 1000 + int("  " + s[:3] + " ") + len(str(-i))
print(total, int("-0042"), str(10 * 10 * 10 * 10 * 10 * 10 * 10 * 10 * 10 * 10 * 10 * 10 * 10 * 10 * 10 * 10 * 10 * 10 * 10 * 10))
