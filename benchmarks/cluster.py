"""The crowd of benchmarks/crowd.py through the real HAProxy, against one node and then two, in
one run, printed side by side: how large a crowd each holds (p95 <= 400 ms of well-behaved
grades, no busy, no error).

    .venv/bin/python benchmarks/cluster.py [--sizes 5,10,20,40,60,90] [--seconds 15]

For each node count, deploy/cluster.py starts a deployment of its own (PostgreSQL, Redis, the
nodes, HAProxy; rate limit off), the lesson is warmed, then crowds of growing size run one after
another until one is not held. Each simulated learner connects from an address of its own on
the loopback network (127.x.y.z), so HAProxy passes each a distinct client address and the
nodes' fair share sees many learners, not one balancer. The nodes share this machine's cores
with each other, with PostgreSQL, HAProxy and the crowd itself: on a machine with few cores
the second node adds slots more than CPU, and the load average is printed with every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import crowd  # noqa: E402  (benchmarks/crowd.py, beside this file)
from realnode import UNLIMITED, deploy_module  # noqa: E402  (no per-address limits: the crowd is one machine)


async def _held(url: str, sizes: list[int], seconds: float) -> tuple[int, list[str]]:
    await crowd._warm(url)
    best, lines = 0, []
    for size in sizes:
        phase = await crowd.crowd(url, learners=size, seconds=seconds)
        held = phase.held()
        lines.append(
            f"{size:4d} learners: p95 {phase.p95:6.0f} ms busy {phase.busy} err {phase.errors} "
            f"{phase.grades / phase.seconds:4.1f}/s load {phase.load_end} "
            f"{'held' if held else 'MISSED'}"
        )
        print(f"  {lines[-1]}", flush=True)
        if not held:
            break
        best = size
        await asyncio.sleep(3)  # the runaway programs of this crowd drain
    return best, lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="5,10,20,40,60,90", help="crowd sizes, in order")
    parser.add_argument("--seconds", type=float, default=15.0, help="each crowd's length")
    parser.add_argument("--nodes", default="1,2", help="node counts to compare")
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    counts = [int(x) for x in args.nodes.split(",")]
    deploy = deploy_module()
    results = {}
    print(f"{os.cpu_count()} cores, load {crowd.load()} at start", flush=True)
    for count in counts:
        print(f"{count} node(s) behind HAProxy:", flush=True)
        cluster = deploy.Cluster(count, settings=UNLIMITED)
        try:
            with cluster:
                results[count] = asyncio.run(_held(cluster.url, sizes, args.seconds))
        finally:
            cluster.cleanup()
    print("\nside by side (largest crowd held: p95 <= 400 ms, 0 busy, 0 errors):")
    columns = [[f"{c} node(s): held {results[c][0]} learners", *results[c][1]] for c in counts]
    widths = [max(map(len, column)) + 3 for column in columns]
    for i in range(max(map(len, columns))):
        cells = [col[i] if i < len(col) else "" for col in columns]
        print("".join(f"{cell:<{w}}" for cell, w in zip(cells, widths, strict=True)).rstrip())
    print(f"load average at the end: {crowd.load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
