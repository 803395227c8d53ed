"""The node's log: one JSON object per line for machines (log shippers, ``jq``), plain lines for
people at a terminal (``CODEBLANKS_LOG_FORMAT``: auto, json or text).

Every line written while a request is served carries that request's id (``request_id``, set by
requestlog.py from HAProxy's ``X-Request-ID`` or made up), the sandbox's lines included: the run's
worker thread runs in the request's context (sandbox/service.py). A record's ``extra`` dicts
(``request``, ``run``) become members of the JSON object."""

from __future__ import annotations

import contextvars
import datetime
import json
import logging
import sys

from codeblanks.sandbox import remote

request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="")
remote.request_tag = request_id.get  # a worker's run, logged by its parent, keeps the id

_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "color_message"}
# One encoder for every line: ``json.dumps`` with options builds a new one per call.
_JSON = json.JSONEncoder(default=str, ensure_ascii=False)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if rid := request_id.get():
            line["request_id"] = rid
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                line[key] = value
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return _JSON.encode(line)


class TextFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)-7s %(name)s: %(message)s", "%H:%M:%S")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        rid = request_id.get()
        return f"{text}  [{rid}]" if rid else text


def formatter_name(choice: str, stream=None) -> str:
    """``json`` or ``text`` for ``CODEBLANKS_LOG_FORMAT`` (``auto``: text on a terminal)."""
    if choice != "auto":
        return choice
    stream = stream or sys.stderr
    return "text" if hasattr(stream, "isatty") and stream.isatty() else "json"


def logging_config(choice: str) -> dict:
    """Django's ``LOGGING``: our lines at INFO, everyone else's warnings, to stderr."""
    name = formatter_name(choice)
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "json": {"()": JsonFormatter},
            "text": {"()": TextFormatter},
        },
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": name}},
        "root": {"handlers": ["console"], "level": "WARNING"},
        "loggers": {
            "codeblanks": {"level": "INFO"},
            # uvicorn's own start/stop lines in the same format; its access log is ours instead.
            "uvicorn": {"handlers": [], "level": "INFO"},
            "uvicorn.access": {"level": "WARNING"},
        },
    }
