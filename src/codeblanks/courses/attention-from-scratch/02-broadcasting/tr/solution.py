import numpy as np

# Dört belirteç, her birinde üç öznitelik: her satırda bir belirteç.
X = np.array([[2.0, 4.0, 6.0], [1.0, 0.0, 2.0], [3.0, 3.0, 3.0], [-1.0, 5.0, 2.0]])
# Her öznitelik için bir sayı; her belirtece eklenecek.
b = np.array([10.0, 20.0, 30.0])

Y = X + b  # (4, 3) + (3,) -> (4, 3)
m = X.mean(axis=1, keepdims=True)  # her belirtecin ortalaması, bir sütun olarak: (4, 1)
C = X - m  # (4, 3) - (4, 1) -> (4, 3)

print(np.round(Y, 3))
print(m.shape)
print(np.round(C, 3))
