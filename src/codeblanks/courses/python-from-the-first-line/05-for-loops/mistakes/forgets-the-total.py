n = 4

# Print each whole number from 1 to n with its square, and add the squares up.
total = 0
for i in range(1, n + 1):
    print(i, i * i)
    total = i * i
print(total)
