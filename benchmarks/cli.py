"""The command line against the naive way, in the same run: a fresh
``python main.py`` of the lesson's sample solution, then ``codeblanks grade`` and local
``codeblanks learn test`` of the same program, cold (``CODEBLANKS_WARM=0``: the sandbox starts
on every call) and warm (the user's warm sandbox server, started by the first call).

    .venv/bin/python benchmarks/cli.py [--n 10] [--lesson query-key-value]

Prints the p50 wall time and CPU (this command and everything it started, from
``RUSAGE_CHILDREN``; the warm server's own CPU is not the caller's and is shown apart, read
from /proc) of each, and the ratio to the naive run; exits non-zero if warm ``grade`` or
``learn test`` is over 3x the naive p50. Uses a private runtime folder, removed at the end,
and stops its warm server.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
TICK = os.sysconf("SC_CLK_TCK")


def timed(cmd: list[str], env: dict, cwd: Path) -> tuple[float, float]:
    """Wall ms and CPU ms (the command and its children) of one call; fails loudly."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=300)
    wall = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000
    return wall, cpu


def servers(runtime: Path) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if b"codeblanks.cli.warm" in cmdline and str(runtime).encode() in cmdline:
                found.append(int(entry.name))
    return found


def tree_cpu_ms(pid: int) -> float:
    """utime + stime of ``pid``, its live descendants and their reaped children."""
    total = 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += sum(int(f) for f in fields[11:15]) * 1000 / TICK
        for task in Path(f"/proc/{pid}/task").iterdir():
            for kid in (task / "children").read_text().split():
                total += tree_cpu_ms(int(kid))
    except OSError:
        pass
    return total


def main(args) -> int:
    from codeblanks.content import catalog

    lesson = catalog().lesson(args.lesson)
    tmp = Path(tempfile.mkdtemp(prefix="codeblanks-bench-cli-"))
    runtime = tmp / "run"
    runtime.mkdir(mode=0o700)
    env = {**os.environ, "XDG_RUNTIME_DIR": str(runtime), "XDG_DATA_HOME": str(tmp / "data"),
           "XDG_CONFIG_HOME": str(tmp / "config"), "CODEBLANKS_WARM_IDLE_S": "120"}  # fmt: skip
    env.pop("CODEBLANKS_SERVER", None)
    env.pop("CODEBLANKS_WARM", None)
    cold_env = {**env, "CODEBLANKS_WARM": "0"}
    program = tmp / "main.py"
    program.write_text(lesson.exercise.solution)
    py = sys.executable
    cli = [py, "-m", "codeblanks.cli.main"]
    subprocess.run([*cli, "learn", "start", args.lesson, "work"], env=env, cwd=tmp, check=True,
                   capture_output=True)  # fmt: skip
    (tmp / "work" / Path(lesson.exercise.filename).name).write_text(lesson.exercise.solution)
    grade = [*cli, "grade", args.lesson, "main.py"]
    learn = [*cli, "learn", "test"]
    names = ("naive", "grade cold", "learn test cold", "grade warm", "learn test warm")
    rows: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
    try:
        timed(grade, env, tmp)  # starts the warm server (not counted)
        (server,) = servers(runtime)
        server_cpu = 0.0
        for _ in range(args.n):  # interleaved: every figure sees the same machine
            rows["naive"].append(timed([py, "main.py"], env, tmp))
            rows["grade cold"].append(timed(grade, cold_env, tmp))
            rows["learn test cold"].append(timed(learn, cold_env, tmp / "work"))
            before = tree_cpu_ms(server)
            rows["grade warm"].append(timed(grade, env, tmp))
            rows["learn test warm"].append(timed(learn, env, tmp / "work"))
            server_cpu += tree_cpu_ms(server) - before
    finally:
        for pid in servers(runtime):
            os.kill(pid, signal.SIGTERM)
        shutil.rmtree(tmp, ignore_errors=True)
    naive = statistics.median(w for w, _ in rows["naive"])
    print(f"{args.lesson}, {args.n} calls each, interleaved; load {os.getloadavg()[0]:.1f}")
    print(f"{'':18} {'wall p50':>10} {'CPU p50':>10} {'x naive':>8}")
    for name, samples in rows.items():
        wall = statistics.median(w for w, _ in samples)
        cpu = statistics.median(c for _, c in samples)
        print(f"{name:18} {wall:8.0f} ms {cpu:8.0f} ms {wall / naive:7.1f}x")
    print(f"warm server's own CPU per warm call (grade + learn test, mean): "
          f"{server_cpu / (2 * args.n):.1f} ms")  # fmt: skip
    worst = max(statistics.median(w for w, _ in rows[k]) for k in ("grade warm", "learn test warm"))
    ok = worst <= 3 * naive
    print(f"target: warm grade and learn test <= 3x naive: {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=10)
    parser.add_argument("--lesson", default="query-key-value")
    sys.exit(main(parser.parse_args()))
