"""A pre-forked child as the supervisor sees it: its fds, its pidfd, and how it ended."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import threading
from dataclasses import dataclass, field

from codeblanks.sandbox.cgroups import RunGroup, pid_of


@dataclass(eq=False)
class Spare:
    id: str
    uid: int
    generation: int
    code_w: int
    out_r: int
    err_r: int
    chan: socket.socket
    pidfd: int = -1
    pid: int | None = None  # in our namespace, read from the pidfd at HELLO (demotion)
    exited: threading.Event = field(default_factory=threading.Event)
    wait_status: int | None = None
    cpu_ms: int = 0
    zygote_died: bool = False
    group: RunGroup | None = None  # its memory group, where cgroups are available

    def said_hello(self, pidfd: int) -> None:
        """It is locked down and warm, and sent its pidfd: we kill and read it through that."""
        self.pidfd = pidfd
        self.pid = pid_of(pidfd)
        self.chan.setblocking(False)

    def kill(self) -> None:
        """SIGKILL through the pidfd: never hits a recycled pid."""
        if self.pidfd >= 0:
            with contextlib.suppress(ProcessLookupError, OSError):
                signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)

    def close(self) -> None:
        for fd in (self.code_w, self.out_r, self.err_r, self.pidfd):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.code_w = self.out_r = self.err_r = self.pidfd = -1
        self.chan.close()
