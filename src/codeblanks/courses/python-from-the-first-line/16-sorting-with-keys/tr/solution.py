players = [("Ada", 12), ("Ben", 7), ("Cem", 12), ("Dan", 9)]


def puan_sonra_ad(oyuncu):
    """En çok puan önce; puanları eşit oyuncular adlarının sırasıyla."""
    ad, puan = oyuncu
    return (-puan, ad)


siralama = sorted(players, key=puan_sonra_ad)
for yer, (ad, puan) in enumerate(siralama, start=1):
    print(f"{yer}. {ad} {puan}")
