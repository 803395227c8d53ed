"""Enter fresh namespaces, build the sandbox's minimal read-only root, and exec the zygote.

Run by the supervisor as ``python -I -S -B namespaces.py CONFIG_JSON`` with the control socket
on fd 3; it is a script, not imported by the web process. Standard library only.

1. (host view) ``unshare`` new mount, network, IPC, UTS, PID and cgroup namespaces, then fork: the
   child is PID 1 of the new PID namespace. The parent only waits, so the supervisor can watch one
   process; when PID 1 dies the kernel kills everything left in the namespace.
2. (PID 1) make every mount private, mount a small tmpfs as the new root and bind into it,
   read-only, only: /usr (and the /lib, /bin symlinks), the Python installation, each entry of
   site-packages that the zygote's imports need (NumPy's, as /opt/site-packages/NAME), this
   package's directory (as /opt/codeblanks), /etc/ld.so.cache,
   /dev/{null,zero,full,random,urandom}, a new /proc that shows a process only to its own uid,
   and an empty /tmp. Every folder of installed packages inside /usr or the Python installation
   (site-packages, dist-packages: a wheel install of CodeBlanks puts its courses there) is
   covered with an empty read-only tmpfs. Not mounted, hence unreadable whatever a program
   tries: the project directory, the courses, the database, /etc (passwd, shadow, ssl keys),
   /root, /home, /var, /run, /sys.
3. ``pivot_root`` into it, detach the old root, remount the root read-only, and ``execve`` the
   zygote with an EMPTY environment (the web process's secrets never cross).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import kernel as k  # noqa: E402

TYPE_CHECKING = False  # what mypy reads as True: typing is never imported in the sandbox
if TYPE_CHECKING:
    from typing import Any

INSIDE_PKG = "/opt/codeblanks"
DEVICES = ("null", "zero", "full", "random", "urandom")
RO = k.MS_BIND | k.MS_REMOUNT | k.MS_RDONLY | k.MS_NOSUID | k.MS_NODEV


def fail(message: str) -> None:
    sys.stderr.write(f"codeblanks sandbox: {message}\n")
    sys.stderr.flush()
    os._exit(70)


def bind(root: str, source: str, target: str | None = None, readonly: bool = True) -> None:
    target = root + (target or source)
    if os.path.isdir(source):
        os.makedirs(target, mode=0o755, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), mode=0o755, exist_ok=True)
        with open(target, "w"):
            pass
    k.mount(source, target, None, k.MS_BIND | k.MS_REC)
    if readonly:
        k.mount(None, target, None, RO)


def hide(root: str, trees: list[str], folders: list[str]) -> None:
    """Cover each of ``folders`` (host real paths) that lies inside a tree bound whole at
    ``root + tree`` with an empty read-only tmpfs."""
    targets = set()
    for tree in trees:
        real = os.path.realpath(tree)
        for folder in folders:
            if folder == real or folder.startswith(real.rstrip("/") + "/"):
                targets.add(root + tree + folder[len(real) :])
    for target in sorted(targets):
        if os.path.isdir(target):
            flags = k.MS_RDONLY | k.MS_NOSUID | k.MS_NODEV | k.MS_NOEXEC
            k.mount("tmpfs", target, "tmpfs", flags, "size=4k,mode=0555")


def pick_mountpoint(sources: list[str]) -> str:
    for candidate in ("/mnt", "/media", "/srv", "/opt", "/tmp"):
        if os.path.isdir(candidate) and not any(
            s == candidate or s.startswith(candidate + "/") for s in sources
        ):
            return candidate
    fail("no directory to build the sandbox root on (tried /mnt /media /srv /opt /tmp)")
    raise AssertionError


def build_root(cfg: dict[str, Any]) -> None:
    sources = [cfg["python_prefix"], *cfg["libraries"], cfg["pkg_dir"], "/usr"]
    k.mount(None, "/", None, k.MS_REC | k.MS_PRIVATE)
    root = pick_mountpoint(sources)
    k.mount("tmpfs", root, "tmpfs", k.MS_NOSUID | k.MS_NODEV, "size=1m,nr_inodes=4096,mode=0755")
    bind(root, "/usr")
    trees = ["/usr"]  # bound whole
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        path = "/" + name
        if os.path.islink(path):
            os.symlink(os.readlink(path), root + path)
        elif os.path.isdir(path):
            bind(root, path)
            trees.append(path)
    # The interpreter finds its standard library relative to its own path: same place inside.
    bind(root, cfg["python_prefix"])
    trees.append(cfg["python_prefix"])
    os.makedirs(root + cfg["libraries_dir"], mode=0o755)
    for path in cfg["libraries"]:
        bind(root, path, f"{cfg['libraries_dir']}/{os.path.basename(path)}")
    bind(root, cfg["pkg_dir"], INSIDE_PKG)
    hide(root, trees, cfg["hidden"])
    if os.path.exists("/etc/ld.so.cache"):
        bind(root, "/etc/ld.so.cache")
    os.makedirs(root + "/dev", mode=0o755)
    for dev in DEVICES:
        bind(root, "/dev/" + dev, readonly=False)
    for fd, name in enumerate(("stdin", "stdout", "stderr")):
        os.symlink(f"/proc/self/fd/{fd}", f"{root}/dev/{name}")
    os.symlink("/proc/self/fd", root + "/dev/fd")
    # hidepid=invisible: a run sees only its own processes (not the zygote, not other runs);
    # subset=pid: none of the kernel-wide files (kallsyms, kmsg, sysvipc, ...).
    os.makedirs(root + "/proc", mode=0o555)
    k.mount(
        "proc",
        root + "/proc",
        "proc",
        k.MS_NOSUID | k.MS_NODEV | k.MS_NOEXEC,
        "hidepid=invisible,subset=pid",
    )
    os.makedirs(root + "/tmp", mode=0o755)  # each child mounts its own tmpfs here
    os.makedirs(root + "/.old", mode=0o700)
    os.chdir(root)
    k.pivot_root(".", ".old")
    os.chdir("/")
    k.umount("/.old", k.MNT_DETACH)
    os.rmdir("/.old")
    k.mount(None, "/", None, k.MS_REMOUNT | k.MS_BIND | k.MS_RDONLY | k.MS_NOSUID | k.MS_NODEV)
    k.sethostname("sandbox")


def main() -> None:
    cfg = json.loads(sys.argv[1])
    # Every core the node was given: the web process may keep its own threads on one. (Where
    # none of them is left, as when a container's cpuset shrank, the cores it inherited.)
    with contextlib.suppress(OSError):
        os.sched_setaffinity(0, cfg["cpus"])
    if cfg["ctl_fd"] != 3:  # the zygote finds its control socket on fd 3
        os.dup2(cfg["ctl_fd"], 3)
        os.close(cfg["ctl_fd"])
    zygote_argv = [cfg["python"], "-I", "-S", "-B"]
    if not cfg["isolate"]:
        script = os.path.join(cfg["pkg_dir"], "zygote.py")
        os.execve(cfg["python"], [*zygote_argv, script, sys.argv[2]], {})
    try:
        # The supervisor's cgroups (memory, cpu, pids): joined before anything is forked, so the
        # zygote and every child are inside them.
        for procs in cfg.get("cgroup_procs", []):
            with open(procs, "w") as f:
                f.write(str(os.getpid()))
    except OSError as e:
        fail(f"cannot join the sandbox's cgroups ({e.strerror})")
    try:
        # The OOM killer's last choice (children ask to be its first, see zygote.py). Without
        # CAP_SYS_RESOURCE this is refused; the children's own choice still holds.
        with open("/proc/self/oom_score_adj", "w") as f:
            f.write("-1000")
    except OSError:
        pass
    flags = (
        k.CLONE_NEWNS | k.CLONE_NEWNET | k.CLONE_NEWIPC | k.CLONE_NEWUTS | k.CLONE_NEWPID
    ) | k.CLONE_NEWCGROUP
    try:
        k.unshare(flags)
    except OSError as e:
        fail(f"cannot create Linux namespaces ({e.strerror})")
    pid = os.fork()
    if pid:
        # Stage 1 just mirrors PID 1's fate; SIGTERM from the supervisor kills it and, through
        # PDEATHSIG, the whole namespace.
        signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
        _, status = os.waitpid(pid, 0)
        os._exit(os.waitstatus_to_exitcode(status) & 0xFF)
    try:
        k.prctl(k.PR_SET_PDEATHSIG, signal.SIGKILL)
        build_root(cfg)
    except OSError as e:
        fail(f"cannot build the sandbox root: {e}")
    os.execve(cfg["python"], [*zygote_argv, INSIDE_PKG + "/zygote.py", sys.argv[2]], {})


if __name__ == "__main__":
    main()
