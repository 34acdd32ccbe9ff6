"""Puts this folder on sys.path so the tests can import roulette_helpers
(pytest runs with --import-mode=importlib)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
