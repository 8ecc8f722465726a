N = 181141
products = [{"sku": "SKU" + str(i), "name": "Product " + str(i), "price": 1.25 + (i % 40) * 0.5} for i in range(N // 10)]
stock = [{"sku": "SKU" + str((i * 13) % (N // 10)), "warehouse": "W" + str(i % 6), "qty": i % 25} for i in range(N)]
by_sku = {p["sku"]: p for p in products}
value_by_wh = {}
missing = 0
joined = []
for s in stock:
    p = by_sku.get(s["sku"])
    if p is None:
        missing += 1
    else:
        v = s["qty"] * p["price"]
        value_by_wh[s["warehouse"]] = value_by_wh.get(s["warehouse"], 0.0) + v
        if s["qty"] == 0:
            joined.append({"sku": s["sku"], "name": p["name"], "warehouse": s["warehouse"]})
out_of_stock = sorted(joined, key=lambda r: (r["warehouse"], r["sku"]))
print(missing, len(out_of_stock), out_of_stock[0])
for wh in sorted(value_by_wh):
    print(f"{wh}: {value_by_wh[wh]:,.2f}")
