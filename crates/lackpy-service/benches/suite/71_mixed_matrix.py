N = 185
a = [[(i * j + 1) % 17 - 8 for j in range(N)] for i in range(N)]
b = [[(i + 2 * j) % 13 - 6 for j in range(N)] for i in range(N)]
bt = [list(col) for col in zip(*b)]
c = [[sum([x * y for x, y in zip(row, col)]) for col in bt] for row in a]
trace = sum([c[i][i] for i in range(N)])
t = [[c[j][i] for j in range(N)] for i in range(N)]
sym = len([1 for i in range(N) for j in range(N) if c[i][j] == t[i][j]])
norm = max([sum([abs(v) for v in row]) for row in c])
scaled = [[v / 3.0 for v in row] for row in c]
print(trace, sym, norm, c[0][:4], round(scaled[-1][-1], 4))
