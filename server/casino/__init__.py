"""The casino's services, one idea each, built and wired by server.app.Casino.

- `stores`: the ledger, the accounts and time at the tables, opened and closed;
- `sessions`: every connection from admission to departure (its lines, its
  command rate), and `deadlines`, the login and idle timeouts;
- `tables`: the open tables, found, opened and closed (a room's at once);
- `life`: starting, stopping, restarting and reloading the casino, and the
  `shutdown` countdown; `listeners`, the telnet and browser ports;
- `operators`: who has operator rights, and the grants they make;
- `relief_locks`: one `relief` claim at a time per player;
- `settings`: every setting a running casino takes, applied in one place
  (when it is built, and after every reload);
- `gmcp`: what GMCP clients are told of the casino (Char.Status, Room.Info).
"""
