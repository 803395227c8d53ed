import numpy as np


def next_token_probs(logits, temperature=1.0, top_k=None):
    """Sonraki belirtecin çekileceği dağılım: sıcaklığa bölünmüş logitler, en büyük top_k dışındakiler
    dışarıda bırakılmış, ardından bir softmax. Sıcaklık 0 limittir: argmax."""
    logits = np.asarray(logits, dtype=float)
    if temperature == 0:
        probs = np.zeros(len(logits))
        probs[np.argmax(logits)] = 1.0  # bütün olasılık en iyi belirteçte (beraberlikte ilkinde)
        return probs
    z = logits / temperature
    if top_k is not None and top_k < len(z):
        keep = np.argsort(-z, kind="stable")[:top_k]  # en büyük top_k; beraberlikte küçük kimlik
        masked = np.full(len(z), -np.inf)  # exp(-inf) = 0: ötekiler hiç olasılık almaz
        masked[keep] = z[keep]
        z = masked
    w = np.exp(z - np.max(z))  # en büyük değer kadar kaydırılmış, böylece taşma olmaz
    return w / np.sum(w)


def sample(logits, rng, temperature=1.0, top_k=None):
    """next_token_probs'tan rastgele sayı üreteci rng ile çekilen bir belirteç kimliği: rng aynı
    durumdaysa hep aynı belirteci çeker."""
    probs = next_token_probs(logits, temperature, top_k)
    return int(rng.choice(len(probs), p=probs))


logits = np.array([2.0, 1.0, 0.5, 0.5, -1.0])
print(np.round(next_token_probs(logits), 3))
print(np.round(next_token_probs(logits, 2.0), 3))
print(np.round(next_token_probs(logits, 0.5, top_k=2), 3))
rng = np.random.default_rng(24)
print([sample(logits, rng) for _ in range(12)])
