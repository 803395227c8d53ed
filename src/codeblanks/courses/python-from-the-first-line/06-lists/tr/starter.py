def above(sayilar, sinir):
    """sayilar içinde sinir'dan büyük olan sayıların, sıraları korunmuş yeni bir listesi."""
    sonuc = []
    for n in sayilar:
        if ____:
            ____
    return sonuc


print(above([3, 8, 1, 9], 5))
