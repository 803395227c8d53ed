n = 6
steps = 0
while n != 1:
    # bir adım: çift n'yi yarıla, tek n'yi 3 * n + 1 yap
    if n % 2 == 0:
        n = n // 2
    else:
        n = 3 * n + 1
    steps = steps + 1
    print(n)
print("steps:", steps)
