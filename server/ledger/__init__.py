"""The chip ledger: double-entry accounts, holds for stakes, group-committed to SQLite.

Promises (docs/ledger.md lists the test that shows each): chips are created
only by a recorded mint; a balance is the sum of its immutable entries; every
hold ends exactly once; an acknowledged settlement survives kill -9; start-up
recovery closes every open hold; no wallet goes below zero.
"""
from server.ledger.check import CheckReport, check
from server.ledger.errors import (
                                  InsufficientFunds,
                                  InvalidOperation,
                                  KeyConflict,
                                  LedgerClosed,
                                  LedgerError,
                                  LedgerUnavailable,
                                  Refused,
                                  UnknownPlayer,
                                  UnknownStake,
)
from server.ledger.ledger import Ledger
from server.ledger.ops import Balance, Movement, Recovered
from server.ledger.stats import PlayerStats, Results

__all__ = [
    "Balance", "CheckReport", "InsufficientFunds", "InvalidOperation", "KeyConflict", "Ledger",
    "LedgerClosed", "LedgerError", "LedgerUnavailable", "Movement", "PlayerStats", "Recovered", "Refused", "Results",
    "UnknownPlayer", "UnknownStake", "check",
]
