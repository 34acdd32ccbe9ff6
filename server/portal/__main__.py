"""`python -m server.portal`: the portal, as `casino serve` replaces itself with it
(os.execv: the same pid). Not run by hand: what it serves is in CASINO_PORTAL;
its arguments are those `casino serve` was given, unread (for `ps`).

A fresh interpreter, so the portal holds only what it uses, for as long as the
casino runs: no game, no telnetlib3, no command of `casino`, and no OpenSSL. It
speaks no TLS, so `ssl` is kept out before asyncio (which would load it, 4 MiB
of libssl and libcrypto) is imported.
"""
import sys

sys.modules["ssl"] = None  # type: ignore[assignment]   # import ssl: ModuleNotFoundError, which asyncio expects

from server.portal.main import main  # noqa: E402   (after the line above, on purpose)

sys.exit(main())
