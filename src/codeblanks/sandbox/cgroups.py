"""The sandbox's cgroups (v1): a cap on the whole tree, and a memory group per run.

rlimits cannot see every way a program holds memory: ``RLIMIT_AS`` counts mappings, so pages of
a memfd or of a file in the run's tmpfs, once unmapped, escape it (56 memfds can hold 1.06 GiB
against a 768 MiB limit). The kernel's memory controller counts pages wherever they live:

* the **tree** — the launcher joins a group of ours under this process's own group, for the
  memory, cpu and pids controllers, before it creates the namespaces; the zygote and every child
  inherit it. Its memory limit (``CODEBLANKS_SANDBOX_MEMORY_MB``) keeps many concurrent runs
  from exhausting the node, its pids limit caps the processes, and as one cpu group it competes
  with the web process as a whole, not thread by thread;
* a **run group** per uid of the uid pool (``<tree>/u<uid>``), made once and reused: a uid is
  reused only after its child was reaped, so a group holds one child at a time. A spare joins
  its group before it becomes ready (off the learner's clock: a move can wait for an RCU grace
  period), and the group's limit is the run's ``memory_mb``. Heap, mmap, memfd, tmpfs and pipe
  pages all count; past the limit the kernel's OOM killer stops the program, which the
  supervisor reports as ``memory-limit``;
* **cpu weights** — fresh runs compute in the tree's cpu group, at ``fresh_weight``; a run
  demoted past its CPU slice is moved to a sibling group, ``<tree>-demoted``, at
  ``demoted_weight`` (``CpuWeights``). The sibling sits beside the web process, not inside the
  tree: inside, the tree's share would be split among its children, and a tree holding only
  runaways would still get its whole share against the web process.

Where no v1 memory controller is mounted (cgroup v2 only, or no permission), ``Cgroups.create``
says why and the sandbox falls back to rlimits, with ``memfd_create`` denied (seccomp).
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import re
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from codeblanks.sandbox.spare import Spare

log = logging.getLogger("codeblanks.sandbox")

ROOT = "/sys/fs/cgroup"
CONTROLLERS = ("memory", "cpu", "pids")
_PREFIX = "codeblanks-"
_DEMOTED = "-demoted"


def shares(weight: int) -> int:
    """A cgroup v2 ``cpu.weight`` (1-10000, 100 the default) as v1 ``cpu.shares`` (1024 the
    default, 2 the least the kernel takes): the settings speak v2, this machine may be v1."""
    return max(2, weight * 1024 // 100)


class CpuWeights:
    """The two cpu groups of short jobs first: fresh runs in the tree's group, demoted ones in
    a low-weight sibling. A group's weight holds against everything beside it; moving a whole
    process (every thread) is one write to ``cgroup.procs``."""

    def __init__(self, fresh: str, demoted: str) -> None:
        self.fresh, self.demoted = fresh, demoted

    @classmethod
    def create(cls, tree: str, fresh_weight: int, demoted_weight: int) -> CpuWeights:
        """Set the tree's weight and make its demoted sibling (OSError if the kernel refuses)."""
        _write(os.path.join(tree, "cpu.shares"), str(shares(fresh_weight)))
        demoted = tree + _DEMOTED
        os.makedirs(demoted, exist_ok=True)
        try:
            _write(os.path.join(demoted, "cpu.shares"), str(shares(demoted_weight)))
        except OSError:
            _remove_tree(demoted)
            raise
        return cls(tree, demoted)

    def demote(self, pid: int) -> bool:
        """Move every thread of ``pid`` into the demoted group; False if it is gone."""
        try:
            _write(os.path.join(self.demoted, "cgroup.procs"), str(pid))
        except OSError:
            return False
        return True

    def close(self) -> None:
        _remove_tree(self.demoted)


def _own_path(controller: str) -> str | None:
    """This process's group for ``controller`` (a v1 hierarchy), or None."""
    try:
        with open("/proc/self/cgroup") as f:
            for line in f:
                _, names, path = line.rstrip("\n").split(":", 2)
                if controller in names.split(","):
                    return path
    except OSError:
        pass
    return None


def _write(path: str, value: str) -> None:
    with open(path, "w") as f:
        f.write(value)


def _read_oom_kills(group: str) -> int:
    try:
        with open(os.path.join(group, "memory.oom_control")) as f:
            match = re.search(r"^oom_kill (\d+)$", f.read(), re.M)
    except OSError:
        return 0
    return int(match.group(1)) if match else 0


def _remove_tree(path: str) -> None:
    with contextlib.suppress(OSError):
        for name in os.listdir(path):
            sub = os.path.join(path, name)
            if os.path.isdir(sub):
                with contextlib.suppress(OSError):
                    os.rmdir(sub)
        os.rmdir(path)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class RunGroup:
    """One uid's memory group: who is in it, its limit, and whether the OOM killer struck."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.limit_mb: int | None = None
        self.oom_kills = 0

    def join(self, pid: int) -> None:
        """Move ``pid`` in (and note the OOM count, to tell this run's kills from earlier)."""
        self.oom_kills = _read_oom_kills(self.path)
        _write(os.path.join(self.path, "cgroup.procs"), str(pid))

    def limit(self, memory_mb: int) -> None:
        if self.limit_mb != memory_mb:
            _write(os.path.join(self.path, "memory.limit_in_bytes"), str(memory_mb << 20))
            self.limit_mb = memory_mb

    def oom_killed(self) -> bool:
        return _read_oom_kills(self.path) > self.oom_kills


class Cgroups:
    def __init__(self, trees: dict[str, str]) -> None:
        self.trees = trees  # controller -> our group's directory
        self.groups: dict[int, RunGroup] = {}
        self.cpu: CpuWeights | None = None  # fresh and demoted runs' cpu groups, if made

    @classmethod
    def create(cls, name: str, memory_mb: int, pids: int) -> tuple[Cgroups | None, str]:
        """Our tree of groups, or None and why not (said once at start, by the caller).
        The cpu weights are the caller's to ask for (``weigh``), once the tree exists."""
        trees: dict[str, str] = {}
        why = ""
        for controller in CONTROLLERS:
            own = _own_path(controller)
            base = os.path.join(ROOT, controller) + (own or "")
            if own is None or not os.path.exists(os.path.join(base, "cgroup.procs")):
                if controller == "memory":
                    why = "no cgroup v1 memory controller is mounted"
                    break
                continue  # cpu and pids are welcome, not required
            _clean_stale(base)
            path = os.path.join(base, _PREFIX + name)
            try:
                os.makedirs(path, exist_ok=True)
                if controller == "memory":
                    _write(os.path.join(path, "memory.limit_in_bytes"), str(memory_mb << 20))
                    with contextlib.suppress(OSError):
                        _write(os.path.join(path, "memory.swappiness"), "0")
                elif controller == "pids":
                    _write(os.path.join(path, "pids.max"), str(pids))
            except OSError as e:
                _remove_tree(path)
                if controller == "memory":
                    why = f"cannot make a memory cgroup under {base} ({e.strerror})"
                    break
                continue
            trees[controller] = path
        if "memory" not in trees:
            for path in trees.values():
                _remove_tree(path)
            return None, why
        return cls(trees), ""

    def weigh(self, fresh_weight: int, demoted_weight: int) -> str:
        """Make the fresh and demoted cpu groups; "" if done, else why not (then demotion is
        SCHED_IDLE alone, as where there are no cgroups)."""
        tree = self.trees.get("cpu")
        if tree is None:
            return "no cgroup v1 cpu controller is mounted"
        try:
            self.cpu = CpuWeights.create(tree, fresh_weight, demoted_weight)
        except OSError as e:
            return f"cannot make the demoted runs' cpu group beside {tree} ({e.strerror})"
        return ""

    def procs_files(self) -> list[str]:
        """What the launcher writes its pid into, to put the whole tree in our groups."""
        return [os.path.join(path, "cgroup.procs") for path in self.trees.values()]

    def group(self, uid: int) -> RunGroup:
        """The run group of ``uid`` (made on first use; called from one thread only)."""
        group = self.groups.get(uid)
        if group is None:
            path = os.path.join(self.trees["memory"], f"u{uid}")
            os.makedirs(path, exist_ok=True)
            group = self.groups[uid] = RunGroup(path)
        return group

    def close(self) -> None:
        """Remove our groups (once the zygote and its children are gone)."""
        if self.cpu is not None:
            self.cpu.close()
        for path in self.trees.values():
            _remove_tree(path)


def _clean_stale(base: str) -> None:
    """Groups a crashed earlier process left behind (their name holds its pid)."""
    with contextlib.suppress(OSError):
        for name in os.listdir(base):
            match = re.fullmatch(_PREFIX + r"(\d+)-\d+(?:" + _DEMOTED + ")?", name)
            if match and not _pid_alive(int(match.group(1))):
                _remove_tree(os.path.join(base, name))


def pid_of(pidfd: int) -> int | None:
    """The pid (in our namespace) of the process behind ``pidfd``."""
    try:
        with open(f"/proc/self/fdinfo/{pidfd}") as f:
            match = re.search(r"^Pid:\s*(-?\d+)$", f.read(), re.M)
    except OSError:
        return None
    pid = int(match.group(1)) if match else -1
    return pid if pid > 0 else None


class Joiner:
    """A thread of its own that moves each new spare into its uid's memory group (a move may
    wait for an RCU grace period), then hands it to ``joined``, which says whether it is offered
    to runs; a spare that is not (dead already, or unaccountable) is killed."""

    def __init__(self, cgroups: Cgroups, joined: Callable[[Spare], bool]) -> None:
        self.cgroups = cgroups
        self.joined = joined
        self.queue: queue.SimpleQueue[Spare | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._loop, name="sandbox-cgroups", daemon=True)
        self.thread.start()

    def put(self, spare: Spare) -> None:
        self.queue.put(spare)

    def _loop(self) -> None:
        while (spare := self.queue.get()) is not None:
            try:
                pid = spare.pid
                if pid is not None:
                    group = self.cgroups.group(spare.uid)
                    group.join(pid)
                    spare.group = group
            except OSError as e:
                log.warning("a spare could not join its memory group: %s", e)
            if not self.joined(spare):
                spare.kill()
                spare.close()

    def close(self) -> None:
        self.queue.put(None)
        self.thread.join(timeout=5)
