import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    """Belirteçleri (son eksen) ortalama 0, varyans 1 yapar; gamma ile ölçekler, beta ekler."""
    mean = ____  # her belirtecin öznitelikleri (son eksen) üzerindeki ortalaması, sütun olarak
    var = ____  # her belirtecin varyansı: o ortalamadan sapmalarının karelerinin ortalaması
    x_hat = ____  # her belirteçte ortalama 0 ve varyans 1; eps bölmeyi güvenli kılar
    return ____  # gamma ile ölçeklenmiş ve beta ile kaydırılmış


# Dört öznitelikli iki belirteç; gamma = 1 ve beta = 0 normalleştirilmiş değerleri değiştirmez.
X = np.array([[1.0, 2.0, 3.0, 6.0], [10.0, 10.0, 10.0, 14.0]])
H = layer_norm(X, np.ones(X.shape[-1]), np.zeros(X.shape[-1]))
print(np.round(H, 3))
