"""The embedded store: SQLite in WAL mode with synchronous=FULL (the default).

The judging and writing are `SQLStore`'s; this opens the file's two
connections and keeps one ledger process per file (an exclusive flock).
"""
from __future__ import annotations

import fcntl
import os
from pathlib import Path

from server.db.connection import SQLITE_DIALECT, connect
from server.db.url import Database
from server.ledger.errors import LedgerError
from server.ledger.mirror import RECENT_KEYS
from server.ledger.schema import migrate
from server.ledger.sql_store import SQLStore

WAL_CHECKPOINT = 4000     # pages (4 KiB each)


class SQLiteStore(SQLStore):
    """The `Store` protocol over one SQLite file."""

    dialect = SQLITE_DIALECT

    def __init__(self, path: str | Path, *, recent_keys: int = RECENT_KEYS) -> None:
        """Open (create, migrate) the file; the mirror keeps the `recent_keys` newest keys."""
        super().__init__(recent_keys)
        self.path = str(path)
        self._lock = _exclusive(self.path + ".lock")
        try:
            db = Database.parse(self.path)
            self._w = connect(db, check_same_thread=False)
            # Checkpoint (copy the WAL into the file, two fsyncs) every WAL_CHECKPOINT pages
            # rather than SQLite's 1000: a batch writes ~100-150 pages, many of them the same
            # hot pages again (house, pending accounts, newest index leaves), so a rarer
            # checkpoint copies far fewer pages per commit. Durability is the WAL's fsync at
            # every COMMIT either way; the WAL file grows to about 16 MB and is then reused.
            self._w.execute(f"PRAGMA wal_autocheckpoint = {WAL_CHECKPOINT}")
            migrate(self._w)
            self._r = connect(db, check_same_thread=False)
            self._load()
        except BaseException:
            os.close(self._lock)
            raise

    def close(self) -> None:
        self._r.close()
        self._w.close()
        os.close(self._lock)


def _exclusive(lock_path: str) -> int:
    """One ledger process per file: a second one's start-up recovery would refund the
    first one's live stakes. The kernel drops the lock when the process dies (kill -9
    included), so a crash never leaves the file locked."""
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise LedgerError(f"{lock_path} is held: another process has this ledger open") from None
    return fd
