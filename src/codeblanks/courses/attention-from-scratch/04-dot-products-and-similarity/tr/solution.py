import numpy as np

# Dört belirteç, her birinde üç öznitelik: her satırda bir belirteç.
X = np.array([[3.0, 4.0, 0.0], [6.0, 8.0, 0.0], [0.0, 3.0, 4.0], [0.0, 0.0, -2.0]])

norms = np.linalg.norm(X, axis=1, keepdims=True)  # her belirteç için bir uzunluk: (4, 1)
U = X / norms  # her satır kendi uzunluğuna bölünmüş: (4, 3)
C = U @ U.T  # her belirteç çiftinin kosinüsü: (4, 4)

print(norms.shape)
print(np.round(norms.ravel(), 3))
print(np.round(C, 3))
