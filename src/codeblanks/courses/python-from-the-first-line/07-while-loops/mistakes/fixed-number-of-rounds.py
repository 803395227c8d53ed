n = 6
steps = 0
for round in range(20):
    if n == 1:
        break
    if n % 2 == 0:
        n = n // 2
    else:
        n = 3 * n + 1
    steps = steps + 1
    print(n)
print("steps:", steps)
