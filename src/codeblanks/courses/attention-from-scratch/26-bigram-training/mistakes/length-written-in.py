import numpy as np

# The characters of the tokens lesson, a text written with them, and a bigram model: row a of W
# holds the logits of the character that comes after character a. It starts knowing nothing.
chars = [" ", "a", "c", "e", "h", "m", "n", "o", "s", "t"]
text = "the cat sat on the mat"
ids = np.array([chars.index(c) for c in text])
inputs, targets = ids[:-1], ids[1:]  # each character, and the one that came after it
W = np.zeros((len(chars), len(chars)))
rate = 2.0  # the learning rate: how far each step goes


def loss_and_gradient(W, inputs, targets):
    """The cross-entropy of the next character, and its gradient with respect to W."""
    n = len(targets)
    logits = W[inputs]  # (n, V): row t holds the logits after character t
    shifted = logits - np.max(logits, axis=1, keepdims=True)
    probs = np.exp(shifted) / np.sum(np.exp(shifted), axis=1, keepdims=True)
    loss = -np.mean(np.log(probs[np.arange(n), targets]))
    d_logits = (probs - np.eye(len(W))[targets]) / 21  # (n, V): how the loss moves with each logit
    grad = np.eye(len(W))[inputs].T @ d_logits  # each row of W collects the rows that used it
    return loss, grad


losses = []
for step in range(60):
    loss, grad = loss_and_gradient(W, inputs, targets)
    losses.append(float(loss))
    W = W - rate * grad  # one step downhill

print(np.round(losses[::10], 3))
print(np.round(losses[-1], 3), losses[-1] < losses[0])
