N = 78
xs = list(range(50000))
acc = 0
for r in range(N):
    evens = [x for x in xs if x % 2 == 0]
    picked = [x * r for x in xs if x % 3 == r % 3 and x > 100]
    acc += len(evens) + len(picked) + picked[-1]
print(acc)
