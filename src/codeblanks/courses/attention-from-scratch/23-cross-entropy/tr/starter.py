import numpy as np

# 5 belirteçlik bir dağarcık üzerinde 7 belirteçlik bir metin ve modelin onun için logitleri:
# t. satır dağarcıktaki her belirteci t. belirteçten sonra gelen belirteç olarak puanlar.
ids = np.array([3, 0, 4, 4, 1, 2, 0])
logits = np.array(
    [
        [1.0, -0.5, 0.0, 2.0, 0.5],
        [2.5, 0.0, -1.0, 0.5, 1.0],
        [0.0, 1.5, 0.5, -0.5, 3.0],
        [-1.0, 2.0, 0.0, 1.0, 0.5],
        [0.5, 0.5, 2.0, 0.0, -1.0],
        [3.0, 0.0, 1.0, 0.5, 0.0],
        [0.0, 1.0, 0.0, 2.0, 1.0],
    ]
)

# buraya yaz: her ____ yerine kendi kodunu koy.
scored = ____  # (n - 1, vocab): bir sonraki belirteci metinde olan satırlar
targets = ____  # (n - 1,): o satırların her birinden sonra gerçekte gelen belirteç
log_probs = ____  # (n - 1, vocab): her satırın kararlı biçimde hesaplanan log-softmax'ı
nll = ____  # (n - 1,): her satırın gerçek sonraki belirteç karşısındaki sürprizi
loss = ____  # metnin çapraz entropisi
perplexity = np.exp(loss)

print(log_probs.shape, targets)
print(np.round(nll, 3))
print(np.round(loss, 4), np.round(perplexity, 3))
