N = 713656
acc = 0
facc = 0.0
for i in range(-N, N, 3):
    acc += i // 7 + i % 7 + abs(i) // 11 - (-i) % 5
    facc += round(i / 9, 2) + abs(i / 13)
print(acc, round(facc, 4), round(2.5), round(3.5), round(-0.5))
