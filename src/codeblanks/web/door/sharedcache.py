"""The node's one in-memory cache, for the web workers of ``codeblanks serve --workers N`` on
SQLite without Redis: what each worker asks of Django's cache (rate limits, runs at once, LTI
nonces, the daily expiry's turn) is done by the parent on its own ``LocMemCache``, over the
node's socket (workers.py). So the counts are the node's, as Redis makes them a cluster's, and
``incr`` stays atomic: the parent's cache does it under its lock.

    CACHES["default"] = {"BACKEND": "codeblanks.web.door.sharedcache.SharedCache",
                         "LOCATION": <the node's socket>}

Calls and values cross as pickle, as Django's own caches keep their values: only this user's
processes can reach the socket (a private folder, the peer's uid checked). A call the parent
cannot answer raises, and the callers treat it as a cache that is away (outages.cache_gap).
"""

from __future__ import annotations

import base64
import pickle
import socket
import threading
from collections.abc import Callable
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache

from codeblanks.sandbox import remote


class SharedCache(BaseCache):
    """A Django cache backend whose every call is made by the node's parent process."""

    def __init__(self, location: str, params: dict) -> None:
        super().__init__(params)
        self.path = location
        self._local = threading.local()  # one connection per thread, kept

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        if kwargs.get("timeout") is DEFAULT_TIMEOUT:
            del kwargs["timeout"]  # the parent's own default (the sentinel does not cross)
        blob = base64.b64encode(pickle.dumps((name, args, kwargs))).decode("ascii")
        for attempt in (1, 2):  # a kept connection the parent closed: once more, afresh
            sock = self._connection()
            try:
                remote.send(sock, {"op": "cache", "call": blob})
                answer = remote.receive(sock)
                break
            except (OSError, ConnectionError):
                self._drop()
                if attempt == 2:
                    raise
        ok, value = pickle.loads(base64.b64decode(answer["answer"]))
        if not ok:
            raise value
        return value

    def _connection(self) -> socket.socket:
        sock = getattr(self._local, "sock", None)
        if sock is None:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(5)
            sock.connect(self.path)
            self._local.sock = sock
        return sock

    def _drop(self) -> None:
        sock = getattr(self._local, "sock", None)
        self._local.sock = None
        if sock is not None:
            sock.close()

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("add", key, value, timeout=timeout, version=version)

    def get(self, key, default=None, version=None):
        return self._call("get", key, default, version=version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        self._call("set", key, value, timeout=timeout, version=version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("touch", key, timeout=timeout, version=version)

    def delete(self, key, version=None):
        return self._call("delete", key, version=version)

    def has_key(self, key, version=None):
        return self._call("has_key", key, version=version)

    def incr(self, key, delta=1, version=None):
        return self._call("incr", key, delta, version=version)

    def clear(self):
        self._call("clear")

    def update(self, change: Callable[..., Any], *args: Any) -> Any:
        """``change(cache, *args)`` made by the parent on its cache, in one call: a
        read-modify-write no other worker's call can split (``change`` is a module-level
        function, sent by name)."""
        return self._call("update", change, *args)

    def close(self, **kwargs):
        """Kept open between requests: Django closes caches after each one."""


def answer(cache: BaseCache, message: dict[str, Any]) -> dict[str, Any]:
    """The parent's side of one call on its ``cache``: the answer, or the error raised."""
    name, args, kwargs = pickle.loads(base64.b64decode(message["call"]))
    try:
        if name == "update":
            change, *rest = args
            result = (True, change(cache, *rest))
        elif name in _CALLS:
            result = (True, getattr(cache, name)(*args, **kwargs))
        else:
            result = (False, ValueError(f"no cache call {name!r}"))
    except Exception as error:
        result = (False, error)
    return {"answer": base64.b64encode(pickle.dumps(result)).decode("ascii")}


_CALLS = frozenset({"add", "get", "set", "touch", "delete", "has_key", "incr", "clear"})
