a = input()
b = input()

# a and b hold text. Print their sum as: 12 + 30 = 42
# then how the two numbers compare: 12 < 30 (or 45 > 8, or 7 = 7)
____
