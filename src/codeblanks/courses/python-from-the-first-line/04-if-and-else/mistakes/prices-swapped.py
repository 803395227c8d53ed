def ticket(age):
    """The price of a ticket for someone of this age."""
    if age >= 65:
        return 5
    elif age < 12:
        return 7
    else:
        return 10


print(ticket(30))
