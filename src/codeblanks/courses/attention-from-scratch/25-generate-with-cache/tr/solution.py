import numpy as np


def softmax(z, axis):
    """Skorları `axis` boyunca toplamı 1 olan ağırlıklara çevirir (en büyük değer çıkarılır, böylece taşma olmaz)."""
    shifted = z - np.max(z, axis=axis, keepdims=True)
    weights = np.exp(shifted)
    return weights / np.sum(weights, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-5):
    """Her belirtecin öznitelikleri ortalaması 0, varyansı 1 olacak biçimde, sonra gamma ve beta ile ölçeklenir."""
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta


def feed_forward(x, W1, b1, W2, b2):
    """Konum konum çalışan ağ: genişlet, ReLU, geri izdüşür."""
    return np.maximum(x @ W1 + b1, 0.0) @ W2 + b2


def split_heads(M, n_heads):
    """(n, d_model) -> (n_heads, n, d_head): her başın özniteliklerden payı."""
    n, d_model = M.shape
    return M.reshape(n, n_heads, d_model // n_heads).transpose(1, 0, 2)


def causal_self_attention(x, p, n_heads):
    """Bütün dizi üzerinde çok başlı dikkat; hiçbir belirteç sonrakine bakmaz."""
    n, d_model = x.shape
    Qh, Kh, Vh = (split_heads(x @ p[w], n_heads) for w in ("W_q", "W_k", "W_v"))
    scores = Qh @ Kh.transpose(0, 2, 1) / np.sqrt(d_model // n_heads)
    mask = np.triu(np.ones((n, n), dtype=bool), k=1)  # köşegenin üstünde True: sonraki belirteçler
    A = softmax(np.where(mask, -np.inf, scores), axis=-1)
    return (A @ Vh).transpose(1, 0, 2).reshape(n, d_model) @ p["W_o"]


def block(x, p, n_heads):
    """Bütün dizi üzerinde, ön-norm bir dönüştürücü bloğu."""
    h = x + causal_self_attention(layer_norm(x, p["gamma1"], p["beta1"]), p, n_heads)
    return h + feed_forward(layer_norm(h, p["gamma2"], p["beta2"]), p["W1"], p["b1"], p["W2"], p["b2"])


def forward(ids, model):
    """Bütün bir kimlik dizisi üzerinde küçük GPT: (n, vocab) logitler, konum başına bir satır."""
    R = model["E"][ids] + model["P"][: len(ids)]
    for p in model["blocks"]:
        R = block(R, p, model["n_heads"])
    return layer_norm(R, model["gamma_f"], model["beta_f"]) @ model["E"].T


def generate_uncached(prompt, n_new, model):
    """Yavaş yoldan açgözlü üretim: her adımda bütün dizi modelden geçer."""
    ids = list(prompt)
    for _ in range(n_new):
        ids.append(int(np.argmax(forward(np.array(ids), model)[-1])))
    return ids


def random_model(seed, vocab_size, d_model, n_heads, n_blocks, n_ctx):
    """Küçük bir GPT için eğitilmemiş ağırlıklar, kolay okunsun diye bir ondalığa yuvarlanmış."""
    rng = np.random.default_rng(seed)

    def w(*shape, scale=0.5):
        return np.round(rng.normal(scale=scale, size=shape), 1)

    blocks = []
    for _ in range(n_blocks):
        p = {name: w(d_model, d_model) for name in ("W_q", "W_k", "W_v", "W_o")}
        p.update(W1=w(d_model, 4 * d_model), b1=np.zeros(4 * d_model))
        p.update(W2=w(4 * d_model, d_model), b2=np.zeros(d_model))
        for k in ("1", "2"):
            p.update({"gamma" + k: np.ones(d_model), "beta" + k: np.zeros(d_model)})
        blocks.append(p)
    return {
        "E": w(vocab_size, d_model, scale=1.0),  # belirteç gömmeleri, aynı zamanda çıktı katmanı
        "P": w(n_ctx, d_model),  # konum gömmeleri: en çok n_ctx belirteç
        "blocks": blocks,
        "n_heads": n_heads,
        "gamma_f": np.ones(d_model),
        "beta_f": np.zeros(d_model),
    }


def empty_cache(model):
    """Henüz hiç belirteç olmayan bir bloğun KV önbelleği: (n_heads, 0, d_head) şeklinde anahtarlar ve değerler."""
    n_heads = model["n_heads"]
    d_head = model["E"].shape[1] // n_heads
    return {"K": np.zeros((n_heads, 0, d_head)), "V": np.zeros((n_heads, 0, d_head))}


def cached_attention(x, p, n_heads, cache):
    """En yeni belirtecin nedensel çok başlı dikkat satırı. x, katman normalleştirmesinden sonra
    yalnızca o belirteçtir, (1, d_model); anahtarları ve değerleri önbelleğe katılır, sorguları da
    önbelleğin tamamına dikkat eder."""
    d_model = x.shape[1]
    q = split_heads(x @ p["W_q"], n_heads)  # (n_heads, 1, d_head)
    cache["K"] = np.concatenate([cache["K"], split_heads(x @ p["W_k"], n_heads)], axis=1)
    cache["V"] = np.concatenate([cache["V"], split_heads(x @ p["W_v"], n_heads)], axis=1)
    scores = q @ cache["K"].transpose(0, 2, 1) / np.sqrt(d_model // n_heads)  # (n_heads, 1, t + 1)
    A = softmax(scores, axis=-1)
    return (A @ cache["V"]).transpose(1, 0, 2).reshape(1, d_model) @ p["W_o"]


def cached_block(x, p, n_heads, cache):
    """Yalnızca en yeni belirteç için bir blok: dikkati önbellekten okunan `block`."""
    h = x + cached_attention(layer_norm(x, p["gamma1"], p["beta1"]), p, n_heads, cache)
    return h + feed_forward(layer_norm(h, p["gamma2"], p["beta2"]), p["W1"], p["b1"], p["W2"], p["b2"])


def decode_step(token, t, model, caches):
    """t yerinde duran bir belirteci modelden geçir: sonraki belirtecin logitleri, (vocab,)."""
    x = model["E"][[token]] + model["P"][[t]]  # (1, d_model): belirteç artı kendi yeri
    for p, cache in zip(model["blocks"], caches):
        x = cached_block(x, p, model["n_heads"], cache)  # her blok kendi önbelleğini tutar
    return (layer_norm(x, model["gamma_f"], model["beta_f"]) @ model["E"].T)[0]


def generate(prompt, n_new, model):
    """KV önbelleğiyle açgözlü üretim: her belirteç modelden bir kez geçer."""
    if len(prompt) + n_new > len(model["P"]):
        raise ValueError("the prompt and the new tokens do not fit in the model's context")
    caches = [empty_cache(model) for _ in model["blocks"]]  # blok başına bir önbellek
    ids = list(prompt)
    for t in range(len(prompt) + n_new - 1):
        logits = decode_step(ids[t], t, model, caches)  # t. belirteç, t yerinde
        if t >= len(prompt) - 1:  # istemin tamamı girdi: artık her adım yeni bir belirteç yazar
            ids.append(int(np.argmax(logits)))
    return ids


# Belirteçler dersinin karakterleri ve onlar üzerinde eğitilmemiş bir model: yazdığı metin
# rastlantıdır, ama aritmetiği gerçek bir GPT'ninkidir.
chars = [" ", "a", "c", "e", "h", "m", "n", "o", "s", "t"]
prompt = [9, 4, 3, 0, 2, 1]  # "the ca"
model = random_model(25, vocab_size=len(chars), d_model=8, n_heads=2, n_blocks=2, n_ctx=16)

fast = generate(prompt, 8, model)
slow = generate_uncached(prompt, 8, model)
print(fast)
print(repr("".join(chars[i] for i in fast)))
print(fast == slow)
