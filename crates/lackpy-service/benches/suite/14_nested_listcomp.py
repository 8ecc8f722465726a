N = 1030
grid = [[i * j for j in range(N)] for i in range(N)]
flat = [v for row in grid for v in row if v % 3 == 0]
pairs = [(i, j) for i in range(N // 4) for j in range(N // 4) if i != j]
tr = [[grid[j][i] for j in range(N)] for i in range(N)]
print(len(flat), sum(flat), len(pairs), tr[N // 2][N // 3], tr[-1][-1])
