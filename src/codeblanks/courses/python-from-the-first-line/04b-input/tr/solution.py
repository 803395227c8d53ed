a = input()
b = input()

# a ve b metin tutuyor. Toplamlarını şöyle yazdır: 12 + 30 = 42
# sonra iki sayının nasıl karşılaştırıldığını: 12 < 30 (ya da 45 > 8, ya da 7 = 7)
a = int(a)
b = int(b)
print(a, "+", b, "=", a + b)
if a < b:
    print(a, "<", b)
elif a > b:
    print(a, ">", b)
else:
    print(a, "=", b)
