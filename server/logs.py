"""One line per event, key=value by default or JSON (`log_format: json`, --log-json).

Log lines are for operators and their tools, so their shape is stable: a
timestamp, level and logger, then `event=NAME` and its fields in the order
given (or one JSON object per line). Values are quoted when they contain
spaces. Passwords are never passed here.
"""
from __future__ import annotations

import json
import logging
import re
import sys
import time


def _value(v: object) -> str:
    s = str(v)
    return json.dumps(s) if (not s or any(c in s for c in ' "=')) else s


class KeyValueFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}"
        fields: dict[str, object] | None = getattr(record, "fields", None)   # event()'s extra
        if fields is not None:
            body = " ".join(f"{k}={_value(v)}" for k, v in fields.items())
        else:
            body = record.getMessage()
        line = f"{stamp} {record.levelname} {record.name} {body}"
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


_PAIR = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\S*)')


def pairs(message: str) -> dict[str, object] | None:
    """A line written as `key=value ...` (a logger's own %-format, `event=... ip=%s`)
    as its fields, each value as the key=value line shows it (quoted ones
    unquoted); None when the message is not only such pairs."""
    found = list(_PAIR.finditer(message))
    if not found or " ".join(m.group(0) for m in found) != message.strip():
        return None
    out: dict[str, object] = {}
    for m in found:
        value = m.group(2)
        if value.startswith('"'):
            try:
                value = json.loads(value)
            except ValueError:
                pass
        out[m.group(1)] = value
    return out


class JsonFormatter(logging.Formatter):
    """One JSON object a line (`log_format: json`, `--log-json`): the timestamp,
    level and logger, then the event's fields as the key=value line has them."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, object] = {"ts": round(record.created, 3), "level": record.levelname, "logger": record.name}
        fields = getattr(record, "fields", None)
        if fields is not None:
            out.update(fields)
        elif (found := pairs(message := record.getMessage())) is not None:
            out.update(found)
        else:
            out["message"] = message
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str)


def configure(level: int = logging.INFO, as_json: bool = False) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if as_json else KeyValueFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # telnetlib3's own chatter ("Connection from ...") is not in our format.
    logging.getLogger("telnetlib3").setLevel(logging.WARNING)


def event(logger: logging.Logger, event_name: str, /, **fields: object) -> None:
    logger.info("event=%s", event_name, extra={"fields": {"event": event_name, **fields}})


def once(seen: set[str], logger: logging.Logger, event_name: str, kind: str, /, *,
         traceback: bool = False, **fields: object) -> bool:
    """An error a client's input caused: logged the first time per connection
    (`seen`, that connection's set) per `kind`, never once a message, so a
    client repeating it cannot fill the log. `traceback`: with the exception
    being handled, that first time only. Returns whether it was logged."""
    if kind in seen:
        return False
    seen.add(kind)
    logger.info("event=%s", event_name, exc_info=traceback,
                extra={"fields": {"event": event_name, "kind": kind, **fields}})
    return True
