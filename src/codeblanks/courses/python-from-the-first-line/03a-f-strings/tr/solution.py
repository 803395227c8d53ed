item = "coffee"
price = 3.5
quantity = 3

# Fişin bir satırını yazdır, örneğin: coffee: 3 x 3.50 = 10.50
print(f"{item}: {quantity} x {price:.2f} = {price * quantity:.2f}")
