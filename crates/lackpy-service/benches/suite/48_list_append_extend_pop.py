N = 1600000
stack = []
out = []
total = 0
for i in range(N):
    stack.append(i)
    if i % 3 == 2:
        total += stack.pop()
        out.extend([i, i + 1])
print(total, len(stack), len(out), stack[-3:], out[-2:], stack.pop(0))
