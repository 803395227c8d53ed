votes = ["coffee", "tea", "coffee", "water", "tea", "coffee"]
counts = {}
for drink in votes:
    # bu içeceğin sayısına bir ekle (içecek henüz counts içinde olmayabilir)
    ____

# her içeceği ve sayısını, içeceklerin ilk oy aldığı sırayla yazdır
