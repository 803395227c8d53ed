"""The zygote: a long-lived, locked-down fork-server that runs INSIDE the sandbox.

Started once by ``namespaces.py`` as PID 1 of its own PID namespace, with an empty environment and
the minimal read-only root (``python -I -S -B /opt/codeblanks/zygote.py CONFIG_JSON``). It imports
NumPy (and the configured modules) once, freezes that heap, drops to the few capabilities it needs,
loads the seccomp deny-list, and then only ever forks spare children on request. It never sees a
learner's code or output, and holds no secrets: everything in its memory is readable by every child.

Wire protocol
=============

Control channel: fd 3, an AF_UNIX SOCK_SEQPACKET socket to the supervisor (one message each).

    zygote -> supervisor   b"READY" + JSON {"pid": ..., "numpy": version}
                           once, after the preloads and lock-down.
    supervisor -> zygote   b"SPAWN <child id> <uid> <warm>" + SCM_RIGHTS[code_r, out_w, err_w,
                           chan]: fork a spare for that uid; <warm> 1 to run the warm-up in it,
                           0 not to. The four fds are the child's; the zygote
                           closes its copies right after fork and never reads or writes them.
    zygote -> supervisor   b"EXIT <child id> <wait status> <cpu ms>"
                           the child has been reaped (its uid may be reused).
    EOF from the supervisor: the zygote exits; being PID 1, its death kills every child.

Child channel: ``chan`` (a SOCK_STREAM socket; fd 4 in the child) straight to the supervisor.

    child -> supervisor    b"H" + SCM_RIGHTS[pidfd of the child]
                           the spare is locked down and warm; the supervisor kills through it.
    supervisor -> child    on code_r (fd 3 in the child): one JSON line
                           {"filename", "limits", "capture"}, the program's UTF-8 text, then EOF.
    child -> supervisor    stdout on fd 1 and stderr on fd 2 (pipes), closed when the program ends;
                           then b"D" + u32 length + JSON {"status", "kind", "values": [[name, kind,
                           size], ...]} + the values' bytes (.npy for numbers, UTF-8 repr else).
    The supervisor SIGKILLs the child (pidfd) after DONE, at the wall limit, or when a stream
    passes its cap; a crash shows as EOF without DONE, and its status comes from EXIT.
"""

from __future__ import annotations

import gc
import json
import os
import resource
import selectors
import shutil
import signal
import socket
import sys
import tempfile
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import contextlib

import kernel  # noqa: E402
import runner  # noqa: E402
import wire  # noqa: E402

TYPE_CHECKING = False  # what mypy reads as True: typing is never imported in the sandbox
if TYPE_CHECKING:
    from typing import Any

CTL_FD = 3
KEEP_CAPS = {kernel.CAP_SETUID, kernel.CAP_SETGID, kernel.CAP_SYS_ADMIN}


def log(message: str) -> None:
    sys.stderr.write(f"codeblanks zygote: {message}\n")
    sys.stderr.flush()


class Zygote:
    def __init__(self, cfg: dict[str, Any]) -> None:
        self.cfg = cfg
        self.isolate = cfg["isolate"]
        self.child_seccomp = kernel.Seccomp(bytes.fromhex(cfg["child_bpf"]))
        self.tmp_options = b"size=%dk,nr_inodes=512,mode=0700" % cfg["disk_kib"] + b",uid=%d,gid=%d"
        self.ctl = socket.socket(fileno=CTL_FD)
        self.children: dict[int, str] = {}
        self.run_dirs: dict[int, str] = {}
        self.wake_r, self.wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)

    def start(self) -> None:
        for path in self.cfg["site_packages"]:
            sys.path.append(path)
        # One BLAS thread: otherwise OpenBLAS starts a thread per core and reserves address space
        # for each, which trips RLIMIT_AS on big hosts (numpy issues 17980, 18141).
        for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            os.environ[var] = "1"
        os.environ["HOME"] = "/tmp"
        info = runner.preload(self.cfg["modules"])
        # Inherited by every child, so set once here: no core files (could fill the run dir or
        # leak memory), no locked memory, no POSIX message queues, and no nice below 20 - 0, so
        # a run demoted to SCHED_IDLE by the supervisor (short jobs first) cannot switch back.
        # The zygote needs none of them either.
        for lim in (resource.RLIMIT_CORE, resource.RLIMIT_MEMLOCK, resource.RLIMIT_MSGQUEUE,
                    resource.RLIMIT_NICE):  # fmt: skip
            resource.setrlimit(lim, (0, 0))
        gc.collect()
        gc.freeze()  # keep the shared heap out of every child's GC passes (no COW faults)
        if self.isolate:
            kernel.keep_only_capabilities(KEEP_CAPS)
            kernel.load_seccomp(bytes.fromhex(self.cfg["zygote_bpf"]))
        signal.signal(signal.SIGCHLD, lambda *_: None)
        signal.set_wakeup_fd(self.wake_w)
        self.ctl.send(wire.READY + json.dumps({"pid": os.getpid(), **info}).encode())

    def serve(self) -> None:
        sel = selectors.DefaultSelector()
        sel.register(self.ctl, selectors.EVENT_READ)
        sel.register(self.wake_r, selectors.EVENT_READ)
        while True:
            for key, _ in sel.select():
                if key.fileobj is self.ctl:
                    self.on_message()
                else:
                    try:
                        while os.read(self.wake_r, 512):
                            pass
                    except BlockingIOError:
                        pass
                    self.reap()

    def on_message(self) -> None:
        try:
            msg, fds = wire.recv_fds(self.ctl, 256, wire.FD_COUNT)
        except ConnectionError:
            msg, fds = b"", []
        if not msg:
            self.shutdown()
        parts = msg.split()
        if (
            parts[0] != wire.SPAWN
            or len(parts) != 4
            or parts[3] not in (b"0", b"1")
            or len(fds) != wire.FD_COUNT
        ):
            log(f"bad message {msg[:40]!r}")
            for fd in fds:
                os.close(fd)
            return
        child_id, uid, warm = parts[1].decode(), int(parts[2]), parts[3] == b"1"
        # Unsafe mode has no private tmpfs: a temporary directory, removed when the child is reaped
        # (rmtree does not follow symlinks).
        run_dir = None if self.isolate else tempfile.mkdtemp(prefix="codeblanks-run-")
        pid = os.fork()
        if pid == 0:
            self.become_spare(uid, fds, run_dir, warm)
        for fd in fds:
            os.close(fd)
        self.children[pid] = child_id
        if run_dir:
            self.run_dirs[pid] = run_dir

    def shutdown(self) -> None:
        """The supervisor is gone. As PID 1 of the namespace our exit kills every child; in unsafe
        mode (no namespace) kill and reap them ourselves and remove their directories."""
        if not self.isolate:
            for pid in list(self.children):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            for pid in list(self.children):
                with contextlib.suppress(OSError):
                    os.waitpid(pid, 0)
            for run_dir in self.run_dirs.values():
                shutil.rmtree(run_dir, ignore_errors=True)
        os._exit(0)

    def reap(self) -> None:
        while True:
            try:
                pid, status, usage = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            child_id = self.children.pop(pid, None)
            run_dir = self.run_dirs.pop(pid, None)
            if run_dir:
                shutil.rmtree(run_dir, ignore_errors=True)
            if child_id is not None:
                cpu_ms = int((usage.ru_utime + usage.ru_stime) * 1000)
                self.ctl.send(b"%s %s %d %d" % (wire.EXIT, child_id.encode(), status, cpu_ms))

    def become_spare(self, uid: int, fds: list[int], run_dir: str | None, warm: bool) -> None:
        """In the forked child: lock down, warm up, announce, then run one program. Never
        returns."""
        try:
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            os.setsid()  # own session: no signals to or from the zygote's process group
            code_fd, out_fd, err_fd, chan_fd = fds
            if self.isolate:
                # A private tmpfs as the only writable place: it vanishes with the child (nothing
                # reaches the next run; nothing on the host is ever deleted by path), its size caps
                # disk filling, and mode 0700 + the run's uid keep concurrent runs out.
                kernel.private_tmp(self.tmp_options % (uid, uid))
            else:
                os.chdir(run_dir or "/")
            pidfd = os.pidfd_open(os.getpid())
            # Exactly these fds survive: 0 /dev/null, 1 stdout, 2 stderr, 3 code, 4 channel,
            # 5 pidfd (closed after HELLO). Nothing of the zygote's or of other children.
            moved = [os.dup(fd) for fd in (code_fd, out_fd, err_fd, chan_fd, pidfd)]
            null = os.open("/dev/null", os.O_RDONLY)
            os.dup2(null, 0)
            for target, fd in zip((3, 1, 2, 4, 5), moved, strict=True):
                os.dup2(fd, target)
            os.closerange(6, 1 << 16)
            # When memory runs short, the OOM killer takes a run, never the zygote (-1000).
            # (os calls, not open(): each object a child makes or touches costs it a page copy.)
            adj = os.open("/proc/self/oom_score_adj", os.O_WRONLY)
            os.write(adj, b"1000")
            os.close(adj)
            if self.isolate:
                # The run's own uid: it cannot signal, ptrace or read another run's processes
                # and files, and RLIMIT_NPROC counts only its own threads.
                os.setgroups([])
                os.setresgid(uid, uid, uid)
                os.setresuid(uid, uid, uid)
                os.chdir("/tmp")  # (only the run's uid may enter it)
                self.child_seccomp.load()
            runner.serve(code_fd=3, chan_fd=4, pidfd=5, warm=warm)
        except BaseException:
            try:
                # fd 2 is the run's stderr by now, which the learner sees: no platform frames,
                # nor the exception's text (a program's object may make it)
                name = runner._type_name(sys.exc_info()[0] or BaseException)
                os.write(2, f"[the sandbox could not finish this run: {name}]\n".encode())
            finally:
                os._exit(71)
        os._exit(0)


def main() -> None:
    cfg = json.loads(sys.argv[1])
    zygote = Zygote(cfg)
    try:
        zygote.start()
    except Exception:
        log("start-up failed:\n" + traceback.format_exc())
        os._exit(70)
    zygote.serve()


if __name__ == "__main__":
    main()
