import numpy as np

# Belirteçler dersinin karakterleri, onlarla yazılmış bir metin ve bir bigram modeli: W'nin a.
# satırı, a karakterinden sonra gelen karakterin logitlerini tutar. Model hiçbir şey bilmeden başlar.
chars = [" ", "a", "c", "e", "h", "m", "n", "o", "s", "t"]
text = "the cat sat on the mat"
ids = np.array([chars.index(c) for c in text])
inputs, targets = ids[:-1], ids[1:]  # her karakter ve ondan sonra gelen
W = np.zeros((len(chars), len(chars)))
rate = 2.0  # öğrenme hızı: her adımın ne kadar ileri gittiği


def loss_and_gradient(W, inputs, targets):
    """Sonraki karakterin çapraz entropisi ve onun W'ye göre gradyanı."""
    n = len(targets)
    logits = W[inputs]  # (n, V): t. satır, t. karakterden sonraki logitleri tutar
    shifted = logits - np.max(logits, axis=1, keepdims=True)
    probs = np.exp(shifted) / np.sum(np.exp(shifted), axis=1, keepdims=True)
    loss = -np.mean(np.log(probs[np.arange(n), targets]))
    # buraya yaz: her ____ yerine kendi kodunu koy (bu fonksiyonda ve aşağıdaki döngüde).
    d_logits = ____  # (n, V): kaybın her logitle nasıl değiştiği
    grad = np.eye(len(W))[inputs].T @ d_logits  # W'nin her satırı, onu kullanan satırları toplar
    return loss, grad


losses = []
for step in range(60):
    loss, grad = loss_and_gradient(W, inputs, targets)
    losses.append(float(loss))
    W = ____  # yokuş aşağı bir adım

print(np.round(losses[::10], 3))
print(np.round(losses[-1], 3), losses[-1] < losses[0])
