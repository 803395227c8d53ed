"""Thin ctypes wrappers for the Linux calls Python 3.11 lacks (unshare, mount, pivot_root, prctl,
capset, seccomp). Standard library only: also imported inside the sandbox as plain ``kernel``."""

from __future__ import annotations

import ctypes
import os

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long

CLONE_NEWNS = 0x00020000
CLONE_NEWCGROUP = 0x02000000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000

MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REMOUNT = 32
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18
MNT_DETACH = 2

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_CAPBSET_DROP = 24
PR_SET_SECCOMP = 22
PR_SET_NO_NEW_PRIVS = 38
SECCOMP_MODE_FILTER = 2

SYS_PIVOT_ROOT = 155
SYS_CAPSET = 126

CAP_CHOWN = 0
CAP_SETGID = 6
CAP_SETUID = 7
CAP_SYS_ADMIN = 21
CAP_LAST = 63


# Declared once, so that a call converts its arguments without building ctypes objects (what a
# spare child does after fork costs it a page copy for every object it makes or touches).
_libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong,
                        ctypes.c_char_p]  # fmt: skip
_libc.unshare.argtypes = [ctypes.c_int]


def _check(result: int, what: str) -> int:
    if result < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")
    return result


def unshare(flags: int) -> None:
    _check(_libc.unshare(flags), "unshare")


def mount(source: str | None, target: str, fstype: str | None, flags: int, data: str = "") -> None:
    _check(
        _libc.mount(
            source.encode() if source else None,
            target.encode(),
            fstype.encode() if fstype else None,
            flags,
            data.encode() if data else None,
        ),
        f"mount {target}",
    )


def private_tmp(options: bytes) -> None:
    """A mount namespace of this process's own, and in it a fresh tmpfs on /tmp (``options``:
    the tmpfs's, already encoded): what each spare child does first."""
    _check(_libc.unshare(CLONE_NEWNS), "unshare")
    _check(_libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None), "mount /")
    _check(_libc.mount(b"tmpfs", b"/tmp", b"tmpfs", MS_NOSUID | MS_NODEV, options), "mount /tmp")


def umount(target: str, flags: int = 0) -> None:
    _check(_libc.umount2(target.encode(), ctypes.c_int(flags)), f"umount {target}")


def pivot_root(new_root: str, put_old: str) -> None:
    _check(_libc.syscall(SYS_PIVOT_ROOT, new_root.encode(), put_old.encode()), "pivot_root")


def sethostname(name: str) -> None:
    raw = name.encode()
    _check(_libc.sethostname(raw, ctypes.c_size_t(len(raw))), "sethostname")


def prctl(option: int, arg2: int = 0, arg3: int = 0) -> None:
    _check(
        _libc.prctl(ctypes.c_int(option), ctypes.c_ulong(arg2), ctypes.c_ulong(arg3), 0, 0),
        f"prctl {option}",
    )


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


def keep_only_capabilities(keep: set[int]) -> None:
    """Shrink the bounding, permitted and effective sets to ``keep`` (we are root: without this a
    root zygote holds every capability, e.g. CAP_SYS_MODULE or CAP_NET_ADMIN)."""
    for cap in range(CAP_LAST + 1):
        if cap not in keep:
            try:
                prctl(PR_CAPBSET_DROP, cap)
            except OSError:
                break  # past the last capability this kernel knows
    mask = [0, 0]
    for cap in keep:
        mask[cap // 32] |= 1 << (cap % 32)
    header = _CapHeader(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
    data = (_CapData * 2)(_CapData(mask[0], mask[0], 0), _CapData(mask[1], mask[1], 0))
    _check(_libc.syscall(SYS_CAPSET, ctypes.byref(header), data), "capset")


class _SockFilter(ctypes.Structure):
    _fields_ = [
        ("code", ctypes.c_ushort),
        ("jt", ctypes.c_ubyte),
        ("jf", ctypes.c_ubyte),
        ("k", ctypes.c_uint32),
    ]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_SockFilter))]


class Seccomp:
    """A raw BPF program exported by libseccomp (8 bytes per instruction), built into the
    kernel's structure once (the zygote does it before forking) and installed by ``load``."""

    def __init__(self, bpf: bytes) -> None:
        count = len(bpf) // 8
        self._program = (_SockFilter * count).from_buffer_copy(bpf)
        self._fprog = _SockFprog(count, self._program)
        self._pointer = ctypes.byref(self._fprog)

    def load(self) -> None:
        prctl(PR_SET_NO_NEW_PRIVS, 1)
        mode = ctypes.c_ulong(SECCOMP_MODE_FILTER)
        _check(_libc.prctl(PR_SET_SECCOMP, mode, self._pointer, 0, 0), "seccomp")


def load_seccomp(bpf: bytes) -> None:
    """Install a raw BPF program exported by libseccomp (8 bytes per instruction)."""
    Seccomp(bpf).load()
