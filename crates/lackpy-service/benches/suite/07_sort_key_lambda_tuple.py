N = 107120
recs = [{"a": (i * 7919) % 100, "b": (i * 31) % 1000, "name": "r" + str(i)} for i in range(N)]
s1 = sorted(recs, key=lambda r: (r["a"], r["b"]))
s2 = sorted(recs, key=lambda r: (-r["b"], r["name"]))
s3 = sorted(recs, key=lambda r: r["a"])
print(s1[0]["name"], s1[-1]["name"], s2[0]["name"], s2[-1]["name"])
print(s3[0]["name"], s3[N // 2]["name"])
