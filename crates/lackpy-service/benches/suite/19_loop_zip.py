N = 1301118
xs = [i % 1000 for i in range(N)]
ys = [(i * 7) % 1001 for i in range(N)]
dot = 0
larger = 0
for x, y in zip(xs, ys):
    dot += x * y
    if x > y:
        larger += 1
print(dot, larger)
