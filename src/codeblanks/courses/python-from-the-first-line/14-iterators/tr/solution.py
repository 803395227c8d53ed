lines = ["Guests", "Ada", "Ben", "Cem"]

kayitlar = iter(lines)
baslik = next(kayitlar, "(no title)")
print(baslik.upper())

sayi = 0
for ad in kayitlar:
    sayi = sayi + 1
    print(sayi, ad)
print(sayi, "entries")
