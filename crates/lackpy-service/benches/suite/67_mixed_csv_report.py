N = 88082
regions = ["north", "south", "east", "west"]
rows = ["id,region,product,qty,price"]
for i in range(N):
    rows.append(str(i) + "," + regions[i % 4] + ",prod" + str(i % 37) + "," + str(1 + i % 9) + "," + str(round(1.5 + (i % 100) * 0.25, 2)))
text = "\n".join(rows)
header, *body = text.splitlines()
cols = header.split(",")
records = []
for line in body:
    vals = line.split(",")
    rec = dict(zip(cols, vals))
    rec["qty"] = int(rec["qty"])
    rec["price"] = float(rec["price"])
    records.append(rec)
totals = {}
for rec in records:
    key = (rec["region"], rec["product"])
    totals[key] = totals.get(key, 0.0) + rec["qty"] * rec["price"]
report = sorted(totals.items(), key=lambda kv: -kv[1])[:5]
for (region, product), amount in report:
    print("%-6s %-8s %12.2f" % (region, product, amount))
print(len(records), round(sum(totals.values()), 2))
