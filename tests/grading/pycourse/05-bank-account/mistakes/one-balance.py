class BankAccount:
    """An account that refuses to go below 0."""

    def __init__(self):
        BankAccount._balance = 0

    @property
    def balance(self):
        return BankAccount._balance

    def deposit(self, amount):
        if amount <= 0:
            raise ValueError("amount must be greater than 0")
        BankAccount._balance += amount

    def withdraw(self, amount):
        if amount <= 0:
            raise ValueError("amount must be greater than 0")
        if amount > BankAccount._balance:
            raise ValueError("amount must be less than balance")
        BankAccount._balance -= amount
