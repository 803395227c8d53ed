minutes = 135

# How many whole hours are in `minutes`, and how many minutes are left over?
hours = round(minutes / 60)
rest = minutes % 60
print(hours, rest)

# The same time in hours, as a decimal number.
print(minutes / 60)
