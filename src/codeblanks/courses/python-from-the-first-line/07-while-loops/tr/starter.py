n = 6
steps = 0
while ____:
    # bir adım: çift n'yi yarıla, tek n'yi 3 * n + 1 yap

    steps = steps + 1
    print(n)
print("steps:", steps)
