"""The cores this node was given, read once when the sandbox is imported: before the web process
may keep its own threads on one (web/door/cpus.py). The processes it starts for programs
(``zygote_process``, ``inside/namespaces.py``) and for reading them (``workers``) take them all
back, so holding the web process's threads on one core never holds the work beside it."""

from __future__ import annotations

import os

NODE_CPUS = frozenset(os.sched_getaffinity(0))
