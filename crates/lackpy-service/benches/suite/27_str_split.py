N = 351239
lines = [str(i) + "," + str(i * 2) + ",name" + str(i % 97) + ",x y z" for i in range(N)]
total = 0
words = 0
for line in lines:
    parts = line.split(",")
    total += int(parts[1])
    words += len(parts[3].split())
print(total, words, lines[-1].split(",", 2))
