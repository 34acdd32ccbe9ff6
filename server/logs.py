"""One line per event, key=value by default or JSON with --log-json.

Log lines are for operators and their tools, so their shape is stable: an
`event=` first, then fields in the order given. Values are quoted when they
contain spaces; passwords are never passed here.
"""
from __future__ import annotations

import json
import logging
import sys

_json = False


def configure(level: int = logging.INFO, as_json: bool = False) -> None:
    global _json
    _json = as_json
    logging.basicConfig(level=level, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s %(message)s")


def _value(v: object) -> str:
    s = str(v)
    return json.dumps(s) if (not s or any(c in s for c in " \"=")) else s


def event(logger: logging.Logger, event_name: str, /, **fields: object) -> None:
    if _json:
        logger.info(json.dumps({"event": event_name, **{k: v for k, v in fields.items()}}, default=str))
    else:
        logger.info(" ".join([f"event={event_name}", *(f"{k}={_value(v)}" for k, v in fields.items())]))
