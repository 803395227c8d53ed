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

Every name is denied by its number. libseccomp's table lags the kernel's (2.5.4, Debian 12's,
knows neither ``listmount`` nor ``statmount``), so the newer ones have their x86_64 number here;
a name that neither knows on another architecture is left out with a warning in the log. What
stays allowed, and why, is listed in docs/sandbox.md ("System calls").
"""

from __future__ import annotations

import errno
import logging
import os

import pyseccomp as sc

log = logging.getLogger("codeblanks.sandbox")

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
    "reboot", "swapon", "swapoff", "acct", "quotactl", "quotactl_fd", "syslog", "uselib",
    "lookup_dcookie", "vhangup", "iopl", "ioperm", "personality",
    # 16-bit segments (Wine, DOSEMU only) and a long list of kernel bugs (CVE-2015-5157, ...)
    "modify_ldt",
    # flushing every file system of the host (sync on the read-only binds writes back the
    # host's dirty pages): a run stalling the node's disks for everyone
    "sync", "syncfs",
    # the mount tree and the security modules, described: nothing a program needs to know
    "listmount", "statmount", "lsm_get_self_attr", "lsm_set_self_attr", "lsm_list_modules",
    # probing the page cache of shared files (which libraries other runs load), another
    # process's memory, or pages moved between NUMA nodes; vmsplice's long bug history
    "cachestat", "process_madvise", "process_mrelease", "migrate_pages", "move_pages",
    "vmsplice",
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
    "unshare", "mount", "umount2", "mount_setattr", "move_mount", "open_tree", "open_tree_attr",
    "fsopen", "fsmount", "fsconfig", "fspick",
    # no networking of any kind: TCP/UDP to local services, DNS, Unix and abstract sockets
    "socket", "socketpair",
    "pidfd_open",
)  # fmt: skip

# Denied in each child where no memory cgroup counts a run's pages (see child_filter).
MEMFD_DENY = ("memfd_create", "memfd_secret")

# x86_64 numbers of the calls newer than the libseccomp some hosts have (the kernel's
# arch/x86/entry/syscalls/syscall_64.tbl).
X86_64_NEWER = {
    "statmount": 457, "listmount": 458, "lsm_get_self_attr": 459, "lsm_set_self_attr": 460,
    "lsm_list_modules": 461, "open_tree_attr": 467,
}  # fmt: skip


def _new() -> sc.SyscallFilter:
    f = sc.SyscallFilter(sc.ALLOW)
    # A foreign-ABI entry (i386 int 0x80, x32) is never legitimate: kill the whole process.
    f.set_attr(sc.Attr.ACT_BADARCH, sc.KILL_PROCESS)
    return f


def number(name: str) -> int | None:
    """The call's number on this machine (libseccomp's negative ones name a call this
    architecture does not have); None if neither libseccomp nor ``X86_64_NEWER`` knows it."""
    found: int = sc.resolve_syscall(sc.Arch.NATIVE, name)
    if found != -1:  # __NR_SCMP_ERROR
        return found
    if sc.system_arch() == sc.Arch.X86_64:
        return X86_64_NEWER.get(name)
    return None


def _deny(f: sc.SyscallFilter, names: tuple[str, ...]) -> None:
    for name in names:
        nr = number(name)
        if nr is None:
            log.warning(
                "sandbox: %s is unknown to libseccomp on this architecture; not denied", name
            )
            continue
        f.add_rule(sc.ERRNO(errno.EPERM), nr)


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
    _deny(f, CHILD_DENY + (MEMFD_DENY if deny_memfd else ()))
    # clone() only for threads: a fork bomb gets EPERM, a thread bomb hits RLIMIT_NPROC.
    f.add_rule(sc.ERRNO(errno.EPERM), "clone", sc.Arg(0, sc.MASKED_EQ, CLONE_THREAD, 0))
    # clone3's flags live in memory seccomp cannot read: ENOSYS makes glibc fall back to clone.
    f.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")
    return _export(f)
