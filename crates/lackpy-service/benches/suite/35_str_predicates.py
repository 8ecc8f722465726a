N = 706787
toks = [str(i) if i % 3 == 0 else "abc" + str(i % 10) if i % 3 == 1 else "Word" for i in range(N)]
d = 0
a = 0
n = 0
u = 0
for t in toks:
    if t.isdigit():
        d += 1
    if t.isalpha():
        a += 1
    if t.isalnum():
        n += 1
    if t.islower() or t.isupper():
        u += 1
print(d, a, n, u)
