"""The settings a running casino takes without a restart, applied in one
place: when the casino is built, and after every reload (server.reload)."""
from __future__ import annotations

import dataclasses
from typing import Protocol

from server.accounts.passwords import Passwords
from server.config.model import CasinoConfig, Settings
from server.net.throttle import ConnectionCounter, CreationLimit, LoginThrottle

from server.casino.deadlines import SessionClock
from server.casino.operators import Operators

# Read once, when the casino starts: a reload that changes one says it needs a restart.
RESTART_ONLY = ("host", "port", "web_port", "tick_hz", "connect_maxwait", "database", "metrics", "log_format")


class Configured(Protocol):
    """What the settings reach in the casino (server.app.Casino): the config
    they are read from, and each service that takes some of them."""

    @property
    def config(self) -> CasinoConfig: ...
    @property
    def rights(self) -> Operators: ...              # operators:
    @property
    def passwords(self) -> Passwords: ...           # password_hash and the hash limits
    @property
    def connections(self) -> ConnectionCounter: ...  # the four connection caps
    @property
    def login_failures(self) -> LoginThrottle: ...
    @property
    def creations(self) -> CreationLimit: ...        # sign-ups per address
    @property
    def session_clock(self) -> SessionClock: ...     # login and idle timeouts


def apply_settings(app: Configured) -> None:
    """Every setting that takes effect without a restart, from `app.config`,
    given to what uses it. The command rate (`commands_per_second`) is each
    session's own from its connection on; the rest apply now, to everyone."""
    settings = app.config.settings
    app.rights.configure(settings.operators)
    limits = settings.limits
    app.connections.configure(limits)
    app.login_failures.free = limits.failed_logins_per_minute
    app.login_failures.max_wait = limits.login_delay_max
    app.creations.limit = limits.accounts_per_ip_per_hour
    app.passwords.configure(settings)
    app.session_clock.configure(limits)


def keep_restart_only(running: Settings, read: Settings) -> tuple[Settings, list[str]]:
    """The settings to run by after a reload: those `read`, but for the ones
    only a restart applies, kept as `running` has them; and which of those
    the files changed."""
    kept = {name: getattr(running, name) for name in RESTART_ONLY}
    changed = [name for name in RESTART_ONLY if getattr(read, name) != kept[name]]
    return dataclasses.replace(read, **kept), changed
