"""The config a game process last started on, kept so a broken edit cannot close the casino.

`restart` checks config/ and rooms/ before it stops anything, but a file can
still break between that check and the new game process reading it (or a
crash's replacement finds it already broken). Before each start the portal
copies both directories; once that game process is `ready` the copy becomes
the last good one. A start that fails on the files as they are now is tried
again on that copy: the players keep a casino on the configuration that last
worked, and the operator fixes the files and restarts again.
"""
from __future__ import annotations

import shutil
import tempfile
import threading
from pathlib import Path

Dirs = tuple[Path, Path]          # config/ and rooms/


class LastGoodConfig:
    """Copies of config/ and rooms/ under one temporary directory of the portal's:
    `good` is the one that last started; each start under way holds its own copy
    (shards start side by side, each copying in a thread of its own)."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="casino-last-good-"))
        self.good: Dirs | None = None
        self._copies = 0
        self._lock = threading.Lock()

    def take(self, dirs: Dirs) -> Dirs | None:
        """A copy of `dirs` as they are now, before a game process reads them
        (blocking: small files); None if they could not be copied."""
        with self._lock:
            self._copies += 1
            where = self.root / str(self._copies)
        try:
            return (Path(shutil.copytree(dirs[0], where / "config")),
                    Path(shutil.copytree(dirs[1], where / "rooms")))
        except OSError:
            shutil.rmtree(where, ignore_errors=True)
            return None

    def worked(self, copy: Dirs) -> None:
        """The start that took `copy` is ready: it is now the one to go back to."""
        with self._lock:
            old, self.good = self.good, copy
        if old is not None and old != copy:
            self._drop(old)

    def failed(self, copy: Dirs) -> None:
        """The start that took `copy` did not serve: the copy is of no use."""
        self._drop(copy)

    @staticmethod
    def _drop(dirs: Dirs | None) -> None:
        if dirs is not None:
            shutil.rmtree(dirs[0].parent, ignore_errors=True)

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def with_dirs(argv: list[str], dirs: Dirs) -> list[str]:
    """`casino game`'s command line reading `dirs` instead of the ones it names."""
    out = list(argv)
    for option, path in (("--config", dirs[0]), ("--rooms", dirs[1])):
        out[out.index(option) + 1] = str(path)
    return out
