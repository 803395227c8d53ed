import numpy as np

# Values of every kind, each computed from X.
X = np.array([3.0, -1.0, 2.0, 5.0])
positive = bool((X > 0).all())
top = float(X.max())
order = [int(i) for i in np.argsort(X)]
label = "largest at index " + str(int(X.argmax()))
counts = {"positive": int((X > 0).sum()), "negative": int((X < 0).sum())}
signs = X > 0
print("done")
