N = 907910
big = 1
for i in range(200):
    big = big * 2
acc = 0
v = big
for i in range(N):
    v = v * 3 + big // (i + 1)
    acc += v % 1000003
    v = v // 7 + big
print(acc, len(str(v)), v % 1000000007)
fact = 1
for i in range(1, 800):
    fact = fact * i
print(len(str(fact)), fact % 998244353)
