n = 91

# n'nin 1'den büyük en küçük bölenini şöyle yazdır: 91 = 7 x 13
# ya da, hiç yoksa: 97 is prime
____
