N = 74
xs = list(range(40000))
acc = 0
for r in range(N):
    s = {x % (1000 + r) for x in xs}
    t = {str(x % 500) for x in xs if x % 3 == 0}
    acc += len(s) + len(t)
print(acc, sorted(s)[:5], sorted(t)[:3])
