"""The portal: one process holds every connection, another runs the casino.

`casino serve` starts the portal (server/portal/portal.py), which owns the
telnet and WebSocket edges, and the game process (`casino game`, server/portal/
game.py), which owns sessions, commands, rooms, tables and the ledger. They
speak the small message format of server/portal/protocol.py over a socket pair.
A restart of the game process (an operator's `restart`, `casino restart`, or
its crash) keeps every connection: the portal starts a new game process and
hands it every connection, logged in where it was. docs/architecture.md.
"""
