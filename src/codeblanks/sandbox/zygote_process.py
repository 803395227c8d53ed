"""The zygote as the trusted side sees it: the process we launch (through ``inside/namespaces.py``),
its control socket, and its stderr, which is logged.

On the trusted side only this module starts a process (the launcher); the zygote forks the rest.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import selectors
import socket
import subprocess
import sys
import sysconfig

from codeblanks.sandbox import layout
from codeblanks.sandbox.cgroups import Cgroups
from codeblanks.sandbox.config import SandboxConfig
from codeblanks.sandbox.cores import NODE_CPUS
from codeblanks.sandbox.inside import wire
from codeblanks.sandbox.preflight import SandboxUnavailable
from codeblanks.sandbox.spare import Spare

log = logging.getLogger("codeblanks.sandbox")

# The trust boundary: the only folder of ours the sandbox sees (as /opt/codeblanks).
INSIDE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "inside")
LIBRARIES = "/opt/site-packages"  # where the libraries the zygote imports appear inside
START_TIMEOUT_S = 60.0


def _site_packages() -> list[str]:
    """Unsafe mode only (no isolation): the zygote imports from the real site-packages."""
    paths = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    return sorted(p for p in paths if os.path.isdir(p))


class ZygoteProcess:
    """One zygote at a time: ``launch`` starts it, ``died`` (or ``close``) ends it. Its control
    socket and stderr are registered in the I/O thread's selector as "ctl" and "stderr"."""

    def __init__(
        self,
        config: SandboxConfig,
        filters: tuple[bytes, bytes],
        cgroups: Cgroups | None,
        sel: selectors.BaseSelector,
    ) -> None:
        self.config = config
        self.filters = filters
        self.cgroups = cgroups
        self.sel = sel
        self.proc: subprocess.Popen[bytes] | None = None
        self.ctl: socket.socket | None = None

    def _configs(self, ctl_fd: int) -> tuple[dict[str, object], dict[str, object]]:
        """What the launcher and the zygote are told, as JSON on their command line."""
        python = os.path.realpath(sys._base_executable)  # type: ignore[attr-defined]
        zygote_cfg = {
            "isolate": not self.config.unsafe,
            # Inside, the libraries it needs appear under a neutral name: tracebacks and listings
            # do not reveal where the project lives on the host.
            "site_packages": [LIBRARIES] if not self.config.unsafe else _site_packages(),
            "modules": list(self.config.modules),
            "zygote_bpf": self.filters[0].hex(),
            "child_bpf": self.filters[1].hex(),
            "disk_kib": self.config.disk_kib,
        }
        launcher_cfg = {
            "isolate": not self.config.unsafe,
            "python": python,
            "python_prefix": sys.base_prefix,
            # Only these of any site-packages (never CodeBlanks and its courses); every folder of
            # installed packages under /usr or the interpreter's prefix is covered (layout.py).
            "libraries": layout.libraries(self.config.modules),
            "hidden": layout.hidden(),
            "libraries_dir": LIBRARIES,
            "pkg_dir": INSIDE_DIR,
            "ctl_fd": ctl_fd,
            "cgroup_procs": self.cgroups.procs_files() if self.cgroups else [],
            "cpus": sorted(NODE_CPUS),
        }
        return launcher_cfg, zygote_cfg

    def launch(self) -> None:
        """Start a zygote and wait for READY; raise SandboxUnavailable with its words if not."""
        ctl, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        launcher_cfg, zygote_cfg = self._configs(theirs.fileno())
        python = str(launcher_cfg["python"])
        proc = subprocess.Popen(
            [python, "-I", "-S", "-B", os.path.join(INSIDE_DIR, "namespaces.py"),
             json.dumps(launcher_cfg), json.dumps(zygote_cfg)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            pass_fds=(theirs.fileno(),),
            env={},  # the web process's environment (secrets) never reaches the sandbox
            cwd="/",
            # Its own session: a Ctrl+C meant for the server must not kill the sandbox under the
            # runs still in flight; it ends when the server closes it or its control socket.
            start_new_session=True,
        )  # fmt: skip
        theirs.close()
        ctl.settimeout(START_TIMEOUT_S)
        try:
            msg = ctl.recv(4096)
        except (TimeoutError, OSError):
            msg = b""
        if not msg.startswith(wire.READY):
            proc.kill()
            err = proc.stderr.read().decode(errors="replace").strip() if proc.stderr else ""
            proc.wait()
            ctl.close()
            raise SandboxUnavailable(
                "the sandbox could not start"
                + (f": {err.splitlines()[-1]}" if err else " (no reason given)")
                + ". It needs Linux namespaces, seccomp and root; see docs/sandbox.md."
                + (f"\n{err}" if err else "")
            )
        info = json.loads(msg[len(wire.READY) :] or b"{}")
        ctl.settimeout(None)
        ctl.setblocking(False)
        log.info("sandbox zygote ready: %s", info)
        self.proc, self.ctl = proc, ctl
        self.sel.register(ctl, selectors.EVENT_READ, "ctl")
        if proc.stderr is not None:
            os.set_blocking(proc.stderr.fileno(), False)
            self.sel.register(proc.stderr, selectors.EVENT_READ, "stderr")

    def spawn(self, child_id: str, uid: int, generation: int, warm: bool) -> Spare | None:
        """Ask for a child (``wire.SPAWN``) with its pipes and channel; None if the zygote
        cannot be told."""
        code_r, code_w = os.pipe2(os.O_CLOEXEC)
        out_r, out_w = os.pipe2(os.O_CLOEXEC)
        err_r, err_w = os.pipe2(os.O_CLOEXEC)
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        spare = Spare(child_id, uid, generation, code_w, out_r, err_r, mine)
        try:
            assert self.ctl is not None
            self.ctl.setblocking(True)
            wire.send_fds(
                self.ctl,
                b"%s %s %d %d" % (wire.SPAWN, child_id.encode(), uid, warm),
                [code_r, out_w, err_w, theirs.fileno()],
            )
            self.ctl.setblocking(False)
        except OSError:
            spare.close()
            return None
        finally:
            for fd in (code_r, out_w, err_w):
                os.close(fd)
            theirs.close()
        mine.setblocking(False)
        return spare

    def receive(self) -> bytes | None:
        """The next control message, None if none is waiting, ``b""`` once the zygote is gone."""
        assert self.ctl is not None
        try:
            return self.ctl.recv(4096)
        except BlockingIOError:
            return None
        except OSError:
            return b""

    def on_stderr(self, stream: io.BufferedReader) -> None:
        """Log what the zygote wrote; stop watching at EOF."""
        try:
            data = os.read(stream.fileno(), 65536)
        except BlockingIOError:
            return
        except (OSError, ValueError):
            data = b""
        if data:
            for line in data.decode(errors="replace").splitlines():
                log.warning("zygote: %s", line)
        else:
            with contextlib.suppress(KeyError, ValueError):
                self.sel.unregister(stream)

    def died(self) -> None:
        """It died (or must go): unwatch, close and reap it."""
        for obj in (self.ctl, self.proc.stderr if self.proc else None):
            if obj is not None:
                with contextlib.suppress(KeyError, ValueError):
                    self.sel.unregister(obj)
        if self.ctl is not None:
            self.ctl.close()
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            if self.proc.stderr:
                self.proc.stderr.close()
        self.proc = self.ctl = None

    def close(self) -> None:
        """The end: EOF on its control socket, so that the zygote (PID 1) exits and takes every
        child with it; killed if it takes over 5 s."""
        if self.ctl is not None:
            self.ctl.close()
        if self.proc is not None:
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            if self.proc.stderr:
                self.proc.stderr.close()
