N = 465753
lines = ["the quick brown fox " + str(i) + " jumps over the lazy dog" for i in range(N)]
total = 0
for line in lines:
    a = line.replace("the", "a")
    b = a.replace(" ", "_")
    c = b.replace("zzz", "y")
    total += len(c)
print(total, c)
