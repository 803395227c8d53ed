"""E-mail sent after the answer, in one background thread. A password-reset request must take
as long for an address with an account as for one without; rendering and sending the message
(an SMTP exchange: tens of milliseconds to seconds) would tell them apart. So the request only
queues the message, and this thread renders and sends it, in the request's language."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait

from django.utils import translation

log = logging.getLogger("codeblanks.web")

_worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mail")
_pending: set[Future] = set()
_lock = threading.Lock()


def later(send: Callable[[], None]) -> None:
    """Run ``send`` (render and send one message) after the answer, in the current language."""
    language = translation.get_language()

    def job() -> None:
        try:
            with translation.override(language):
                send()
        except Exception:  # a mail server that is away must not take the thread with it
            log.exception("e-mail could not be sent")

    future = _worker.submit(job)
    with _lock:
        _pending.add(future)
    future.add_done_callback(_done)


def _done(future: Future) -> None:
    with _lock:
        _pending.discard(future)


def wait_sent(timeout: float) -> bool:
    """Wait until every queued message was sent (or failed); False if some still are not after
    ``timeout`` seconds. For tests, and for a node that stops."""
    with _lock:
        waiting = list(_pending)
    _, not_done = wait(waiting, timeout)
    return not not_done
