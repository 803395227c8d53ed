import numpy as np

# Üç belirteç, her satırda bir tane; her biri iki öznitelikle tanımlanmış.
X = np.array([[2, 1], [0, 3], [1, -1]])
# İki özniteliği dört özniteliğe dönüştüren ağırlıklar.
W = np.array([[1, 0, 2, -1], [0, 1, 1, 2]])

# buraya yaz: her ____ yerine bir matris çarpımı koy.
Y = ____  # dört özniteliğe dönüştürülmüş her belirteç
G = ____  # her belirtecin her belirteçle karşılaştırılması (nokta çarpımları)

print(Y.shape, G.shape)
print(Y)
print(G)
