N = 429351
rows = [(i, i % 7, "n" + str(i % 10), i * 0.5) for i in range(N)]
total = 0
ftotal = 0.0
for row in rows:
    a, b, name, f = row
    total += row[0] - a + b + len(name) + row[-3]
    ftotal += f
first, *middle, last = rows[-1]
print(total, ftotal, first, middle, last, rows[5][1:3])
