"""Argon2id password hashing, run off the event loop.

Argon2id is memory-hard (64 MiB per hash by default), which is the point and
also why a hash takes tens of milliseconds: it runs in a worker thread so the
event loop keeps serving everyone else. Passwords are never logged or stored.
"""
from __future__ import annotations

import asyncio

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_hasher = PasswordHasher()   # argon2-cffi defaults: Argon2id, t=3, m=64 MiB, p=4

MIN_PASSWORD = 6
MAX_PASSWORD = 128


def password_problem(password: str) -> str | None:
    if len(password) < MIN_PASSWORD:
        return f"Passwords need at least {MIN_PASSWORD} characters."
    if len(password) > MAX_PASSWORD:
        return f"Passwords have at most {MAX_PASSWORD} characters."
    return None


async def hash_password(password: str) -> str:
    return await asyncio.to_thread(_hasher.hash, password)


def _verify(stored: str, password: str) -> bool:
    try:
        return _hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


async def verify_password(stored: str, password: str) -> bool:
    return await asyncio.to_thread(_verify, stored, password)
