N = 138775
levels = ["INFO", "WARN", "ERROR", "DEBUG"]
paths = ["/api/users", "/api/orders", "/static/app.js", "/login", "/api/items"]
lines = []
for i in range(N):
    lines.append("2024-01-" + str(10 + i % 20) + "T12:" + str(10 + i % 50) + ":00 " + levels[i % 4] + " " + paths[(i * 7) % 5] + " status=" + str(200 + (i % 3) * 100 + i % 5) + " ms=" + str((i * 37) % 900))
by_level = {}
by_path = {}
slow = []
for line in lines:
    ts, level, path, status, ms = line.split(" ")
    code = int(status.split("=")[1])
    dur = int(ms[3:])
    by_level[level] = by_level.get(level, 0) + 1
    if path not in by_path:
        by_path[path] = [0, 0, 0]
    entry = by_path[path]
    entry[0] += 1
    entry[1] += dur
    if code >= 500:
        entry[2] += 1
    if dur > 850 and level == "ERROR":
        slow.append((dur, ts[:10], path))
for path, (n, total, errors) in sorted(by_path.items()):
    print(f"{path:<16} {n:>6} {total / n:8.2f} ms {errors / n:.1%} errors")
print(by_level, len(slow), sorted(slow)[-1])
