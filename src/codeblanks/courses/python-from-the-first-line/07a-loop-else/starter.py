n = 91

# Print the smallest factor of n above 1, as: 91 = 7 x 13
# or, when there is none: 97 is prime
____
