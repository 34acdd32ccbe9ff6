"""The bus: the words that cross shards, on a NATS broker (server/bus/bus.py)."""
