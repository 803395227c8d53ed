import numpy as np

# Düz bir np.exp için fazlasıyla büyük skorlar (exp(1000) taşar); son satırda hepsi eşit.
S = np.array([[1000.0, 1001.0, 1002.0], [1001.0, 1003.0, 999.0], [1000.5, 1000.5, 1000.5]])


def softmax(z, axis):
    """z'nin `axis` boyunca softmax'ı; çok büyük ve büyük negatif skorlarda da güvenli."""
    kaydirilmis = z - z.max(axis=axis, keepdims=True)  # en büyük eleman 0 olur
    e = np.exp(kaydirilmis)  # her eleman (0, 1] aralığında, en az biri 1'e eşit
    return e / e.sum(axis=axis, keepdims=True)


rows = softmax(S, axis=1)  # her satırın toplamı 1
cols = softmax(S, axis=0)  # her sütunun toplamı 1
print(np.round(rows, 3))
print(np.round(cols, 3))
