n = 4

# 1'den n'ye kadar her tam sayıyı kendi karesiyle yazdır ve kareleri topla.
toplam = 0
for i in range(1, n + 1):
    print(i, i * i)
    toplam = toplam + i * i
print(toplam)
