import unittest

from account import BankAccount


class BankAccountTest(unittest.TestCase):
    def test_new(self):
        self.assertEqual(BankAccount().balance, 0)

    def test_deposit(self):
        account = BankAccount()
        account.deposit(100)
        self.assertEqual(account.balance, 100)

    def test_deposit_and_withdrawal(self):
        account = BankAccount()
        account.deposit(100)
        account.withdraw(30)
        self.assertEqual(account.balance, 70)

    def test_two_accounts(self):
        first, second = BankAccount(), BankAccount()
        first.deposit(10)
        second.deposit(25)
        self.assertEqual([first.balance, second.balance], [10, 25])

    def test_overdraw(self):
        account = BankAccount()
        account.deposit(5)
        with self.assertRaises(ValueError) as err:
            account.withdraw(6)
        self.assertEqual(err.exception.args[0], "amount must be less than balance")

    def test_negative_deposit(self):
        with self.assertRaises(ValueError) as err:
            BankAccount().deposit(-1)
        self.assertEqual(err.exception.args[0], "amount must be greater than 0")
