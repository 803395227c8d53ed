import numpy as np

# Dört belirteç, her birinde üç öznitelik: her satırda bir belirteç.
X = np.array([[3.0, 4.0, 0.0], [6.0, 8.0, 0.0], [0.0, 3.0, 4.0], [0.0, 0.0, -2.0]])

# buraya yaz: her ____ boşluğunu doldur.
norms = ____  # her belirtecin uzunluğu, (4, 1) şeklinde bir sütun olarak
U = ____  # uzunluğu 1'e ölçeklenmiş her belirteç
C = ____  # her belirteç çiftinin kosinüs benzerliği

print(norms.shape)
print(np.round(norms.ravel(), 3))
print(np.round(C, 3))
