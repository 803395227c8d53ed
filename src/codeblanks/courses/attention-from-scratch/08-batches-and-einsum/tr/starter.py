import numpy as np

# İki cümlelik bir yığın; her cümlede üç belirteç, her belirteçte dört öznitelik: şekil (b, n, d).
X = np.array(
    [
        [[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 0.0, 0.0]],
        [[2.0, 0.0, 0.0, 1.0], [0.0, 1.0, 1.0, 0.0], [1.0, 0.0, 1.0, 1.0]],
    ]
)
# Her cümle için bir karıştırma ağırlıkları tablosu, şekil (b, n, n): her satırın toplamı 1.
W = np.array(
    [
        [[0.5, 0.5, 0.0], [0.0, 1.0, 0.0], [0.25, 0.25, 0.5]],
        [[1.0, 0.0, 0.0], [0.0, 0.5, 0.5], [0.2, 0.3, 0.5]],
    ]
)

# buraya yaz: iki ____'yi de doldur (birincisini @ ile, ikincisini np.einsum ile).
S = ____  # (b, n, n): S[i] = X[i] @ X[i].T, her belirteç her belirtece karşı
Y = ____  # (b, n, d): Y[i] = W[i] @ X[i], her satır bir belirteç karışımı

print(S.shape, Y.shape)
print(S[-1])
print(np.round(Y[-1], 2))
