"""Train the capstone's tiny GPT (lesson 25, generate.py) on a short text, in NumPy only.

    nice python train.py            # under a minute of CPU; writes weights.npz and weights.txt here
    nice python train.py --check    # compare the hand-written gradients with finite differences

The model is exactly the one generate.py runs: token embeddings E (also the output layer),
position embeddings P, pre-norm blocks of multi-head causal attention (W_q, W_k, W_v, W_o, no
biases) and a ReLU feed-forward network (W1, b1, W2, b2), two layer norms per block, a final
layer norm, and logits R @ E.T. Its sizes are the lesson's: 10 characters, d_model 8, 2 heads,
2 blocks, 32 places. The gradients below are written by hand (the chain rule, layer by layer,
backwards), and training is Adam on random windows of the text. Everything follows from SEED.

The text is our own words, written for this lesson (public domain, CC0): short sentences made
only of the ten characters of the tokens lesson, " acehmnost", so that the vocabulary stays the
one the learner built there. A model this small learns such a text nearly by heart.

After training, every number is rounded to a multiple of 1/STEP and stored as one signed byte;
generate.py unpacks that string (WEIGHTS) with base64: the sandbox gives a learner's program no
files, so the weights travel inside it. This script writes the same numbers to weights.npz and the
string, in lines, to weights.txt, to paste into WEIGHTS of the lesson's programs (starter.py,
solution.py, the tr/ copies and mistakes/*.py); then regenerate expected.txt from solution.py.
The greedy text it prints for "the ca" is what generate.py prints.
"""

from __future__ import annotations

import base64
import sys
from pathlib import Path

import numpy as np

SEED = 2026
TEXT = (
    "the cat sat on the mat "
    "the man has a hat "
    "the cat ate the ham "
    "the men ate the oats "
    "the hens chase the ants "
    "the cat sees the moon at noon "
    "the man sat on a stone "
)
CHARS = [" ", "a", "c", "e", "h", "m", "n", "o", "s", "t"]
D_MODEL, N_HEADS, N_BLOCKS, N_CTX = 8, 2, 2, 32
STEP = 32  # weights are stored as whole multiples of 1/STEP, one signed byte each
BLOCK_NAMES = ("W_q", "W_k", "W_v", "W_o", "W1", "b1", "W2", "b2", "gamma1", "beta1", "gamma2", "beta2")


def init(rng):
    d = D_MODEL
    m = {"E": rng.normal(0, 0.5, (len(CHARS), d)), "P": rng.normal(0, 0.2, (N_CTX, d))}
    for i in range(N_BLOCKS):
        for w in ("W_q", "W_k", "W_v", "W_o"):
            m[f"{i}.{w}"] = rng.normal(0, d**-0.5, (d, d))
        m[f"{i}.W1"] = rng.normal(0, d**-0.5, (d, 4 * d))
        m[f"{i}.b1"] = np.zeros(4 * d)
        m[f"{i}.W2"] = rng.normal(0, (4 * d) ** -0.5, (4 * d, d))
        m[f"{i}.b2"] = np.zeros(d)
        for k in ("1", "2"):
            m[f"{i}.gamma{k}"] = np.ones(d)
            m[f"{i}.beta{k}"] = np.zeros(d)
    m["gamma_f"], m["beta_f"] = np.ones(d), np.zeros(d)
    return m


def ln_fwd(x, g, b, eps=1e-5):
    mu = x.mean(-1, keepdims=True)
    inv = 1.0 / np.sqrt(x.var(-1, keepdims=True) + eps)
    xhat = (x - mu) * inv
    return g * xhat + b, (xhat, inv, g)


def ln_bwd(dout, cache):
    xhat, inv, g = cache
    dxhat = dout * g
    dx = inv * (dxhat - dxhat.mean(-1, keepdims=True) - xhat * (dxhat * xhat).mean(-1, keepdims=True))
    return dx, (dout * xhat).sum((0, 1)), dout.sum((0, 1))


def heads(M):  # (B, n, d) -> (B, H, n, dh)
    B, n, d = M.shape
    return M.reshape(B, n, N_HEADS, d // N_HEADS).transpose(0, 2, 1, 3)


def merge(Mh):  # (B, H, n, dh) -> (B, n, d)
    B, H, n, dh = Mh.shape
    return Mh.transpose(0, 2, 1, 3).reshape(B, n, H * dh)


def loss_and_grads(m, ids, targets):
    """Mean cross-entropy of next-character prediction over a batch, and its gradient."""
    B, n = ids.shape
    dh = D_MODEL // N_HEADS
    mask = np.triu(np.ones((n, n), dtype=bool), k=1)
    x = m["E"][ids] + m["P"][:n]
    saved = []
    for i in range(N_BLOCKS):
        p = {w: m[f"{i}.{w}"] for w in BLOCK_NAMES}
        a, c1 = ln_fwd(x, p["gamma1"], p["beta1"])
        Qh, Kh, Vh = heads(a @ p["W_q"]), heads(a @ p["W_k"]), heads(a @ p["W_v"])
        S = np.where(mask, -np.inf, Qh @ Kh.transpose(0, 1, 3, 2) / np.sqrt(dh))
        A = np.exp(S - S.max(-1, keepdims=True))
        A /= A.sum(-1, keepdims=True)
        O = merge(A @ Vh)
        h = x + O @ p["W_o"]
        f, c2 = ln_fwd(h, p["gamma2"], p["beta2"])
        u = f @ p["W1"] + p["b1"]
        r = np.maximum(u, 0.0)
        saved.append((p, a, c1, Qh, Kh, Vh, A, O, f, c2, u, r))
        x = h + r @ p["W2"] + p["b2"]
    z, cf = ln_fwd(x, m["gamma_f"], m["beta_f"])
    logits = z @ m["E"].T
    shifted = logits - logits.max(-1, keepdims=True)
    logp = shifted - np.log(np.exp(shifted).sum(-1, keepdims=True))
    loss = -np.take_along_axis(logp, targets[..., None], -1).mean()

    g = {k: np.zeros_like(v) for k, v in m.items()}
    dlog = np.exp(logp)
    np.put_along_axis(dlog, targets[..., None], np.take_along_axis(dlog, targets[..., None], -1) - 1, -1)
    dlog /= B * n
    g["E"] += np.einsum("bnv,bnd->vd", dlog, z)
    dx, g["gamma_f"], g["beta_f"] = ln_bwd(dlog @ m["E"], cf)
    for i in reversed(range(N_BLOCKS)):
        p, a, c1, Qh, Kh, Vh, A, O, f, c2, u, r = saved[i]
        g[f"{i}.W2"] = np.einsum("bnk,bnd->kd", r, dx)
        g[f"{i}.b2"] = dx.sum((0, 1))
        du = (dx @ p["W2"].T) * (u > 0)
        g[f"{i}.W1"] = np.einsum("bnd,bnk->dk", f, du)
        g[f"{i}.b1"] = du.sum((0, 1))
        df, g[f"{i}.gamma2"], g[f"{i}.beta2"] = ln_bwd(du @ p["W1"].T, c2)
        dh_ = dx + df
        g[f"{i}.W_o"] = np.einsum("bnd,bne->de", O, dh_)
        dOh = heads(dh_ @ p["W_o"].T)
        dA = dOh @ Vh.transpose(0, 1, 3, 2)
        dVh = A.transpose(0, 1, 3, 2) @ dOh
        dS = A * (dA - (dA * A).sum(-1, keepdims=True)) / np.sqrt(dh)
        dQ, dK, dV = merge(dS @ Kh), merge(dS.transpose(0, 1, 3, 2) @ Qh), merge(dVh)
        g[f"{i}.W_q"] = np.einsum("bnd,bne->de", a, dQ)
        g[f"{i}.W_k"] = np.einsum("bnd,bne->de", a, dK)
        g[f"{i}.W_v"] = np.einsum("bnd,bne->de", a, dV)
        da = dQ @ p["W_q"].T + dK @ p["W_k"].T + dV @ p["W_v"].T
        dres, g[f"{i}.gamma1"], g[f"{i}.beta1"] = ln_bwd(da, c1)
        dx = dh_ + dres
    np.add.at(g["E"], ids, dx)
    g["P"][:n] += dx.sum(0)
    return loss, g


def batch(rng, data, size, n):
    starts = rng.integers(0, len(data) - n - 1, size)
    windows = np.stack([data[s : s + n + 1] for s in starts])
    return windows[:, :-1], windows[:, 1:]


def gradient_check():
    rng = np.random.default_rng(0)
    m = init(rng)
    for k in m:
        m[k] = m[k] + rng.normal(0, 0.1, m[k].shape)
    data = np.array([CHARS.index(c) for c in TEXT * 2])
    ids, targets = batch(rng, data, 3, 7)
    _, g = loss_and_grads(m, ids, targets)
    worst = 0.0
    for k, v in m.items():
        for j in rng.choice(v.size, min(5, v.size), replace=False):
            old = v.flat[j]
            v.flat[j] = old + 1e-6
            up, _ = loss_and_grads(m, ids, targets)
            v.flat[j] = old - 1e-6
            down, _ = loss_and_grads(m, ids, targets)
            v.flat[j] = old
            numeric = (up - down) / 2e-6
            worst = max(worst, abs(numeric - g[k].flat[j]) / max(1e-8, abs(numeric) + abs(g[k].flat[j])))
    print(f"largest relative difference between the gradients: {worst:.2e}")


def to_lesson(m):
    """The lesson's model dictionary, from the flat names used here."""
    blocks = [{w: m[f"{i}.{w}"] for w in BLOCK_NAMES} for i in range(N_BLOCKS)]
    return {"E": m["E"], "P": m["P"], "blocks": blocks, "n_heads": N_HEADS,
            "gamma_f": m["gamma_f"], "beta_f": m["beta_f"]}


def order():
    """The order the numbers are stored in, as generate.py unpacks them."""
    names = ["E", "P"] + [f"{i}.{w}" for i in range(N_BLOCKS) for w in BLOCK_NAMES]
    return names + ["gamma_f", "beta_f"]


def greedy(m, prompt, n_new):
    ids = list(prompt)
    for _ in range(n_new):
        x = np.array([ids])
        # one forward pass: the loss function's forward, with dummy targets
        logits = forward_logits(m, x)
        ids.append(int(np.argmax(logits[0, -1])))
    return ids


def forward_logits(m, ids):
    n = ids.shape[1]
    dh = D_MODEL // N_HEADS
    mask = np.triu(np.ones((n, n), dtype=bool), k=1)
    x = m["E"][ids] + m["P"][:n]
    for i in range(N_BLOCKS):
        p = {w: m[f"{i}.{w}"] for w in BLOCK_NAMES}
        a, _ = ln_fwd(x, p["gamma1"], p["beta1"])
        Qh, Kh, Vh = heads(a @ p["W_q"]), heads(a @ p["W_k"]), heads(a @ p["W_v"])
        S = np.where(mask, -np.inf, Qh @ Kh.transpose(0, 1, 3, 2) / np.sqrt(dh))
        A = np.exp(S - S.max(-1, keepdims=True))
        A /= A.sum(-1, keepdims=True)
        h = x + merge(A @ Vh) @ p["W_o"]
        f, _ = ln_fwd(h, p["gamma2"], p["beta2"])
        x = h + np.maximum(f @ p["W1"] + p["b1"], 0.0) @ p["W2"] + p["b2"]
    z, _ = ln_fwd(x, m["gamma_f"], m["beta_f"])
    return z @ m["E"].T


def train(steps=4000, size=32, lr=0.01):
    rng = np.random.default_rng(SEED)
    m = init(rng)
    data = np.array([CHARS.index(c) for c in TEXT * 4])
    first = {k: np.zeros_like(v) for k, v in m.items()}
    second = {k: np.zeros_like(v) for k, v in m.items()}
    limit = 127 / STEP  # the largest number one signed byte can hold
    for t in range(1, steps + 1):
        ids, targets = batch(rng, data, size, N_CTX)
        # The last quarter runs the model on the rounded weights it will be stored as (and
        # applies their gradient to the exact ones), so that rounding costs almost nothing.
        used = {k: np.round(v * STEP) / STEP for k, v in m.items()} if t > 0.75 * steps else m
        loss, g = loss_and_grads(used, ids, targets)
        rate = lr * min(1.0, t / 100) * (0.1 + 0.9 * (1 - t / steps))
        for k in m:
            first[k] = 0.9 * first[k] + 0.1 * g[k]
            second[k] = 0.999 * second[k] + 0.001 * g[k] ** 2
            step = rate * (first[k] / (1 - 0.9**t)) / (np.sqrt(second[k] / (1 - 0.999**t)) + 1e-8)
            m[k] = np.clip(m[k] - step, -limit, limit)
        if t % 500 == 0 or t == 1:
            print(f"step {t:5d}  loss {loss:.3f}", flush=True)
    return m


def main():
    if "--check" in sys.argv:
        gradient_check()
        return
    m = train()
    q = {k: np.round(v * STEP).astype(np.int8) for k, v in m.items()}
    mq = {k: v / STEP for k, v in q.items()}
    data = np.array([CHARS.index(c) for c in TEXT * 4])
    ids, targets = batch(np.random.default_rng(0), data, 64, N_CTX)
    print("loss after rounding:", round(float(loss_and_grads(mq, ids, targets)[0]), 3))
    prompt = [CHARS.index(c) for c in "the ca"]
    print(repr("".join(CHARS[i] for i in greedy(mq, prompt, N_CTX - len(prompt)))))
    packed = np.concatenate([q[k].ravel() for k in order()])
    np.savez_compressed(Path(__file__).with_name("weights.npz"), **{k: mq[k] for k in order()})
    text = base64.b64encode(packed.tobytes()).decode()
    Path(__file__).with_name("weights.txt").write_text(
        "\n".join(text[i : i + 76] for i in range(0, len(text), 76)) + "\n"
    )
    print(packed.size, "numbers,", len(text), "characters of base64")


if __name__ == "__main__":
    main()
