import numpy as np

# Gömme tablosu: her belirteç kimliği için bir satır, her belirteçte üç öznitelik.
E = np.array([[1, 0, 2], [3, -1, 0], [0, 2, 1], [-2, 1, 4], [1, 1, -3], [0, 0, 5]])
# Belirteç kimlikleriyle bir cümle: "the cat saw the dog" ("kedi köpeği gördü").
ids = np.array([0, 1, 3, 0, 2])

X = E[ids]  # cümlenin her belirteci için bir satır: (5, 3)
feature = X[:, 1]  # her belirtecin 1 numaralı özniteliği: (5,)
last_two = X[-2:]  # son iki belirteç: (2, 3)

print(X.shape)
print(X)
print(feature)
print(last_two)
