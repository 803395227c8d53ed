"""CPU per page (the target: a page costs at most ~3 ms): the lesson page and the home
page through the ASGI application in-process, counted from /proc for this process, with the
rendered-parts cache (web/pages/pagecache.py) off, on with its shared parts only (no
learner-state part kept), and on, in the same run.

    .venv/bin/python benchmarks/pages.py [--n 200] [--repeat 1] [--lesson query-key-value]
        [--profile FILE]

Every answer is checked (200 and the page's own mark in it). ``--repeat K`` times each figure K
times (off and on in turn) and reports the least: on a shared machine the other processes only
ever add to a figure. ``--profile`` writes cProfile's statistics of the cached rounds to FILE.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from cpu_per_grade import cpu_ms  # noqa: E402

from codeblanks.web.door.inprocess import asgi_request  # noqa: E402
from grading import web_app  # noqa: E402


async def asgi_get(app, host: str, path: str, language: str) -> tuple[int, bytes]:
    """One GET through the ASGI application, as a server makes it."""
    accept = [(b"accept-language", language.encode())]
    answer = await asgi_request(app, "GET", path, accept, host=host)
    return answer.status, answer.body


async def cpu_per_page(app, host, path, must, n, language, profile=None) -> float:
    for _ in range(5):  # warm: templates compiled, the cache filled (when it is on)
        await asgi_get(app, host, path, language)
    before = cpu_ms(os.getpid())
    for _ in range(n):
        if profile:
            profile.enable()
        status, body = await asgi_get(app, host, path, language)
        if profile:
            profile.disable()
        assert status == 200 and must in body, (status, body[:200])
    return (cpu_ms(os.getpid()) - before) / n


async def main(args) -> int:
    app, _, host = web_app(args.lesson)  # sets Django up: before anything imports a model
    from django.urls import reverse

    try:
        from codeblanks.web.pages import pagecache
    except ImportError:  # a checkout from before the cache: the pages as they were
        pagecache = None

    pages = [
        ("lesson page", reverse("lesson", args=[args.lesson]), b'id="run-form"'),
        ("home page", reverse("home"), b"CodeBlanks"),
    ]
    profile = cProfile.Profile() if args.profile else None
    print(f"CPU per page, this process, n={args.n}, least of {args.repeat}; "
          f"load {os.getloadavg()[0]:.1f}")  # fmt: skip
    for name, path, must in pages:
        for language in ("en", "tr"):
            if pagecache is None:
                off = await cpu_per_page(app, host, path, must, args.n, language, profile)
                print(f"  {name:12s} {language}  no cache {off:6.2f} ms   (target: ~3 ms)")
                continue
            offs, shareds, ons = [], [], []
            learner_limit = getattr(getattr(pagecache, "learner", None), "limit", None)
            for _ in range(args.repeat):
                pagecache.enabled = False
                offs.append(await cpu_per_page(app, host, path, must, args.n, language))
                pagecache.enabled = True
                if learner_limit is not None:  # a checkout from before the two caches: no column
                    pagecache.clear()
                    pagecache.learner.limit = 0
                    shareds.append(await cpu_per_page(app, host, path, must, args.n, language))
                    pagecache.learner.limit = learner_limit
                ons.append(await cpu_per_page(app, host, path, must, args.n, language, profile))
            off, on = min(offs), min(ons)
            shared = f"shared only {min(shareds):6.2f} ms   " if shareds else ""
            print(f"  {name:12s} {language}  cache off {off:6.2f} ms   {shared}"
                  f"cache on {on:6.2f} ms   (target: ~3 ms)")  # fmt: skip
    if profile:
        profile.dump_stats(args.profile)
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--lesson", default="query-key-value")
    parser.add_argument("--profile")
    sys.exit(asyncio.run(main(parser.parse_args())))
