N = 134537
players = [{"name": "p" + str(i), "score": (i * 7919) % 10007, "level": i % 50, "team": "t" + str(i % 8)} for i in range(N)]
top = sorted(players, key=lambda p: (-p["score"], p["name"]))[:10]
best_by_team = {}
for p in players:
    t = p["team"]
    cur = best_by_team.get(t)
    if cur is None or p["score"] > cur["score"]:
        best_by_team[t] = p
high = [p["name"] for p in players if p["score"] > 9990 and p["level"] >= 25]
avg = sum([p["score"] for p in players]) / len(players)
print([p["name"] for p in top[:5]], top[0]["score"])
print(sorted([(t, p["name"]) for t, p in best_by_team.items()])[:3], len(high), round(avg, 3))
print(max(players, key=lambda p: p["level"] * 10000 + p["score"])["name"])
