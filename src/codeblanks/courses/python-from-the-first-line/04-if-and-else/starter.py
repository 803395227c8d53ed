def ticket(age):
    """The price of a ticket for someone of this age."""
    if ____:
        return 5
    elif ____:
        return 7
    else:
        return 10


print(ticket(30))
