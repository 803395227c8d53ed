import numpy as np

# Sırayla dört belirteç, her biri genişliği d_model = 4 olan bir gömme (her satırda bir belirteç).
X = np.array([[1.0, 0.0, 1.0, 0.0], [0.0, 2.0, 0.0, 1.0], [1.0, 1.0, 0.0, 0.0], [0.5, 0.5, 0.5, 0.5]])

n, d_model = X.shape
pos = np.arange(n)[:, None]  # (n, 1): her satırda bir konum
two_i = np.arange(0, d_model, 2)  # (d_model / 2,): çift sütun indeksleri 0, 2, 4, ...
angle = pos / 10000 ** (two_i / d_model)  # (n, d_model / 2): i. çift kendi hızıyla döner
PE = np.zeros((n, d_model))
PE[:, 0::2] = np.sin(angle)  # çift sütunlar
PE[:, 1::2] = np.cos(angle)  # tek sütunlar
H = X + PE  # artık her belirteç kendi konumunu taşıyor

print(np.round(PE, 3))
print(np.round(H, 3))
