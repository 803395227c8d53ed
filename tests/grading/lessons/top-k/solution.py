import numpy as np

z = np.array([0.5, 3.0, 1.0, 2.5, -1.0, 4.0])

top = np.argsort(-z, kind="stable")[:3]  # the ids of the three largest, largest first
print(top)
