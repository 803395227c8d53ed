def total_of(entries):
    toplam = 0
    bulunan = 0
    for eleman in entries:
        # int() okuyabiliyorsa elemanı toplama ekle, okuyamıyorsa atla
        try:
            sayi = int(eleman)
        except ValueError:
            continue
        toplam = toplam + sayi
        bulunan = bulunan + 1
    if bulunan == 0:
        raise ValueError("no numbers to add")
    return toplam


print(total_of(["3", "ten", "5"]))
