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

# Your code here: replace each ____.
scored = ____  # (n - 1, vocab): the rows whose next token is in the text
targets = ____  # (n - 1,): the token that really came after each of those rows
log_probs = ____  # (n - 1, vocab): the log-softmax of each row, computed stably
nll = ____  # (n - 1,): each row's surprise at the true next token
loss = ____  # the cross-entropy of the text
perplexity = np.exp(loss)

print(log_probs.shape, targets)
print(np.round(nll, 3))
print(np.round(loss, 4), np.round(perplexity, 3))
