"""The database an operator names: `sqlite:///data/casino.db` or `postgresql://...`.

A bare path (the older `--data FILE`) means an SQLite file, so every earlier
command line keeps working. The URL's password is never shown: `shown` is what
logs and messages print.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

DEFAULT = "sqlite:///data/casino.db"
SQLITE, POSTGRES = "sqlite", "postgresql"


class DatabaseError(ValueError):
    """A database URL that names nothing we can open; the message is one line."""


@dataclass(frozen=True)
class Database:
    kind: str            # SQLITE or POSTGRES
    url: str             # as given (PostgreSQL: handed to the driver as is)
    path: Path | None    # the SQLite file; None for PostgreSQL

    @classmethod
    def parse(cls, text: str | Path) -> Database:
        """`sqlite:///relative/file.db`, `sqlite:////absolute/file.db`, a bare
        path, or `postgresql://user:password@host:port/dbname` (also `postgres://`)."""
        s = str(text).strip()
        if not s:
            raise DatabaseError("the database URL is empty")
        if s.startswith("sqlite:"):
            rest = s[len("sqlite:"):]
            if not rest.startswith("//"):
                raise DatabaseError(f"{s!r}: an SQLite URL reads sqlite:///path/to/file.db")
            path = rest[2:]
            if path.startswith("/"):
                path = path[1:]          # sqlite:///rel -> rel; sqlite:////abs -> /abs
            if not path:
                raise DatabaseError(f"{s!r}: the SQLite URL names no file")
            return cls(SQLITE, s, Path(path))
        if s.startswith(("postgresql://", "postgres://")):
            parts = urlsplit(s)
            if not parts.path.strip("/"):
                raise DatabaseError(f"{shown(s)!r}: name the database, as in postgresql://host/casino")
            return cls(POSTGRES, s, None)
        if "://" in s:
            raise DatabaseError(f"{s.split('://')[0]!r} is not a database we support:"
                                f" use sqlite:///path/to/file.db or postgresql://host/dbname")
        return cls(SQLITE, f"sqlite:///{s}", Path(s))

    @property
    def shown(self) -> str:
        """The URL with any password replaced by ***: safe for logs and screens."""
        return shown(self.url)

    def __str__(self) -> str:
        return self.shown

    def problem(self, exc: BaseException) -> str:
        """Why `exc` stopped us using this database, as one line for an operator's
        screen: the first line of the driver's message (libpq adds hints on
        further lines), naming the database, any password replaced by ***."""
        lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
        text = lines[0] if lines else type(exc).__name__
        password = urlsplit(self.url).password
        if password:
            for secret in {password, unquote(password)}:
                text = text.replace(secret, "***")
        return text if self.shown in text else f"{self.shown}: {text}"


def shown(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[1]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))
