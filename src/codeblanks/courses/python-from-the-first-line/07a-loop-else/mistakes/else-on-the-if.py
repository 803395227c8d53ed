n = 91

# Print the smallest factor of n above 1, as: 91 = 7 x 13
# or, when there is none: 97 is prime
for d in range(2, n):
    if n % d == 0:
        print(f"{n} = {d} x {n // d}")
        break
    else:
        print(f"{n} is prime")
