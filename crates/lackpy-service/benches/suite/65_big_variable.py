N = 1200000
readings = [i * 0.001 + 0.5 for i in range(N)]
scaled = [r * 2.5 for r in readings]
labels = ["s" + str(i) for i in range(N // 4)]
print(len(readings), scaled[-1], labels[-1])
