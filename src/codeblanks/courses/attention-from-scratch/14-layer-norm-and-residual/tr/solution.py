import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    """Belirteçleri (son eksen) ortalama 0, varyans 1 yapar; gamma ile ölçekler, beta ekler."""
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    x_hat = (x - mean) / np.sqrt(var + eps)
    return gamma * x_hat + beta


# Dört öznitelikli iki belirteç; gamma = 1 ve beta = 0 normalleştirilmiş değerleri değiştirmez.
X = np.array([[1.0, 2.0, 3.0, 6.0], [10.0, 10.0, 10.0, 14.0]])
H = layer_norm(X, np.ones(X.shape[-1]), np.zeros(X.shape[-1]))
print(np.round(H, 3))
