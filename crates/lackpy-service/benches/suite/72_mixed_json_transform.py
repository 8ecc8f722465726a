N = 28201
orders = []
for i in range(N):
    orders.append({
        "id": i,
        "customer": {"name": "cust" + str(i % 700), "tier": ["gold", "silver", "bronze"][i % 3]},
        "items": [{"sku": "s" + str((i + k) % 90), "qty": 1 + (i + k) % 4, "price": 2.5 * (1 + k)} for k in range(1 + i % 4)],
        "tags": ["rush"] if i % 11 == 0 else [],
    })
flat = []
for o in orders:
    total = sum([it["qty"] * it["price"] for it in o["items"]])
    flat.append({
        "order": o["id"],
        "who": o["customer"]["name"].upper(),
        "tier": o["customer"]["tier"],
        "n_items": len(o["items"]),
        "total": round(total * (0.9 if o["customer"]["tier"] == "gold" else 1.0), 2),
        "rush": "rush" in o["tags"],
    })
by_tier = {}
for f in flat:
    t = by_tier.setdefault(f["tier"], {"count": 0, "sum": 0.0, "rush": 0})
    t["count"] += 1
    t["sum"] += f["total"]
    t["rush"] += 1 if f["rush"] else 0
print(flat[7])
print({k: (v["count"], round(v["sum"], 2), v["rush"]) for k, v in sorted(by_tier.items())})
