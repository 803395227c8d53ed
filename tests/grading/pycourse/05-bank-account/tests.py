from lessontest import raises, test


@test("a new account is empty")
def new():
    return BankAccount().balance


@test("a deposit")
def deposit():
    account = BankAccount()
    account.deposit(100)
    return account.balance


@test("a deposit and a withdrawal")
def both():
    account = BankAccount()
    account.deposit(100)
    account.withdraw(30)
    return account.balance


@test("two accounts", hidden=True)
def two():
    first, second = BankAccount(), BankAccount()
    first.deposit(10)
    second.deposit(25)
    return [first.balance, second.balance]


@test("no withdrawal beyond the balance")
def overdraw():
    account = BankAccount()
    account.deposit(5)
    with raises(ValueError, message="amount must be less than balance"):
        account.withdraw(6)


@test("no negative deposit", hidden=True)
def negative():
    with raises(ValueError, message="amount must be greater than 0"):
        BankAccount().deposit(-1)
