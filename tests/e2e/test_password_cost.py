"""Password hashes: the configured Argon2id cost for new accounts, and a hash
made with older parameters re-made at its owner's next login."""
from __future__ import annotations

from argon2 import PasswordHasher

from support.telnet import login


async def test_new_hashes_use_the_configured_cost_and_old_ones_are_upgraded_at_login(casino, connect):
    ann = await connect()
    await login(ann, "ann", "secret123")
    made = (await casino.accounts.get("ann")).pwhash
    assert made.startswith("$argon2id$") and "m=19456,t=2,p=1" in made
    # A player from before: their hash has RFC 9106's second option (the old default).
    old = PasswordHasher(time_cost=3, memory_cost=65536, parallelism=4).hash("hunter22")
    await casino.accounts.create("Boris", old)
    bo = await connect()
    assert "Wrong name or password." in await login(bo, "Boris", "wrong-one", create=False)
    assert (await casino.accounts.get("boris")).pwhash == old        # a failed login changes nothing
    text = await bo.cmd("connect Boris hunter22")
    assert "You have" in text
    upgraded = (await casino.accounts.get("boris")).pwhash
    assert upgraded != old and "m=19456,t=2,p=1" in upgraded
    assert PasswordHasher().verify(upgraded, "hunter22")
