"""A multiplayer MUD-style telnet casino.

Games are pure state machines (server.games); I/O lives at the edges
(server.net for telnet, server.ledger for chips); one manager clock drives time.
"""
