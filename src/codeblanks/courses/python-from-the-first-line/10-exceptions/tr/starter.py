def total_of(entries):
    toplam = 0
    bulunan = 0
    for eleman in entries:
        # int() okuyabiliyorsa elemanı toplama ekle, okuyamıyorsa atla
        ____
    if bulunan == 0:
        raise ValueError("no numbers to add")
    return toplam


print(total_of(["3", "ten", "5"]))
