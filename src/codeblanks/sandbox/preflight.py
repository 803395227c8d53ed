"""Can this machine isolate programs? Asked before the sandbox starts; answers in plain words."""

from __future__ import annotations

import os
import sys


class SandboxUnavailable(RuntimeError):
    """This machine cannot isolate programs; the message says why and what to do."""


def isolation_problem() -> str | None:
    """Why this machine cannot run the isolated sandbox, in plain words; None if it can."""
    if not sys.platform.startswith("linux"):
        return (
            f"the sandbox needs Linux namespaces and seccomp, and this is {sys.platform}. "
            "Run CodeBlanks in a Linux VM (see docs/sandbox.md), or for yourself alone on "
            "127.0.0.1 set CODEBLANKS_UNSAFE_NO_SANDBOX=1 (no isolation at all)."
        )
    if os.geteuid() != 0:
        userns = ""
        try:
            with open("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") as f:
                if f.read().strip() == "1":
                    userns = (
                        " This host also restricts unprivileged user namespaces (Ubuntu's "
                        "AppArmor default), so even a rootless sandbox could not start here."
                    )
        except OSError:
            pass
        return (
            "the sandbox must start as root: it creates namespaces, mounts a private read-only "
            "root, and runs each program under its own throw-away uid, which an ordinary user "
            f"cannot do.{userns} Run CodeBlanks as root in a dedicated VM or container "
            "(docs/sandbox.md), or for yourself alone on 127.0.0.1 set "
            "CODEBLANKS_UNSAFE_NO_SANDBOX=1 (no isolation at all)."
        )
    return None
