import numpy as np

# A text of 7 tokens over a vocabulary of 5, and the model's logits for it: row t scores every
# token of the vocabulary as the one that comes after token t.
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

scored = logits[:-1]  # (n - 1, vocab): the rows whose next token is in the text
targets = ids[1:]  # (n - 1,): the token that really came after each of those rows
shifted = scored - np.max(scored, axis=1, keepdims=True)  # each row's largest score becomes 0
log_probs = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))  # log-softmax
nll = -log_probs[np.arange(6), targets]  # each row's surprise at the true next token
loss = nll.mean()  # the cross-entropy of the text
perplexity = np.exp(loss)

print(log_probs.shape, targets)
print(np.round(nll, 3))
print(np.round(loss, 4), np.round(perplexity, 3))
