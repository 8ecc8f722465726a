N = 758940
cats = ["fruit", "veg", "meat", "fish", "dairy", "grain", "spice"]
groups = {}
for i in range(N):
    cat = cats[i % 7] + str(i % 3)
    if cat not in groups:
        groups[cat] = []
    groups[cat].append(i)
summary = [(k, len(v), v[-1]) for k, v in groups.items()]
print(len(groups), summary[:3], sorted(summary)[-1])
