"""Where the casino keeps its durable data: an SQLite file or a PostgreSQL server.

`Database.parse` reads the operator's URL (`server.database`, `--database`);
`connect` opens a connection with the same small interface on both (the
`Conn` protocol, sqlite3's shape), so the ledger and the accounts write their
SQL once. `Dialect` is the one table of what differs between the two.

Imported from their modules (server.db.url, server.db.connection): reading a
URL loads no sqlite3 (the portal reads the settings and opens no database).
"""
