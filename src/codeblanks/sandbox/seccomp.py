"""The system-call filters, built on the trusted side with libseccomp (pyseccomp).

Two filters, exported as raw BPF and handed to the zygote, which loads them with prctl() (so the
sandbox itself needs neither libseccomp nor pyseccomp):

* ``zygote_filter()`` - loaded once by the zygote, inherited by every child. A deny-list of the
  kernel interfaces a Python/NumPy program never needs and attackers love.
* ``child_filter()`` - added by each child after its own set-up, just before it reads the code:
  no new processes, no privilege changes, no new namespaces or mounts, no sockets at all.

Foreign architectures are rejected by libseccomp itself: a filter built for x86_64 kills a
process that enters the kernel through the i386 ``int 0x80`` gate or with the x32 syscall bit
(the bypass of firejail issue 87 / kafel issue 19).
"""

from __future__ import annotations

import contextlib
import errno
import os

import pyseccomp as sc

CLONE_THREAD = 0x00010000
CLONE_NEWNS = 0x00020000
# CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET
CLONE_NEW_FLAGS = (CLONE_NEWNS, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000,
                   0x40000000)  # fmt: skip
AF_UNIX = 1

# Denied for everyone inside the sandbox, zygote included. Each group names the attack.
ZYGOTE_DENY = (
    # reading or steering another process's memory
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
    # io_uring performs opens/sockets/reads behind seccomp's back
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    # the usual kernel attack surface for privilege escalation and side channels
    "bpf", "perf_event_open", "userfaultfd", "add_key", "request_key", "keyctl",
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
    "reboot", "swapon", "swapoff", "acct", "quotactl", "syslog", "uselib",
    "lookup_dcookie", "vhangup", "iopl", "ioperm", "personality",
    # host clock
    "settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
    # escaping the mount tree with file handles
    "open_by_handle_at", "name_to_handle_at", "fanotify_init",
    # SysV and POSIX IPC objects outlive a run and are shared by concurrent runs
    "msgget", "msgsnd", "msgrcv", "msgctl", "semget", "semop", "semtimedop", "semctl",
    "shmget", "shmat", "shmctl", "shmdt",
    "mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify", "mq_getsetattr",
    # leaving the sandbox's namespaces or root
    "setns", "pivot_root", "chroot", "mknod", "mknodat",
)  # fmt: skip

# Denied in each child on top of the above.
CHILD_DENY = (
    # fork bombs and escaping the per-run accounting: threads only (see clone rule below)
    "fork", "vfork", "execve", "execveat",
    # dropping to another uid could reach another run's files or processes
    "setuid", "setgid", "setreuid", "setregid", "setresuid", "setresgid", "setgroups",
    "setfsuid", "setfsgid",
    # new namespaces / mounts would undo the isolation set up by the zygote
    "unshare", "mount", "umount2", "mount_setattr", "move_mount", "open_tree", "fsopen",
    "fsmount", "fsconfig", "fspick",
    # no networking of any kind: TCP/UDP to local services, DNS, Unix and abstract sockets
    "socket", "socketpair",
    "pidfd_open",
)  # fmt: skip


def _new() -> sc.SyscallFilter:
    f = sc.SyscallFilter(sc.ALLOW)
    # A foreign-ABI entry (i386 int 0x80, x32) is never legitimate: kill the whole process.
    f.set_attr(sc.Attr.ACT_BADARCH, sc.KILL_PROCESS)
    return f


def _deny(f: sc.SyscallFilter, names: tuple[str, ...]) -> None:
    for name in names:
        # A name unknown to this libseccomp/kernel cannot be called either: skip it.
        with contextlib.suppress(OSError, ValueError, RuntimeError):
            f.add_rule(sc.ERRNO(errno.EPERM), name)


def _export(f: sc.SyscallFilter) -> bytes:
    r, w = os.pipe()
    try:
        with os.fdopen(w, "wb", closefd=True) as out:
            f.export_bpf(out)
        chunks = []
        while chunk := os.read(r, 65536):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(r)


def zygote_filter() -> bytes:
    f = _new()
    _deny(f, ZYGOTE_DENY)
    # Only Unix sockets (the zygote's own channels); no network families at all.
    f.add_rule(sc.ERRNO(errno.EAFNOSUPPORT), "socket", sc.Arg(0, sc.NE, AF_UNIX))
    # New namespaces other than the per-child mount namespace are never needed.
    f.add_rule(sc.ERRNO(errno.EPERM), "unshare", sc.Arg(0, sc.NE, CLONE_NEWNS))
    # clone() must not create namespaces either (children cannot clone() processes at all).
    for flag in CLONE_NEW_FLAGS:
        f.add_rule(sc.ERRNO(errno.EPERM), "clone", sc.Arg(0, sc.MASKED_EQ, flag, flag))
    return _export(f)


def child_filter(deny_memfd: bool = False) -> bytes:
    """``deny_memfd``: where no memory cgroup counts a run's pages, memfd pages would escape
    every limit (RLIMIT_AS counts mappings only), so memfds are refused instead."""
    f = _new()
    _deny(f, CHILD_DENY + (("memfd_create", "memfd_secret") if deny_memfd else ()))
    # clone() only for threads: a fork bomb gets EPERM, a thread bomb hits RLIMIT_NPROC.
    f.add_rule(sc.ERRNO(errno.EPERM), "clone", sc.Arg(0, sc.MASKED_EQ, CLONE_THREAD, 0))
    # clone3's flags live in memory seccomp cannot read: ENOSYS makes glibc fall back to clone.
    f.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")
    return _export(f)
