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

scored = logits[:-1]  # (n - 1, vocab): bir sonraki belirteci metinde olan satırlar
targets = ids[1:]  # (n - 1,): o satırların her birinden sonra gerçekte gelen belirteç
shifted = scored - np.max(scored, axis=1, keepdims=True)  # her satırın en büyük skoru 0 olur
log_probs = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))  # log-softmax
nll = -log_probs[np.arange(len(targets)), targets]  # her satırın gerçek sonraki belirteç karşısındaki sürprizi
loss = nll.mean()  # metnin çapraz entropisi
perplexity = np.exp(loss)

print(log_probs.shape, targets)
print(np.round(nll, 3))
print(np.round(loss, 4), np.round(perplexity, 3))
