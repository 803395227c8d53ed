first = "Ada"
second = "Grace"
print(first, second)

# Swap the two names: `first` gets the second name, `second` the first.
keep = first
first = second
second = first
print(first, second)
