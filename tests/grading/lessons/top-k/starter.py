import numpy as np

z = np.array([0.5, 3.0, 1.0, 2.5, -1.0, 4.0])

top = ____
print(top)
