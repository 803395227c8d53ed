import numpy as np

# Üç belirteç, her birinde iki öznitelik: her satırda bir belirteç.
X = np.array([[0.0, 10.0], [4.0, 2.0], [8.0, 6.0]])
# Her belirteç için pozitif bir skor: tek bir karışımda ne kadar sayılacağı.
r = np.array([1.0, 2.0, 1.0])
# Aynı anda iki karışım için skorlar: her karışım için bir satır, her belirteç için bir skor.
R = np.array([[1.0, 1.0, 2.0], [3.0, 0.0, 1.0]])

# buraya yaz: her ____ boşluğunu doldur.
w = ____  # toplamı 1 olan ağırlıklara dönüştürülmüş r skorları
y = ____  # w ağırlıklarıyla karıştırılmış X satırları
W = ____  # her satırının toplamı 1 olan ağırlıklara dönüştürülmüş R skorları
Y = ____  # W'nin her satırı için X satırlarının bir karışımı

print(np.round(w, 3))
print(np.round(y, 3))
print(W.sum(axis=1))
print(np.round(Y, 3))
