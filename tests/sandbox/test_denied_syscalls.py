"""System calls a learner's program never needs are refused in the real sandbox (the list
and the reasons are in docs/sandbox.md and sandbox/seccomp.py).

Each call is made through ctypes with arguments the kernel would reject anyway (a bad fd, NULL
pointers), so where the filter did not stop it, it fails with another errno than EPERM, or,
for ``sync``, flushes the disks and returns 0. The numbers are x86_64's, written out here rather
than taken from libseccomp, whose tables lag the kernel's."""

from __future__ import annotations

import platform

import pytest

from codeblanks.sandbox import seccomp

pytestmark = pytest.mark.skipif(platform.machine() != "x86_64", reason="x86_64 numbers")

# name: (number, arguments)
DENIED = {
    "sync": (162, ()),
    "syncfs": (306, (0,)),
    "modify_ldt": (154, (0, 0, 0)),
    "statmount": (457, (0, 0, 0, 0)),
    "listmount": (458, (0, 0, 0, 0)),
    "lsm_get_self_attr": (459, (0, 0, 0, 0)),
    "lsm_set_self_attr": (460, (0, 0, 0, 0)),
    "lsm_list_modules": (461, (0, 0, 0)),
    "open_tree_attr": (467, (-1, 0, 0, 0, 0)),
    "cachestat": (451, (-1, 0, 0, 0)),
    "process_madvise": (440, (-1, 0, 0, 0, 0)),
    "process_mrelease": (448, (-1, 0)),
    "migrate_pages": (256, (0, 0, 0, 0)),
    "move_pages": (279, (0, 0, 0, 0, 0, 0)),
    "vmsplice": (278, (-1, 0, 0, 0)),
    "quotactl_fd": (443, (-1, 0, 0, 0)),
    # denied from the start: kept here so the list stays whole
    "ptrace": (101, (0, 0, 0, 0)),
    "bpf": (321, (0, 0, 0)),
    "perf_event_open": (298, (0, 0, 0, 0, 0)),
    "userfaultfd": (323, (0,)),
    "keyctl": (250, (0, 0, 0, 0, 0)),
    "io_uring_setup": (425, (0, 0)),
    "process_vm_readv": (310, (0, 0, 0, 0, 0, 0)),
    "open_by_handle_at": (304, (-1, 0, 0)),
    "name_to_handle_at": (303, (-1, 0, 0, 0, 0)),
    "fsopen": (430, (0, 0)),
    "move_mount": (429, (-1, 0, -1, 0, 0)),
    "setns": (308, (-1, 0)),
    "unshare": (272, (0x40000000,)),
    "personality": (135, (0xFFFFFFFF,)),
    "kexec_load": (246, (0, 0, 0, 0)),
    "init_module": (175, (0, 0, 0)),
    "acct": (163, (0,)),
}

PROGRAM = """\
import ctypes, errno
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
for name, (number, args) in {calls!r}.items():
    ctypes.set_errno(0)
    result = libc.syscall(number, *(ctypes.c_long(a) for a in args))
    print(name, result, errno.errorcode.get(ctypes.get_errno(), ctypes.get_errno()))
"""


def test_every_needless_system_call_is_refused_with_eperm(run):
    r = run(PROGRAM.format(calls=DENIED))
    assert r.verdict == "ok", r
    refused = {name: f"{name} -1 EPERM" for name in DENIED}
    wrong = [line for line in r.stdout.splitlines() if line != refused[line.split()[0]]]
    assert wrong == [] and len(r.stdout.splitlines()) == len(DENIED), r.stdout


def test_every_name_in_the_lists_is_known_here():
    """No name of the deny-lists is dropped silently: libseccomp knows it, or seccomp.py has its
    x86_64 number (listmount and statmount are newer than libseccomp 2.5)."""
    names = seccomp.ZYGOTE_DENY + seccomp.CHILD_DENY + seccomp.MEMFD_DENY
    assert [n for n in names if seccomp.number(n) is None] == []
    for name, (number, _) in DENIED.items():
        assert seccomp.number(name) == number, name
