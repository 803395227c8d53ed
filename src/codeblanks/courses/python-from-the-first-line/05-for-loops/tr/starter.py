n = 4

# 1'den n'ye kadar her tam sayıyı kendi karesiyle yazdır ve kareleri topla.
toplam = 0
for i in range(1, ____):
    print(i, i * i)
    toplam = ____
print(toplam)
