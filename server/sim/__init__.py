"""Simulators: play strategies against the real rules for many rolls, fast.

`craps` is the bank craps simulator and `strategies` its built-in strategies
(`casino sim`, bench/bench_craps.py). They sit outside server/games because
they read a clock and draw their own dice from a seeded PRNG; the rules they
call (server.games.craps.outcome) stay pure, and nothing in games imports
from here.
"""
