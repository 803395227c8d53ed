def ticket(age):
    """Bu yaştaki birinin bilet fiyatı."""
    if age < 12:
        return 5
    elif age >= 65:
        return 7
    else:
        return 10


print(ticket(30))
