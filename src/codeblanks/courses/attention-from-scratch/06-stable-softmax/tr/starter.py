import numpy as np

# Düz bir np.exp için fazlasıyla büyük skorlar (exp(1000) taşar); son satırda hepsi eşit.
S = np.array([[1000.0, 1001.0, 1002.0], [1001.0, 1003.0, 999.0], [1000.5, 1000.5, 1000.5]])


def softmax(z, axis):
    """z'nin `axis` boyunca softmax'ı; çok büyük ve büyük negatif skorlarda da güvenli."""
    # buraya yaz: iki ____'yi de doldur (ikisi de indirgediği ekseni korumalı).
    kaydirilmis = z - ____  # `axis` boyunca en büyük skoru çıkar
    e = np.exp(kaydirilmis)
    return e / ____  # aynı eksen boyunca toplama böl


rows = softmax(S, axis=1)  # her satırın toplamı 1
cols = softmax(S, axis=0)  # her sütunun toplamı 1
print(np.round(rows, 3))
print(np.round(cols, 3))
