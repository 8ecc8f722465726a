N = 394360
words = ["hello World " + str(i) + " fooBAR" for i in range(N)]
total = 0
for w in words:
    total += len(w.upper()) + len(w.lower()) + len(w.title()) + len(w.capitalize())
print(total, words[5].upper(), words[5].title(), words[5].capitalize(), words[5].swapcase())
