n = 6
steps = 0
while n != 1:
    if n % 2 == 1:
        n = n // 2
    else:
        n = 3 * n + 1
    steps = steps + 1
    print(n)
print("steps:", steps)
