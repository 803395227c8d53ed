import numpy as np

# Sırayla dört belirteç, her biri genişliği d_model = 4 olan bir gömme (her satırda bir belirteç).
X = np.array([[1.0, 0.0, 1.0, 0.0], [0.0, 2.0, 0.0, 1.0], [1.0, 1.0, 0.0, 0.0], [0.5, 0.5, 0.5, 0.5]])

n, d_model = X.shape
# buraya yaz: her ____ boşluğunu doldur.
pos = ____  # (n, 1): 0, 1, ..., n - 1 konumları bir sütun olarak
two_i = ____  # çift sütun indeksleri 0, 2, 4, ..., d_model - 2
angle = ____  # (n, d_model / 2): pos / 10000 ** (2i / d_model)
PE = np.zeros((n, d_model))
PE[:, 0::2] = ____  # çift sütunlar: açıların sinüsü
PE[:, 1::2] = ____  # tek sütunlar: açıların kosinüsü
H = ____  # konumları eklenmiş gömmeler


print(np.round(PE, 3))
print(np.round(H, 3))
