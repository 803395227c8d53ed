item = "coffee"
price = 3.5
quantity = 3

# Print one line of the receipt, such as: coffee: 3 x 3.50 = 10.50
print(f"{item}: {quantity} x {price:.2f} = {price * 3:.2f}")
