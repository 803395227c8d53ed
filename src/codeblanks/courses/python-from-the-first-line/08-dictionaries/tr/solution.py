votes = ["coffee", "tea", "coffee", "water", "tea", "coffee"]
counts = {}
for drink in votes:
    # bu içeceğin sayısına bir ekle (içecek henüz counts içinde olmayabilir)
    counts[drink] = counts.get(drink, 0) + 1

# her içeceği ve sayısını, içeceklerin ilk oy aldığı sırayla yazdır
for drink, count in counts.items():
    print(drink, count)
