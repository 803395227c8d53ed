def ticket(age):
    """Bu yaştaki birinin bilet fiyatı."""
    if ____:
        return 5
    elif ____:
        return 7
    else:
        return 10


print(ticket(30))
