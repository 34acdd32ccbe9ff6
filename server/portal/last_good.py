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
    `taken` is the copy made for the start under way, `good` the one that last started."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="casino-last-good-"))
        self.good: Dirs | None = None
        self.taken: Dirs | None = None
        self._copies = 0
        self._lock = threading.Lock()      # each shard's start copies (in a thread of its own)

    def take(self, dirs: Dirs) -> None:
        """Copy `dirs` as they are now, before a game process reads them (blocking: small files)."""
        with self._lock:
            self._take(dirs)

    def _take(self, dirs: Dirs) -> None:
        self._copies += 1
        where = self.root / str(self._copies)
        try:
            copy = (Path(shutil.copytree(dirs[0], where / "config")),
                    Path(shutil.copytree(dirs[1], where / "rooms")))
        except OSError:
            shutil.rmtree(where, ignore_errors=True)
            self.taken = None
            return
        self._drop(self.taken)
        self.taken = copy

    def worked(self) -> None:
        """The start under way is ready: its copy is now the one to go back to."""
        if self.taken is None:
            return
        self._drop(self.good)
        self.good, self.taken = self.taken, None

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
