import base64

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
    """Konum konum çalışan ağ: genişlet, ReLU, eski genişliğe yansıt."""
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


def trained_model(packed, vocab_size, d_model, n_heads, n_blocks, n_ctx):
    """_model/train.py'nin (bu dersin klasöründe) eğittiği ağırlıklar: her sayı 1/32'nin bir tam
    katıdır ve tek bir işaretli bayt olarak saklanır; `packed` bu baytların base64 yazımıdır."""
    numbers = np.frombuffer(base64.b64decode(packed), dtype=np.int8) / 32
    taken = 0

    def take(*shape):
        nonlocal taken
        size = int(np.prod(shape))
        taken += size
        return numbers[taken - size : taken].reshape(shape)

    E = take(vocab_size, d_model)
    P = take(n_ctx, d_model)
    blocks = []
    for _ in range(n_blocks):
        p = {name: take(d_model, d_model) for name in ("W_q", "W_k", "W_v", "W_o")}
        p.update(W1=take(d_model, 4 * d_model), b1=take(4 * d_model))
        p.update(W2=take(4 * d_model, d_model), b2=take(d_model))
        for k in ("1", "2"):
            p.update({"gamma" + k: take(d_model), "beta" + k: take(d_model)})
        blocks.append(p)
    return {"E": E, "P": P, "blocks": blocks, "n_heads": n_heads, "gamma_f": take(d_model), "beta_f": take(d_model)}


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


# Belirteçler dersinin karakterleri ve bu karakterlerle yazılmış kısa bir metin üzerinde eğitilmiş
# küçük bir GPT (eğitim metni ve betik _model/train.py'de; metin İngilizcedir). 2.032 sayısı, paketlenmiş:
WEIGHTS = (
    "AAbWGiDv8P3t3CEf9QLk6toOAtj+CRnz/yb+DOkHyzcS/+Ih0vYcF/gN8w0KBkHbNEkm+QYP4ffl"
    "OCn468wN8AEg1AXgB+7PQ/UaAP/rDvkdLAgn+b/45gwe/w/90PXvDRz+CP/b9/oOHAEHBeT8/g0Z"
    "AQYG6v//DxkECAnxBAEGDv4AAOv79wgOAQED8f36CQwDAgX0/vsDBf38APD59wsMBwUK/AL/BQUC"
    "AAT4/PsIBwYDCP4B/wIBAP0D+/v6AgEB/gP9/PsFAgQABQH//wP/Av4DAf39/Pj89/z89/cB/AH8"
    "AgP9/QgCCQMJCwQEAvwD/QMH//8C+QL8AQf+/QL6AvsCCf/+APgB+QAI/v0D+AP7Agv//wX6BfwE"
    "DgIBAvYB+AEL//0I+wf9BxIEBAL2AfgBDf//AvQA9gAN/v0C8wD0/wz9/QT1AvYADv/+BgkM6PsF"
    "9Qv2AwkI9gn9Cw4U/gYJ/gv6F/QCChEG9/0FBOz88w4OAQ8NCQwO8/8W9QP4BQANEu/vF/4aC/kT"
    "+vPxCgEQ/wAR6v72DxL8G/kDCwQK/AkN9f358P0RGxD/9/sN+gXu+ukF3ALy8AfzAAv7BPL2Cwzq"
    "/wUD+gYL8vQGD//j8fYR/PsVFPwI7/4I7woEBef95h758P75BR0I3+/hFx8W/P/77AgV8Q8NAx0G"
    "Dfrp+wAG8BPwFvfzCvP2Bf8IFeoc8P/2//cH7OENGxUFBhT56gDdCPQC6gP39/kXDOb3JwUOBh0Q"
    "+gDvAf/4A//2BA4B+e/1AgLrAPP8Fg/tDPkTCfEHFhQT6ggUAhDv8vAJASf9AgkK7RASCgjx7/r8"
    "/RX9BgQe+BP0CAYJ+gEL6Pn08vYD6e8I1RgRBfLyC/AO/PoNGfj33gb09Rjq+wQM5Aj8FRECB/Yd"
    "9vsFBwz/CtYB9vkD/AT7A+j48Aj+BQcHGw0SDgjw8AYN1gPj7xvx/QwQ9vD28vUT++H0Cx4IBPYQ"
    "9wDZCO8eA+z7CAf26ADzBeYUGez2AQEB9vcM/xTw9fr6DBX/AAjsCurwASj6//zuGQ4YCwsQCwT/"
    "+u0O+vUBBgH4BiMJCvbxA/AXAfzz3PHlDf0RCvse4A4I/Pr7AevzBv4F9hMMBQf+Ixj5/fzy/ej4"
    "/P35/wL6+wUFDP0O+P7/+g3+/fMA/fXo7fgJBwsJAPT0BxMHDez57vn7Bf8L9vQAC+oABwfpGwsA"
    "CP4I/gLvF/LrFRIF+xEC6P37+RME9P4YBOoD/vwQ/vcGAxn79P8C8OMEFAwEAf/89wAD/ff97hf/"
    "BQX97vn3/fL+BPbyCgP5CvwAAPsS+P0ABQQLFgLm+wT7DgHwEA30B/8P9AHq8wPx9PsNAvwH/A0G"
    "AQL19A72A/8ECPUDBf0PAP0B+fb6/esEC/X1/QgHDAUQBe4ACQEOBPb+AQf1/wEN+O4I9AcOBv/j"
    "/wgABQT9AgYA//ET9QsF7vwK6AoI/fz39hD0CP4BEgb5Bd39+QkF6vP7EgTv7t0ACAwW/w//APkE"
    "/wEDARkfHRwfHSEcAf77/QH5+vQmJyccJBwnH/8BBQb6AvsG5/cU8QLu8gHyBO7w1RXr5wkABw4L"
    "GvAJDAb//fUJCAcHEPnxF+gO+fP/AxcE++cZ/gkV8fAA+eD96/bo+N8B9vUH/P8J9Q4E8AsA8fTn"
    "+wcF/w8T/P8N3Rb27wUW+w//JgoKABn0AwfjFRUO9vzuAv76DuT4HOr+5OgD+wIWChzw+/b36Pv7"
    "BwICDAAGDA33/vgT8Av6DgQE8f738+sJBgT3CyUDA/L7Dx7++fv8Bt36CwL47wzx+g8F/wX08+/v"
    "8foEBwQBDwL6ABEI/ejt/O/5BP0HH/UJCQccBewB+PUL5QEd/P0B+fIF5Az9+/4K6vcFAwwR9QDq"
    "/Ary/AgBD/jh7vvzGgTy+ecQFRAKAB7pEQLp9Ajy4f3aCPgBDgXmDSni9AXs8On99A/48hci7QEE"
    "7P797Rr7AvYABf37BwbrE+/9+BTz79H9CPcJAAT2Awzv5/ohAfTv4Pb7ER4k6f7t9RkH6ewE7vHf"
    "Bfvl2RHtCQTuEucWA/MAFQ4B6O4BEtz7APPy4AMVAPcL9gIKGvzvJh/w8/f5CQ0FAvII/xkP6/Xu"
    "8wEa++/x6w0I4vf6/wj+/PX4AhwIDhYS/eoi+9gFFO8I+/EJ8xYAEQLwAPENAuX69wUE8Q4G4xYP"
    "//7xHeMFFAQA8fAJAQYF5vXw1gT4FwgLGecK2wf57vD45AH1+/wE8P7u/vf+8wkI7gXwBgsA9/0B"
    "8PH9APv5++D6/wf46gEQ7xABFvMS+P/7AvMO9QX89AEE/BQH//X7ABPoAwMF+QIA8gz3BvcJ/hbt"
    "/f0O7fMa+hD1DP/59AoB//rwBhAPAxfzBAj8/iH9BvQABP0C2xTz/wn4CAMC/vcE7vURAgoB/PUA"
    "APDsJQT2G/XmE/wR7gLzCf/wCOboGwz2Dgf6C/4AD/z2+gf+Ff0F+gEV5RoQDPjz+Owa+Q33AAH4"
    "/wDvDAj17QAN7gjqDgME8fr8/fkDCBcI/RcG8wPo/A/+DOro9fv7+Pb98hjv9QUOAQYD9/LqDfb6"
    "Dfv2Bv8QBQrxBQoG7hcV3fr8I+n1EQ/x9A36Aw75CwP57Qvu+Qv8Av0F/wEAAx8oIiAiHyUb+AIG"
    "+gAJAP8lKCYpMiQiIwb9CQECBggNcGZaNmg4YGX49v0F8vPyBQ=="
)
chars = [" ", "a", "c", "e", "h", "m", "n", "o", "s", "t"]
prompt = [9, 4, 3, 0, 2, 1]  # "the ca"
model = trained_model(WEIGHTS, vocab_size=len(chars), d_model=8, n_heads=2, n_blocks=2, n_ctx=32)

fast = generate(prompt, 24, model)
slow = generate_uncached(prompt, 24, model)
print(fast)
print(repr("".join(chars[i] for i in fast)))
print(fast == slow)
