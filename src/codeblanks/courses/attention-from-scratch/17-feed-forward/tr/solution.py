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
    return np.maximum(z, 0.0)


hidden = relu(X @ W1 + b1)  # (n, d_ff): her belirteç genişletilir, sonra 0'da kesilir
Y = hidden @ W2 + b2  # (n, d_model): her belirteç yeniden d_model'e yansıtılır

print(hidden.shape, Y.shape)
print(np.round(Y, 3))
