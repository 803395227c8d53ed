n = 6
steps = 0
while ____:
    # one step: halve an even n, or turn an odd n into 3 * n + 1

    steps = steps + 1
    print(n)
print("steps:", steps)
