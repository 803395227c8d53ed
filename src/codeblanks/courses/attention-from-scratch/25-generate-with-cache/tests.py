import numpy as np
from lessontest import test


def steps_logits(ids, model):
    """The logits of decode_step for each token of ids in turn, one fresh cache per block."""
    caches = [empty_cache(model) for _ in model["blocks"]]
    return np.stack([decode_step(token, t, model, caches) for t, token in enumerate(ids)])


class _Counted(np.ndarray):
    """A weight matrix that counts how many token rows are multiplied by it."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if ufunc is np.matmul and method == "__call__" and inputs[-1] is self:
            self.rows[0] += int(np.prod(np.shape(inputs[0])[:-1]))
        plain = [a.view(np.ndarray) if isinstance(a, _Counted) else a for a in inputs]
        return getattr(ufunc, method)(*plain, **kwargs)


def _counted(W):
    C = np.asarray(W).view(_Counted)
    C.rows = [0]
    return C


@test("the prompt 'the ca' and 8 new tokens")
def the_prompt():
    return np.array(generate(prompt, 8, model))


@test("the same tokens as the uncached loop, on another model")
def same_as_uncached():
    other = random_model(3, vocab_size=12, d_model=8, n_heads=4, n_blocks=2, n_ctx=20)
    fast = generate([5, 0, 11, 2], 10, other)
    slow = generate_uncached([5, 0, 11, 2], 10, other)
    assert fast == slow, f"generate gave {fast}, generate_uncached gave {slow}"


@test("the logits of every step equal the rows of the whole-sequence forward pass")
def step_logits():
    return steps_logits([9, 4, 3, 0, 2, 1, 2, 4], model)


@test("one block and a one-token prompt", hidden=True)
def one_block():
    small = random_model(11, vocab_size=6, d_model=6, n_heads=1, n_blocks=1, n_ctx=8)
    ids = generate([3], 7, small)
    return np.concatenate([np.array(ids, dtype=float), steps_logits(ids, small).ravel()])


@test("three blocks, three heads, d_model 12", hidden=True)
def three_blocks():
    big = random_model(12, vocab_size=15, d_model=12, n_heads=3, n_blocks=3, n_ctx=12)
    return np.array(generate([14, 2, 2, 7, 0], 7, big))


@test("the logits of every step with large embeddings and four heads", hidden=True)
def large_logits():
    wide = random_model(13, vocab_size=9, d_model=8, n_heads=4, n_blocks=2, n_ctx=10)
    wide["E"] = wide["E"] * 6.0
    return steps_logits([8, 1, 1, 0, 5, 7, 2, 2, 3, 4], wide)


@test("each token goes through each block's projections once", hidden=True)
def each_token_once():
    counted = random_model(14, vocab_size=10, d_model=8, n_heads=2, n_blocks=2, n_ctx=16)
    for p in counted["blocks"]:
        for name in ("W_q", "W_k", "W_v"):
            p[name] = _counted(p[name])
    ids = generate([1, 2, 3], 9, counted)
    rows = [[int(p[name].rows[0]) for name in ("W_q", "W_k", "W_v")] for p in counted["blocks"]]
    return np.array([len(ids)] + [r for block_rows in rows for r in block_rows])
