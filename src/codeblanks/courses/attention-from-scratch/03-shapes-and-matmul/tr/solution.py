import numpy as np

# Üç belirteç, her satırda bir tane; her biri iki öznitelikle tanımlanmış.
X = np.array([[2, 1], [0, 3], [1, -1]])
# İki özniteliği dört özniteliğe dönüştüren ağırlıklar.
W = np.array([[1, 0, 2, -1], [0, 1, 1, 2]])

Y = X @ W  # (3, 2) @ (2, 4) -> (3, 4)
G = X @ X.T  # (3, 2) @ (2, 3) -> (3, 3)

print(Y.shape, G.shape)
print(Y)
print(G)
