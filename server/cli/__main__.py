"""`python -m server.cli ...` is the `casino` command."""
import sys

from server.cli import main

sys.exit(main())
