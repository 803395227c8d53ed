import numpy as np

# Her biri d_model = 2 öznitelikli üç belirteç: her satırda bir belirteç.
X = np.array([[1.0, 2.0], [0.0, -1.0], [3.0, 1.0]])
# Bloğun ağırlıkları, öğrenilmiş gibi sabit: d_ff = 4'e genişlet, sonra yeniden 2'ye yansıt.
W1 = np.array([[1.0, -1.0, 0.0, 2.0], [0.0, 1.0, -1.0, 1.0]])  # (d_model, d_ff)
b1 = np.array([0.0, 0.0, 1.0, -1.0])  # (d_ff,)
W2 = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, -1.0], [-1.0, 0.0]])  # (d_ff, d_model)
b2 = np.array([0.5, -0.5])  # (d_model,)


def relu(z):
    """Her negatif eleman 0 olur; diğerleri olduğu gibi kalır."""
    return ____


# buraya yaz: her ____ yerine gereken kodu koy.
hidden = ____  # (n, d_ff): her belirteç W1 ve b1 ile genişletilir, sonra relu'dan geçer
Y = ____  # (n, d_model): her belirteç W2 ve b2 ile yeniden d_model'e yansıtılır

print(hidden.shape, Y.shape)
print(np.round(Y, 3))
