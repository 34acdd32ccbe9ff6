"""Making an account: the one path for `create` over telnet and `casino account create`.

A new account is a row in the accounts table and a recorded mint of the
starting chips in the ledger, with a key that makes a retry harmless.
"""
from __future__ import annotations

from server.accounts.passwords import Passwords
from server.accounts.store import PLAYER, SERVER, Account, AccountStore
from server.ledger.ledger import Ledger


async def create_account(accounts: AccountStore, ledger: Ledger, passwords: Passwords, name: str,
                         password: str, starting_chips: int, owner: str | None = None) -> Account:
    """Raises NameTaken if the name is in use (ignoring case); `owner` is the
    address asking (a sign-up over the network), held to its share of the
    password-hash pool. Without one the account is made on the server's
    machine (`casino account create`): only such accounts may be operators."""
    origin = PLAYER if owner is not None else SERVER
    account = await accounts.create(name, await passwords.hash(password, owner), origin)
    if starting_chips:
        await ledger.mint(f"start:{account.key}", account.key, starting_chips, "starting chips")
    return account
