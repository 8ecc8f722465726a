N = 579545
s = "abcdefghijklmnopqrstuvwxyz0123456789"
l = list(range(0, 50, 5))
t = (1, 2, 3, 5, 8, 13, 21)
d = {"a": 1, "b": 2, "c": 3}
st = {1, 4, 9, 16, 25}
rg = range(0, 1000000, 7)
hits = 0
for i in range(N):
    k = i % 30
    if s[k] in s:
        hits += 1
    if k in l:
        hits += 1
    if k in t:
        hits += 1
    if s[k] in d:
        hits += 1
    if k in st:
        hits += 1
    if i in rg:
        hits += 1
print(hits)
