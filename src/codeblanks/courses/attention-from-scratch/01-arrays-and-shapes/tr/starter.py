import numpy as np

# Gömme tablosu: her belirteç kimliği için bir satır, her belirteçte üç öznitelik.
E = np.array([[1, 0, 2], [3, -1, 0], [0, 2, 1], [-2, 1, 4], [1, 1, -3], [0, 0, 5]])
# Belirteç kimlikleriyle bir cümle: "the cat saw the dog" ("kedi köpeği gördü").
ids = np.array([0, 1, 3, 0, 2])

# buraya yaz: her ____ yerine E ya da X üzerinde bir indeks koy.
X = ____  # cümlenin her belirteci için bir satır
feature = ____  # her belirtecin 1 numaralı özniteliği
last_two = ____  # son iki belirteç

print(X.shape)
print(X)
print(feature)
print(last_two)
