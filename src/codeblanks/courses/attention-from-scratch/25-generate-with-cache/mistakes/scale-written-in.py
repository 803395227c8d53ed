import numpy as np


def softmax(z, axis):
    """Turn scores into weights that sum to 1 along `axis` (shifted by the max, so no overflow)."""
    shifted = z - np.max(z, axis=axis, keepdims=True)
    weights = np.exp(shifted)
    return weights / np.sum(weights, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-5):
    """Each token's features rescaled to mean 0 and variance 1, then by gamma and beta."""
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta


def feed_forward(x, W1, b1, W2, b2):
    """The position-wise network: expand, ReLU, project back."""
    return np.maximum(x @ W1 + b1, 0.0) @ W2 + b2


def split_heads(M, n_heads):
    """(n, d_model) -> (n_heads, n, d_head): each head's slice of the features."""
    n, d_model = M.shape
    return M.reshape(n, n_heads, d_model // n_heads).transpose(1, 0, 2)


def causal_self_attention(x, p, n_heads):
    """Multi-head attention over the whole sequence, no token looking at a later one."""
    n, d_model = x.shape
    Qh, Kh, Vh = (split_heads(x @ p[w], n_heads) for w in ("W_q", "W_k", "W_v"))
    scores = Qh @ Kh.transpose(0, 2, 1) / np.sqrt(d_model // n_heads)
    mask = np.triu(np.ones((n, n), dtype=bool), k=1)  # True above the diagonal: later tokens
    A = softmax(np.where(mask, -np.inf, scores), axis=-1)
    return (A @ Vh).transpose(1, 0, 2).reshape(n, d_model) @ p["W_o"]


def block(x, p, n_heads):
    """One pre-norm transformer block, over the whole sequence."""
    h = x + causal_self_attention(layer_norm(x, p["gamma1"], p["beta1"]), p, n_heads)
    return h + feed_forward(layer_norm(h, p["gamma2"], p["beta2"]), p["W1"], p["b1"], p["W2"], p["b2"])


def forward(ids, model):
    """The tiny GPT on a whole sequence of ids: (n, vocab) logits, one row per position."""
    R = model["E"][ids] + model["P"][: len(ids)]
    for p in model["blocks"]:
        R = block(R, p, model["n_heads"])
    return layer_norm(R, model["gamma_f"], model["beta_f"]) @ model["E"].T


def generate_uncached(prompt, n_new, model):
    """Greedy generation the slow way: the whole sequence goes through the model at every step."""
    ids = list(prompt)
    for _ in range(n_new):
        ids.append(int(np.argmax(forward(np.array(ids), model)[-1])))
    return ids


def random_model(seed, vocab_size, d_model, n_heads, n_blocks, n_ctx):
    """Untrained weights for a tiny GPT, rounded to one decimal so that they are easy to read."""
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
        "E": w(vocab_size, d_model, scale=1.0),  # token embeddings, also the output layer
        "P": w(n_ctx, d_model),  # position embeddings: at most n_ctx tokens
        "blocks": blocks,
        "n_heads": n_heads,
        "gamma_f": np.ones(d_model),
        "beta_f": np.zeros(d_model),
    }


def empty_cache(model):
    """One block's KV cache with no token in it yet: keys and values of shape (n_heads, 0, d_head)."""
    n_heads = model["n_heads"]
    d_head = model["E"].shape[1] // n_heads
    return {"K": np.zeros((n_heads, 0, d_head)), "V": np.zeros((n_heads, 0, d_head))}


def cached_attention(x, p, n_heads, cache):
    """The newest token's row of causal multi-head attention. x is that token alone, (1, d_model),
    after layer norm; its keys and values join the cache, and its queries attend to all of it."""
    d_model = x.shape[1]
    q = split_heads(x @ p["W_q"], n_heads)  # (n_heads, 1, d_head)
    cache["K"] = np.concatenate([cache["K"], split_heads(x @ p["W_k"], n_heads)], axis=1)
    cache["V"] = np.concatenate([cache["V"], split_heads(x @ p["W_v"], n_heads)], axis=1)
    scores = q @ cache["K"].transpose(0, 2, 1) / 2.0  # sqrt(d_head) for d_head = 4
    A = softmax(scores, axis=-1)
    return (A @ cache["V"]).transpose(1, 0, 2).reshape(1, d_model) @ p["W_o"]


def cached_block(x, p, n_heads, cache):
    """One block for the newest token only: `block`, with the attention read from the cache."""
    h = x + cached_attention(layer_norm(x, p["gamma1"], p["beta1"]), p, n_heads, cache)
    return h + feed_forward(layer_norm(h, p["gamma2"], p["beta2"]), p["W1"], p["b1"], p["W2"], p["b2"])


def decode_step(token, t, model, caches):
    """Feed one token, standing at place t, through the model: its next-token logits, (vocab,)."""
    x = model["E"][[token]] + model["P"][[t]]  # (1, d_model): the token plus its own place
    for p, cache in zip(model["blocks"], caches):
        x = cached_block(x, p, model["n_heads"], cache)  # each block keeps its own cache
    return (layer_norm(x, model["gamma_f"], model["beta_f"]) @ model["E"].T)[0]


def generate(prompt, n_new, model):
    """Greedy generation with a KV cache: every token goes through the model once."""
    if len(prompt) + n_new > len(model["P"]):
        raise ValueError("the prompt and the new tokens do not fit in the model's context")
    caches = [empty_cache(model) for _ in model["blocks"]]  # one cache per block
    ids = list(prompt)
    for t in range(len(prompt) + n_new - 1):
        logits = decode_step(ids[t], t, model, caches)  # token t, at place t
        if t >= len(prompt) - 1:  # the prompt is all in: each step now writes a new token
            ids.append(int(np.argmax(logits)))
    return ids


# The characters of the tokens lesson, and an untrained model over them: the text it writes is
# chance, but the arithmetic is a real GPT's.
chars = [" ", "a", "c", "e", "h", "m", "n", "o", "s", "t"]
prompt = [9, 4, 3, 0, 2, 1]  # "the ca"
model = random_model(25, vocab_size=len(chars), d_model=8, n_heads=2, n_blocks=2, n_ctx=16)

fast = generate(prompt, 8, model)
slow = generate_uncached(prompt, 8, model)
print(fast)
print(repr("".join(chars[i] for i in fast)))
print(fast == slow)
